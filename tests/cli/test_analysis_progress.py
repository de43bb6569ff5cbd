"""The note on stderr while numba compiles the engine (a first run), and none once it is cached."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from numba import njit

from gammon.cli.progress import COMPILING, compile_notice


def test_the_note_appears_while_numba_compiles(capsys) -> None:
    @njit
    def add(a, b):  # defined here: compiled at its first call
        return a + b

    with compile_notice(after=0.0):
        assert add(1, 2) == 3
        time.sleep(0.3)  # the note comes from a timer thread
    assert capsys.readouterr().err == COMPILING + "\n"


def test_no_note_without_compiling_or_when_it_is_quick(capsys) -> None:
    @njit
    def add(a, b):
        return a + b

    with compile_notice(after=0.0):
        time.sleep(0.3)
    with compile_notice(after=60.0):
        assert add(1, 2) == 3
    time.sleep(0.3)
    assert capsys.readouterr().err == ""


@pytest.mark.slow
def test_a_first_run_says_it_is_compiling_and_the_next_does_not(tmp_path) -> None:
    # where the precompiled kernels cannot be used (here: turned off), numba compiles them
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(NUMBA_CACHE_DIR=str(tmp_path), GAMMON_NO_PRECOMPILED="1")  # numba's cache, empty
    command = [sys.executable, "-m", "gammon.cli.main", "eval", "4HPwATDgc/ABMA", "--plies", "0"]
    first = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    assert first.returncode == 0, first.stderr
    assert first.stderr.count(COMPILING) == 1
    assert any(tmp_path.rglob("*.nbi"))
    again = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    assert again.returncode == 0 and again.stderr == "" and again.stdout == first.stdout

