"""Run Python inside the real GNU Backgammon program (Debian package gnubg) and read back what it
printed. Tests that need it are skipped only when the ``gnubg`` executable is absent."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

GNUBG = shutil.which("gnubg") or next(
    (p for p in ("/usr/games/gnubg", "/usr/bin/gnubg") if Path(p).exists()), None)

needs_gnubg = pytest.mark.skipif(GNUBG is None, reason="the gnubg executable (Debian package gnubg) "
                                 "is not installed")

_MARK = "@@GAMMON@@"

_PRELUDE = f"""
import json, sys
gnubg.command('set display off')
def emit(value):
    sys.stdout.write({_MARK!r} + json.dumps(value) + '\\n')
    sys.stdout.flush()
"""


def run_gnubg(script: str, workdir: Path | None = None, timeout: float = 300) -> list[Any]:
    """Run ``script`` (Python, with ``gnubg`` and ``emit(value)`` defined) in ``gnubg -t``; returns
    the emitted values in order."""
    assert GNUBG is not None
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(workdir or tmp)
        path = Path(tmp) / "script.py"
        path.write_text(_PRELUDE + script)
        done = subprocess.run([GNUBG, "-t", "-q", "-p", str(path)], capture_output=True, text=True,
                              timeout=timeout, cwd=where, stdin=subprocess.DEVNULL)
    values = [json.loads(line[len(_MARK):]) for line in done.stdout.splitlines()
              if line.startswith(_MARK)]
    if done.returncode != 0 and not values:
        raise RuntimeError(f"gnubg failed ({done.returncode}): {done.stdout[-2000:]} {done.stderr[-2000:]}")
    return values


def states_gnubg_reads(ids: list[str]) -> list[list[Any]]:
    """What gnubg makes of each GNU Backgammon ID or XGID (``set gnubgid`` / ``set xgid``): its
    Position ID, the player on roll, the score (player 0's first), the match length, the cube value
    and owner (-1: centred), the Crawford and Jacoby flags and the sorted dice ([0, 0]: none)."""
    script = (f"for x in {ids!r}:\n"
              "    gnubg.command(('set xgid ' if x.startswith('XGID') else 'set gnubgid ') + x)\n"
              "    c, p = gnubg.cubeinfo(), gnubg.posinfo()\n"
              "    emit([gnubg.gnubgid().split(':')[0], c['move'], list(c['score']), c['matchto'], "
              "c['cube'], c['cubeowner'], c['crawford'], c['jacoby'], sorted(p['dice'])])\n")
    return run_gnubg(script)
