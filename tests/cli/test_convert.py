"""`gammon convert IN OUT`, run in-process through the real argument parser (gammon.cli.main.main)."""

from __future__ import annotations

import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from gammon.cli.main import main
from gammon.formats.mat import format_mat, read_mat, to_match
from gammon.formats.sgf import read_sgf
from gammon.game import Action, Double, Pass, PlayMade, Take
from gammon.match import Match
from gammon.rules import Rules
from tests.formats.random_play import play_match
from tests.formats.test_sgf import GNUBG_STYLE


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["convert", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_mat_to_sgf_to_mat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = play_match(3, Rules(match_length=5), double=0.1, resign=0.02)
    source = tmp_path / "match.mat"
    source.write_text(format_mat(match, ("Ann", "Ben")))
    code, out, err = run(capsys, source, tmp_path / "match.sgf")
    assert (code, err) == (0, "")
    games = len(match.games)
    target = tmp_path / "match.sgf"
    assert out == f"{source} (mat) -> {target} (sgf): 5-point match, {games} games, Ann vs Ben\n"
    record = read_sgf((tmp_path / "match.sgf").read_bytes())
    assert record.match.score == match.score and record.names == ("Ann", "Ben")
    code, out, err = run(capsys, tmp_path / "match.sgf", tmp_path / "again.mat")
    assert code == 0 and "Not carried over" not in out
    assert to_match(read_mat((tmp_path / "again.mat").read_text())).score == match.score


def test_report_of_what_is_not_carried_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "gnubg.sgf"
    source.write_text(GNUBG_STYLE)
    code, out, err = run(capsys, source, tmp_path / "gnubg.mat")
    assert (code, err) == (0, "")
    assert out.splitlines()[1:] == [
        "Not carried over to mat:",
        "  - comments on moves (C properties)",
        "  - gnubg's analysis (A, DA, GS, MR properties)",
    ]


def test_refuses_to_overwrite_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, target = tmp_path / "a.sgf", tmp_path / "b.mat"
    source.write_text(GNUBG_STYLE)
    target.write_text("keep me")
    code, out, err = run(capsys, source, target)
    assert code == 2 and out == ""
    assert err == f"gammon convert: '{target}' exists; add --force to overwrite it\n"
    assert target.read_text() == "keep me"
    code, out, err = run(capsys, "--force", source, target)
    assert code == 0 and read_mat(target.read_text()).names == ("Alice", "Bob")


def test_bad_input_is_quoted_and_nothing_is_written(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    source, target = tmp_path / "bad.sgf", tmp_path / "out.mat"
    source.write_text(GNUBG_STYLE.replace("W[52mhxv]", "W[52mhxu]"))
    code, out, err = run(capsys, source, target)
    assert code == 2 and out == "" and not target.exists()
    assert err.startswith(f"gammon convert: {source}: game 1, SGF line 3: ';W[52mhxu]C[a comment]': ")
    assert "13/8 24/21 is not a legal play of 52" in err
    source.write_text("(;FF[4]GM[6]")
    code, out, err = run(capsys, source, target)
    assert code == 2 and "SGF line 1, column 13: expected ')'" in err
    mat = tmp_path / "bad.mat"
    mat.write_text(" 3 point match\n\n Game 1\n A : 0     B : 0\n  1) 52: 13/6 24/22\n")
    code, out, err = run(capsys, mat, target)
    assert code == 2 and "'1) 52: 13/6 24/22'" in err and not target.exists()


def test_formats_by_extension_or_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "match.dat"
    source.write_text(GNUBG_STYLE)
    code, out, err = run(capsys, source, tmp_path / "out.mat")
    assert code == 2 and "unknown match file format '.dat'" in err and "sgf (.sgf)" in err
    code, out, err = run(capsys, "--from", "sgf", "--to", "mat", source, tmp_path / "out.dat")
    assert code == 0 and read_mat((tmp_path / "out.dat").read_text()).match_length == 3
    code, out, err = run(capsys, tmp_path / "missing.sgf", tmp_path / "x.mat")
    assert code == 2 and "cannot read" in err and "missing.sgf" in err
    with pytest.raises(SystemExit):  # argparse refuses a format it does not know
        main(["convert", "--to", "xg", str(source), str(tmp_path / "y.xg")])


def test_a_mat_file_named_txt_converts_as_the_sites_export_it(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    match = play_match(2, Rules(match_length=3), double=0.1, resign=0.0)
    source = tmp_path / "match.txt"
    source.write_text(format_mat(match, ("Ann", "Ben")))
    code, out, err = run(capsys, source, tmp_path / "match.sgf")
    assert (code, err) == (0, "") and out.startswith(f"{source} (mat) -> ")
    assert read_sgf((tmp_path / "match.sgf").read_bytes()).match.score == match.score
    code, out, err = run(capsys, tmp_path / "match.sgf", tmp_path / "back.txt")
    assert code == 0 and to_match(read_mat((tmp_path / "back.txt").read_text())).score == match.score


def test_warnings_are_shown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a money session whose second game's score disagrees with the first game's result
    text = ("(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]RE[B+1]\n;W[31hefe]\n;B[double]\n;W[drop])\n"
            "(;FF[4]GM[6]MI[length:0][game:1][ws:0][bs:2])\n")
    source = tmp_path / "session.sgf"
    source.write_text(text)
    code, out, err = run(capsys, source, tmp_path / "session.mat")
    assert code == 0 and "Player 1 vs Player 2" in out
    assert err.startswith(f"gammon convert: warning: {source}: game 2, SGF line 5:")
    assert "the score MI[ws:0][bs:2] disagrees with the games before it, which make (0, 1)" in err


def test_xg_to_mat_and_sgf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.formats import xg_writer

    match = play_match(5, Rules(match_length=7, cube_limit=1024), double=0.1, resign=0.02)
    source = tmp_path / "match.xg"
    source.write_bytes(xg_writer.xg_bytes(match, ("Ann", "Ben"), event="Club night"))
    code, out, err = run(capsys, source, tmp_path / "match.mat")
    assert (code, err) == (0, ""), err
    assert out.startswith(f"{source} (xg) -> {tmp_path / 'match.mat'} (mat): 7-point match")
    again = to_match(read_mat((tmp_path / "match.mat").read_text()))

    def kept(m: Match) -> list[list[Action]]:  # XG keeps no rejected resignation offers
        return [[a for a in g.history if isinstance(a, PlayMade | Double | Take | Pass)] for g in m.games]

    assert kept(again) == kept(match) and [g.result for g in again.games] == [g.result for g in match.games]
    code, out, err = run(capsys, source, tmp_path / "match.sgf")
    assert code == 0, err
    sgf = read_sgf((tmp_path / "match.sgf").read_bytes())
    assert sgf.names == ("Ann", "Ben") and sgf.match.score == match.score


def test_xg_cannot_be_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "match.mat"
    source.write_text(format_mat(play_match(2, Rules(match_length=3)), ("Ann", "Ben")))
    code, _, err = run(capsys, source, tmp_path / "out.xg")
    assert code == 2 and "gammon cannot write xg files" in err


def test_an_output_format_it_cannot_write_is_refused_before_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The refusal names the format, not the input file as though the input were at fault, and
    comes before the input is read (a missing input is not what stands in the way)."""
    code, _, err = run(capsys, tmp_path / "missing.mat", tmp_path / "out.xg")
    assert (code, err) == (2, "gammon convert: gammon cannot write xg files\n")
    assert not (tmp_path / "out.xg").exists()


def _file_size_limit(limit: int) -> None:
    """In the child: writes past ``limit`` bytes fail (EFBIG), as on a full disk."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_a_write_that_fails_leaves_the_file_there_whole(tmp_path: Path) -> None:
    """Converted with --force over a file where it cannot grow (as on a full disk): the file
    there was cut to its first bytes."""
    source, there = tmp_path / "match.mat", tmp_path / "copy.mat"
    source.write_text(format_mat(play_match(2, Rules(match_length=3)), ("Ann", "Ben")))
    there.write_text(source.read_text())
    before = there.read_text()
    limit = len(before.encode()) // 2
    # the engine's kernels installed and cached first, unlimited: under the limit a fresh install
    # could not write them (numba's cache files are larger than it), which is not what is tested
    warm = subprocess.run([sys.executable, "-m", "gammon", "convert", "match.mat", "warm.sgf"], text=True,
                          capture_output=True, cwd=tmp_path, timeout=300)
    assert warm.returncode == 0, warm.stderr
    (tmp_path / "warm.sgf").unlink()
    proc = subprocess.run([sys.executable, "-m", "gammon", "convert", "match.mat", "copy.mat", "--force"],
                          text=True, capture_output=True, cwd=tmp_path, timeout=120,
                          preexec_fn=lambda: _file_size_limit(limit))
    assert proc.returncode == 2 and "cannot write 'copy.mat': File too large" in proc.stderr, proc.stderr
    assert there.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.mat", "match.mat"]  # no temporary file


def test_the_input_is_not_written_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """OUT naming IN itself (or through a link), even with --force: the conversion would replace
    the file it reads, and what the output format cannot hold would be gone with it."""
    source = tmp_path / "match.mat"
    source.write_text(format_mat(play_match(2, Rules(match_length=3)), ("Ann", "Ben")))
    before = source.read_text()
    (tmp_path / "link.sgf").symlink_to(source)
    for out in (source, tmp_path / "link.sgf", tmp_path / "." / "match.mat"):
        code, _, err = run(capsys, source, out, "--force", "--to", "sgf")
        assert code == 2 and f"{str(out)!r} is IN itself" in err, err
    assert source.read_text() == before
