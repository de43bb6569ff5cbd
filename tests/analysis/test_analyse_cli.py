"""`gammon analyse` through its console entry point: what it refuses before analysing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gammon.formats import write_mat
from tests.analysis.games import forced_game


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
