"""An SGF file's comments (C) go into `gammon analyse --sgf` beside the analysis, and the HTML
report shows the match information and the comments, as text."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gammon.cli.main import main
from gammon.formats.sgf import read_sgf
from tests.helpers import needs_gnubg

SGF = """(;FF[4]GM[6]CA[UTF-8]AP[test]MI[length:5][game:0][ws:0][bs:0]PW[Ann]PB[Bo]DT[2024-05-01]
EV[Open <final>]RO[3 & last]PC[Paris]GC[A <b>great</b> match]RU[Crawford]C[the first game]
;W[53hcxu]C[a good start & <script>alert(1)</script>]A[0][hcxu E ver 3 0.5 0.1 0 0.1 0 0.0 0C 0 1 0.000000 1]
;B[63aggj]C[Bo's blunder\\]])
"""


@pytest.fixture
def analysed(tmp_path: Path) -> tuple[Path, Path, Path]:
    source = tmp_path / "commented.sgf"
    source.write_text(SGF, encoding="utf-8")
    sgf, html = tmp_path / "analysed.sgf", tmp_path / "report.html"
    args = ["analyse", str(source), "--plies", "0", "--json", "--sgf", str(sgf), "--html", str(html)]
    assert main(args) == 0
    return source, sgf, html


def test_the_analysed_sgf_keeps_the_comments_beside_the_analysis(analysed) -> None:
    source, sgf, _ = analysed
    before, after = read_sgf(source.read_text(encoding="utf-8")), read_sgf(sgf.read_text(encoding="utf-8"))
    assert after.game_notes[0]["C"] == ("the first game",)
    moves = {i: notes["C"] for i, notes in after.action_notes[0].items() if "C" in notes}
    assert moves == {i: notes["C"] for i, notes in before.action_notes[0].items() if "C" in notes}
    assert sorted(moves.values()) == [("Bo's blunder]",), ("a good start & <script>alert(1)</script>",)]
    # gammon's analysis replaces the file's earlier one, and keeps to gnubg's own properties
    first_move = after.action_notes[0][min(moves)]
    assert first_move["A"][0] != "0" and len(first_move["A"]) > 2 and "LU" in first_move
    assert after.info["GC"] == "A <b>great</b> match"


def test_the_html_report_shows_the_match_information_and_the_comments_escaped(analysed) -> None:
    _, _, html = analysed
    page = html.read_text(encoding="utf-8")
    root = ET.fromstring(page.removeprefix("<!DOCTYPE html>"))  # still well-formed: all escaped
    text = " ".join(" ".join(e.itertext()) for e in root.iter("table"))
    for shown in ("Event", "Open <final>", "Place", "Paris", "Date", "2024-05-01", "Round", "3 & last",
                  "A <b>great</b> match", "the first game"):
        assert shown in text, shown
    # both plays are marked at 0 ply: each comment is beside its play, not in the list
    decisions = [e for e in root.iter("div") if e.get("class") == "decision"]
    heads = [" ".join(d.find("h3").itertext()) for d in decisions]
    quoted = [[" ".join(q.itertext()) for q in d.iter("blockquote")] for d in decisions]
    assert len(decisions) == 2 and "Ann" in heads[0] and "Bo" in heads[1]
    assert quoted == [["a good start & <script>alert(1)</script>"], ["Bo's blunder]"]]
    assert "Bo's blunder" not in text
    assert "<script>" not in page and "<b>great" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_report_without_information_or_comments_has_neither(tmp_path: Path) -> None:
    from gammon import Rules
    from gammon.formats import write_mat
    from tests.analysis.games import forced_game

    path = tmp_path / "m.mat"
    write_mat([forced_game(Rules(match_length=3))], names=("Ann", "Bo"), file=path)
    html = tmp_path / "r.html"
    assert main(["analyse", str(path), "--plies", "0", "--json", "--html", str(html)]) == 0
    page = html.read_text(encoding="utf-8")
    assert "<h2>Comments</h2>" not in page and "<th>Event</th>" not in page


def test_an_xg_files_comments_go_into_the_analysed_sgf_and_the_report(tmp_path: Path) -> None:
    source = Path(__file__).parents[1] / "data/xg/real/gbf-harmand-unger-9pt-comment.xg"
    sgf, html = tmp_path / "analysed.sgf", tmp_path / "report.html"
    args = ["analyse", str(source), "--plies", "0", "--json", "--sgf", str(sgf), "--html", str(html)]
    assert main(args) == 0
    after = read_sgf(sgf.read_text(encoding="utf-8"))
    history = after.match.games[0].history
    moves = {i: notes["C"] for i, notes in after.action_notes[0].items() if "C" in notes}
    assert list(moves.values()) == [("coup assez difficile",),
                                    ("les double 66 sont toujpurs difficiles à trouver",)]
    assert [history[i].dice for i in moves] == [(5, 4), (6, 6)]  # on White's 54 and 66
    assert not any("C" in n for notes in after.action_notes[1:] for n in notes.values())
    page = html.read_text(encoding="utf-8")
    assert "coup assez difficile" in page and "difficiles à trouver" in page


def test_the_terminal_report_shows_each_comment_under_its_decision_and_the_others_at_the_end(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "commented.sgf"
    source.write_text(SGF.replace("C[Bo's blunder\\]]", "C[[bold\\]not markup[/bold\\]\nsecond line]"),
                      encoding="utf-8")
    assert main(["analyse", str(source), "--plies", "0", "--plain"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    heads = [k for k, line in enumerate(lines) if line.startswith("Game 1, move 1:")]
    assert len(heads) == 2  # both plays are marked at 0 ply
    # between each decision's heading and its board
    blocks = [lines[k:next(j for j in range(k, len(lines)) if "match to" in lines[j])] for k in heads]
    assert [line for line in blocks[0] if line.startswith("  > ")] == [
        "  > a good start & <script>alert(1)</script>"]
    assert [line for line in blocks[1] if line.startswith("  > ")] == [
        "  > [bold]not markup[/bold]", "  > second line"]
    end = out[out.index("\nComments\n"):]
    assert "Match:\n  A <b>great</b> match" in end and "Game 1:\n  the first game" in end
    assert "not markup" not in end


def test_control_characters_of_a_files_text_reach_neither_the_terminal_nor_the_page(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "escapes.sgf"
    text = SGF
    for old, new in (("EV[Open <final>]", "EV[Open \x1b[2J]"), ("GC[A <b>great</b> match]", "GC[gc \x1b[2J]"),
                     ("C[the first game]", "C[game \x1b[2J\tover]"),
                     ("C[Bo's blunder\\]]", "C[\x1b[31mred]")):
        text = text.replace(old, new)
    source.write_text(text, encoding="utf-8")
    html = tmp_path / "report.html"
    assert main(["analyse", str(source), "--plies", "0", "--plain", "--html", str(html)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\ufffd[31mred" in out and "game \ufffd[2J over" in out
    page = html.read_text(encoding="utf-8")
    ET.fromstring(page.removeprefix("<!DOCTYPE html>"))  # XML holds no ESC: the page stays well-formed
    assert "\x1b" not in page and "Open \ufffd[2J" in page and "gc \ufffd[2J" in page


def test_an_xg_files_match_comment_is_the_match_comment_of_the_outputs(tmp_path: Path) -> None:
    import struct

    from gammon import Rules
    from tests.analysis.games import forced_game
    from tests.formats import xg_writer
    from tests.formats.test_xg_comments import XGC

    game = forced_game(Rules(match_length=3))
    header = bytearray(xg_writer.match_header(("Ann", "Bo"), game.rules))
    struct.pack_into("<ii", header, 576, 0, -1)  # the match's comment, before it: temp.xgc's first
    files = xg_writer.archive_files([bytes(header)] + xg_writer.game_records(game, 1))
    files["temp.xgc"] = XGC % b"a friendly match" + b"\r\n"
    source = tmp_path / "commented.xg"
    source.write_bytes(xg_writer.container(files))
    sgf, html = tmp_path / "analysed.sgf", tmp_path / "report.html"
    args = ["analyse", str(source), "--plies", "0", "--json", "--sgf", str(sgf), "--html", str(html)]
    assert main(args) == 0
    assert read_sgf(sgf.read_text(encoding="utf-8")).info["GC"] == "a friendly match"
    root = ET.fromstring(html.read_text(encoding="utf-8").removeprefix("<!DOCTYPE html>"))
    rows = {" ".join(r.find("th").itertext()): " ".join(r.find("td").itertext()) for r in root.iter("tr")
            if r.find("th") is not None and r.find("td") is not None}
    assert rows["Match"] == "a friendly match"


@needs_gnubg
def test_gnubg_keeps_an_xg_files_comments_on_their_moves(tmp_path: Path) -> None:
    from benchmarks.gnubg_harness import run_gnubg

    source = Path(__file__).parents[1] / "data/xg/real/gbf-harmand-unger-9pt-comment.xg"
    sgf, saved = tmp_path / "analysed.sgf", tmp_path / "saved.sgf"
    assert main(["analyse", str(source), "--plies", "0", "--json", "--sgf", str(sgf)]) == 0
    # gnubg loads the file and saves it again: the comments are on the same moves
    run_gnubg(f"gnubg.command('load match {sgf}')\ngnubg.command('save match {saved}')\nemit(1)", expect=1)
    mine, gnubgs = (read_sgf(p.read_text(encoding="utf-8")) for p in (sgf, saved))
    ours = {i: n["C"] for i, n in mine.action_notes[0].items() if "C" in n}
    assert {i: n["C"] for i, n in gnubgs.action_notes[0].items() if "C" in n} == ours
    assert sorted(ours.values()) == [("coup assez difficile",),
                                     ("les double 66 sont toujpurs difficiles à trouver",)]
