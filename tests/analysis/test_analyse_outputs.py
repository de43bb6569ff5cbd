"""`gammon analyse`'s output files and what the command takes from other modules."""

from __future__ import annotations

import ast
from pathlib import Path

ANALYSE = Path(__file__).resolve().parents[2] / "gammon" / "cli" / "analyse.py"


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

