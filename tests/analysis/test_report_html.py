"""The HTML report is one self-contained, well-formed page."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from gammon import Rules
from gammon.analysis import analyse
from gammon.analysis.report_html import render_html, write_html
from gammon.i18n import use_language
from gammon.i18n.check import untranslated
from tests.analysis.games import blunder_game, forced_game, pip_engine


def _parse(page: str) -> ET.Element:
    assert page.startswith("<!DOCTYPE html>\n")
    return ET.fromstring(page.split("\n", 1)[1])  # well-formed: every element closed, text escaped


def test_report_is_self_contained_and_well_formed(tmp_path):
    rules = Rules(match_length=5)
    analysis = analyse([blunder_game(rules), forced_game(rules)], pip_engine(), names=("Ann <A&B>", "Bo"))
    path = tmp_path / "report.html"
    write_html(analysis, path)
    page = path.read_text(encoding="utf-8")
    assert not re.search(r"https?://", page), "nothing may be fetched from the network"
    assert not re.search(r"""(src|href)\s*=""", page), "no external resources"
    root = _parse(page)
    assert root.tag == "html"
    assert "Ann <A&B>" in "".join(root.find("body").find("h1").itertext())
    marked = analysis.marked()
    assert marked, "the pip-count engine finds errors in this game"
    boards = root.findall(".//svg[@class='board']")
    charts = root.findall(".//svg[@class='chart']")
    assert len(boards) == len(marked) and len(charts) == 1
    # one line per player, through the start of each game and every play made
    lines = charts[0].findall("polyline")
    plays = [d for g in analysis.games for d in g.checker_plays if d.played is not None]
    assert len(lines) == 2 and len(lines[0].get("points").split()) == 2 + len(plays)
    # each marked checker play lists its ranked alternatives with the play made highlighted
    made_rows = root.findall(".//tr[@class='made']")
    assert len(made_rows) == sum(1 for d in marked if hasattr(d, "candidates"))


def test_money_session_report_charts_game_winning_chances():
    analysis = analyse([forced_game(), forced_game()], pip_engine())
    root = _parse(render_html(analysis))
    headings = ["".join(h.itertext()) for h in root.iter("h2")]
    assert "Chances to win the game" in headings
    assert "money session" in "".join(root.find("body").find("h1").itertext())


@pytest.mark.parametrize("lang", ["pl", "cs", "sk"])
def test_the_report_speaks_the_current_language_with_no_english_left(lang):
    rules = Rules(match_length=5)
    analysis = analyse([blunder_game(rules), forced_game(rules)], pip_engine(), names=("Ann", "Bo"))
    with use_language(lang):
        root = _parse(render_html(analysis))
    assert root.get("lang") == lang
    texts = [t.strip() for t in root.find("body").itertext() if t.strip()]
    assert untranslated(texts, lang) == []
    english = _parse(render_html(analysis))  # where the check sees English
    assert untranslated([t.strip() for t in english.find("body").itertext() if t.strip()], lang)


def test_each_comment_is_beside_its_decision_as_text():
    from gammon.analysis.sgf_annotations import Comment

    rules = Rules(match_length=5)
    analysis = analyse([blunder_game(rules), forced_game(rules)], pip_engine(), names=("Ann", "Bo"))
    blunder = analysis.marked()[0]
    c = blunder.context
    assert (c.game, c.move, c.player) == (1, 1, 1)  # Bo's 63, 24/15
    comments = [Comment(1, 1, 1, "<script>alert(1)</script> & why 24/15?"), Comment(1, 0, None, "game one"),
                Comment(2, 1, 0, "an unmarked play")]
    page = render_html(analysis, comments=comments)
    root = _parse(page)
    decisions = [e for e in root.iter("div") if e.get("class") == "decision"]
    quoted = [" ".join(q.itertext()) for q in decisions[0].iter("blockquote")]
    assert quoted == ["<script>alert(1)</script> & why 24/15?"]
    assert all(not list(d.iter("blockquote")) for d in decisions[1:])
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; why" in page
    # the comments no decision shown takes stay in their own list, where they were made
    rest = " ".join(" ".join(t.itertext()) for t in root.iter("table"))
    assert "game one" in rest and "an unmarked play" in rest and "Game 2, move 1, Ann" in rest
    assert "alert(1)" not in rest


def test_the_chart_is_continuous_from_a_games_end_to_the_next_ones_start_without_the_crawford_rule():
    from gammon.analysis.report_html import chance_series
    from gammon.engine.cube.met import match_equity
    from tests.formats.random_play import play_match

    # the fifth game starts at 4-1 in a 5-point match without the Crawford rule
    match = play_match(1, Rules(match_length=5, crawford=False), games=30, double=0.1, resign=0.0)
    assert [g.score for g in match.games] == [(0, 0), (1, 0), (3, 0), (3, 1), (4, 1)]
    analysis = analyse(match, pip_engine())
    series, breaks = chance_series(analysis)
    for start, _ in breaks[1:]:
        assert series[start - 1] == pytest.approx(series[start])
    assert series[breaks[4][0]] == pytest.approx(match_equity(1, 4, post_crawford=True))
