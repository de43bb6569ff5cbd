"""The analysis reports write their numbers as the reader's language does: a decimal comma in
Polish, Czech and Slovak ("0,123", "45,1%", Czech and Slovak "45,1 %"), the point in English, in the
terminal's report, the HTML report and its chart; the JSON keeps its numbers for programs."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from babel.numbers import format_decimal, format_percent, get_decimal_symbol
from rich.console import Console

from gammon import Rules
from gammon.analysis import analyse
from gammon.analysis.report_html import render_html
from gammon.analysis.summary import describe, summary_sections
from gammon.analysis.svg import chart_svg
from gammon.analysis.walk import MatchAnalysis
from gammon.cli.analyse import print_report
from gammon.formats import write_mat
from gammon.i18n import LANGUAGES, format_number, use_language
from tests.analysis.games import blunder_game, forced_game, pip_engine

COMMA = ("pl", "cs", "sk")
POINT_DECIMAL = re.compile(r"\d\.\d")
COMMA_DECIMAL = re.compile(r"\d,\d")


@pytest.fixture(scope="module")
def analysis() -> MatchAnalysis:
    rules = Rules(match_length=5)
    return analyse([blunder_game(rules), forced_game(rules, score=(0, 1))], pip_engine(), names=("Ann", "Bo"))


# --- the one formatter -----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_writes_decimals_and_percents_as_its_cldr_data_does(lang: str) -> None:
    with use_language(lang):
        assert format_number(0.125, ".3f") == f"0{get_decimal_symbol(lang)}125"
        assert format_number(0.45, ".0%") == format_percent(0.45, locale=lang)  # "45%", Czech "45 %"
        assert format_number(-0.5, ".0%") == format_percent(-0.5, locale=lang)
        assert format_number(12960, ",") == format_decimal(12960, locale=lang)  # "12,960", "12 960"


def test_the_formatter_keeps_the_sign_the_rounding_and_the_width() -> None:
    assert format_number(0.1234, "+.3f") == "+0.123" == f"{0.1234:+.3f}"
    assert format_number(0.4512, "6.1%") == " 45.1%"
    with use_language("pl"):
        assert format_number(0.1234, "+.3f") == "+0,123"
        assert format_number(-0.02, "+.2%") == "-2,00%"
        assert format_number(1.0, ".1f") == "1,0"
    with use_language("cs"):
        assert format_number(0.4512, "6.1%") == "45,1\u00a0%"  # the wider sign takes the padding's space
        assert format_number(0.4512, ".1%") == "45,1\u00a0%"
        assert format_number(3, "d") == "3"


# --- the statistics --------------------------------------------------------------------------------


def _cells(analysis: MatchAnalysis, lang: str) -> list[str]:
    with use_language(lang):
        sections = summary_sections(analysis.statistics(resamples=20), bool(analysis.match_length))
    return [cell for _, rows in sections for _, *values in rows for cell in values]


@pytest.mark.parametrize("lang", COMMA)
def test_the_statistics_have_a_decimal_comma(analysis: MatchAnalysis, lang: str) -> None:
    cells = _cells(analysis, lang)
    assert [c for c in cells if POINT_DECIMAL.search(c)] == []
    assert sum(bool(COMMA_DECIMAL.search(c)) for c in cells) >= 20
    # the two ends of an interval are parted by a semicolon, not read as one decimal
    intervals = [c for c in cells if "[" in c]
    assert intervals and all(re.search(r"\[-?\d+,\d; -?\d+,\d\]$", c) for c in intervals), intervals
    percents = [c for c in cells if "%" in c]
    assert percents and all(("\u00a0%" in c) == (lang != "pl") for c in percents), percents


def test_the_statistics_keep_the_point_in_english(analysis: MatchAnalysis) -> None:
    cells = _cells(analysis, "en")
    assert [c for c in cells if COMMA_DECIMAL.search(c)] == []
    assert sum(bool(POINT_DECIMAL.search(c)) for c in cells) >= 20
    assert any(re.search(r"\[-?\d+\.\d, -?\d+\.\d\]$", c) for c in cells)


# --- the terminal report ---------------------------------------------------------------------------


def _terminal(analysis: MatchAnalysis, lang: str) -> str:
    out = io.StringIO()
    with use_language(lang):
        print_report(analysis, Console(file=out, width=160, no_color=True))
    return out.getvalue()


@pytest.mark.parametrize("lang", COMMA)
def test_the_terminal_report_has_a_decimal_comma(analysis: MatchAnalysis, lang: str) -> None:
    text = _terminal(analysis, lang)
    assert POINT_DECIMAL.findall(text) == []
    blunder = analysis.marked()[0]
    with use_language(lang):
        head = describe(blunder, analysis.names)
        best = blunder.candidates[0]
        line = f"{format_number(best.equity, '+.3f')} ({format_number(0.0, '+.3f')})"
    assert COMMA_DECIMAL.search(head) and head in text
    assert line in text and COMMA_DECIMAL.search(line)


def test_the_terminal_report_keeps_the_point_in_english(analysis: MatchAnalysis) -> None:
    text = _terminal(analysis, "en")
    assert COMMA_DECIMAL.findall(text) == []
    best = analysis.marked()[0].candidates[0]
    assert f"{best.equity:+.3f} (+0.000)" in text


# --- the HTML report and its chart -----------------------------------------------------------------


def _texts(page: str) -> list[str]:
    root = ET.fromstring(page.split("\n", 1)[1])
    return [t.strip() for t in root.find("body").itertext() if t.strip()]


@pytest.mark.parametrize("lang", COMMA)
def test_the_html_report_has_a_decimal_comma(analysis: MatchAnalysis, lang: str) -> None:
    with use_language(lang):
        page = render_html(analysis)
    texts = _texts(page)
    assert [t for t in texts if POINT_DECIMAL.search(t)] == []
    # the statistics, the alternatives' equities and chances, the chart's axis
    assert sum(bool(COMMA_DECIMAL.search(t)) for t in texts) >= 30
    assert any(re.fullmatch(r"[+-]\d,\d{3}", t) for t in texts)
    assert any(re.fullmatch(r"\d+,\d(\u00a0)?%", t) for t in texts)
    sign = "%" if lang == "pl" else "\u00a0%"
    assert {f"25{sign}", f"50{sign}", f"75{sign}"} <= set(texts)


def test_the_html_report_keeps_the_point_in_english(analysis: MatchAnalysis) -> None:
    texts = _texts(render_html(analysis))
    assert [t for t in texts if COMMA_DECIMAL.search(t)] == []
    assert any(re.fullmatch(r"[+-]\d\.\d{3}", t) for t in texts)
    assert {"25%", "50%", "75%"} <= set(texts)


@pytest.mark.parametrize("lang", ["en", *COMMA])
def test_the_charts_axis_is_labelled_in_the_language_and_drawn_alike(lang: str) -> None:
    english = chart_svg([0.5, 0.6, 0.4], [(0, "Game 1")], ("Ann", "Bo"))
    with use_language(lang):
        chart = chart_svg([0.5, 0.6, 0.4], [(0, "Game 1")], ("Ann", "Bo"))
        labels = [format_number(v, ".0%") for v in (0.25, 0.5, 0.75)]
    axis = [t.text for t in ET.fromstring(chart).iter("text") if t.get("text-anchor") == "end"]
    sign = "%" if lang in ("en", "pl") else "\u00a0%"
    assert axis == labels == [f"25{sign}", f"50{sign}", f"75{sign}"]
    # only the labels differ: the coordinates of the drawing keep their points
    assert re.sub(r">[^<]*<", "><", chart) == re.sub(r">[^<]*<", "><", english)


# --- the command -----------------------------------------------------------------------------------


def test_gammon_analyse_speaks_czech_numbers_and_its_json_stays_for_programs(tmp_path: Path) -> None:
    path = tmp_path / "m.mat"
    write_mat([blunder_game(Rules(match_length=5))], names=("Ann", "Bo"), file=path)
    env = {**os.environ, "LANGUAGE": "cs", "LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}

    def gammon(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "gammon.cli.main", "analyse", str(path), "--plies", "0",
                               *args], capture_output=True, text=True, timeout=300, env=env)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    text = gammon("--plain", "--html", str(tmp_path / "r.html"))
    assert "Míra chyb" in text  # Czech
    assert COMMA_DECIMAL.search(text) and not POINT_DECIMAL.search(text)
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert [t for t in _texts(page) if POINT_DECIMAL.search(t)] == []
    data = json.loads(gammon("--json"))
    numbers = [d["error"] for d in data["decisions"]]
    assert numbers and all(isinstance(n, float) for n in numbers)
