"""The terminal's advice writes its numbers as the reader's language does (gammon.i18n.format_number):
gammon hint, gammon eval, gammon rollout and the cube advice with a decimal comma in Polish, Czech
and Slovak, the point in English; their --json keeps its numbers for programs; a large count is
parted by a no-break space where "10,000" would read as a decimal."""

from __future__ import annotations

import json
import re

import pytest

from gammon.cli.hint import run_eval, run_hint
from gammon.cli.main import main
from gammon.cli.words import cube_advice
from gammon.engine.engine import Engine
from gammon.formats.ids import read_id
from gammon.i18n import use_language
from gammon.web.uploads import TooMuchWork, check_work

COMMA = ("pl", "cs", "sk")
POINT_DECIMAL = re.compile(r"\d\.\d")
COMMA_DECIMAL = re.compile(r"\d,\d")
START = "4HPwATDgc/ABMA"
AT_A_MATCH_SCORE = "4HPwATDgc/ABMA:cAngAEAAEAAA"  # 7-point match at 4-2, the cube centred
LOST = "7gEIAP5+AJAAAA:cAn7AAAAAAAA"  # 66 to play at 7-away each, all but lost


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(plies=0)


def _advice(engine: Engine) -> str:
    return "\n".join([run_hint(START, "31", engine=engine), run_hint(LOST, engine=engine),
                      run_eval(AT_A_MATCH_SCORE, engine=engine),
                      cube_advice(engine.cube_decision(read_id(AT_A_MATCH_SCORE)))])


@pytest.mark.parametrize("lang", COMMA)
def test_hint_eval_and_the_cube_advice_have_a_decimal_comma(engine: Engine, lang: str) -> None:
    with use_language(lang):
        text = _advice(engine)
    assert POINT_DECIMAL.findall(text) == []
    assert len(COMMA_DECIMAL.findall(text)) >= 50
    # the equities, the match winning chances and the percents of the chances
    assert re.search(r"[+-]\d,\d{3}\b", text) and re.search(r"\d+,\d\d(\u00a0)?%", text)
    assert ("\u00a0%" in text) == (lang != "pl") and " %" not in text  # a no-break space, never a plain one


def test_hint_eval_and_the_cube_advice_keep_the_point_in_english(engine: Engine) -> None:
    text = _advice(engine)
    assert COMMA_DECIMAL.findall(text) == []
    assert len(POINT_DECIMAL.findall(text)) >= 50
    assert re.search(r"MWC \d+\.\d\d%", text)


def test_the_hints_columns_line_up_in_czech(engine: Engine) -> None:
    with use_language("cs"):
        lines = run_hint(START, "31", engine=engine).splitlines()[2:]
    # the padded percents keep their width: every play's chances start at one column
    assert len({line.index("výhra") for line in lines}) == 1, lines
    assert len({line.index("prohra") for line in lines}) == 1, lines


def test_hint_json_keeps_its_numbers_in_czech(engine: Engine) -> None:
    with use_language("cs"):
        data = json.loads(run_hint(START, "31", engine=engine, as_json=True))
    assert all(isinstance(p["score"], float) for p in data["plays"])


def test_a_rollout_in_czech_has_a_decimal_comma_and_its_json_the_point(
    capsys: pytest.CaptureFixture[str],
) -> None:
    fast = ["--trials", "36", "--truncate", "2", "--seed", "5", "--workers", "1"]
    assert main(["--lang", "cs", "rollout", START, "--dice", "31", "-n", "2", *fast]) == 0
    text = capsys.readouterr().out
    assert POINT_DECIMAL.findall(text) == [] and len(COMMA_DECIMAL.findall(text)) >= 10
    assert re.search(r"│ [+-]\d,\d{4} │", text)  # an equity in the table
    assert main(["--lang", "cs", "rollout", START, "--json", *fast]) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data["cubeless_equity"], float)


@pytest.mark.parametrize(("lang", "count"), [("en", "12,000"), ("pl", "12\u00a0000"), ("cs", "12\u00a0000")])
def test_the_bound_of_an_analysis_is_a_count_not_read_as_a_decimal(lang: str, count: str) -> None:
    with use_language(lang), pytest.raises(TooMuchWork) as refused:
        check_work(12_000, 2, (100_000, 20_000, 2_000))
    bound = "20,000" if lang == "en" else "20\u00a0000"
    assert count in str(refused.value) and f"{bound} " in str(refused.value)
