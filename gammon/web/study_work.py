"""The engine work behind the browser's analysis and position pages, as plain functions of picklable
arguments that return JSON-ready dicts: the analysis of games (gammon.analysis, its own JSON plus
boards for the browser) and rollouts; the reading of a position ID, hints and evaluations are
:mod:`gammon.advice`'s, which the terminal's ``--json`` prints too.

They run in a job worker (gammon.web.jobs) or a thread, never on the event loop."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gammon.advice import finite
from gammon.advice import rollout_json as rollout_outcome
from gammon.analysis import CheckerPlay, MatchAnalysis, analyse
from gammon.analysis.report_html import chance_series
from gammon.analysis.serialize import analysis_to_dict
from gammon.analysis.svg import chart_svg
from gammon.engine.engine import Engine
from gammon.engine.rollout.rollouts import RolloutProgress, RolloutSettings
from gammon.formats.ids import board_json
from gammon.game import Game
from gammon.i18n import tr
from gammon.situation import Situation
from gammon.web.jobs import Progress

# --- analysis ------------------------------------------------------------------------------------


def analyse_games(games: Sequence[Game], names: tuple[str, str], engine: Engine,
                  progress: Progress) -> dict[str, Any]:
    """The analysis of ``games`` (played one after another) as :func:`analysis_json` gives it. Its
    progress starts at 0 of every action, so that the job's pace is timed from here."""
    progress(0, sum(len(g.history) for g in games))
    return analysis_json(analyse(games, engine, progress, names=names))


def analysis_json(analysis: MatchAnalysis) -> dict[str, Any]:
    """``gammon analyse --json``'s object, plus what the browser draws: the players' names, the
    chart of winning chances (SVG) and, for each decision, its board (the player who decides at
    the bottom) and, for each alternative play, the board after it."""
    out = analysis_to_dict(analysis)
    out["names"] = list(analysis.names)
    series, breaks = chance_series(analysis)
    out["chart"] = chart_svg(series, breaks, analysis.names)
    for d, item in zip(analysis.decisions, out["decisions"]):
        c = d.context
        item.update(board_json(c.position))
        owner = c.cube_owner
        item["cube_owner"] = None if owner is None else "you" if owner == c.player else "opponent"
        item["crawford"] = c.crawford
        item["match_length"] = c.match_length
        if isinstance(d, CheckerPlay):
            for cand, alt in zip(d.candidates, item["alternatives"]):
                alt.update(board_json(cand.play.after.flip()))
                alt["played"] = cand.play == d.played
    return out


def rollout_json(engine: Engine, context: Situation, kind: str, settings: RolloutSettings, n: int,
                 progress: Progress) -> dict[str, Any]:
    """Roll out the position (``kind`` "position"), the ``n`` best plays of the ID's dice
    ("plays") or the cube decision ("cube", cubeful), in this thread, reporting each batch."""
    def report(p: RolloutProgress) -> None:
        progress(p.trials, p.total, {"equity": [finite(e) for e in p.equity],
                                     "standard_error": [finite(s) for s in p.standard_error]})

    options: dict[str, Any] = dict(workers=1, progress=report)
    progress(0, settings.trials)  # the job's pace is timed from here
    if kind == "cube":
        return rollout_outcome(engine.rollout_cube(context, settings, **options))
    if kind == "plays":
        if context.dice is None:
            raise ValueError(tr("a rollout of the plays needs the dice: set them first"))
        # with the context: in a match ranked by match winning chances, as gammon rollout ranks them
        return rollout_outcome(engine.rollout_plays(context, context.dice, n, settings, **options), context)
    return rollout_outcome(engine.rollout(context, settings, **options))


__all__ = ["analyse_games", "analysis_json", "rollout_json"]
