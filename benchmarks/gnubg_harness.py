"""GNU Backgammon, the program (Debian package gnubg), running Python scripts: the one harness of
the benchmarks and the tests (standard library only, so the tests import it without the
benchmarks' heavy parts).

``gnubg -t -q -p script.py`` runs a script inside GNU Backgammon, where the module ``gnubg`` drives
it. Every script run here starts with :data:`PRELUDE`, which turns gnubg's board display off and
defines

* ``emit(value)``: hands ``value`` (JSON) back to the harness, on a file descriptor of its own, so
  nothing gnubg prints can mix with it;
* ``capture(command)``: runs a gnubg command and returns what it printed. gnubg prints at the C
  level, on file descriptor 1, not through Python's ``sys.stdout``; ``capture`` sends that
  descriptor to a file for the command's time, C buffers flushed on both sides.

:func:`run_gnubg` runs a script to its end and returns what it emitted; :class:`GnubgProcess`
keeps one running, answering lines sent to it one at a time.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import IO, Any

GNUBG: str | None = shutil.which("gnubg") or next(
    (p for p in ("/usr/games/gnubg", "/usr/bin/gnubg") if Path(p).exists()), None)

_EMIT_FD = "GAMMON_GNUBG_EMIT_FD"  # the environment variable naming emit's file descriptor

PRELUDE = f'''
import ctypes, json, os, sys, tempfile

gnubg.command("set display off")

_emitted = os.fdopen(int(os.environ[{_EMIT_FD!r}]), "w")


def emit(value):
    """Hand value (JSON) back to the harness."""
    _emitted.write(json.dumps(value) + "\\n")
    _emitted.flush()


_libc = ctypes.CDLL(None)
_printed_file = tempfile.TemporaryFile(buffering=0)  # what a command prints, read back by capture
_printed = _printed_file.fileno()


def capture(command):
    """What gnubg prints (at the C level, on file descriptor 1) for command."""
    sys.stdout.flush()
    _libc.fflush(None)
    os.ftruncate(_printed, 0)
    os.lseek(_printed, 0, os.SEEK_SET)
    saved = os.dup(1)
    os.dup2(_printed, 1)
    try:
        gnubg.command(command)
    finally:
        sys.stdout.flush()
        _libc.fflush(None)
        os.dup2(saved, 1)
        os.close(saved)
    os.lseek(_printed, 0, os.SEEK_SET)
    chunks = []
    while True:
        chunk = os.read(_printed, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", "replace")

'''


def gnubg_program() -> str:
    """The path of the gnubg program, ready to start: RuntimeError where it is not installed."""
    if GNUBG is None:
        raise RuntimeError("GNU Backgammon is not installed (Debian package gnubg, in /usr/games)")
    # processes starting gnubg at once on a new machine all make ~/.gnubg, and a loser of that race
    # stops at once ("/root/.gnubg: File exists"): make it first
    os.makedirs(os.path.join(os.path.expanduser("~"), ".gnubg"), exist_ok=True)
    return GNUBG


def run_gnubg(script: str, workdir: Path | None = None, timeout: float | None = 300,
              expect: int | None = None) -> list[Any]:
    """Run ``script`` (Python, after :data:`PRELUDE`) in ``gnubg -t`` in the folder ``workdir`` (a
    temporary one by default); returns the values it emitted, in order. RuntimeError, with the
    end of what gnubg printed, when it emitted other than ``expect`` values, or (``expect`` None)
    when it failed before emitting any."""
    program = gnubg_program()
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryFile() as emitted:
        path = Path(tmp) / "script.py"
        path.write_text(PRELUDE + script)
        fd = emitted.fileno()
        done = subprocess.run([program, "-t", "-q", "-p", str(path)], capture_output=True, text=True,
                              timeout=timeout, cwd=workdir or tmp, stdin=subprocess.DEVNULL,
                              pass_fds=(fd,), env={**os.environ, _EMIT_FD: str(fd)})
        emitted.seek(0)
        values = [json.loads(line) for line in emitted.read().decode("utf-8").splitlines()]
    failed = done.returncode != 0 and not values if expect is None else len(values) != expect
    if failed:
        wanted = "" if expect is None else f" of {expect}"
        raise RuntimeError(f"gnubg emitted {len(values)} values{wanted} (exit {done.returncode}): "
                           f"{done.stdout[-2000:]} {done.stderr[-2000:]}")
    return values


class GnubgProcess:
    """One ``gnubg -t`` running ``script`` (Python, after :data:`PRELUDE`), kept running: the
    script reads lines from its standard input (:meth:`send`) and emits its answers
    (:meth:`receive`). It ends when this side closes its input (:meth:`close`) or dies."""

    def __init__(self, script: str) -> None:
        program = gnubg_program()
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write(PRELUDE + script)
        self._script = f.name
        read, write = os.pipe()
        self._log = tempfile.TemporaryFile()
        self._process = subprocess.Popen(
            [program, "-t", "-q", "-p", self._script], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
            stderr=self._log, pass_fds=(write,), env={**os.environ, _EMIT_FD: str(write)}, text=True)
        os.close(write)
        self._emitted: IO[str] = os.fdopen(read, "r")

    def send(self, line: str) -> None:
        """Send one line (without its newline) to the script's standard input."""
        assert self._process.stdin is not None
        self._process.stdin.write(line + "\n")
        self._process.stdin.flush()

    def receive(self) -> Any:
        """The next value the script emits; RuntimeError, with what gnubg wrote to its standard
        error, when it stopped."""
        line = self._emitted.readline()
        if not line:
            self._log.seek(0)
            log = self._log.read().decode("utf-8", "replace")
            raise RuntimeError(f"gnubg stopped answering (exit {self._process.poll()}): {log[-1000:]}")
        return json.loads(line)

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=30)
        self._emitted.close()
        self._log.close()
        os.unlink(self._script)


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
