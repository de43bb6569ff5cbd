"""A match and a file of its first games (saved mid-match, or cut by another program): the profile
counts the match once, from the longer file, whichever came first; its statistics, decisions and
drill cards are not doubled, and the drills answered on the first games are kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import sessionmaker

from gammon.accounts import Accounts
from gammon.accounts.passwords import Passwords
from gammon.cli.main import main
from gammon.engine.engine import Engine
from gammon.profile import AnalysisQueue, profile_summary, read_match_file
from gammon.profile.drill import Drills
from gammon.profile.queue import Outcome, engine_for
from gammon.profile.source import extends, fingerprint, match_record, opening
from gammon.store import Store
from gammon.store.models import DrillCardRow, ProfileDecisionRow, ProfileMatchRow
from tests.accounts.conftest import CHEAP, Clock
from tests.profile.conftest import CHARLOT_SGF, DATA, add, marked_decisions

CHARLOT_MAT = DATA / "mat/real/gnubg/gnubgparser-charlot1-charlot2_7p.mat"  # the match of CHARLOT_SGF


def _cut(tmp_path: Path, name: str, lines: int) -> Path:
    """The first ``lines`` lines of the real .mat file: a file saved mid-match."""
    path = tmp_path / name
    path.write_text("".join(CHARLOT_MAT.read_text().splitlines(keepends=True)[:lines]))
    return path


def _game_3(text: str) -> int:
    return next(i for i, line in enumerate(text.splitlines()) if line.strip() == "Game 3")


@pytest.fixture
def two_games(tmp_path: Path) -> Path:
    return _cut(tmp_path, "two-games.mat", _game_3(CHARLOT_MAT.read_text()))


@pytest.fixture
def mid_game(tmp_path: Path) -> Path:
    """Cut within game 2, after a roll whose play is not written yet."""
    lines = CHARLOT_MAT.read_text().splitlines()
    game_2 = lines.index(" Game 2")
    return _cut(tmp_path, "mid-game.mat", game_2 + 8)


def test_the_record_of_a_matchs_first_games_is_a_prefix_of_the_whole(two_games: Path, mid_game: Path) -> None:
    whole = read_match_file(CHARLOT_MAT.read_bytes(), CHARLOT_MAT.name)
    sgf = read_match_file(CHARLOT_SGF.read_bytes(), CHARLOT_SGF.name)
    parts = [read_match_file(p.read_bytes(), p.name) for p in (two_games, mid_game)]
    assert [len(p.match.games) for p in parts] == [2, 2] and len(whole.match.games) == 4
    for seat in (0, 1):
        full = match_record(whole.match, seat)
        assert match_record(sgf.match, seat) == full  # another program's file of the match
        for part in parts:
            record = match_record(part.match, seat)
            assert extends(full, record) and not extends(record, full)
            assert opening(record, "charlot2") == opening(full, " Charlot2 ") != opening(full, "someone")
            assert fingerprint(part.match) != fingerprint(whole.match)
    assert extends(match_record(parts[0].match, 0), match_record(parts[1].match, 0))
    assert not extends(match_record(whole.match, 0), match_record(whole.match, 1))


@pytest.mark.parametrize("first_games", ["two_games", "mid_game"])
def test_the_whole_match_after_its_first_games_takes_their_place(
    store: Store, accounts: Accounts, queue: AnalysisQueue, first_games: str, request: pytest.FixtureRequest
) -> None:
    part: Path = request.getfixturevalue(first_games)
    me = accounts.sign_up("charlot1", "password1")
    other = accounts.sign_up("someone", "password1")  # the whole match alone, to compare
    add(queue, other.id, CHARLOT_MAT, seat=0)
    [alone] = queue.work_all()
    add(queue, me.id, part, seat=0)
    [first] = queue.work_all()
    assert first.status == "done"
    add(queue, me.id, CHARLOT_SGF, seat=0)
    [second] = queue.work_all()
    assert (second.status, second.replaced) == ("done", 1)
    summary = profile_summary(store, me.id)
    [match] = summary.matches
    assert (match.id, match.source_name, match.result) == (second.profile_match_id, CHARLOT_SGF.name, "won")
    assert [(o.name, o.played, o.won) for o in summary.opponents] == [("charlot2", 1, 1)]
    assert summary.pr == pytest.approx(profile_summary(store, other.id).pr)
    assert alone.profile_match_id != match.id
    assert marked_decisions(store, me.id) == marked_decisions(store, other.id) > 0


def test_the_first_games_after_the_whole_match_are_a_duplicate(
    store: Store, accounts: Accounts, queue: AnalysisQueue, two_games: Path, mid_game: Path
) -> None:
    me = accounts.sign_up("charlot1", "password1")
    add(queue, me.id, CHARLOT_MAT, seat=0)
    add(queue, me.id, two_games, seat=0)
    add(queue, me.id, mid_game, seat=0)
    whole, *parts = queue.work_all()
    assert whole.status == "done"
    assert [(p.status, p.profile_match_id) for p in parts] == [("duplicate", whole.profile_match_id)] * 2
    assert [m.source_name for m in profile_summary(store, me.id).matches] == [CHARLOT_MAT.name]


def test_another_opponent_with_the_same_first_games_is_another_match(
    store: Store, accounts: Accounts, queue: AnalysisQueue, tmp_path: Path, two_games: Path
) -> None:
    """A match that begins as another one did (a short one, abandoned) counts by itself when its
    opponent is someone else."""
    me = accounts.sign_up("charlot1", "password1")
    renamed = tmp_path / "renamed.mat"
    renamed.write_text(two_games.read_text().replace("charlot2", "somebody"))
    add(queue, me.id, renamed, seat=0)
    add(queue, me.id, CHARLOT_MAT, seat=0)
    assert [(o.status, o.replaced) for o in queue.work_all()] == [("done", 0), ("done", 0)]
    assert len(profile_summary(store, me.id).matches) == 2


def test_the_drills_of_the_first_games_go_over_to_the_whole_match(
    store: Store, accounts: Accounts, queue: AnalysisQueue, clock: Clock, two_games: Path
) -> None:
    me = accounts.sign_up("charlot1", "password1")
    add(queue, me.id, two_games, seat=0)
    queue.work_all()
    drills = Drills(store, clock=clock)
    made = drills.sync(me.id)
    card = drills.next_card(me.id)
    assert card is not None and made > 0
    answer = {"double": "double", "take": "take"}.get(card.asks_for)
    drills.review(card.id, answer or str(card.ranking[0][0]))  # type: ignore[index]
    add(queue, me.id, CHARLOT_MAT, seat=0)
    [whole] = queue.work_all()
    assert whole.replaced == 1
    moved = drills.card(card.id)  # the card, its review and schedule kept, on the whole match's decision
    assert (moved.reviews, moved.decision.profile_match_id) == (1, whole.profile_match_id)
    assert moved.decision.gnubg_id == card.decision.gnubg_id
    with sessionmaker(store.engine)() as s:
        matches = s.scalars(select(ProfileMatchRow.id).where(ProfileMatchRow.account_id == me.id)).all()
        carded = s.scalars(select(ProfileDecisionRow.profile_match_id).join(
            DrillCardRow, DrillCardRow.decision_id == ProfileDecisionRow.id)).all()
    assert matches == [whole.profile_match_id] and set(carded) == {whole.profile_match_id}
    # the whole match's decisions of games 3 and 4 are new cards; those of games 1 and 2 are not
    assert drills.sync(me.id) == marked_decisions(store, me.id) - made


@pytest.mark.parametrize("order", ["whole stored during the first games' analysis",
                                   "first games stored during the whole's analysis"])
def test_two_files_of_a_match_analysed_at_once_count_once(
    store: Store, accounts: Accounts, queue: AnalysisQueue, two_games: Path, order: str
) -> None:
    """Each job looks for the other before its analysis and finds nothing: the one that stores
    second looks again, in the transaction that stores."""
    me = accounts.sign_up("charlot1", "password1")
    whole_job = add(queue, me.id, CHARLOT_MAT, seat=0)
    part_job = add(queue, me.id, two_games, seat=0)
    outer, inner = (part_job, whole_job) if order.startswith("whole") else (whole_job, part_job)
    done: list[Outcome] = []

    def engine(plies: int) -> Engine:  # another worker stores the other file meanwhile
        if not done:
            other = AnalysisQueue(Store(store.url))
            assert other.claim(inner) == inner
            done.append(other.run(inner))
            other.store.close()
        return engine_for(plies)

    assert queue.claim(outer) == outer
    last = queue.run(outer, engine)
    statuses = {inner: done[0].status, outer: last.status}
    [match] = profile_summary(store, me.id).matches
    if order.startswith("whole"):
        assert statuses == {whole_job: "done", part_job: "duplicate"}
    else:
        assert statuses == {whole_job: "done", part_job: "done"} and last.replaced == 1
    assert match.source_name == CHARLOT_MAT.name


def _import(url: str, folder: Path) -> list[str]:
    return ["import", str(folder), "--player", "charlot1", "--database-url", url, "--plies", "0",
            "--workers", "1"]


@pytest.mark.parametrize("whole_first", [True, False])
def test_gammon_import_counts_a_match_and_its_first_games_once(
    tmp_path: Path, two_games: Path, capsys: pytest.CaptureFixture[str], whole_first: bool
) -> None:
    url = f"sqlite:///{tmp_path / 'p.sqlite3'}"
    store = Store(url)
    me = Accounts(store, passwords=Passwords(CHEAP)).sign_up("charlot1", "password1").id
    store.close()
    together, first, second = (tmp_path / n for n in ("together", "first", "second"))
    for d in (together, first, second):
        d.mkdir()
    # in one folder, listed before or after the whole match: the first games' file is left out
    (together / ("b-part.mat" if whole_first else "a-part.mat")).write_bytes(two_games.read_bytes())
    (together / ("a-whole.mat" if whole_first else "b-whole.mat")).write_bytes(CHARLOT_MAT.read_bytes())
    assert main(_import(url, together)) == 0
    assert "charlot1: 1 imported, 1 duplicates, 0 failed" in capsys.readouterr().out
    # one run after the other, on a profile of its own
    url = f"sqlite:///{tmp_path / 'q.sqlite3'}"
    store = Store(url)
    me = Accounts(store, passwords=Passwords(CHEAP)).sign_up("charlot1", "password1").id
    store.close()
    (first if whole_first else second).joinpath("whole.mat").write_bytes(CHARLOT_MAT.read_bytes())
    (second if whole_first else first).joinpath("part.mat").write_bytes(two_games.read_bytes())
    assert main(_import(url, first)) == 0
    assert "1 imported" in capsys.readouterr().out
    assert main(_import(url, second)) == 0
    out = capsys.readouterr().out
    if whole_first:
        assert "charlot1: 0 imported, 1 duplicates, 0 failed" in out
    else:
        assert "charlot1: 1 imported, 0 duplicates, 0 failed" in out
        assert "1 match imported before was the first games of a match imported now" in out
    store = Store(url)
    try:
        [match] = profile_summary(store, me).matches
        assert match.source_name == "whole.mat" and match.result == "won"
    finally:
        store.close()


def test_a_card_whose_decision_the_whole_match_does_not_mark_keeps_it(
    store: Store, accounts: Accounts, queue: AnalysisQueue, clock: Clock, two_games: Path
) -> None:
    """(An analysis at other plies marks other decisions.) The card, its reviews and its decision
    stay, in the whole match."""
    me = accounts.sign_up("charlot1", "password1")
    add(queue, me.id, two_games, seat=0)
    queue.work_all()
    drills = Drills(store, clock=clock)
    drills.sync(me.id)
    card = drills.next_card(me.id)
    assert card is not None
    with sessionmaker(store.engine).begin() as s:  # a decision the whole match's analysis has not
        s.execute(update(ProfileDecisionRow).where(ProfileDecisionRow.id == card.decision.id)
                  .values(turn=999))
    add(queue, me.id, CHARLOT_MAT, seat=0)
    [whole] = queue.work_all()
    kept = drills.card(card.id)
    assert (kept.decision.id, kept.decision.turn) == (card.decision.id, 999)
    assert kept.decision.profile_match_id == whole.profile_match_id
    assert [m.id for m in profile_summary(store, me.id).matches] == [whole.profile_match_id]
