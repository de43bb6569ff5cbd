"""gammon.formats.ids.read_id: a Situation from any ID form, and its errors."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.gnubg_harness import run_gnubg
from gammon.errors import InvalidNotationError
from gammon.formats.ids import describe_situation, read_id, situation_json
from gammon.formats.matchid import parse_gnubg_id
from gammon.formats.xgid import XGID
from gammon.i18n import use_language
from gammon.position import Position
from gammon.rules import Rules, WinKind
from gammon.situation import CubeOwner, Situation
from tests.helpers import needs_gnubg, random_game_positions

BOARD = "XGID=-b----E-C---eE---c-e----B-"


@pytest.mark.parametrize("fields, what, polish", [
    (":0:0:1:00:0:40000:0:0:10", "scores and match length must be 0-32767", "wyniki i długość meczu"),
    (":0:0:1:00:0:0:0:40000:10", "scores and match length must be 0-32767", "wyniki i długość meczu"),
    (":20:0:1:00:0:0:0:5:10", "cube 20 is more than 15", "kostka dublująca 20"),
])
def test_xgid_fields_out_of_range_are_notation_errors(fields: str, what: str, polish: str) -> None:
    """Refused as the XGID is read, in the user's language (the match state's own checks, which
    refused them before, speak English)."""
    with pytest.raises(InvalidNotationError, match=f"XGID '{re.escape(BOARD)}.*: .*{re.escape(what)}"):
        read_id(BOARD + fields)
    with use_language("pl"), pytest.raises(InvalidNotationError) as e:
        read_id(BOARD + fields)
    assert polish in str(e.value) and "MatchState" not in str(e.value)


def test_an_id_that_is_no_string_is_quoted_cut() -> None:
    with pytest.raises(InvalidNotationError, match="an ID must be a string") as e:
        read_id(b"x" * 100_000)  # type: ignore[arg-type]
    assert len(str(e.value)) < 200


@pytest.mark.parametrize("match_id, problem, polish", [
    # a double offered after the roll
    ("MJkFAAAAAAAA", "a double comes before the roll", "podwojenie proponuje się przed rzutem"),
    ("MDkAAAAAAAAA", "a double and a resignation are both on offer", "poddanie się"),
    ("ERkAAAAAAAAA", "a double is offered, but the opponent owns the cube", "kostkę ma przeciwnik"),
    ("sQHgAGAAEAAA", "the Crawford game is played without the cube, but the cube is at 2", "Crawford"),
    ("gQHgAGAAEAAA", "the cube is at 2 and owned", "Crawford"),  # X owns it
])
def test_gnubg_ids_whose_fields_do_not_fit_together_are_notation_errors(
    match_id: str, problem: str, polish: str
) -> None:
    """Each field is in range, but together they are no state of a game: refused quoting the ID,
    as an XGID of the same state is (a plain ValueError would end a command in a traceback), and
    in the user's language."""
    text = "4HPwATDgc/ABMA:" + match_id
    with pytest.raises(InvalidNotationError, match=f"GNU Backgammon ID '{re.escape(text)}': .*{problem}"):
        read_id(text)
    with use_language("pl"), pytest.raises(InvalidNotationError) as e:
        read_id(text)
    assert polish in str(e.value) and "Situation" not in str(e.value)


def test_crawford_game_with_a_centred_1_cube_is_read() -> None:
    s = read_id("4HPwATDgc/ABMA:sAHgAGAAEAAA")  # 7-point match at 6-2, the Crawford game
    assert s.match is not None and s.match.crawford_game and s.cube_value == 1


@pytest.mark.parametrize("text", [
    "4HPwATDgc/ABMA:MMkFAAAAAAAA",  # money, X rolled 31 and offers to resign a gammon
    "4HPwATDgc/ABMA:MGkAAAAAAAAA",  # X offers to resign a backgammon before rolling
    "4HPwATDgc/ABMA:ARkAAAAAAAAA",  # X owns a 2-cube and doubles to 4
    "4HPwATDgc/ABMA:AYHqACAACAAA",
])
def test_the_gnubg_id_shown_reads_back_as_the_situation(text: str) -> None:
    """The IDs shown beside a situation (gammon hint, the diagrams, the editor) describe it: a
    resignation on offer was left out of the Match ID."""
    s = read_id(text)
    assert read_id(situation_json(s)["gnubg_id"]) == s


@pytest.mark.parametrize("text", ["4HPwATDgc/ABMA:sAEgAAAAAAAA", BOARD + ":0:0:1:00:0:0:1:1:10"])
def test_a_1_point_match_has_no_crawford_game(text: str) -> None:
    """An ID of a 1-point match with its Crawford flag set: GNU Backgammon shows no Crawford game
    there (the rule has no meaning), but the description said '..., cube 1 centred, Crawford game'
    and the IDs written of it kept the flag (XGID rules field 1)."""
    s = read_id(text)
    assert s.match_length == 1
    j = situation_json(s)
    assert j["description"] == "1-point match at 0-0 (you 1-away, opponent 1-away), cube 1 centred"
    assert not j["crawford"] and not parse_gnubg_id(j["gnubg_id"])[1].crawford
    assert j["xgid"] == BOARD + ":0:0:1:00:0:0:0:1:10"
    assert str(XGID.from_situation(s)) == BOARD + ":0:0:1:00:0:0:0:1:10"


@pytest.mark.parametrize("score, with_rule", [((4, 2), ", post-Crawford"), ((2, 4), ", post-Crawford"),
                                               ((2, 2), ", cube 1 centred")])
def test_a_match_without_the_crawford_rule_says_so_never_post_crawford(score: tuple[int, int],
                                                                        with_rule: str) -> None:
    s = Situation(Position.initial(), score=score, rules=Rules(match_length=5, crawford=False))
    assert describe_situation(s).endswith(", cube 1 centred, no Crawford rule")
    assert describe_situation(s.replace(rules=Rules(match_length=5))).endswith(with_rule)
    one_point = Situation(Position.initial(), rules=Rules(match_length=1, crawford=False))
    assert "Crawford" not in describe_situation(one_point)  # the rule means nothing there


PASTED_IDS = (" GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n                 Match ID   : cAmgAAAAAAAE",
              "Position ID: 4HPwATDgc/ABMA Match ID: cAmgAAAAAAAE", "4HPwATDgc/ABMA cAmgAAAAAAAE",
              "cAmgAAAAAAAE:4HPwATDgc/ABMA")


@pytest.mark.parametrize("text", PASTED_IDS)
def test_gnubgs_board_lines_and_ids_split_by_spaces_read_as_the_id(text: str) -> None:
    assert read_id(text) == read_id("4HPwATDgc/ABMA:cAmgAAAAAAAE")


@pytest.mark.parametrize("text", ["4HPwATDgc/ABMA cAmgAAAAAAAE extra", "4HPwATDgc/ABMA:cAmgAAAAAAAE:x",
                                  "4HPwATDgc/ABMA 4HPwATDgc/ABMA"])
def test_a_third_word_or_two_ids_of_one_kind_are_refused(text: str) -> None:
    with pytest.raises(InvalidNotationError, match="PositionID:MatchID"):
        read_id(text)


@needs_gnubg
def test_gnubg_reads_the_pasted_forms_as_the_same_id() -> None:
    script = "for t in %r:\n    gnubg.command('set gnubgid ' + t)\n    emit(gnubg.gnubgid())\n" % [
        " ".join(t.split()) for t in PASTED_IDS]  # one command line each
    assert run_gnubg(script) == ["4HPwATDgc/ABMA:cAmgAAAAAAAE"] * len(PASTED_IDS)


# random games, and both sides' 15 on the bar, 14 borne off, all borne off
_POSITIONS = random_game_positions(17, 2) + [
    Position.from_points({25: 15}, {25: 15}), Position.from_points({1: 1}, {1: 15}),
    Position.from_points({}, {6: 2})]


@st.composite
def situations(draw: st.DrawFn) -> Situation:
    """A Situation any game may reach: money or match (a 1-point match and double match point
    too), the cube anywhere the rules let it be, a double or a resignation on offer, dice or none."""
    length = draw(st.sampled_from([0, 1, 2, 3, 5, 7]))
    score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1))) if length else (0, 0)
    crawford = draw(st.booleans()) and length > 1 and length - 1 in score
    money = not length
    rules = Rules(match_length=length, jacoby=not money or draw(st.booleans()),
                  beavers=money and draw(st.booleans()))
    offered = not crawford and draw(st.booleans())
    owner = CubeOwner.CENTRED if crawford else draw(st.sampled_from(
        [CubeOwner.CENTRED, CubeOwner.MOVER] if offered else list(CubeOwner)))
    resignation = None if offered else draw(st.none() | st.sampled_from(list(WinKind)))
    opponent_resigns = resignation is not None and draw(st.booleans())
    dice = None if offered or opponent_resigns else draw(st.none() | st.tuples(st.integers(1, 6),
                                                                                 st.integers(1, 6)))
    return Situation(draw(st.sampled_from(_POSITIONS)), dice=dice,
                     cube_value=1 if crawford else 1 << draw(st.integers(0, 12)), cube_owner=owner,
                     double_offered=offered, resignation=resignation, score=score, crawford_game=crawford,
                     rules=rules, opponent_resigns=opponent_resigns)


@settings(deadline=None, max_examples=300)
@given(situations())
def test_both_ids_shown_read_back_as_the_situation(s: Situation) -> None:
    """The GNU Backgammon ID and the XGID shown beside a situation each read back as it: a
    Crawford game at double match point read from its XGID as a game with the cube free. (A
    Match ID has no beavers; an XGID no resignation, and none is shown then.)"""
    j = situation_json(s)
    assert read_id(j["gnubg_id"]) == s.replace(rules=dataclasses.replace(s.rules, beavers=False))
    if s.resignation is None:
        # no highest cube is written as XG's usual 1024, or as the ceiling 32768 above it: both read as none
        limit = None if s.rules.cube_limit == 32768 else s.rules.cube_limit
        assert read_id(j["xgid"]) == s.replace(rules=dataclasses.replace(s.rules, cube_limit=limit))
    else:
        with pytest.raises(ValueError, match="resignation"):
            XGID.from_situation(s)
