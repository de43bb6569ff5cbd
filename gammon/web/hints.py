"""Hints for the player to move: the engine's best plays where its trained net is installed, else
pubeval's ranking (labelled, so the UI says which judged them)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from gammon.engine.players import engine_available
from gammon.position import Position

if TYPE_CHECKING:
    from gammon.engine.engine import Engine


@lru_cache(maxsize=1)
def _engine() -> Engine:
    from gammon.engine.engine import Engine

    return Engine(plies=0)


def hint_source() -> str:
    return "engine" if engine_available() else "pubeval"


def hints(position: Position, dice: tuple[int, int], n: int = 3) -> list[tuple[str, float]]:
    """Up to ``n`` plays, best first, with the judge's score (engine: cubeless equity)."""
    if engine_available():
        return [(str(h.play), round(h.equity, 3)) for h in _engine().hint(position, dice, n)]
    from gammon.engine.pubeval import pubeval_ranked_plays

    return [(str(play), round(score, 3)) for play, score in pubeval_ranked_plays(position, dice)[:n]]
