"""``python -m gammon.train``: train the neural evaluator (docs/training.md).

    python -m gammon.train selfplay --out run.npz --games 1000000 --threads 16
    python -m gammon.train improve --resume run.npz --out better.npz --games 20000
    python -m gammon.train check run.npz --pairs 1000
"""

from __future__ import annotations

import argparse
from pathlib import Path

from gammon.train.selfplay import TrainSettings, load_or_start, run, vs_pubeval


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m gammon.train", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("selfplay", help="TD(lambda) self-play from scratch or from a checkpoint")
    sp.add_argument("--out", type=Path, required=True, help="checkpoint / weights file to write")
    sp.add_argument("--resume", type=Path, help="checkpoint to continue (default: --out if it exists)")
    sp.add_argument("--games", type=int, default=100_000)
    sp.add_argument("--minutes", type=float, default=0.0, help="stop after this long (0: no limit)")
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--hidden", type=int, default=128)
    sp.add_argument("--race-hidden", type=int, default=64)
    sp.add_argument("--alpha", type=float, default=0.1)
    sp.add_argument("--alpha-half", type=int, default=300_000)
    sp.add_argument("--alpha-min", type=float, default=0.005)
    sp.add_argument("--lam", type=float, default=0.7)
    sp.add_argument("--chunk", type=int, default=1_000)
    sp.add_argument("--threads", type=int, default=0, help="numba threads (0: all cores)")
    sp.add_argument("--check-every", type=int, default=50_000, help="games between pubeval checks")
    sp.add_argument("--check-pairs", type=int, default=500)
    sp.add_argument("--checkpoint-every", type=int, default=50_000)
    sp.add_argument("--log", type=Path)
    sp.add_argument("--quiet", action="store_true", help="no progress bar")
    im = sub.add_parser("improve", help="fit to positions labelled by 1-ply search (after self-play)")
    im.add_argument("--resume", type=Path, required=True, help="weights to start from")
    im.add_argument("--out", type=Path, required=True)
    im.add_argument("--games", type=int, default=20_000, help="self-play games to take positions from")
    im.add_argument("--every", type=int, default=3, help="take every n-th position of a game")
    im.add_argument("--epochs", type=int, default=4)
    im.add_argument("--alpha", type=float, default=0.01)
    im.add_argument("--seed", type=int, default=7)
    im.add_argument("--threads", type=int, default=0)
    im.add_argument("--check-pairs", type=int, default=1000)
    im.add_argument("--log", type=Path)
    ck = sub.add_parser("check", help="strength of a weights file against pubeval")
    ck.add_argument("weights", type=Path)
    ck.add_argument("--pairs", type=int, default=1_000)
    ck.add_argument("--seed", type=int, default=12345)
    args = parser.parse_args(argv)

    if args.command == "selfplay":
        settings = TrainSettings(seed=args.seed, alpha=args.alpha, alpha_half=args.alpha_half,
                                 alpha_min=args.alpha_min, lam=args.lam, chunk=args.chunk)
        resume = args.resume if args.resume is not None else args.out
        ev = load_or_start(resume, args.hidden, args.race_hidden, args.seed)
        run(ev, settings, args.games, args.out, minutes=args.minutes, threads=args.threads,
            check_every=args.check_every, check_pairs=args.check_pairs,
            checkpoint_every=args.checkpoint_every, log=args.log, progress=not args.quiet)
    elif args.command == "improve":
        from gammon.engine.neural import NeuralEvaluator
        from gammon.train.supervised import improve

        improve(NeuralEvaluator.load(args.resume), args.out, games=args.games, every=args.every,
                epochs=args.epochs, alpha=args.alpha, seed=args.seed, threads=args.threads,
                check_pairs=args.check_pairs, log=args.log)
    else:
        from gammon.engine.neural import NeuralEvaluator

        print(vs_pubeval(NeuralEvaluator.load(args.weights), args.pairs, args.seed))


if __name__ == "__main__":
    main()
