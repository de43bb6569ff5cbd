"""benchmarks/strength/strength.py plays a bot written against gammon's API (``py:MODULE.FUNCTION``)
against the others, mirrored dice and all, and refuses an illegal play naming the bot."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.strength import strength

ROOT = Path(__file__).resolve().parents[2]


def test_a_python_bot_plays_whole_games_with_legal_plays() -> None:
    bot = strength.make_player("py:tests.benchmarks.sample_bot.last_play")
    pubeval = strength.make_player("pubeval")
    results = [strength.play_game(bot, pubeval, random.Random(k), k % 2 == 0) for k in range(6)]
    assert all(r in (-3, -2, -1, 1, 2, 3) for r in results)
    assert sum(results) < 0  # the last legal play is a poor choice against pubeval


def test_an_illegal_play_is_refused_naming_the_bot() -> None:
    cheat = strength.make_player("py:tests.benchmarks.sample_bot.cheat")
    with pytest.raises(ValueError, match=r"py:tests.benchmarks.sample_bot.cheat played .* not a legal play"):
        strength.play_game(cheat, strength.make_player("pubeval"), random.Random(1), True)
    with pytest.raises(ValueError, match="MODULE.FUNCTION"):
        strength.make_player("py:nomodule")


def test_the_command_reports_the_bot_with_its_standard_error() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the module is found from the cwd
    bot = "py:tests.benchmarks.sample_bot.last_play"
    command = [sys.executable, "-m", "benchmarks.strength.strength", bot, "pubeval", "--pairs", "4",
               "--workers", "2"]
    out = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"{bot} vs pubeval: ")
    assert "ppg +- " in out.stdout and "over 8 games" in out.stdout
