"""``run_hint`` / ``run_eval``: the text behind ``gammon hint`` and ``gammon eval``."""

from __future__ import annotations

import pytest

from gammon import Position
from gammon.cli.hint import run_eval, run_hint
from gammon.engine.engine import Engine
from gammon.engine.net.evaluator import PipCountEvaluator
from gammon.errors import InvalidNotationError
from tests.helpers import pos

START = "4HPwATDgc/ABMA"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(plies=1, evaluator=PipCountEvaluator())


def test_hint_lists_ranked_legal_plays(engine: Engine) -> None:
    text = run_hint(START, "31", n=3, engine=engine)
    lines = text.splitlines()
    assert lines[0].startswith(f"Position {START}, dice 31, 1-ply")
    assert lines[1] == "  money game, cube 1 centred, Jacoby rule"
    assert len(lines) == 5
    assert lines[2].lstrip().startswith("1. ")
    assert str(engine.best_play(Position.from_id(START), (3, 1))) in lines[2]
    assert "equity" in lines[3] and "win" in lines[3]


def test_hint_with_no_legal_play(engine: Engine) -> None:
    closed = pos("x bar:1 13:14; o 1:2 2:2 3:2 4:2 5:2 6:2 13:3")
    assert "no legal play" in run_hint(closed.id, (6, 6), engine=engine)


def test_eval_reports_probabilities_and_cube(engine: Engine) -> None:
    text = run_eval(START, engine=engine)
    assert "cubeless equity" in text
    assert "no double" in text
    assert "pips 167 vs 167" in text


def test_bad_input_is_quoted(engine: Engine) -> None:
    with pytest.raises(InvalidNotationError, match="nonsense"):
        run_eval("nonsense", engine=engine)
    with pytest.raises(InvalidNotationError, match="79"):
        run_hint(START, "79", engine=engine)


# You (on roll) have 15 checkers on your 13-15 points, the opponent 15 in its home board, none
# off: you lose a gammon all but surely. The Match IDs put a resignation on offer from you.
LOST = "d3cHAAAA8H0fAA"


def test_eval_answers_the_resignation_on_offer() -> None:
    engine = Engine(plies=0)
    # money, Jacoby rule, cube centred: a gammon counts one point, so one point is all there is
    money = run_eval(f"{LOST}:MCkAAAAAAAAA", engine=engine).splitlines()[-1]
    assert money.startswith("  you offer to resign a single game (1 point): the opponent should accept")
    assert "playing on is worth -1.000 to you" in money
    # 3-away each: a single game leaves you 3-away against 2-away, better than the gammon coming
    single = run_eval(f"{LOST}:MClgAAAAAAAE", engine=engine).splitlines()[-1]
    assert "resign a single game (1 point): the opponent should reject" in single
    assert "playing on, your match winning chances are 2" in single
    backgammon = run_eval(f"{LOST}:MGlgAAAAAAAE", engine=engine).splitlines()[-1]
    assert "resign a backgammon (3 points): the opponent should accept" in backgammon
    assert "resign" not in run_eval(f"{LOST}:cAkAAAAAAAAA", engine=engine)


def test_no_plays_are_ranked_while_a_double_awaits_its_answer(engine: Engine) -> None:
    # the player on roll has doubled to 2: they were ranked at the unturned cube of 1
    doubled = "XGID=-b----E-C---eE---c-e----B-:0:0:1:D:2:3:0:7:10"
    for dice in ("31", None):
        with pytest.raises(InvalidNotationError, match="a double is on offer; it is answered before"):
            run_hint(doubled, dice, engine=engine)
    assert "1. 8/5 6/5" in run_hint(doubled.replace(":D:", ":31:"), engine=Engine(plies=0))


def test_hint_says_its_equities_are_cubeless(engine: Engine) -> None:
    # eval's cubeful equities and hint's cubeless ones differ (+0.079 and +0.076 at the start):
    # a bare "equity" in hint read as cubeful
    money = run_hint(START, "31", n=1, engine=engine).splitlines()[0]
    assert money == f"Position {START}, dice 31, 1-ply, cubeless, player on roll's view"
    match = run_hint(f"{START}:MIGlAAAAEAAE", engine=engine)  # 5-away against 3-away, dice 31
    # match plays are ranked by cubeful MWC (tests/cli/test_hint_match.py)
    assert ", match winning chances with the cube, " in match.splitlines()[0] and "MWC" in match


def test_eval_says_a_cube_at_its_limit_is_why_there_is_no_double() -> None:
    # money, cube 8 owned by you, the XGID's highest cube 8: it blamed 'this score'
    text = run_eval("XGID=-b----E-C---eE---c-e----B-:3:1:1:00:0:0:0:0:3", engine=Engine(plies=0))
    assert "  cube action: no double: the cube is at its limit of 8" in text.splitlines()
    assert "score" not in text
