"""An analysis as plain JSON-ready data: the players' statistics and every decision.

Errors are positive: EMG for totals, mEMG for rates; ``cost`` figures are MWC (a fraction) in a
match and points for money."""

from __future__ import annotations

from typing import Any

from gammon.analysis.decisions import Candidate, CheckerPlay, Decision, MatchMoment, RollLuck
from gammon.analysis.stats import PlayerStatistics
from gammon.analysis.walk import MatchAnalysis


def _ci(ci: tuple[float, float] | None) -> list[float] | None:
    return None if ci is None else [round(ci[0], 3), round(ci[1], 3)]


def player_to_dict(s: PlayerStatistics) -> dict[str, Any]:
    c, q, lk, o = s.checker, s.cube, s.luck, s.overall
    return {
        "name": s.name,
        "checker": {
            "moves": c.moves,
            "unforced": c.unforced,
            "marked": {k.value: v for k, v in c.marks.items()},
            "error_total": c.error_total,
            "error_rate": c.error_rate,
            "cost_total": c.cost_total,
        },
        "cube": {
            "total": q.total,
            "decisions": q.close_or_actual,
            "doubles": q.doubles,
            "takes": q.takes,
            "passes": q.passes,
            "errors": {k: {"count": e.count, "error": e.error, "cost": e.cost} for k, e in q.errors.items()},
            "error_total": q.error_total,
            "error_rate": q.error_rate,
            "cost_total": q.cost_total,
        },
        "luck": {
            "marked": {k.value: v for k, v in lk.marks.items()},
            "total": lk.total,
            "rate": lk.rate,
            "cost_total": lk.cost_total,
        },
        "overall": {
            "decisions": o.decisions,
            "error_total": o.error_total,
            "error_rate": o.error_rate,
            "error_rate_ci95": _ci(o.error_rate_ci95),
            "pr": o.pr,
            "pr_ci95": _ci(o.pr_ci95),
            "snowie_error_rate": o.snowie_error_rate,
            "cost_total": o.cost_total,
            "actual_result": o.actual_result,
            "luck_adjusted_result": o.luck_adjusted_result,
        },
    }


def _context(c: MatchMoment, names: tuple[str, str]) -> dict[str, Any]:
    return {
        "game": c.game,
        "move": c.move,
        "player": c.player,
        "name": names[c.player],
        "dice": list(c.dice) if c.dice else None,
        "position_id": c.position.id,
        "gnubg_id": c.gnubg_id,
        "cube": c.cube_value,
        "score": list(c.score),
    }


def _candidate(c: Candidate) -> dict[str, Any]:
    return {
        "play": str(c.play),
        "equity": c.equity,
        "probabilities": list(c.probabilities.as_tuple()),
        "plies": c.plies,
    }


def decision_to_dict(d: Decision, names: tuple[str, str], luck: RollLuck | None = None) -> dict[str, Any]:
    out = _context(d.context, names)
    if isinstance(d, CheckerPlay):
        best = d.best
        out.update(
            {
                "kind": "move",
                "played": str(d.played) if d.played else None,
                "best": str(best.play) if best else None,
                "legal_plays": d.legal_plays,
                "unforced": d.unforced,
                "alternatives": [_candidate(c) for c in d.candidates],
            }
        )
    else:
        dec = d.decision
        out.update(
            {
                "kind": "cube",
                "action": d.action,
                "best": d.best_action,
                "close": d.close,
                "error_kind": d.kind,
                "equities": {
                    "no_double": dec.no_double,
                    "double_take": dec.double_take,
                    "double_pass": dec.double_pass,
                },
            }
        )
    out.update({"error": d.error, "cost": d.cost, "mark": None if d.skill.value == "none" else d.skill.value})
    if luck is not None:
        out["luck"] = {
            "luck": luck.luck,
            "cost": luck.cost,
            "mark": None if luck.mark.value == "none" else luck.mark.value,
        }
    return out


def analysis_to_dict(analysis: MatchAnalysis, seed: int = 0) -> dict[str, Any]:
    """The whole analysis: ``plies`` (its depth), ``players`` (statistics) and ``decisions`` (in
    order, each placed by ``game`` and ``move``, the move number of the match file; a checker play
    carries the luck of its roll)."""
    luck_of = {(r.context.game, r.context.turn): r for r in analysis.rolls}
    decisions = []
    for d in analysis.decisions:
        key = (d.context.game, d.context.turn)
        decisions.append(
            decision_to_dict(d, analysis.names, luck_of.get(key) if isinstance(d, CheckerPlay) else None)
        )
    return {
        "match_length": analysis.match_length,
        "plies": analysis.plies,
        "players": [player_to_dict(s) for s in analysis.statistics(seed)],
        "games": [
            {
                "number": g.number,
                "score": list(g.score),
                "crawford": g.crawford,
                "winner": g.winner,
                "points": g.points,
            }
            for g in analysis.games
        ],
        "decisions": decisions,
    }


__all__ = ["analysis_to_dict", "decision_to_dict", "player_to_dict"]
