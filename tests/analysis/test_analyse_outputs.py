"""`gammon analyse`'s output files: refused before the analysis when they exist (without --force)
or cannot be written, and written whole or not at all after it."""

from __future__ import annotations

import ast
import os
import resource
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from gammon import Rules
from gammon.cli.main import main
from gammon.formats import write_mat
from tests.analysis.games import blunder_game

ANALYSE = Path(__file__).resolve().parents[2] / "gammon" / "cli" / "analyse.py"


@pytest.fixture
def match_file(tmp_path: Path) -> Path:
    path = tmp_path / "m.mat"
    write_mat([blunder_game(Rules(match_length=5))], names=("Ann", "Bo"), file=path)
    return path


@pytest.mark.parametrize("option", ["--html", "--sgf"])
def test_an_existing_output_is_refused_before_the_analysis_without_force(
    option: str, match_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--html and --sgf replaced an existing file silently; gammon convert asks for --force."""
    out = tmp_path / "out.x"
    out.write_text("keep me")
    assert main(["analyse", str(match_file), "--plies", "0", option, str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # refused before the analysis
    assert f"gammon analyse: {str(out)!r} exists; add --force to overwrite it" in captured.err
    assert out.read_text() == "keep me"
    assert main(["analyse", str(match_file), "--plies", "0", option, str(out), "--force"]) == 0
    assert "Ann" in capsys.readouterr().out
    written = out.read_text(encoding="utf-8")
    assert written.startswith("<!DOCTYPE html>" if option == "--html" else "(;FF[4]GM[6]")


@pytest.mark.parametrize("option", ["--html", "--sgf"])
def test_an_output_that_cannot_be_written_is_refused_before_the_analysis(
    option: str, match_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing folder was said only after the whole analysis."""
    nowhere = tmp_path / "no" / "r.x"
    folder = tmp_path / "folder"
    folder.mkdir()
    for path, force in ((nowhere, False), (folder, True)):
        args = ["analyse", str(match_file), "--plies", "0", option, str(path)]
        assert main([*args, "--force"] if force else args) == 2
        captured = capsys.readouterr()
        assert captured.out == ""  # nothing analysed
        assert f"gammon analyse: cannot write {str(path)!r}: " in captured.err
        assert "Traceback" not in captured.err
    assert not (tmp_path / "no").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in a read-only folder")
def test_a_read_only_folder_is_refused_before_the_analysis(
    match_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        assert main(["analyse", str(match_file), "--plies", "0", "--html", str(folder / "r.html")]) == 2
    finally:
        folder.chmod(0o700)
    captured = capsys.readouterr()
    assert captured.out == "" and "Permission denied" in captured.err
    assert list(folder.iterdir()) == []


def _limit_file_size() -> None:
    # a write past 2000 bytes fails (EFBIG), as on a full disk, instead of killing the process
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))


def test_a_write_that_fails_after_the_analysis_leaves_no_half_file_and_the_report_is_printed(
    match_file: Path, tmp_path: Path
) -> None:
    """A write cut short (a full disk) left half a report, and with --force the old file was lost."""
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    report, old = out_dir / "r.html", out_dir / "old.html"
    old.write_text("the previous report")
    for path, force in ((report, []), (old, ["--force"])):
        done = subprocess.run(
            [sys.executable, "-m", "gammon.cli.main", "analyse", str(match_file), "--plies", "0", "--plain",
             "--html", str(path), *force],
            capture_output=True, text=True, timeout=300, preexec_fn=_limit_file_size,
        )
        assert done.returncode == 2, done.stderr[-2000:]
        assert (f"gammon analyse: cannot write {str(path)!r}: File too large; nothing of it was written, "
                "and the analysis is printed all the same") in done.stderr
        assert "Ann vs Bo: 5-point match" in done.stdout  # the analysis is not lost
    assert sorted(p.name for p in out_dir.iterdir()) == ["old.html"]  # no half file, no temporary one
    assert old.read_text() == "the previous report"


def test_a_written_output_has_the_usual_permissions(match_file: Path, tmp_path: Path) -> None:
    report = tmp_path / "r.html"
    assert main(["analyse", str(match_file), "--plies", "0", "--json", "--html", str(report)]) == 0
    mask = os.umask(0)
    os.umask(mask)
    assert report.stat().st_mode & 0o777 == 0o666 & ~mask
    report.chmod(0o640)
    assert main(["analyse", str(match_file), "--plies", "0", "--json", "--html", str(report), "--force"]) == 0
    assert report.stat().st_mode & 0o777 == 0o640


def test_a_symbolic_link_is_written_through(match_file: Path, tmp_path: Path) -> None:
    target = tmp_path / "real.sgf"
    target.write_text("old")
    link = tmp_path / "link.sgf"
    link.symlink_to(target)
    assert main(["analyse", str(match_file), "--plies", "0", "--json", "--sgf", str(link), "--force"]) == 0
    assert link.is_symlink() and target.read_text(encoding="utf-8").startswith("(;FF[4]")


def test_a_named_pipe_is_written_as_it_is(match_file: Path, tmp_path: Path) -> None:
    """A path that is no regular file (a pipe, /dev/stdout) takes the report as it is: it was
    refused as 'not seekable' (a temporary file cannot be renamed onto a pipe)."""
    pipe = tmp_path / "report.pipe"
    os.mkfifo(pipe)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_bytes()))
    reader.start()
    try:
        code = main(["analyse", str(match_file), "--plies", "0", "--json", "--html", str(pipe), "--force"])
    finally:
        if reader.is_alive():  # unblock the reader if nothing opened the pipe
            with open(pipe, "wb"):
                pass
        reader.join()
    assert code == 0 and got[0].startswith(b"<!DOCTYPE html>") and pipe.is_fifo()


def test_the_command_uses_no_private_name_of_another_module() -> None:
    """It read the SGF information's names through gammon.formats.convert's private _SGF_INFO."""
    from gammon.formats import convert

    private = [
        f"{node.module}.{alias.name}"
        for node in ast.walk(ast.parse(ANALYSE.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name.startswith("_")
    ]
    assert private == []
    assert convert.SGF_INFO["EV"] == "event" and convert._SGF_INFO is convert.SGF_INFO

