"""Why gammon's contact cube equities run high: the net's cubeless probabilities against gammon's
OWN rollouts, and what their difference does to Janowski's no-double and double/take equities.

For each contact position (off the bear-off database) the net's 0-ply and 2-ply probabilities are
compared with a cubeless 0-ply rollout by gammon itself (variance reduction, quasi-random dice,
played to the end or the bear-off database, 1 worker). The report gives the mean bias of each
output (net minus rollout) with its standard error, and the mean of Janowski's ND (cube centred)
and DT (2x the opponent-owned column; x as the engine uses it) computed from the net's
probabilities minus the same from the rollout's: the part of the cube equities' error that comes
from the cubeless evaluation alone, with the cubeful arithmetic held fixed.

Positions (``--set``):

* ``own``: gammon's own greedy self-play games (``gammon.train`` kernels, games 0-399 of
  ``--seed``, every 7th position), shuffled by ``--seed``, contact positions where the net's 0-ply
  win chance is 55-97% (the cube window of benchmarks/strength/cube_judge.py); ``--take-zone`` keeps those
  where ``Engine()``'s double/take (without the take-point correction) is close to the take point,
  ``--anchors K`` those where the opponent holds K points (2: two or more) of the home board of
  the player on roll;
* ``judge``: every 7th distinct contact position of benchmarks/data/cube_money.tsv. DIAGNOSIS
  ONLY: it tells whether the net's bias on the judged positions is seen against gammon's own
  rollouts too; nothing is fitted on these positions. ``--gnubg`` then also checks the cubeful
  arithmetic: Janowski (gammon's code) on GNU Backgammon's 0-ply probabilities against GNU
  Backgammon's own 0-ply cube equities stored in the judge file (the judge, never a label).

    python -m benchmarks.strength.cube_bias --set own --positions 80 --trials 144 --seed 11
    python -m benchmarks.strength.cube_bias --set judge --positions 60 --trials 144 --seed 5 --gnubg
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from benchmarks import DATA  # noqa: E402
from benchmarks.strength.cube_judge import WINDOW, Decision, load  # noqa: E402
from gammon.engine.bearoff import is_bearoff_board  # noqa: E402
from gammon.engine.cubeful import money_equities  # noqa: E402
from gammon.engine.cubeful_search import efficiencies  # noqa: E402
from gammon.engine.evaluator import cubeless_equity  # noqa: E402
from gammon.position import Position  # noqa: E402
from gammon.situation import Situation

OUTPUTS = ("win", "win gammon", "win backgammon", "lose gammon", "lose backgammon")


# --- the arithmetic ----------------------------------------------------------------------------


def bias(net: np.ndarray, rolled: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean of ``net - rolled`` per column (the five outputs, then the cubeless equity) and its
    standard error over the positions."""
    net, rolled = np.asarray(net, np.float64), np.asarray(rolled, np.float64)
    d = np.c_[net - rolled, cubeless_equity(net) - cubeless_equity(rolled)]
    se = d.std(axis=0, ddof=1) / np.sqrt(len(d)) if len(d) > 1 else np.full(d.shape[1], np.nan)
    return d.mean(axis=0), se


def janowski_nd_dt(probs: np.ndarray, x: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
    """Janowski's money ND (cube centred) and DT (twice the opponent-owned column), Jacoby off."""
    v = money_equities(probs, x)
    return v[:, 0], 2.0 * v[:, 2]


# --- the positions -----------------------------------------------------------------------------


def own_positions(
    engine,
    n: int,
    seed: int,
    games: int = 400,  # type: ignore[no-untyped-def]
    take_zone: tuple[float, float] | None = None,
    anchors: int | None = None,
) -> list[Position]:
    """Contact positions of gammon's own self-play in the cube window (module docstring); with
    ``take_zone``, only those where ``Engine()``'s double/take (money, cube centred, Jacoby off,
    without the take-point correction) lies in it: the close take/pass decisions, as the engine
    sees them; with ``anchors``, only those of that :func:`anchor_class`."""
    from gammon.engine.cube_calibration import anchor_class
    from gammon.engine.engine import Engine

    deciding_engine = Engine(cube_correction=False)
    from gammon.engine.encode import race_mask
    from gammon.train import kernels

    boards = kernels.collect_positions(engine.evaluator, seed, 0, games, 7)
    np.random.default_rng(seed).shuffle(boards)
    out = []
    for b in boards:
        if race_mask(b[None, :])[0] or is_bearoff_board(b):
            continue
        p = Position(b.tolist())
        probs = engine.evaluate(p).as_array()
        if not WINDOW[0] <= probs[0] <= WINDOW[1]:
            continue
        if anchors is not None and anchor_class(b) != anchors:
            continue
        if take_zone is not None:
            dt = deciding_engine.cube_decision(Situation.at(p, jacoby=False)).double_take
            if not take_zone[0] <= dt <= take_zone[1]:
                continue
        out.append(p)
        if len(out) >= n:
            break
    return out


def judge_positions(n: int) -> tuple[list[Position], dict[str, list[Decision]]]:
    """Every 7th distinct contact position of the money judge file, and its decisions."""
    by_id: dict[str, list[Decision]] = {}
    for d in load(DATA / "cube_money.tsv"):
        by_id.setdefault(d.position, []).append(d)
    contact = [Position.from_id(pid) for pid in by_id]
    contact = [p for p in contact if not p.is_race() and not is_bearoff_board(p.as_array())]
    return contact[::7][:n], by_id


# --- the run -----------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("own", "judge"), default="own")
    parser.add_argument("--positions", type=int, default=80)
    parser.add_argument("--trials", type=int, default=144)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--games", type=int, default=400, help="own: self-play games to draw from")
    parser.add_argument(
        "--take-zone",
        type=float,
        nargs=2,
        default=None,
        metavar=("LO", "HI"),
        help="own: only positions where Engine()'s DT lies in [LO, HI]",
    )
    parser.add_argument(
        "--anchors",
        type=int,
        choices=(0, 1, 2),
        default=None,
        help="own: only positions where the opponent holds this many points of the "
        "home board of the player on roll (2: two or more)",
    )
    parser.add_argument("--gnubg", action="store_true", help="judge set: check the cubeful arithmetic")
    parser.add_argument("--save", type=Path, default=None, help="one JSON line per position")
    parser.add_argument(
        "--fit",
        type=Path,
        nargs="+",
        default=None,
        metavar="FILE",
        help="own positions only: fit gammon.engine.cube_calibration's offsets to the rollouts --save wrote",
    )
    parser.add_argument(
        "--load",
        type=Path,
        default=None,
        help="report on the first --positions lines a --save run wrote (same --set)",
    )
    args = parser.parse_args()

    import numba

    numba.set_num_threads(1)
    from gammon.engine.engine import Engine
    from gammon.engine.rollout import RolloutSettings

    if args.fit:
        fit(args.fit)
        return
    e0, e2 = Engine(plies=0), Engine(plies=2)
    decisions: dict[str, list[Decision]] = {}
    if args.set == "own":
        zone = tuple(args.take_zone) if args.take_zone else None
        positions = own_positions(e0, args.positions, args.seed, args.games, zone, args.anchors)
    else:
        positions, decisions = judge_positions(args.positions)
    settings = RolloutSettings(trials=args.trials, seed=args.seed, plies=0)
    start = time.perf_counter()
    rows = []
    if args.load:
        rows = [json.loads(line) for line in args.load.read_text().splitlines()][: args.positions]
        if [r["id"] for r in rows] != [p.id for p in positions[: len(rows)]]:
            raise ValueError(f"{args.load} does not hold these positions (another --set or --seed?)")
        positions = positions[: len(rows)]
    for i, p in enumerate(positions[len(rows) :], len(rows)):
        r = e0.rollout(p, settings=settings, workers=1)
        rows.append(
            dict(
                id=p.id,
                p0=e0.evaluate(p).as_array().tolist(),
                p2=e2.evaluate(p).as_array().tolist(),
                roll=r.probabilities.as_array().tolist(),
                se=r.standard_error.equity,
            )
        )
        if args.save:
            with args.save.open("a") as f:
                f.write(json.dumps(rows[-1]) + "\n")
        print(f"  {i + 1}/{len(positions)} rolled out, {time.perf_counter() - start:.0f} s", file=sys.stderr)

    rolled = np.array([r["roll"] for r in rows])
    x = efficiencies(np.array([p.as_array() for p in positions]))
    nd_r, dt_r = janowski_nd_dt(rolled, x)
    print(
        f"{len(rows)} contact positions ({args.set}), {args.trials}-trial 0-ply rollouts "
        f"(seed {args.seed}); mean rollout SE of the equity {np.mean([r['se'] for r in rows]):.4f}"
    )
    print("rollout means: " + ", ".join(f"{n} {v:.4f}" for n, v in zip(OUTPUTS, rolled.mean(0))))
    for key in ("p0", "p2"):
        net = np.array([r[key] for r in rows])
        m, se = bias(net, rolled)
        nd, dt = janowski_nd_dt(net, x)
        print(
            f"net {key[1]}-ply minus rollout: "
            + ", ".join(f"{n} {a:+.4f} +- {s:.4f}" for n, a, s in zip(OUTPUTS + ("equity",), m, se))
        )
        print(
            f"  Janowski on the net's minus on the rollout's probabilities: ND {np.mean(nd - nd_r):+.4f} "
            f"+- {np.std(nd - nd_r, ddof=1) / np.sqrt(len(nd)):.4f}, DT {np.mean(dt - dt_r):+.4f} "
            f"+- {np.std(dt - dt_r, ddof=1) / np.sqrt(len(dt)):.4f}"
        )
    if args.set == "judge":
        # the judge's 0-ply cube equities against Janowski on the rollout's probabilities
        gaps = [
            (nd_r[i] if not d.owned else money_equities(rolled[i], x[i])[0, 1]) - d.nd0
            for i, p in enumerate(positions)
            for d in decisions[p.id]
        ]
        dts = [dt_r[i] - d.dt0 for i, p in enumerate(positions) for d in decisions[p.id]]
        print(
            f"Janowski on gammon's rollout probabilities minus gnubg 0-ply's cube equities "
            f"({len(dts)} decisions): ND {np.mean(gaps):+.4f}, DT {np.mean(dts):+.4f}"
        )
    if args.set == "judge" and args.gnubg:
        check_arithmetic(positions, decisions)


def fit(files: list[Path]) -> None:
    """The offsets of gammon.engine.cube_calibration, one pair per anchor class: the engine's
    money ND and DT (cube centred, Jacoby off, uncorrected) against Janowski on the rollout's
    probabilities."""
    from gammon.engine import cube_calibration
    from gammon.engine.engine import Engine

    rows = [json.loads(line) for f in files for line in f.read_text().splitlines()]
    rows = list({r["id"]: r for r in rows}.values())  # a position rolled out twice counts once
    judged = {d.position for d in load(DATA / "cube_money.tsv")}
    if any(r["id"] in judged for r in rows):
        raise ValueError("judge-set positions are for diagnosis only, never for the fit")
    positions = [Position.from_id(r["id"]) for r in rows]
    engine = Engine(cube_correction=False)
    decisions = [engine.cube_decision(Situation.at(p, jacoby=False)) for p in positions]
    nd = np.array([d.no_double for d in decisions])
    dt = np.array([d.double_take for d in decisions])
    x = efficiencies(np.array([p.as_array() for p in positions]))
    nd_r, dt_r = janowski_nd_dt(np.array([r["roll"] for r in rows]), x)
    classes = np.array([cube_calibration.anchor_class(p.board) for p in positions])
    print(
        f"{len(rows)} own contact positions; the offsets by anchor class (Engine()'s DT within 1 +- "
        f"{cube_calibration.HALF_WIDTH}):"
    )
    fitted = class_offsets(nd, dt, nd_r, dt_r, classes)
    for k, (c_dt, se_dt, c_nd, se_nd) in enumerate(fitted):
        m = classes == k
        near = int((m & (cube_calibration.zone_weight(dt) > 0)).sum())
        print(
            f"  class {k}: {int(m.sum())} positions, {near} in the zone: DT {c_dt:+.4f} +- {se_dt:.4f}, "
            f"ND {c_nd:+.4f} +- {se_nd:.4f}"
        )
    print("DT_OFFSETS = (" + ", ".join(f"{f[0]:.3f}" for f in fitted) + ")")
    print("ND_OFFSETS = (" + ", ".join(f"{f[2]:.3f}" for f in fitted) + ")")


def class_offsets(
    nd: np.ndarray, dt: np.ndarray, nd_rolled: np.ndarray, dt_rolled: np.ndarray, classes: np.ndarray
) -> list[tuple[float, float, float, float]]:
    """Per anchor class: the DT offset and its standard error, then the ND offset and its, each
    :func:`gammon.engine.cube_calibration.fit_offset` of the rolled-out against the engine's
    equities of that class's positions, weighted by the engine's DT."""
    from gammon.engine import cube_calibration

    out = []
    for k in range(cube_calibration.ANCHOR_CLASSES):
        m = classes == k
        out.append(
            (
                *cube_calibration.fit_offset(dt[m], dt_rolled[m], dt[m]),
                *cube_calibration.fit_offset(nd[m], nd_rolled[m], dt[m]),
            )
        )
    return out


def check_arithmetic(positions: list[Position], decisions: dict[str, list[Decision]]) -> None:
    """Janowski (gammon's code, x as the engine uses it) on GNU Backgammon's 0-ply probabilities
    against GNU Backgammon's 0-ply cube equities: do the two cube models agree?"""
    import gnubg

    cube = {**gnubg.cubeinfo(), "jacoby": 0}
    ctx = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    nd_gap, dt_gap = [], []
    for p in positions:
        probs = np.array(gnubg.evaluate(p.to_gnubg_board(), cube, ctx)[:5])
        v = money_equities(probs, efficiencies(p.as_array()[None, :]))[0]
        for d in decisions[p.id]:
            nd_gap.append((v[1] if d.owned else v[0]) - d.nd0)
            dt_gap.append(2.0 * v[2] - d.dt0)
    print(
        f"cubeful arithmetic: Janowski on gnubg 0-ply probabilities minus gnubg 0-ply's own cube "
        f"equities ({len(dt_gap)} decisions): ND {np.mean(nd_gap):+.4f} (mean |.| "
        f"{np.mean(np.abs(nd_gap)):.4f}), DT {np.mean(dt_gap):+.4f} "
        f"(mean |.| {np.mean(np.abs(dt_gap)):.4f})"
    )


if __name__ == "__main__":
    main()
