"""What a seat sees: step orders in the viewer's numbering, the readable log."""

from __future__ import annotations

from gammon.dice import ScriptedDice
from gammon.rules import Rules
from gammon.store import Store
from gammon.web.session import LiveMatch
from gammon.web.views import match_view


def _live(store: Store, mode: str, rolls: list[tuple[int, int]], level: str | None = None) -> LiveMatch:
    live, _ = LiveMatch.create(store, mode, Rules(), level, ScriptedDice(rolls))
    return live


def test_steps_of_the_far_side_are_in_the_viewers_numbering(tmp_path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'v.sqlite3'}")
    # opening 3-5: player 1 (die 5) moves first; local games show player 0's side
    live = _live(store, "local", [(3, 5)])
    v = match_view(live, None)
    assert (v.viewer, v.turn, v.phase, v.dice) == (0, 1, "move", (3, 5))
    for seq in v.sequences:
        first = seq.steps[0][0]
        assert first == "bar" or v.board[first] < 0  # player 1's checkers are negative for viewer 0
    # 8/3 6/3 for player 1 is 17/22 19/22 in player 0's numbering
    index = v.plays.index("8/3 6/3")
    assert {tuple(map(tuple, s.steps)) for s in v.sequences if s.play == index} == {
        ((17, 22), (19, 22)), ((19, 22), (17, 22))}


def test_the_log_reads_as_sentences(tmp_path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'v.sqlite3'}")
    live = _live(store, "computer", [(5, 3), (6, 6)], level="random")
    live.act(0, "play", {"play": "8/3 6/3"})
    v = match_view(live, 0)
    assert v.log[:3] == ["Game 1", "Opening roll: You 5, Computer (random) 3", "You 5-3: 8/3 6/3"]
    assert v.log[3].startswith("Computer (random) 6-6: ")
    live.act(0, "resign", {"kind": 3})  # the computer accepts a backgammon at once
    v = match_view(live, 0)
    # money play with Jacoby and a centred cube: the backgammon counts one point
    assert v.log[4:] == ["You offer to resign a backgammon", "Computer (random) accepts the resignation",
                         "Computer (random) wins 1 point (backgammon)"]
    assert v.result is not None and (v.result.winner, v.result.points, v.result.reason) == (1, 1, "resign")
    assert v.actions == ["new_game"]
