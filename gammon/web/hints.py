"""Hints for the player to move: the engine's best plays where its trained net is installed, else
pubeval's ranking (labelled, so the UI says which judged them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gammon.engine.players import engine_available
from gammon.engine.pubeval import pubeval_ranked_plays
from gammon.position import Position
from gammon.situation import Situation

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


def play_hints(engine: Engine | None, situation: Situation, n: int) -> dict[str, Any]:
    """The ``n`` best plays of the situation's dice, best first, and what ranks them (``unit``):
    the engine's match winning chances in a match and its cubeless equity in a money game, or
    pubeval's score without the engine; ``plies``: the engine's depth."""
    dice = situation.dice
    assert dice is not None  # asked only with the dice rolled
    if engine is None:
        return {"unit": "pubeval", "plies": None, "hints": hints(None, situation.position, dice, n)}
    if situation.match is None:
        # a money game: the equity as the engine gives it (a stand-in advisor has no probabilities)
        found = hints(engine, situation.position, dice, n)
        return {"unit": "equity", "plies": getattr(engine, "plies", None), "hints": found}
    from gammon.advice import ranked_plays  # deferred: it loads the engine (see default_advisor)

    scored = ranked_plays(engine, situation, dice, n)
    return {"unit": "mwc", "plies": engine.plies, "hints": [(str(h.play), round(s, 4)) for h, s in scored]}


def cube_hint(engine: Engine, situation: Situation) -> dict[str, Any]:
    """The engine's cube decision for the one who decides now: the player on roll before the roll
    (``question`` "double"), or the one doubled (``question`` "take"; the equities are then the
    doubler's, as the engine judges the double from that side). A double the player on roll cannot
    make has None for its answer and equities."""
    from gammon.advice import cube_json  # deferred: it loads the engine (see default_advisor)

    cube = cube_json(engine.cube_decision(situation))
    question = "take" if situation.double_offered else "double"
    if question == "double" and not cube["available"]:
        # no double the player can make (the cube out of its hands, or dead): only the game as it
        # stands, as gammon eval gives it; the equities of a double it cannot make were shown
        cube.update(answer=None, double_take=None, double_pass=None)
        if cube["mwc"] is not None:
            cube["mwc"] = [cube["mwc"][0], None, None]
    return {
        "unit": "mwc" if situation.match is not None else "equity",
        "plies": engine.plies,
        "question": question,
        **cube,
    }
