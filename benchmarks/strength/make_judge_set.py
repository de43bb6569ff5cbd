"""Write the judge set (``benchmarks/data/judge_set.tsv``) from GNU Backgammon self-play with noise.

Cubeless games from the initial position, both sides GNU Backgammon 0-ply with noise: every legal
play's resulting position is evaluated at 0 ply (``gnubg.evaluate``, Jacoby off), Gaussian noise of
``--noise`` equity is added (as gnubg's ``evalcontext`` noise does, but drawn from our seeded
generator so the set is reproducible), the best noisy play is made, and with probability
``--random`` a uniformly random legal play instead. Noise makes the games reach the imperfect
positions real play reaches. Every decision with at least two legal plays enters the pool; the set
is ``--contact`` contact and ``--race`` race decisions drawn from it (distinct position and roll),
contact and race alternating; with ``--crashed N``, N crashed decisions are drawn apart and the
three kinds alternate (``judge_set_classes.tsv``, the set of ``judge.py --set classes``). Only
positions and rolls are written, never gnubg's choices.

    python -m benchmarks.strength.make_judge_set [--games 600] [--contact 1800] [--race 1200] [--seed 1]
    python -m benchmarks.strength.make_judge_set --games 3000 --contact 1500 --crashed 750 --race 750 \
        --seed 2 --out benchmarks/data/judge_set_classes.tsv
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import gnubg  # noqa: E402

from benchmarks.strength.judge_set import JUDGE_SET, KINDS, Decision, kind_of, sample  # noqa: E402
from gammon import Position  # noqa: E402


def self_play(games: int, noise: float, random_share: float, rng: random.Random) -> list[Decision]:
    """Every decision with at least two legal plays in ``games`` noisy gnubg 0-ply games."""
    cube = gnubg.cubeinfo()
    cube["jacoby"] = 0
    ctx0 = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    pool: list[Decision] = []
    for _ in range(games):
        position = Position.initial()
        first = True
        while not position.is_game_over():
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if first and dice[0] == dice[1]:  # the opening roll is never a double
                continue
            first = False
            plays = position.legal_plays(dice)
            if not plays:
                position = position.flip()
                continue
            if len(plays) >= 2:
                pool.append(Decision(position, dice, kind_of(position)))
            if rng.random() < random_share:
                position = rng.choice(plays).after
                continue

            def noisy(after: Position) -> float:
                if after.is_game_over():  # the mover has borne off its last checker
                    return 10.0
                return -gnubg.evaluate(after.to_gnubg_board(), cube, ctx0)[5] + rng.gauss(0.0, noise)

            position = max((play.after for play in plays), key=noisy)
    return pool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--contact", type=int, default=1800)
    parser.add_argument("--race", type=int, default=1200)
    parser.add_argument("--crashed", type=int, default=0, help="crashed ones drawn apart (0: as contact)")
    parser.add_argument("--noise", type=float, default=0.04, help="sd of the equity noise")
    parser.add_argument("--random", type=float, default=0.02, help="share of uniformly random plays")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=JUDGE_SET)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = time.perf_counter()
    pool = self_play(args.games, args.noise, args.random, rng)
    chosen = sample(pool, args.contact, args.race, rng, crashed=args.crashed)
    counts = ", ".join(f"{sum(d.kind == k for d in chosen)} {k}" for k in KINDS)
    pool_counts = ", ".join(f"{sum(d.kind == k for d in pool)} {k}" for k in KINDS)
    crashed = f" --crashed {args.crashed}" if args.crashed else ""
    header = [
        f"# judge set: {len(chosen)} decisions ({counts}) from "
        f"{args.games} cubeless GNU Backgammon 0-ply self-play games, noise {args.noise}, "
        f"random plays {args.random}, seed {args.seed}",
        "# written by: python -m benchmarks.strength.make_judge_set "
        f"--games {args.games} --contact {args.contact}{crashed} --race {args.race} --noise {args.noise} "
        f"--random {args.random} --seed {args.seed}",
        "# position id (player on roll to move)\tdice\tcontact|crashed|race",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join([*header, *(d.line() for d in chosen)]) + "\n")
    print(
        f"pool {len(pool)} decisions ({pool_counts}); wrote {len(chosen)} ({counts}) to {args.out} "
        f"in {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
