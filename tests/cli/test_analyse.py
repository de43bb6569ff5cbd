"""`gammon analyse FILE.mat` through the real console entry point (0 ply: fast)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gammon import Rules, WinKind
from gammon.formats import write_mat
from gammon.formats.sgf import read_sgf
from tests.analysis.games import blunder_game, forced_game


def gammon(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gammon.cli.main", *args], capture_output=True,
                          text=True, timeout=300)


@pytest.fixture(scope="module")
def match_file(tmp_path_factory) -> Path:
    rules = Rules(match_length=5)
    path = tmp_path_factory.mktemp("mat") / "match.mat"
    first = blunder_game(rules)
    first.resign(WinKind.SINGLE)  # player 0 gives up a point after the blunder
    first.accept_resignation()
    write_mat([first, forced_game(rules, score=(0, 1))], names=("Ann", "Bo"), file=path)
    return path


def test_json_is_one_object_with_the_players_and_decisions(match_file):
    out = gammon("analyse", str(match_file), "--plies", "0", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)  # the whole of stdout is one JSON object
    assert [p["name"] for p in data["players"]] == ["Ann", "Bo"]
    for p in data["players"]:
        assert {"moves", "unforced", "error_total", "error_rate"} <= p["checker"].keys()
        assert {"decisions", "error_total", "error_rate"} <= p["cube"].keys()
        assert {"error_rate", "pr", "pr_ci95"} <= p["overall"].keys()
        assert {"total", "rate"} <= p["luck"].keys()
        assert p["checker"]["error_total"] >= 0 and p["cube"]["error_total"] >= 0
        lo, hi = p["overall"]["pr_ci95"]
        assert lo <= p["overall"]["pr"] + 1e-9 and p["overall"]["pr"] <= hi + 1e-9
        assert p["overall"]["pr"] == pytest.approx(p["overall"]["error_rate"] / 2)
    # the first game has 2 moves, the second 8 (2 of them unforced for each player)
    assert [p["checker"]["moves"] for p in data["players"]] == [5, 5]
    assert [p["checker"]["unforced"] for p in data["players"]] == [3, 3]
    moves = [d for d in data["decisions"] if d["kind"] == "move"]
    assert len(moves) == 10 and all(d["error"] >= 0 for d in data["decisions"])
    blunder = moves[1]
    assert (blunder["name"], blunder["played"], blunder["dice"]) == ("Bo", "24/15", [6, 3])
    assert blunder["best"] != "24/15" and blunder["error"] > 0
    assert blunder["alternatives"][0]["play"] == blunder["best"]


def test_terminal_report_shows_the_summary_and_the_marked_decisions(match_file):
    out = gammon("analyse", str(match_file), "--plies", "0", "--plain")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Ann vs Bo: 5-point match" in text
    assert "Unforced moves" in text and "PR (eXtreme Gammon)" in text
    marked = re.search(r"Marked decisions: (\d+)", text)
    assert marked and int(marked.group(1)) > 0
    # a board for each, with its GNU Backgammon ID as gammon play prints it (the position as drawn)
    ids = re.findall(r"GNU Backgammon ID: ([^:\s]+):(\S+)", text)
    assert len(ids) == int(marked.group(1)) and "Position ID:" not in text
    data = json.loads(gammon("analyse", str(match_file), "--plies", "0", "--json").stdout)
    marks = [d for d in data["decisions"] if d["mark"]]
    assert [f"{p}:{m}" for p, m in ids] == [d["gnubg_id"] for d in marks]
    assert [p for p, _ in ids] == [d["position_id"] for d in marks]
    assert "<- played" in text


def test_html_report_is_written(match_file, tmp_path):
    report = tmp_path / "report.html"
    out = gammon("analyse", str(match_file), "--plies", "0", "--html", str(report), "--json")
    assert out.returncode == 0, out.stderr
    json.loads(out.stdout)
    page = report.read_text(encoding="utf-8")
    assert "<svg" in page and not re.search(r"https?://", page)


@pytest.mark.slow
def test_sgf_with_the_analysis_is_written(match_file, tmp_path):
    out_sgf = tmp_path / "analysed.sgf"
    out = gammon("analyse", str(match_file), "--plies", "0", "--json", "--sgf", str(out_sgf))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    record = read_sgf(out_sgf.read_text(encoding="utf-8"))
    assert record.names == ("Ann", "Bo") and len(record.match.games) == 2
    # every play made has gnubg's analysis property, with the plays considered
    moves = [d for d in data["decisions"] if d["kind"] == "move" and d["played"]]
    analysed = [n for notes in record.action_notes for n in notes.values() if "A" in n]
    assert moves and len(analysed) == len(moves)
    assert all(" E ver 3 " in value for n in analysed for value in n["A"][1:])
    nowhere = str(tmp_path / "no" / "x.sgf")
    bad = gammon("analyse", str(match_file), "--plies", "0", "--json", "--sgf", nowhere)
    assert bad.returncode == 2 and "x.sgf'" in bad.stderr and bad.stdout == ""


def test_bad_files_are_refused_with_the_name_quoted(tmp_path):
    out = gammon("analyse", str(tmp_path / "missing.mat"), "--plies", "0")
    assert out.returncode == 2 and "missing.mat'" in out.stderr
    bad = tmp_path / "bad.mat"
    bad.write_text("this is not a match file\n")
    out = gammon("analyse", str(bad), "--plies", "0")
    assert out.returncode == 2 and "this is not a match file" in out.stderr
    program = tmp_path / "binary.mat"
    program.write_bytes(b"\x7fELF\x02\x01\x01" + bytes(range(256)))
    out = gammon("analyse", str(program), "--plies", "0")
    assert out.returncode == 2 and "binary.mat: not a text file (a program)" in out.stderr
    assert "\\x" not in out.stderr  # no raw bytes quoted back


@pytest.mark.slow
def test_a_file_with_errors_is_refused_unless_partial(match_file, tmp_path):
    text = match_file.read_text()
    cut = text[: text.index(" Game 2")] + " Game 2\n Ann : 1                        Bo : 0\n  1) 31: 24/1\n"
    bad = tmp_path / "bad-game-2.mat"
    bad.write_text(cut)
    out = gammon("analyse", str(bad), "--plies", "0", "--json")
    assert out.returncode == 2 and "24/1" in out.stderr
    assert out.stderr.count("24/1' is not a legal play") == 1  # said once
    out = gammon("analyse", str(bad), "--plies", "0", "--json", "--partial")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [p["name"] for p in data["players"]] == ["Ann", "Bo"]
    assert "24/1" in out.stderr  # the error is still reported


REAL = Path(__file__).resolve().parents[1] / "data/mat/real/galaxy"


@pytest.mark.parametrize("name", ["bglab-lasse-match10414818.mat", "bglab-lasse-match11760028.mat"])
def test_a_real_file_cut_after_1500_bytes_is_refused_with_its_error_said_once(name, tmp_path):
    cut = tmp_path / "trunc.mat"
    cut.write_bytes((REAL / name).read_bytes()[:1500])  # a download that stopped: a line cut short
    for command in ("analyse", "convert"):
        args = [command, str(cut), *(["--plies", "0"] if command == "analyse" else [str(tmp_path / "o.sgf")])]
        out = gammon(*args)
        lines = out.stderr.strip().splitlines()
        assert out.returncode == 2 and len(lines) == 1, out.stderr  # one line: the error, once
        assert lines[0].startswith(f"gammon {command}: {cut}: game ") and " line " in lines[0]


@pytest.mark.slow
def test_a_latin_1_file_is_read_as_convert_reads_it(match_file, tmp_path):
    """Older Windows programs wrote .mat files in Latin-1: names with accents must not stop it."""
    latin = tmp_path / "latin-1.mat"
    latin.write_bytes(match_file.read_text().replace("Ann", "Anné").encode("latin-1"))
    out = gammon("analyse", str(latin), "--plies", "0", "--json")
    assert out.returncode == 0, out.stderr
    assert [p["name"] for p in json.loads(out.stdout)["players"]] == ["Anné", "Bo"]
    converted = tmp_path / "latin-1.sgf"
    assert gammon("convert", str(latin), str(converted)).returncode == 0
    assert "Anné" in converted.read_text(encoding="utf-8")


@pytest.mark.slow
def test_sgf_and_xg_files_are_analysed_as_the_same_match_in_mat(match_file, tmp_path):
    """GNU Backgammon's SGF and eXtreme Gammon's .xg hold the same games: the same analysis."""
    from gammon.formats import read_mat, to_match, write_sgf
    from tests.formats.xg_writer import xg_bytes

    match = to_match(read_mat(match_file.read_text()))
    sgf, xg = tmp_path / "match.sgf", tmp_path / "match.xg"
    write_sgf(match, names=("Ann", "Bo"), file=sgf)
    xg.write_bytes(xg_bytes(match, names=("Ann", "Bo")))
    reports = []
    for path in (match_file, sgf, xg):
        out = gammon("analyse", str(path), "--plies", "0", "--json")
        assert out.returncode == 0, out.stderr
        reports.append(json.loads(out.stdout))
    assert reports[1] == reports[0] and reports[2] == reports[0]
    assert len(reports[0]["decisions"]) > 10
    bad = tmp_path / "bad.xg"
    bad.write_bytes(b"not an xg file" * 10)
    out = gammon("analyse", str(bad), "--plies", "0")
    assert out.returncode == 2 and "bad.xg: " in out.stderr and "Traceback" not in out.stderr


def test_a_file_that_cannot_be_read_is_named_once_in_the_language(tmp_path):
    out = gammon("--lang", "cs", "analyse", "nonexist.mat")
    assert out.returncode == 2
    assert out.stderr.startswith("gammon analyse: nelze přečíst 'nonexist.mat': ")
    assert out.stderr.count("nonexist.mat") == 1 and "Errno" not in out.stderr
    long = gammon("analyse", "x" * 5000 + ".mat")
    assert long.returncode == 2 and len(long.stderr) < 500  # a path is quoted up to 300 characters


def test_an_output_file_that_cannot_be_written_is_refused_before_the_analysis(match_file, tmp_path):
    """A missing folder was said after the whole analysis; now before it, and nothing is written.
    (A write that fails after the analysis: tests/analysis/test_analyse_outputs.py.)"""
    html = tmp_path / "r.html"
    out = gammon("--lang", "pl", "analyse", str(match_file), "--plies", "0", "--plain",
                 "--html", "/nonexistent/r.html", "--sgf", str(tmp_path / "a.sgf"))
    assert out.returncode == 2 and out.stdout == ""
    assert "gammon analyse: nie można zapisać '/nonexistent/r.html': " in out.stderr
    assert not (tmp_path / "a.sgf").exists()
    done = gammon("--lang", "pl", "analyse", str(match_file), "--plies", "0", "--json",
                  "--html", str(html))
    assert done.returncode == 0 and f"gammon analyse: raport zapisano do {html}" in done.stderr
    again = gammon("--lang", "pl", "analyse", str(match_file), "--plies", "0", "--json",
                   "--html", str(html))
    assert again.returncode == 2 and again.stdout == ""
    assert f"gammon analyse: '{html}' już istnieje; dodaj --force, aby go nadpisać" in again.stderr


def test_nothing_analysed_is_said_and_exits_2(tmp_path, capsys):
    from gammon.cli.main import main

    bad = tmp_path / "bad-game-1.mat"
    bad.write_text(" 3 point match\n\n Game 1\n Ann : 0                        Bo : 0\n  1) 31: 24/1\n")
    # the first game is bad: --partial keeps no game, and a report of zeros would look like one
    assert main(["analyse", str(bad), "--partial", "--plies", "0"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "'24/1' is not a legal play" in captured.err
    assert f"gammon analyse: {bad}: nothing could be analysed: the first game has errors" in captured.err
    empty = tmp_path / "empty.mat"
    empty.write_text(" 3 point match\n")
    assert main(["analyse", str(empty), "--plies", "0"]) == 2
    assert "nothing to analyse: the file holds no game" in capsys.readouterr().err
