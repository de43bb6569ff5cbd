"""Run Python inside the real GNU Backgammon program (Debian package gnubg) and read back what it
printed: the one harness of the benchmarks and the tests (standard library only, so the tests import
it without the benchmarks' heavy parts).

gnubg's commands print at the C level, on file descriptor 1, not through Python's ``sys.stdout``;
``capture(command)`` (:data:`CAPTURE`, text for a script) reads that output through a pipe."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

GNUBG = shutil.which("gnubg") or next(
    (p for p in ("/usr/games/gnubg", "/usr/bin/gnubg") if Path(p).exists()), None)

CAPTURE = r'''
def capture(command):
    """What gnubg prints (at C level, on fd 1) for command."""
    sys.stdout.flush()
    read, write = os.pipe()
    saved = os.dup(1)
    os.dup2(write, 1)
    try:
        gnubg.command(command)
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(write)
        os.close(saved)
    chunks = []
    while True:
        chunk = os.read(read, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read)
    return b"".join(chunks).decode("utf-8", "replace")
'''

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
