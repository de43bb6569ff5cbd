"""Hints for the player to move: the engine's best plays where its trained net is installed, else
pubeval's ranking (labelled, so the UI says which judged them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gammon.engine.players import engine_available
from gammon.engine.pubeval import pubeval_ranked_plays
from gammon.position import Position

if TYPE_CHECKING:
    from gammon.engine.engine import Engine


def default_advisor() -> Engine | None:
    """The engine the server gives hints with when none is given: 0-ply (a hint must come fast),
    or None where the trained net is not installed."""
    if not engine_available():
        return None
    # deferred to first use: it loads the engine, which the server process starts without
    from gammon.engine.engine import Engine

    return Engine(plies=0)


def hint_source(engine: Engine | None) -> str:
    return "engine" if engine is not None else "pubeval"


def hints(
    engine: Engine | None, position: Position, dice: tuple[int, int], n: int = 3
) -> list[tuple[str, float]]:
    """Up to ``n`` plays, best first, with the judge's score (engine: cubeless equity; without an
    engine, pubeval's ranking)."""
    if engine is not None:
        return [(str(h.play), round(h.equity, 3)) for h in engine.hint(position, dice, n)]
    return [(str(play), round(score, 3)) for play, score in pubeval_ranked_plays(position, dice)[:n]]
