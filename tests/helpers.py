"""Small helpers shared by the tests."""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pytest

from benchmarks.gnubg_harness import GNUBG
from gammon import Position

# The wildbg benchmark positions, kept in the repository (source and licence: data/wildbg/README.md).
WILDBG = Path(__file__).resolve().parent / "data" / "wildbg"

# Tests of the GNU Backgammon program (benchmarks/gnubg_harness.py) skip only where it is absent.
needs_gnubg = pytest.mark.skipif(GNUBG is None, reason="the gnubg executable (Debian package gnubg) "
                                 "is not installed")


def pos(text: str) -> Position:
    """``pos("x 24:2 13:5 8:3 6:5; o 24:2 13:5 8:3 6:5")``: x is the mover, o the opponent, each
    side numbering points from its own view; ``bar:N`` (or ``25:N``) puts checkers on the bar."""
    sides: dict[str, dict[int, int]] = {}
    for part in text.split(";"):
        words = part.split()
        points: dict[int, int] = {}
        for word in words[1:]:
            point, count = word.split(":")
            points[25 if point == "bar" else int(point)] = int(count)
        sides[words[0]] = points
    return Position.from_points(sides.get("x", {}), sides.get("o", {}))


def random_game_positions(seed: int, games: int) -> list[Position]:
    """Every position (player on roll's view) of ``games`` random games, with random legal plays."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        p = Position.initial()
        while not p.is_game_over():
            out.append(p)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = p.legal_plays(dice)
            p = rng.choice(plays).after if plays else p.flip()
    return out


def wildbg_ids(name: str) -> list[str]:
    return [line.strip() for line in (WILDBG / f"{name}.csv").read_text().splitlines() if line.strip()]


def bad_npz_files(folder: Path) -> list[Path]:
    """Files under ``folder`` that no ``.npz`` loader may read: a text file, an empty file and a
    zip archive cut in half (it starts as an .npz does)."""
    text, empty, cut_zip = folder / "text.npz", folder / "empty.npz", folder / "cut.npz"
    text.write_text("not an archive\n")
    empty.write_bytes(b"")
    np.savez(cut_zip, a=np.arange(100))
    cut_zip.write_bytes(cut_zip.read_bytes()[:200])
    return [text, empty, cut_zip]


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` still exists (a worker the tests expect killed)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
