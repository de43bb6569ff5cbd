"""One situation, one GNU Backgammon ID: the Match ID a Situation gets is the same wherever gammon
writes it (gnubg_id, the editor's and the diagrams' situation_json), and reads back as the same
situation."""

from __future__ import annotations

import pytest

from gammon.formats.ids import read_id
from gammon.formats.matchid import MatchState, gnubg_id
from gammon.position import Position
from gammon.rules import Rules
from gammon.situation import Situation

START = Position.from_id("4HPwATDgc/ABMA")


@pytest.mark.parametrize("length, score", [(1, (0, 0)), (7, (3, 2)), (7, (0, 0))])
def test_crawford_flag_is_not_written_where_no_reader_counts_it(length: int, score: tuple[int, int]) -> None:
    """A Situation built with the Crawford flag in a 1-point match or with nobody 1-away: its
    Match ID's readers drop the flag, so its writer does not set it either."""
    s = Situation(START, rules=Rules(match_length=length), score=score, crawford_game=True)
    state = MatchState.from_situation(s)
    assert not state.crawford
    assert MatchState.from_id(state.id) == state
    assert gnubg_id(read_id(gnubg_id(s))) == gnubg_id(s)


def test_crawford_flag_is_written_in_the_crawford_game() -> None:
    s = Situation(START, rules=Rules(match_length=7), score=(6, 2), crawford_game=True)
    assert MatchState.from_situation(s).crawford
    assert read_id(gnubg_id(s)).match.crawford_game  # type: ignore[union-attr]
