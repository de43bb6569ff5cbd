"""``gammon rollout POSITION``: roll out a position, the plays of a roll, or a cube decision, with
a progress bar (running estimate and standard error) and a table of the results (``--json``: one
JSON object instead, as the web's position editor gets it).

POSITION is a Position ID (money, centred cube), a GNU Backgammon ID ``PositionID:MatchID`` or an
XGID: their cube, score and dice are used (``--dice`` overrides the dice). Rollouts play at 0 ply
unless ``--plies`` says otherwise (a 2-ply rollout of 1,296 games takes hours).
"""

from __future__ import annotations

import argparse
import json
import math
import secrets
import sys
from typing import TYPE_CHECKING, Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from gammon.cli.args import add_plies, not_negative_int, positive_int
from gammon.cli.console import Console
from gammon.cli.words import CUBE_ACTION_WORDS
from gammon.dice import parse_dice
from gammon.engine.rollout.parallel import MAX_WORKERS, check_ray_address
from gammon.errors import GammonError, cut
from gammon.formats.ids import read_id, situation_json
from gammon.i18n import format_number, ntr, tr

if TYPE_CHECKING:
    from gammon.dice import Dice
    from gammon.engine.engine import Engine
    from gammon.engine.rollout.rollouts import CubeRollout, PlayRollout, RolloutProgress, RolloutResult
    from gammon.position import Position
    from gammon.situation import Situation


# The most trials a rollout takes: it keeps every trial's values (and batches them by number), so
# a count past this would hold memory without end and never finish rather than be refused.
MAX_TRIALS = 1_000_000

def _trials(text: str) -> int:
    value = positive_int(text)
    if value > MAX_TRIALS:
        raise argparse.ArgumentTypeError(
            tr("{text} trials is more than {limit}", text=cut(repr(text)),
               limit=format_number(MAX_TRIALS, ","))
        )
    return value


def _workers(text: str) -> int:
    value = positive_int(text)
    if value > MAX_WORKERS:
        raise argparse.ArgumentTypeError(
            tr("{text} processes is more than {limit}", text=cut(repr(text)), limit=MAX_WORKERS)
        )
    return value


def _standard_error(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(
            tr("expected a standard error > 0, got {text}", text=cut(repr(text)))
        )
    return value


def add_rollout(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "rollout",
        help=tr("roll out a position, the plays of a roll, or a cube decision"),
        description=tr(
            "Play a position out many times with the engine (variance reduction and "
            "quasi-random dice, as GNU Backgammon). POSITION: a Position ID, a GNU "
            "Backgammon ID (PositionID:MatchID) or an XGID."
        ),
    )
    p.add_argument("position", metavar="POSITION", help=tr("e.g. 4HPwATDgc/ABMA"))
    # a cube decision is taken before the roll: dice given with --cube would go unused
    what = p.add_mutually_exclusive_group()
    what.add_argument("--dice", default=None, help=tr("roll out the best plays of this roll, e.g. 31"))
    p.add_argument(
        "-n",
        "--candidates",
        type=positive_int,
        default=5,
        metavar="N",
        help=tr("with --dice: how many of the engine's best plays (default 5)"),
    )
    what.add_argument(
        "--cube",
        action="store_true",
        help=tr("roll out the cube decision: no double vs double/take, cubeful"),
    )
    p.add_argument(
        "--cubeful",
        action="store_true",
        help=tr("cube decisions inside the trials (position and plays rollouts)"),
    )
    p.add_argument(
        "--trials",
        type=_trials,
        default=1296,
        metavar="N",
        help=tr(
            "games to play (default 1296, at most {limit}; a multiple of 36 for quasi-random dice)",
            limit=format_number(MAX_TRIALS, ","),
        ),
    )
    p.add_argument(
        "--truncate",
        type=not_negative_int,
        default=None,
        metavar="N",
        help=tr("stop each game after N half-moves and evaluate (default: play to the end)"),
    )
    add_plies(p, tr("the plies of the engine's plays and of truncation (default 0)"), default=0)
    p.add_argument(
        "--stop-at-se",
        type=_standard_error,
        default=None,
        metavar="SE",
        help=tr("stop once the equity's standard error is at most SE (checked every 144 trials)"),
    )
    p.add_argument("--no-variance-reduction", action="store_true", help=tr("plain trials (faster, noisier)"))
    p.add_argument(
        "--workers",
        type=_workers,
        default=None,
        metavar="N",
        help=tr("local processes (default: every core, at most {limit}; the result does not depend on it)",
                limit=MAX_WORKERS),
    )
    p.add_argument(
        "--seed",
        type=not_negative_int,
        default=None,
        help=tr("the dice (default: drawn at random and printed)"),
    )
    p.add_argument(
        "--ray",
        default=None,
        metavar="ADDRESS",
        help=tr("run on a Ray cluster ('local' starts one here); needs gammon[cluster]"),
    )
    p.add_argument(
        "--json",
        action="store_true",
        help=tr("print one JSON object: the position and the rollout's estimates (for scripts)"),
    )
    p.set_defaults(func=run_rollout)


def run_rollout(
    args: argparse.Namespace, engine: Engine | None = None, console: Console | None = None
) -> int:
    from gammon.engine.engine import Engine
    from gammon.engine.rollout.rollouts import RolloutSettings

    out = console or Console(highlight=False)
    try:
        if args.ray is not None:
            check_ray_address(args.ray)  # before the engine loads
        given = read_id(args.position)
        dice = parse_dice(args.dice) if args.dice is not None else given.dice
        if dice is not None and given.double_offered:  # the plays would be rolled out at the old cube
            raise GammonError(
                tr("{id}: a double is on offer; it is answered before the roll, so there are no plays "
                   "to rank (gammon eval says take or pass)", id=repr(cut(args.position.strip())))
            )
        settings = RolloutSettings(
            trials=args.trials,
            # drawn here, not by the engine, so that an interrupted rollout can name it too
            seed=secrets.randbits(32) if args.seed is None else args.seed,
            truncate=args.truncate,
            variance_reduction=not args.no_variance_reduction,
            cubeful=args.cubeful or args.cube,
            stop_at_se=args.stop_at_se,
        )
    except (GammonError, ValueError) as e:
        print(f"gammon rollout: {e}", file=sys.stderr)
        return 2
    engine = engine or Engine(plies=args.plies)
    reporter = _Reporter(args.trials)
    options: dict[str, Any] = dict(workers=args.workers, ray_address=args.ray, progress=reporter)
    position = given.position
    try:
        with reporter.bar:
            if args.cube:
                cube = engine.rollout_cube(given, settings, **options)
                result: RolloutResult | None = cube.no_double
                outcome: RolloutResult | list[PlayRollout] | CubeRollout = cube
            elif dice is not None:
                plays = engine.rollout_plays(given, dice, args.candidates, settings, **options)
                result = plays[0].result if plays else None
                outcome = plays
            else:
                result = outcome = engine.rollout(given, settings, **options)
    except (GammonError, ValueError, ImportError, ConnectionError) as e:  # ConnectionError: Ray's "auto"
        print(f"gammon rollout: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # the trials done may be hours of work: their estimates are printed before the stop is reported
        _print_interrupted(args, given, dice, engine, reporter.last, out, settings.seed)
        raise
    if args.json:
        from gammon.advice import rollout_json

        # the roll rolled out, as hint's JSON gives it: --dice may differ from the ID's dice in the context
        rolled = {"dice": list(dice)} if isinstance(outcome, list) and dice is not None else {}
        print(json.dumps({"context": situation_json(given), **rolled, **rollout_json(outcome, given)}))
        return 0
    if result is None:
        assert dice is not None  # only a roll with no legal play leaves nothing to roll out
        out.print(
            tr("Position {id}, dice {dice}: no legal play, nothing to roll out", id=position.id,
               dice=f"{dice[0]}{dice[1]}")
        )
        return 0
    out.print(_heading(position, result))
    if args.cube:
        out.print(_cube_table(cube))
        action = cube.decision.action.value
        answer = tr("beaver") if cube.decision.beaver else tr("take") if cube.decision.take else tr("pass")
        words = tr(CUBE_ACTION_WORDS.get(action, action))
        out.print(tr("{action}; the opponent should {answer}", action=words, answer=answer))
    elif dice is not None:
        out.print(_plays_table(plays, dice, given))
    else:
        out.print(_position_table(result))
    return 0


class _Reporter:
    """The progress bar (on a terminal) and the last estimates it was given."""

    def __init__(self, total: int) -> None:
        err = Console(stderr=True)
        self.bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=err,
            auto_refresh=False,
            transient=True,
            disable=not err.is_terminal,  # a bar in a log file is one blank line
        )
        self.task = self.bar.add_task(tr("rolling out"), total=total)
        self.last: RolloutProgress | None = None

    def __call__(self, p: RolloutProgress) -> None:
        self.last = p
        best = max(range(len(p.equity)), key=lambda i: p.equity[i])
        self.bar.update(
            self.task,
            completed=p.trials,
            description=_equity_words(
                f"{format_number(p.equity[best], '+.4f')} ± {_se(p.standard_error[best])}"),
        )
        self.bar.refresh()


def _print_interrupted(args: argparse.Namespace, given: Situation, dice: Dice | None, engine: Engine,
                       last: RolloutProgress | None, out: Console, seed: int | None) -> None:
    """The running estimates of a rollout stopped by Ctrl-C, each alternative named (as text, or
    as JSON with ``"interrupted": true``)."""
    from gammon.advice import finite

    if args.cube:
        kind, keys, names = "cube", ["no_double", "double_take"], [tr("no double"), tr("double, take")]
    elif dice is not None:  # the candidates rollout_plays rolled out, in its order: at the score
        kind = "plays"
        keys = names = [str(h.play) for h in engine.hint(given, dice, args.candidates)]
    else:
        kind, keys, names = "position", ["position"], [tr("equity")]
    done = 0 if last is None else last.trials
    rows = [] if last is None else list(zip(keys, names, last.equity, last.standard_error))
    if args.json:
        estimates = [{"name": key, "equity": finite(e), "standard_error": finite(se)}
                     for key, _, e, se in rows]
        # the roll rolled out, as the finished rollout's JSON gives it (--dice may differ from the ID's)
        rolled = {"dice": list(dice)} if kind == "plays" and dice is not None else {}
        print(json.dumps({"context": situation_json(given), "kind": kind, **rolled, "interrupted": True,
                          "seed": seed, "trials": done, "estimates": estimates}))
        return
    if not rows:
        out.print(tr("Rollout of {id} (seed {seed}) interrupted before its first trials were done: no "
                     "estimates yet", id=given.position.id, seed=seed), soft_wrap=True)
        return
    out.print(tr("Rollout of {id} (seed {seed}) interrupted after {done} of {total} trials; the estimates "
                 "so far:", id=given.position.id, seed=seed, done=format_number(done, ","),
                 total=format_number(args.trials, ",")),
              soft_wrap=True)
    for _, name, e, se in rows:
        out.print(f"  {name}: {format_number(e, '+.4f')} ± {_se(se)}", soft_wrap=True)


def _equity_words(value: str) -> str:
    return tr("equity {value}", value=value)


def _se(value: float) -> str:
    return tr("n/a") if math.isnan(value) else format_number(value, ".4f")


def _heading(position: Position, result: RolloutResult) -> str:
    s = result.settings
    parts = [
        tr("Rollout of {id}", id=position.id),
        f"{s.plies}-ply",
        ntr("{n} trials", "{n} trials", result.trials, n=result.trials),
        tr("seed {seed}", seed=s.seed),
    ]
    if result.trials < s.trials:
        parts.append(tr("stopped at standard error {se}", se=s.stop_at_se))
    if s.truncate is not None:
        parts.append(tr("truncated after {n} half-moves ({plies}-ply)", n=s.truncate, plies=s.truncate_plies))
    parts.append(tr("variance reduction") if s.variance_reduction else tr("no variance reduction"))
    parts.append(tr("cubeful") if s.cubeful else tr("cubeless"))
    return ", ".join(parts)


def _position_table(r: RolloutResult) -> object:
    table = Table(title=tr("for the player on roll"))
    table.add_column("")
    table.add_column(tr("estimate"), justify="right")
    table.add_column(tr("std. error"), justify="right")
    p, se = r.probabilities, r.standard_error
    for name, value, err in (
        (tr("win"), p.win, se.win),
        (tr("win gammon"), p.win_gammon, se.win_gammon),
        (tr("win backgammon"), p.win_backgammon, se.win_backgammon),
        (tr("lose gammon"), p.lose_gammon, se.lose_gammon),
        (tr("lose backgammon"), p.lose_backgammon, se.lose_backgammon),
    ):
        table.add_row(name, format_number(value, ".2%"),
                      tr("n/a") if math.isnan(err) else format_number(err, ".2%"))
    table.add_row(tr("cubeless equity"), format_number(r.cubeless_equity, "+.4f"), _se(se.cubeless_equity))
    if r.settings.cubeful:
        table.add_row(tr("cubeful equity"), format_number(r.equity, "+.4f"), _se(se.equity))
        if r.match_winning_chance is not None:
            table.add_row(tr("match winning chance"), format_number(r.match_winning_chance, ".2%"), "")
    return table


def _plays_table(plays: list[PlayRollout], dice: Dice, given: Situation) -> object:
    """The plays, best first: in a match by match winning chances, else by equity (as ``--json``
    ranks them: :func:`gammon.advice.ranked_rollouts`)."""
    from gammon.advice import ranked_rollouts

    match = given.match
    rows = ranked_rollouts(plays, given)
    table = Table(title=tr("dice {dice}, for the player who plays", dice=f"{dice[0]}{dice[1]}"))
    table.add_column("", justify="right")
    table.add_column(tr("play"), justify="left")
    names = [tr("equity"), tr("std. error"), tr("diff")]
    if match is not None:
        names.insert(0, "MWC")  # as gammon hint heads it; the full words make the table wrap
    for name in (*names, tr("win"), tr("win g"), tr("lose g")):
        table.add_column(name, justify="right")
    best_equity, best_mwc = rows[0][0].result.equity, rows[0][1]
    for rank, ((play, r), mwc) in enumerate(rows, 1):
        p = r.probabilities
        if mwc is None:
            cells = [format_number(r.equity, "+.4f"), _se(r.standard_error.equity)]
            diff = "" if rank == 1 else format_number(r.equity - best_equity, "+.4f")
        else:
            assert best_mwc is not None
            cells = [format_number(mwc, ".2%"), format_number(r.equity, "+.4f"), _se(r.standard_error.equity)]
            diff = "" if rank == 1 else format_number(mwc - best_mwc, "+.2%")
        table.add_row(str(rank), str(play), *cells, diff, format_number(p.win, ".1%"),
                      format_number(p.win_gammon, ".1%"), format_number(p.lose_gammon, ".1%"))
    return table


def _cube_table(cube: object) -> object:
    from gammon.engine.rollout.rollouts import CubeRollout

    assert isinstance(cube, CubeRollout)
    d = cube.decision
    unit = " (EMG)" if d.match_winning_chances else ""
    table = Table(title=tr("cubeful equity for the player on roll{unit}", unit=unit))
    table.add_column("")
    table.add_column(tr("equity"), justify="right")
    table.add_column(tr("std. error"), justify="right")
    if d.match_winning_chances:
        table.add_column(tr("match winning chance"), justify="right")
    rows = (
        (tr("no double"), d.no_double, cube.no_double.standard_error.equity),
        (tr("double, take"), d.double_take, cube.double_take.standard_error.equity),
        (tr("double, pass"), d.double_pass, 0.0),
    )
    for i, (name, value, err) in enumerate(rows):
        cells = [name, format_number(value, "+.4f"), _se(err)]
        if d.match_winning_chances:
            cells.append(format_number(d.match_winning_chances[i], ".2%"))
        table.add_row(*cells)
    return table
