"""Strength: cubeless money games between two players with mirrored dice.

Each dice sequence is played twice with the seats swapped; the result is the first player's points
per game with its standard error (from the pair means, since the two games of a pair are
correlated). Players:

* ``net`` (the shipped weights at 0-ply) or ``net:PATH`` (a weights file);
* ``engine`` (``gammon.Engine()``) or ``engine:PLIES`` (``gammon.Engine(plies=PLIES)``);
* ``pubeval`` (Tesauro's pubeval, gammon.engine.pubeval);
* ``gnubg`` (GNU Backgammon 0-ply through PyPI ``gnubg``, Jacoby off) or ``gnubg:PLIES``;
* ``py:MODULE.FUNCTION``: your own bot, a function ``(position, dice) -> Play | None`` (a
  :class:`gammon.Position` and the roll; the Play one of ``position.legal_plays(dice)``, None when
  there is none), imported from ``MODULE``, found from the folder the command runs in (``python
  -m`` puts it first on Python's path; from another folder than the checkout's, set ``PYTHONPATH``
  to the checkout).

    python -m benchmarks.strength.strength net pubeval --pairs 1000 --workers 16
    python -m benchmarks.strength.strength net gnubg --pairs 1000 --workers 16
    python -m benchmarks.strength.strength py:mybot.play engine:0 --pairs 500  # mybot.py in the folder
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from multiprocessing import Pool

import numpy as np

from gammon import Position
from gammon.movegen import generate_arrays

# A player: (position, dice) -> the position after its play, seen from the opponent.
Player = Callable[[Position, tuple[int, int]], Position]
# A job for a worker: (player, opponent, seed, pair numbers).
Job = tuple[str, str, int, list[int]]


def net_player(path: str | None = None) -> Player:
    from gammon.engine.net.neural import NeuralEvaluator

    ev = NeuralEvaluator.default() if path is None else NeuralEvaluator.load(path)

    def choose(position: Position, dice: tuple[int, int]) -> Position:
        _, boards, _ = generate_arrays(position.as_array(), dice)
        if len(boards) == 0:
            return position.flip()
        won = ~(boards < 0).any(axis=1)
        if won.any():  # bearing off the last checker: take the biggest win
            candidates = [Position.trusted(tuple(int(c) for c in b)) for b in boards[won]]
            return max(candidates, key=lambda p: _points(p))
        p = ev.evaluate(boards)
        equity = 2 * p[:, 0] - 1 + p[:, 1] + p[:, 2] - p[:, 3] - p[:, 4]
        best = int(np.argmin(equity))  # the opponent's equity: lowest is best for the mover
        return Position.trusted(tuple(int(c) for c in boards[best]))

    return choose


def engine_player(plies: int | None) -> Player:
    import gammon

    engine = gammon.Engine() if plies is None else gammon.Engine(plies=plies)

    def choose(position: Position, dice: tuple[int, int]) -> Position:
        play = engine.best_play(position, dice)
        return position.flip() if play is None else play.after

    return choose


def pubeval_player() -> Player:
    from gammon.engine.pubeval import pubeval_best_play

    def choose(position: Position, dice: tuple[int, int]) -> Position:
        play = pubeval_best_play(position, dice)
        return position.flip() if play is None else play.after

    return choose


def gnubg_player(plies: int = 0) -> Player:
    import gnubg

    cube = gnubg.cubeinfo()
    cube["jacoby"] = 0
    context = gnubg.evalcontext(0, plies, 1, 0, 0.0)

    def choose(position: Position, dice: tuple[int, int]) -> Position:
        _, boards, _ = generate_arrays(position.as_array(), dice)
        if len(boards) == 0:
            return position.flip()
        results = {tuple(int(c) for c in b) for b in boards}
        move = gnubg.findbestmove(position.to_gnubg_board(), cube, context, dice)
        after = None if len(move) % 2 else position.after_gnubg_move(move)  # odd: cut at a 0
        if after is not None and after.board in results:
            return after
        # findbestmove cuts its tuple at the first 0 (a bear-off): choose the play as it does,
        # by gnubg's evaluation of each resulting position.
        best, best_eq = None, math.inf
        for b in results:
            p = Position.trusted(b)
            if p.is_game_over():
                return max((Position.trusted(r) for r in results), key=_points)
            e = gnubg.evaluate(p.to_gnubg_board(), cube, context)
            eq = 2 * e[0] - 1 + e[1] + e[2] - e[3] - e[4]
            if eq < best_eq:
                best, best_eq = p, eq
        assert best is not None
        return best

    return choose


def _points(after: Position) -> int:
    """Points won by the player whose play produced ``after`` (seen from the loser, on roll)."""
    b = after.board
    if any(c > 0 for c in b) and sum(c for c in b if c > 0) < 15:
        return 1
    return 3 if any(b[i] > 0 for i in range(19, 26)) else 2


def python_player(target: str) -> Player:
    """A bot written against gammon's API: ``MODULE.FUNCTION(position, dice) -> Play | None``. Its
    play must be legal: the game refuses anything else, naming the bot."""
    import importlib

    # run as ``python -m``, Python looks for modules in the folder the command runs in first
    module, _, function = target.rpartition(".")
    if not module:
        raise ValueError(f"py:{target}: name the function as MODULE.FUNCTION, e.g. py:mybot.play")
    bot = getattr(importlib.import_module(module), function)

    def choose(position: Position, dice: tuple[int, int]) -> Position:
        play = bot(position, dice)
        legal = position.legal_plays(dice)
        if play is None:
            if legal:
                raise ValueError(f"py:{target} played nothing with {dice} in {position.id}, which has "
                                 f"{len(legal)} legal plays")
            return position.flip()
        if play not in legal:
            raise ValueError(f"py:{target} played {play!r}, not a legal play of {dice} in {position.id}")
        return play.after

    return choose


def make_player(spec: str) -> Player:
    name, _, arg = spec.partition(":")
    if name == "py":
        return python_player(arg)
    if name == "net":
        return net_player(arg or None)
    if name == "engine":
        return engine_player(int(arg) if arg else None)
    if name == "pubeval":
        return pubeval_player()
    if name == "gnubg":
        return gnubg_player(int(arg) if arg else 0)
    raise ValueError(f"unknown player {spec!r} (net[:PATH], engine[:PLIES], pubeval, gnubg[:PLIES], "
                     "py:MODULE.FUNCTION)")


def pair_seed(seed: int, pair: int) -> int:
    """The dice seed of one mirrored pair: both of its games (or matches) roll from it."""
    return seed * 1_000_003 + pair


def pair_stats(values: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of results in mirrored pairs (``values[2k]`` and ``values[2k + 1]``
    played the same dice with the seats swapped): the error comes from the pair means, as the two
    games of a pair are correlated."""
    if len(values) < 4 or len(values) % 2:
        raise ValueError(f"need an even number (at least 4) of results in mirrored pairs, got {len(values)}")
    pair_means = np.asarray(values, dtype=np.float64).reshape(-1, 2).mean(axis=1)
    return float(pair_means.mean()), float(pair_means.std(ddof=1) / math.sqrt(len(pair_means)))


def play_game(first: Player, second: Player, rng: random.Random, first_starts: bool) -> int:
    """One cubeless game; the points ``first`` wins (negative when it loses)."""
    while True:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if d1 != d2:
            break
    first_on_roll = (d1 > d2) == first_starts
    position = Position.initial()
    dice = (d1, d2)
    for _ in range(10_000):
        player = first if first_on_roll else second
        after = player(position, dice)
        if after.is_game_over():
            points = _points(after)
            return points if first_on_roll else -points
        position = after
        first_on_roll = not first_on_roll
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    raise RuntimeError("game did not end in 10,000 plays")


def _play_pairs(job: Job) -> list[int]:
    a, b, seed, pairs = job
    first, second = make_player(a), make_player(b)
    out = []
    for pair in pairs:
        for first_starts in (True, False):
            out.append(play_game(first, second, random.Random(pair_seed(seed, pair)), first_starts))
    return out


def _job_and_result(job: Job) -> tuple[Job, list[int]]:
    return job, _play_pairs(job)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("player")
    parser.add_argument("opponent")
    parser.add_argument("--pairs", type=int, default=1000, help="dice sequences (games = 2 x pairs)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=10, help="pairs per job handed to a worker")
    args = parser.parse_args()
    start = time.perf_counter()
    # small chunks, handed out as workers free up; a running score goes to stderr
    chunks = [list(range(k, min(k + args.chunk, args.pairs))) for k in range(0, args.pairs, args.chunk)]
    jobs = [(args.player, args.opponent, args.seed, c) for c in chunks]
    by_pair: dict[int, list[int]] = {}
    with Pool(args.workers) as pool:
        for job, result in pool.imap_unordered(_job_and_result, jobs):
            for pair, k in zip(job[3], range(0, len(result), 2)):
                by_pair[pair] = result[k:k + 2]
            done = np.array([p for r in by_pair.values() for p in r], dtype=np.float64)
            print(f"  {len(done)} games, {done.mean():+.3f} ppg so far, "
                  f"{len(done) / (time.perf_counter() - start):.2f} games/s", file=sys.stderr, flush=True)
    points = np.array([p for pair in sorted(by_pair) for p in by_pair[pair]], dtype=np.float64)
    _, stderr = pair_stats(points)
    elapsed = time.perf_counter() - start
    print(f"{args.player} vs {args.opponent}: {points.mean():+.3f} ppg +- {stderr:.3f} "
          f"over {len(points)} games (mirrored dice, seed {args.seed}); won {(points > 0).mean():.1%}; "
          f"gammons {(np.abs(points) == 2).mean():.1%}, backgammons {(np.abs(points) == 3).mean():.1%}; "
          f"{elapsed:.0f} s")


if __name__ == "__main__":
    main()
