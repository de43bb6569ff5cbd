"""``gammon drill``: the board, the question, the grade, in the terminal."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from gammon.accounts import Accounts
from gammon.accounts.passwords import Passwords
from gammon.cli.drill import example_play
from gammon.cli.main import main
from gammon.notation import parse_play
from gammon.position import Position
from gammon.profile import AnalysisQueue
from gammon.profile.drill import Drills
from gammon.store import Store
from tests.accounts.conftest import CHEAP
from tests.profile.conftest import LASSE_1, add, marked_decisions


@pytest.fixture
def url(tmp_path: Path) -> str:
    """A database where lasse's match against earl is analysed (at 0 ply)."""
    url = f"sqlite:///{tmp_path / 'drill.sqlite3'}"
    store = Store(url)
    accounts = Accounts(store, passwords=Passwords(CHEAP))
    me = accounts.sign_up("lasse", "password1")
    accounts.sign_up("earl", "password1")
    queue = AnalysisQueue(store)
    add(queue, me.id, LASSE_1, seat=0)
    queue.work_all()
    store.close()
    return url


def _run(url: str, answers: str, monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    return main(["drill", "--database-url", url, "--plain", *args])


def _first_answer(url: str) -> str:
    """The right answer to the card a drill asks first (its play, or its cube action's first word)."""
    store = Store(url)
    try:
        card = Drills(store).next_card(1)
    finally:
        store.close()
    assert card is not None
    return card.decision.best if card.asks_for == "play" else card.decision.best.split(",")[0]


def test_a_drill_session(
    url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = Store(url)
    try:
        card = Drills(store).next_card(1)  # the card asked first (Drills.sync made it)
        marked = marked_decisions(store, 1)  # the analysis's marked decisions: one card each
    finally:
        store.close()
    assert card is None  # no cards before the first drill
    assert marked >= 2
    assert _run(url, "", monkeypatch) == 0  # the only account with a profile; stdin ends at once
    out = capsys.readouterr().out
    assert f"lasse: {marked} of {marked} cards due" in out and "Position ID:" in out and "XGID=" in out
    answer = _first_answer(url)
    assert _run(url, f"nonsense\n{answer}\nq\n", monkeypatch, "--account", "LASSE") == 0
    out = capsys.readouterr().out
    assert "answer" in out or "nonsense" in out  # the refusal, then the question again
    assert f"Right: {answer}." in out
    assert "This session: 1 of 1 right." in out
    assert f"{marked - 1} of {marked} cards due; 1 of 1 answers right (100%)" in out


def test_which_account(url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(url, "", monkeypatch, "--account", "nobody") == 2
    assert "no account is named 'nobody'" in capsys.readouterr().err
    assert _run(url, "", monkeypatch, "--account", "earl") == 0
    assert "earl: no marked decisions to drill yet" in capsys.readouterr().out


def test_a_card_answered_elsewhere_meanwhile_makes_way_for_the_next(
    url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(url, "", monkeypatch) == 0  # the cards are made
    capsys.readouterr()
    store = Store(url)
    drills = Drills(store)
    first = drills.next_card(1)
    assert first is not None
    answer = first.decision.best if first.asks_for == "play" else first.decision.best.split(",")[0]
    card_id = first.id

    class OtherTerminal(io.StringIO):
        """The first answer is typed here just after the same card is answered in another terminal."""

        def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
            if self.tell() == 0:
                drills.review(card_id, answer)
            return super().readline(size)

    try:
        monkeypatch.setattr("sys.stdin", OtherTerminal(f"{answer}\nq\n"))
        assert main(["drill", "--database-url", url, "--plain"]) == 0
    finally:
        store.close()
    out = capsys.readouterr().out
    assert "not due until" in out
    assert out.count("Position ID:") == 2  # then the other card, not the same one again
    assert "This session" not in out  # nothing was answered here


@pytest.mark.parametrize("dice", [f"{a}{b}" for a in range(1, 7) for b in range(1, a + 1)])
def test_the_example_play_is_made_of_the_roll(dice: str) -> None:
    """The prompt said 'Your play with 32 (e.g. 13/8 6/3)', a 53: its example is now a play of the
    roll asked about, legal at least in the starting position."""
    example = example_play(dice)
    play = parse_play(Position.from_id("4HPwATDgc/ABMA"), example, (int(dice[0]), int(dice[1])))
    assert len(play.steps) == (4 if dice[0] == dice[1] else 2)


def test_the_prompt_shows_an_example_of_the_card_s_roll(
    url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(url, "", monkeypatch) == 0  # the cards are made
    capsys.readouterr()
    first = _first_answer(url)
    assert _run(url, f"{first}\nq\n", monkeypatch) == 0  # the first card, then the second asked
    asked = re.findall(r"Your play with (\d\d) \(e\.g\. ([^)]*(?:\(2\)[^)]*)*)\), q to stop:",
                       capsys.readouterr().out)
    assert asked  # the match's cards: one of them a play
    for dice, example in asked:
        assert example == example_play(dice)
