"""`gammon analyse` through its console entry point: what it refuses before analysing, what it writes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gammon import Rules
from gammon.formats import write_mat
from gammon.formats.convert import read_match, reading_format
from gammon.formats.sgf import write_sgf
from tests.analysis.games import blunder_game, forced_game


def _gammon(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gammon.cli.main", *args], capture_output=True,
                          text=True, timeout=300)


def test_a_negative_seed_is_refused_before_the_analysis(tmp_path: Path) -> None:
    path = tmp_path / "m.mat"
    write_mat([forced_game()], names=("Ann", "Bo"), file=path)
    out = _gammon("analyse", str(path), "--plies", "0", "--seed", "-1")
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert "--seed" in out.stderr and "'-1'" in out.stderr
    assert out.stdout == ""  # no analysis was run nor printed
    ok = _gammon("analyse", str(path), "--plies", "0", "--seed", "7", "--json")
    assert ok.returncode == 0, ok.stderr


def test_the_analysed_sgf_keeps_the_match_information_of_the_file(tmp_path: Path) -> None:
    source = tmp_path / "m.sgf"
    write_sgf([forced_game(Rules(match_length=5))], ("Ann", "Bo"), source,
              {"EV": "Open <final>", "DT": "2024-05-01", "PC": "Paris", "RO": "3"})
    out = tmp_path / "analysed.sgf"
    done = _gammon("analyse", str(source), "--plies", "0", "--sgf", str(out))
    assert done.returncode == 0, done.stderr
    written = read_match(out.read_bytes(), reading_format(str(out)))
    assert written.info == {"event": "Open <final>", "date": "2024-05-01", "place": "Paris", "round": "3"}
    assert written.names == ("Ann", "Bo")


def test_names_that_look_like_console_markup_are_printed_as_they_are(tmp_path: Path) -> None:
    """The terminal report prints the names as text: '[/b]' is no closing tag of rich's markup
    (it raised MarkupError after the analysis) and '[red]' no colour."""
    path = tmp_path / "m.sgf"
    write_sgf([blunder_game()], ("[/b]", "[red]Bob"), path)
    out = _gammon("analyse", str(path), "--plies", "0", "--plain")
    assert out.returncode == 0, out.stderr[-2000:]
    assert "[/b]" in out.stdout and "[red]Bob" in out.stdout
    header = next(line for line in out.stdout.splitlines() if "[red]Bob" in line and "vs" not in line)
    assert "[/b]" in header  # the table's columns are named so too


def test_an_output_file_that_is_the_match_file_is_refused_before_the_analysis(tmp_path: Path) -> None:
    """--html onto the match file replaced the match with the report; --sgf onto it, or both
    outputs onto one file, lost one of them."""
    path = tmp_path / "m.mat"
    write_mat([forced_game()], names=("Ann", "Bo"), file=path)
    original = path.read_bytes()
    (tmp_path / "sub").mkdir()
    for args in (["--html", str(path)], ["--sgf", str(tmp_path / "sub" / ".." / "m.mat")],
                 ["--sgf", str(tmp_path / "r.x"), "--html", str(tmp_path / "r.x")]):
        out = _gammon("analyse", str(path), "--plies", "0", *args)
        assert out.returncode == 2, args
        assert "overwrit" in out.stderr and repr(args[-1]) in out.stderr, out.stderr
        assert out.stdout == ""  # refused before the analysis
        assert path.read_bytes() == original
        assert not (tmp_path / "r.x").exists()
    ok = _gammon("analyse", str(path), "--plies", "0", "--html", str(tmp_path / "r.html"),
                 "--sgf", str(tmp_path / "r.sgf"))
    assert ok.returncode == 0, ok.stderr
    assert (tmp_path / "r.html").exists() and (tmp_path / "r.sgf").exists()


def test_an_empty_output_name_is_refused_before_the_analysis(tmp_path: Path) -> None:
    """--html "" (an empty shell variable) wrote nothing, said nothing and exited 0."""
    path = tmp_path / "m.mat"
    write_mat([forced_game()], names=("Ann", "Bo"), file=path)
    for option in ("--html", "--sgf"):
        out = _gammon("analyse", str(path), "--plies", "0", option, "")
        assert out.returncode == 2, option
        assert option in out.stderr and "''" in out.stderr, out.stderr
        assert out.stdout == ""


def test_an_output_path_in_a_symbolic_link_loop_is_refused_before_the_analysis(tmp_path: Path) -> None:
    """The check that an output is not the match file resolved the path and raised on a link loop
    (a traceback); the loop exists (--force is asked for) and cannot be written, said before the
    analysis as for any file that cannot be written."""
    path = tmp_path / "m.mat"
    write_mat([forced_game()], names=("Ann", "Bo"), file=path)
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    loop = str(tmp_path / "a")
    out = _gammon("analyse", str(path), "--plies", "0", "--html", loop)
    assert out.returncode == 2 and out.stdout == ""
    assert f"{loop!r} exists; add --force to overwrite it" in out.stderr
    out = _gammon("analyse", str(path), "--plies", "0", "--html", loop, "--force")
    assert out.returncode == 2 and out.stdout == ""
    assert "Traceback" not in out.stderr
    assert f"cannot write {loop!r}: " in out.stderr
    assert (tmp_path / "a").is_symlink() and (tmp_path / "b").is_symlink()
