"""The tutor on the web: before the player's own play or cube action is sent, the page asks the
server whether the tutor (gammon.analysis.tutor, as ``gammon play --tutor``) flags it; the engine
work runs in an engine worker (gammon.web.engine_pool), as hints do.

Nothing is recorded by a check: the player then takes the choice back (nothing is sent) or sends
it as any other action, so a match's record holds the final choice only. This module loads the
engine: only the engine workers import it.
"""

from __future__ import annotations

from typing import Any

from gammon.analysis.marks import Skill
from gammon.analysis.tutor import Tutor
from gammon.engine.engine import Engine
from gammon.errors import IllegalActionError
from gammon.game import ActionKind, Request
from gammon.i18n import tr
from gammon.situation import Situation

LEVELS = ("doubtful", "bad", "very bad")  # the marks the tutor warns from, as the page names them
_TUTORS: dict[tuple[int, str], Tutor] = {}  # a worker's tutors, by engine and level


def tutor_warning(
    engine: Engine | None, situation: Situation, request: Request, level: str
) -> dict[str, Any] | None:
    """The warning (JSON) when the tutor, judging with ``engine``, marks ``request`` ``level`` or
    worse; None when it does not (or does not judge such a request)."""
    if not isinstance(engine, Engine):
        raise IllegalActionError(tr("no tutor: it needs the engine, which is not installed here"))
    key = (id(engine), level)
    tutor = _TUTORS.get(key)
    if tutor is None:
        tutor = _TUTORS[key] = Tutor(engine, Skill(level))
    warning = tutor.warning(situation, request)
    if warning is None:
        return None
    best = warning.best
    return {
        "mark": warning.skill.value,
        "error": round(warning.error, 4),
        "cost": round(warning.cost, 4),
        "unit": "mwc" if warning.in_match else "emg",
        "chosen": warning.chosen_words,
        "best": warning.best_words,
        "best_action": best.kind.value,
        "best_play": str(best.play) if best.kind is ActionKind.PLAY and best.play is not None else None,
        "equity": round(warning.equity, 4),
        "best_equity": round(warning.best_equity, 4),
        "plies": engine.plies,
    }


__all__ = ["LEVELS", "tutor_warning"]
