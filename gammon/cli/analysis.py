"""Text for ``gammon hint <position-id> <dice>`` and ``gammon eval <position-id>``: the engine's
ranked plays, or its probabilities and cube decision (money, centred cube, Jacoby)."""

from __future__ import annotations

from collections.abc import Sequence

from gammon.dice import check_dice, parse_dice
from gammon.engine.engine import Engine
from gammon.engine.evaluator import Probabilities
from gammon.position import Position


def _probabilities_line(p: Probabilities) -> str:
    return (f"win {p.win:6.1%} (gammon {p.win_gammon:5.1%}, bg {p.win_backgammon:5.1%})  "
            f"lose {p.lose:6.1%} (gammon {p.lose_gammon:5.1%}, bg {p.lose_backgammon:5.1%})")


def run_hint(position_id: str, dice: str | Sequence[int], n: int = 5, plies: int | None = None,
             engine: Engine | None = None) -> str:
    """The ``n`` best plays of ``position_id`` for ``dice`` ("31" or (3, 1)), one line each."""
    position = Position.from_id(position_id)
    roll = parse_dice(dice) if isinstance(dice, str) else check_dice(dice)
    engine = engine or Engine(plies=plies)
    hints = engine.hint(position, roll, n)
    head = f"Position {position.id}, dice {roll[0]}{roll[1]}, {engine.plies}-ply, player on roll's view"
    if not hints:
        return f"{head}\nno legal play: the turn passes"
    width = max(len(str(h.play)) for h in hints)
    lines = [head]
    best = hints[0].equity
    for rank, h in enumerate(hints, 1):
        diff = "" if rank == 1 else f" ({h.equity - best:+.3f})"
        ply = "" if h.plies == engine.plies else f" [{h.plies}-ply]"
        lines.append(f"{rank:3}. {str(h.play):<{width}}  equity {h.equity:+.3f}{diff:9}  "
                     f"{_probabilities_line(h.probabilities)}{ply}")
    return "\n".join(lines)


def run_eval(position_id: str, plies: int | None = None, engine: Engine | None = None) -> str:
    """Probabilities, cubeless equity and the money cube decision of ``position_id``."""
    position = Position.from_id(position_id)
    engine = engine or Engine(plies=plies)
    probs = engine.evaluate(position)
    decision = engine.cube_decision(position)
    pips = position.pip_counts
    return "\n".join([
        f"Position {position.id}, {engine.plies}-ply, player on roll's view "
        f"(pips {pips[0]} vs {pips[1]})",
        f"  {_probabilities_line(probs)}",
        f"  cubeless equity {probs.equity:+.3f}",
        f"  money, centred cube, Jacoby: {decision.action.value}; the opponent should "
        f"{'take' if decision.take else 'pass'}",
        f"  cubeful equity: no double {decision.no_double:+.3f}, double/take "
        f"{decision.double_take:+.3f}, double/pass {decision.double_pass:+.3f}",
    ])
