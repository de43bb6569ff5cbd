"""``python -m gammon`` runs the same command as the ``gammon`` console script."""

import subprocess
import sys

import gammon


def test_python_m_gammon_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gammon", "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert gammon.__version__ in done.stdout


def test_python_m_gammon_refuses_an_unknown_command() -> None:
    done = subprocess.run([sys.executable, "-m", "gammon", "fly"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "fly" in done.stderr
