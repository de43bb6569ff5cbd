"""`gammon analyse`'s output files: refused before the analysis when they exist (without --force)
or cannot be written, and written whole or not at all after it."""

from __future__ import annotations

import ast
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

