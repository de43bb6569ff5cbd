"""What a report shows of each marked decision: where it is in the match file (its move number), the
best plays or the cube decision's equities with their differences, and the depth of the analysis;
the chart's game labels and the HTML layout of a decision."""

from __future__ import annotations

import argparse
import dataclasses
import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rich.console import Console

from gammon import Rules
from gammon.analysis import DEFAULT_PLIES, CheckerPlay, CubeChoice, Skill, analyse, move_numbers
from gammon.analysis.report_html import render_html
from gammon.analysis.serialize import analysis_to_dict
from gammon.analysis.summary import cube_rows, describe
from gammon.analysis.svg import chart_svg
from gammon.analysis.walk import MatchAnalysis
from gammon.cli.analyse import print_report
from gammon.engine.engine import Engine
from gammon.formats import read_mat
from gammon.formats.mat import decode_mat
from gammon.i18n import format_number, use_language
from tests.analysis.games import blunder_game, forced_game, pip_engine

REAL = Path(__file__).resolve().parents[1] / "data/mat/real"
FILES = [
    REAL / "galaxy/bglab-lasse-match1112717.mat",
    REAL / "gnubg/gnubgparser-selfplay_drops_7p.mat",
    REAL / "gnubg/gnubgparser-charlot1-charlot2_7p.mat",
    *sorted((REAL / "bgstudio").glob("*.mat"))[:2],
    REAL / "other/gammonview-3WNK_g1Z-PLsh_HyvQ5j4a-7pt.mat",
]


@pytest.fixture(scope="module")
def analysis() -> MatchAnalysis:
    rules = Rules(match_length=5)
    return analyse([blunder_game(rules), forced_game(rules, score=(0, 1))], pip_engine(), names=("Ann", "Bo"))


def _with_marked_cube(analysis: MatchAnalysis) -> tuple[MatchAnalysis, CubeChoice]:
    """The analysis with its first cube decision marked (the pip-count engine makes none wrong)."""
    games = list(analysis.games)
    for n, g in enumerate(games):
        for k, d in enumerate(g.decisions):
            if isinstance(d, CubeChoice):
                cube = dataclasses.replace(d, skill=Skill.DOUBTFUL)
                decisions = (*g.decisions[:k], cube, *g.decisions[k + 1 :])
                games[n] = dataclasses.replace(g, decisions=decisions)
                return dataclasses.replace(analysis, games=tuple(games)), cube
    raise AssertionError("no cube decision")


# --- move numbers ----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_move_numbers_are_the_numbered_lines_of_the_file(path: Path) -> None:
    text = decode_mat(path.read_bytes())
    lines = text.splitlines()
    record = read_mat(text)
    checked = 0
    for game in record.games:
        numbers = move_numbers(game.actions)
        for k in range(len(game.actions)):
            found = re.match(r"\s*(\d+)\)", lines[game.line_of(k) - 1]) if game.line_of(k) else None
            if found:
                assert numbers[k] == int(found.group(1)), (path.name, game.number, k)
                checked += 1
    assert checked > 20


def test_decisions_are_named_by_move_number_in_every_report(analysis: MatchAnalysis) -> None:
    # the second game (forced_game): P0's 53 and P1's 63 make move 1, P0's 66 (no play) and P1's
    # 65 move 2, and so on: a move holds both players' halves
    plays = [d for d in analysis.games[1].checker_plays]
    assert [d.context.move for d in plays] == [1, 1, 2, 2, 3, 3, 4, 4]
    blunder = analysis.games[0].checker_plays[1]  # Bo's 63 answering the opening 53
    assert blunder.skill is not Skill.NONE and blunder.context.move == 1
    data = analysis_to_dict(analysis)
    assert all("move" in d and "turn" not in d for d in data["decisions"])
    moved = [d for d in data["decisions"] if d["kind"] == "move"]
    assert moved[1]["move"] == 1 and moved[1]["name"] == "Bo"
    assert "Game 1, move 1: Bo rolled 63 and played 24/15" in render_html(analysis)
    out = io.StringIO()
    print_report(analysis, Console(file=out, width=120, no_color=True))
    assert "Game 1, move 1: Bo rolled 63 and played 24/15" in out.getvalue()


# --- the alternatives ------------------------------------------------------------------------------


def test_a_marked_checker_play_lists_the_best_five_and_the_play_made(analysis: MatchAnalysis) -> None:
    plays = [d for d in analysis.decisions if isinstance(d, CheckerPlay) and d.legal_plays >= 5]
    assert plays
    for d in plays:
        assert len(d.candidates) >= 5 and d.made is not None
        top = [c.play for c in d.candidates[:5]]
        assert d.played in top or d.candidates[5:] and d.candidates[5].play == d.played
        equities = [c.equity for c in d.candidates]
        assert equities == sorted(equities, reverse=True)  # one depth here: one ranking
    blunder = analysis.games[0].checker_plays[1]
    out = io.StringIO()
    print_report(analysis, Console(file=out, width=120, no_color=True))
    text = out.getvalue()
    best = blunder.candidates[0].equity
    for rank, c in enumerate(blunder.candidates[:5], 1):
        line = f"  {rank}. {str(c.play):<28} {c.equity:+.3f} ({c.equity - best:+.3f})"
        assert line in text, line
    root = ET.fromstring(render_html(analysis).split("\n", 1)[1])
    block = next(
        div
        for div in root.iter("div")
        if div.get("class") == "decision" and "24/15" in "".join(div.find("h3").itertext())
    )
    rows = block.findall(".//table/tr")[1:]
    assert len(rows) == len(blunder.candidates) >= 5
    assert ["".join(td.itertext()) for td in rows[1].findall("td")][
        3
    ] == f"{blunder.candidates[1].equity - best:+.3f}"


def test_a_marked_cube_decision_shows_its_three_equities_with_their_differences(
    analysis: MatchAnalysis,
) -> None:
    marked, cube = _with_marked_cube(analysis)
    dec = cube.decision
    right = max(dec.no_double, min(dec.double_take, dec.double_pass))
    rows = [
        ("No double", dec.no_double),
        ("Double, take", dec.double_take),
        ("Double, pass", dec.double_pass),
    ]
    out = io.StringIO()
    print_report(marked, Console(file=out, width=120, no_color=True))
    for label, eq in rows:
        assert f"  {label:<14} {eq:+.3f} ({eq - right:+.3f})" in out.getvalue()
    page = render_html(marked)
    for label, eq in rows:
        assert (
            f'<tr><td>{label}</td><td class="num">{eq:+.3f}</td><td class="num">{eq - right:+.3f}</td></tr>'
        ) in page



@pytest.mark.parametrize("lang", ["en", "pl", "cs", "sk"])
def test_the_cube_decisions_equities_are_one_column_in_every_language(
    analysis: MatchAnalysis, lang: str
) -> None:
    marked, cube = _with_marked_cube(analysis)
    out = io.StringIO()
    with use_language(lang):
        print_report(marked, Console(file=out, width=120, no_color=True))
        labels = [label for label, _, _ in cube_rows(cube)]
        equities = [format_number(eq, "+.3f") for _, eq, _ in cube_rows(cube)]  # the language's decimal mark
    lines = [line for line in out.getvalue().splitlines()
             if any(line.startswith(f"  {label} ") for label in labels)]
    assert len(lines) == 3, lines
    columns = {line.index(f" {eq} (") for line, eq in zip(lines, equities)}
    assert len(columns) == 1, lines


# --- the depth -------------------------------------------------------------------------------------


def test_the_terminal_and_the_browser_analyse_at_the_same_depth_by_default(monkeypatch) -> None:
    from gammon.cli import analyse as command
    from gammon.web.study import ANALYSIS_PLIES, AnalysisRequest

    assert DEFAULT_PLIES == ANALYSIS_PLIES == AnalysisRequest(mat="x").plies == 2
    page = (Path(__file__).resolve().parents[2] / "gammon/web/static/analysis.html").read_text()
    assert re.search(r'<option value="(\d)" selected>', page).group(1) == str(DEFAULT_PLIES)
    # the terminal: no --plies, an engine of DEFAULT_PLIES
    made: list[int] = []

    class Engine:
        def __init__(self, plies: int) -> None:
            made.append(plies)

    parser = argparse.ArgumentParser()
    command.add_analyse(parser.add_subparsers())
    args = parser.parse_args(["analyse", str(FILES[0]), "--json"])
    monkeypatch.setattr("gammon.engine.engine.Engine", Engine)
    monkeypatch.setattr("gammon.analysis.analyse", lambda *a, **k: (_ for _ in ()).throw(ValueError("stop")))
    assert command.run_analyse(args) == 2
    assert made == [DEFAULT_PLIES]


def test_every_report_says_its_depth(analysis: MatchAnalysis) -> None:
    assert analysis_to_dict(analysis)["plies"] == 0
    assert "Analysed by gammon at 0 ply" in render_html(analysis)
    out = io.StringIO()
    print_report(analysis, Console(file=out, width=120, no_color=True))
    assert "analysed at 0 ply" in out.getvalue()
    assert " 0 ply" in out.getvalue().split("Marked decisions")[1]  # each alternative's depth too


# --- the HTML report's layout ----------------------------------------------------------------------


def test_the_charts_game_labels_never_overlap() -> None:
    # a 17-point match of 15 games, some of them a few plays long
    lengths = [30, 2, 3, 25, 2, 2, 40, 3, 20, 2, 2, 2, 30, 3, 2]
    breaks, series = [], []
    for n, length in enumerate(lengths, 1):
        breaks.append((len(series), f"Game {n}"))
        series += [0.5] * length
    root = ET.fromstring(chart_svg(series, breaks, ("A", "B")))
    assert len([e for e in root.iter("line") if e.get("stroke-dasharray")]) == len(lengths)  # a line each
    labels = [(float(t.get("x")), t.text) for t in root.iter("text") if (t.text or "").startswith("Game ")]
    assert labels[0][1] == "Game 1" and len(labels) < len(lengths)
    for (x0, text0), (x1, _) in zip(labels, labels[1:]):
        assert x1 >= x0 + 0.55 * 10 * len(text0), labels  # at 10 px a character is ~5.5 px wide
    assert labels[-1][0] + 0.55 * 10 * len(labels[-1][1]) <= 760


def test_each_decision_starts_with_its_heading_then_alternatives_and_board(analysis: MatchAnalysis) -> None:
    root = ET.fromstring(render_html(_with_marked_cube(analysis)[0]).split("\n", 1)[1])
    blocks = [div for div in root.iter("div") if div.get("class") == "decision"]
    assert blocks
    for div in blocks:
        assert div[0].tag == "h3"
        body = next(c for c in div if c.get("class") == "decision-body")
        assert body[0].find(".//table") is not None and body[1].find("svg").get("class") == "board"


def test_the_roll_is_said_as_the_match_file_says_it_larger_die_first() -> None:
    """Player 1's opening roll holds player 0's die first (the opening throw): the file says 62
    for charlot2's 2 and 6, and so do the reports (they said 26)."""
    path = Path(__file__).parents[1] / "data/mat/real/gnubg/gnubgparser-roll_then_resign_1p.mat"
    analysis = analyse(read_mat(path.read_text()), Engine(plies=0))
    first = analysis.games[0].checker_plays[0]
    assert first.context.dice == (2, 6) and first.context.player == 1
    assert describe(first, analysis.names).startswith(
        "Game 1, move 1: charlot2 rolled 62 and played 24/18 13/11")
