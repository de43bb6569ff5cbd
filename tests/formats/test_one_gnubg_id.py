"""One situation, one GNU Backgammon ID: the Match ID a Situation gets is the same wherever gammon
writes it (gnubg_id, the editor's and the diagrams' situation_json), and reads back as the same
situation."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from benchmarks.gnubg_harness import run_gnubg
from gammon.diagram import render_png, render_svg
from gammon.formats.ids import read_id, situation_json
from gammon.formats.matchid import MatchState, gnubg_id
from gammon.position import Position
from gammon.rules import Rules
from gammon.situation import Situation
from tests.helpers import needs_gnubg

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


# a match, double match point, the Crawford game, a money game with and without the Jacoby rule
_XGIDS = [
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:2:3:0:7:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:6:0:7:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:6:2:1:7:10",
    "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:0:0:1:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
]


@pytest.mark.parametrize("xgid", _XGIDS)
def test_editor_and_diagrams_write_the_id_gnubg_id_writes(xgid: str) -> None:
    """In a match the Jacoby bit of the editor's ID (situation_json) said 'Jacoby rule' and
    gnubg_id's said 'none': two IDs for one situation."""
    s = read_id(xgid)
    assert situation_json(s)["gnubg_id"] == gnubg_id(s)


@needs_gnubg
def test_jacoby_bit_is_gnubgs_for_the_same_situation() -> None:
    """GNU Backgammon, given each XGID, writes its Match ID: ours has its Jacoby bit (none in a
    match) and reads as the same situation."""
    script = f"for x in {_XGIDS!r}:\n    gnubg.command('set xgid ' + x)\n    emit(gnubg.gnubgid())\n"
    for xgid, theirs in zip(_XGIDS, run_gnubg(script, expect=len(_XGIDS)), strict=True):
        ours = situation_json(read_id(xgid))["gnubg_id"]
        jacoby = [MatchState.from_id(gnubg.split(":")[1]).jacoby for gnubg in (ours, theirs)]
        assert jacoby[0] == jacoby[1]
        assert read_id(ours) == read_id(theirs)


# money game, the player on roll rolled 31 and offers to resign a gammon (GNU Backgammon's own ID)
RESIGNING = "4HPwATDgc/ABMA:cMEFAAAAAAAA"


def test_no_xgid_is_shown_for_a_resignation_on_offer() -> None:
    """The editor and the diagrams showed an XGID without the offer (XGID.from_situation refuses
    one): read back, it named the game played on. None now; the GNU Backgammon ID keeps it."""
    s = read_id(RESIGNING)
    shown = situation_json(s)
    assert shown["xgid"] is None
    assert read_id(shown["gnubg_id"]) == s
    svg = ET.fromstring(render_svg(s))
    assert svg.get("data-xgid") is None
    assert "XGID" not in (svg.findtext("{http://www.w3.org/2000/svg}desc") or "")
    assert b"XGID" not in render_png(s)
    assert situation_json(read_id(RESIGNING.replace("cMEF", "cAkF")))["xgid"].startswith("XGID=")  # no offer
