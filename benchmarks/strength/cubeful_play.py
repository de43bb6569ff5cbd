"""Cubeful play: money games and matches with the cube on, a gammon engine against GNU Backgammon.

Both sides play the checkers and the cube. gammon's side is :class:`gammon.engine.players.EnginePlayer`
(``Engine.best_play`` and ``Engine.cube_decision`` on the live :class:`gammon.Game`); GNU Backgammon's
side is the Debian ``gnubg -t`` program, kept running, asked for its ``hint`` on each state
(``set gnubgid PositionID:MatchID``): with dice its best cubeful play, without dice its cube analysis
("Proper cube action: Double, take"), which gives both its doubling and, asked from the doubler's
side, its answer. Ties that gnubg calls optional ("Optional double") are doubled.

Rules: money games with Jacoby on and beavers off (gammon's ``Rules()`` default and gnubg's Jacoby
default; gnubg's beavers are set off), no cube limit unless ``--cube-limit N`` (gnubg's analysis
does not know the limit; it is just never asked to double past it); matches (``--match N``) with
the Crawford rule. Dice are mirrored as in ``strength.py``: each dice sequence is played twice with the seats
swapped, and the standard errors come from the pair means (``strength.pair_stats``). Players:
``engine`` (``gammon.Engine()``, 2-ply), ``engine:PLIES``, ``gnubg`` (0-ply) or ``gnubg:PLIES``.

    python -m benchmarks.strength.cubeful_play engine:0 gnubg --pairs 500
    python -m benchmarks.strength.cubeful_play engine gnubg --match 7 --pairs 25
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: BLAS threads only add waiting

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from multiprocessing import Pool  # noqa: E402

from benchmarks.gnubg_harness import GnubgProcess  # noqa: E402
from benchmarks.strength.strength import pair_seed, pair_stats  # noqa: E402
from gammon.dice import DiceSource, RandomDice  # noqa: E402
from gammon.engine.players import ComputerPlayer, CubeAnswer, EnginePlayer, HeuristicCube  # noqa: E402
from gammon.formats.matchid import format_gnubg_id, gnubg_id, match_state  # noqa: E402
from gammon.game import Double, Game, GamePhase, Pass, Take  # noqa: E402
from gammon.match import Match  # noqa: E402
from gammon.play import Play  # noqa: E402
from gammon.rules import Rules  # noqa: E402

# A job for a worker: (player, opponent, seed, match length, pair numbers, money cube limit).
Job = tuple[str, str, int, int, list[int], int | None]

# --- GNU Backgammon's side -------------------------------------------------------------------

# Runs inside gnubg: answers each "PositionID:MatchID" line on stdin with the text of its hint.
SERVER_SCRIPT = r'''
for command in json.loads(%(setup)r):
    capture(command)
emit("ready")
for line in sys.stdin:
    capture("set gnubgid " + line.strip())
    emit(capture("hint"))
'''


class GnubgServer:
    """One ``gnubg -t`` process at ``plies`` for checker play and cube decisions, asked state by
    state; it ends when this process closes its input (or dies)."""

    def __init__(self, plies: int = 0) -> None:
        setup = ["set jacoby on", "set beavers 0",
                 f"set evaluation chequerplay evaluation plies {plies}",
                 f"set evaluation cubedecision evaluation plies {plies}"]
        self._process = GnubgProcess(SERVER_SCRIPT % {"setup": json.dumps(setup)})
        if self._process.receive() != "ready":
            raise RuntimeError("gnubg did not start the hint server")

    def hint(self, gid: str) -> str:
        """gnubg's ``hint`` text for the state ``gid`` (PositionID:MatchID)."""
        self._process.send(gid)
        return str(self._process.receive())

    def close(self) -> None:
        self._process.close()


@dataclass(frozen=True)
class CubeAction:
    """gnubg's proper cube action: whether the player on roll doubles, whether the taker takes."""

    double: bool
    take: bool


def parse_cube_action(text: str) -> CubeAction:
    """Read "Proper cube action: Double, take (12.3%)" (or "No redouble, beaver", "Optional double,
    pass", "Never double, take (dead cube)", ...) from gnubg's cube hint."""
    m = re.search(r"Proper cube action:\s*([A-Za-z ]+),\s*([a-z]+)", text)
    if m is None:
        raise ValueError(f"no proper cube action in gnubg's hint: {text[:200]!r}")
    action, answer = m.group(1).strip().lower(), m.group(2)
    doubles = action in ("double", "redouble", "optional double", "optional redouble")
    if not doubles and not action.startswith(("no ", "too good", "never ")):
        raise ValueError(f"unknown cube action {m.group(0)!r} in gnubg's hint")
    if answer not in ("take", "pass", "beaver"):
        raise ValueError(f"unknown answer {m.group(0)!r} in gnubg's hint")
    return CubeAction(doubles, answer != "pass")


def parse_best_move(text: str) -> str:
    """The best play's notation ("24/22 13/8") from gnubg's checker hint, whose first line reads
    ``1. Cubeful 0-ply    24/22 13/8    Eq.: +0.028``."""
    for line in text.splitlines():
        m = re.match(r"\s*1\.\s+\S+(?: \S+)?\s{2,}(\S.*?)\s+Eq\.:", line)
        if m:
            return m.group(1)
    raise ValueError(f"no best move in gnubg's hint: {text[:200]!r}")


class GnubgPlayer(HeuristicCube):
    """GNU Backgammon's play and cube decisions, through a :class:`GnubgServer`; resignations are
    never offered in these games, so the heuristic answer to one is never asked."""

    def __init__(self, server: GnubgServer, level: str = "gnubg 0-ply") -> None:
        self.server = server
        self.level = level

    def choose_play(self, game: Game) -> Play | None:
        if game.dice is None:
            return None
        return game.position.parse_play(parse_best_move(self.server.hint(gnubg_id(game))), game.dice)

    def cube_action(self, gid: str) -> CubeAction:
        """gnubg's cube action for the player on roll in ``gid`` (no dice)."""
        text = self.server.hint(gid)
        if not text.strip():
            # gnubg has no cube analysis where the cube is of no use (double match point): it
            # never doubles there, and taking costs nothing
            return CubeAction(double=False, take=True)
        return parse_cube_action(text)

    def wants_to_double(self, game: Game) -> bool:
        return game.can_double() and self.cube_action(gnubg_id(game)).double

    def answer_double(self, game: Game) -> CubeAnswer:
        # gnubg's analysis of the double, from the doubler's side before it doubled
        state = match_state(game)
        doubler = state.player_on_roll
        before = dataclasses.replace(state, double_offered=False, turn=doubler)
        action = self.cube_action(format_gnubg_id(game.position_for(doubler), before))
        return "take" if action.take else "pass"


# --- players ---------------------------------------------------------------------------------

_servers: dict[int, GnubgServer] = {}  # one gnubg per process and depth, kept between jobs


def make_player(spec: str) -> ComputerPlayer:
    """``engine`` (Engine(), 2-ply), ``engine:PLIES``, ``gnubg`` (0-ply) or ``gnubg:PLIES``."""
    name, _, arg = spec.partition(":")
    if name == "engine":
        from gammon.engine.engine import Engine

        engine = Engine() if not arg else Engine(plies=int(arg))
        return EnginePlayer(engine, spec)
    if name == "gnubg":
        plies = int(arg) if arg else 0
        if plies not in _servers:
            _servers[plies] = GnubgServer(plies)
        return GnubgPlayer(_servers[plies], f"gnubg {plies}-ply")
    raise ValueError(f"unknown player {spec!r} (engine[:PLIES], gnubg[:PLIES])")


# --- games, matches and their records --------------------------------------------------------


@dataclass
class CubeCount:
    """What one side did with the cube."""

    doubles: int = 0  # its first doubles and redoubles together
    redoubles: int = 0
    takes: int = 0
    drops: int = 0

    def add(self, other: CubeCount) -> None:
        for f in dataclasses.fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


@dataclass
class Outcome:
    """One game or match from the first player's side: ``value`` is the points it won in a money
    game (negative when it lost), or 1 / 0 for a match won or lost; ``cube``: the cube actions of
    the first player and of the opponent."""

    value: int
    games: int = 1
    final_cubes: list[int] = field(default_factory=list)
    dropped: int = 0  # games ended by a dropped double
    cube: tuple[CubeCount, CubeCount] = field(default_factory=lambda: (CubeCount(), CubeCount()))


def play_out(game: Game, players: Sequence[ComputerPlayer]) -> None:
    """Play ``game`` to its end, ``players[p]`` acting for player p."""
    if game.phase is GamePhase.OPENING:
        game.roll()
    for _ in range(20_000):
        if game.is_over:
            return
        assert game.turn is not None
        players[game.turn].next_action(game).perform(game)
    raise RuntimeError("game did not end in 20,000 actions")


def count_cube(game: Game, seat: int, outcome: Outcome) -> None:
    """Add ``game``'s cube actions to ``outcome`` (``seat``: the first player's seat)."""
    assert game.result is not None
    outcome.final_cubes.append(game.result.cube_value)
    outcome.dropped += game.result.reason == "pass"
    for action in game.history:
        side = outcome.cube[0 if action.player == seat else 1]
        if isinstance(action, Double):
            side.doubles += 1
            side.redoubles += action.cube_value > 2
        elif isinstance(action, Take):
            side.takes += 1
        elif isinstance(action, Pass):
            side.drops += 1


def play_money_game(first: ComputerPlayer, second: ComputerPlayer, seat: int, dice: DiceSource,
                    cube_limit: int | None = None) -> Outcome:
    """One money game with the cube (Jacoby on, beavers off), ``first`` in ``seat``."""
    game = Game(Rules(cube_limit=cube_limit), dice)
    players = [first, second] if seat == 0 else [second, first]
    play_out(game, players)
    assert game.result is not None
    result = game.result
    outcome = Outcome(result.points if result.winner == seat else -result.points)
    count_cube(game, seat, outcome)
    return outcome


def play_match(first: ComputerPlayer, second: ComputerPlayer, seat: int, dice: DiceSource,
               length: int) -> Outcome:
    """One match to ``length`` points with the Crawford rule, ``first`` in ``seat``."""
    match = Match(Rules(match_length=length), dice)
    players = [first, second] if seat == 0 else [second, first]
    outcome = Outcome(0, games=0)
    while True:
        play_out(match.game, players)
        outcome.games += 1
        count_cube(match.game, seat, outcome)
        if match.is_over:
            break
        match.new_game()
    outcome.value = int(match.winner == seat)
    return outcome


def play_pair(first: ComputerPlayer, second: ComputerPlayer, seed: int, pair: int,
              match_length: int = 0, cube_limit: int | None = None) -> list[Outcome]:
    """The two games (or matches) of one pair: the same dice, ``first`` in seat 0 then seat 1."""
    out = []
    for seat in (0, 1):
        dice = RandomDice(pair_seed(seed, pair))
        if match_length:
            out.append(play_match(first, second, seat, dice, match_length))
        else:
            out.append(play_money_game(first, second, seat, dice, cube_limit))
    return out


def _run_job(job: Job) -> tuple[Job, list[Outcome]]:
    a, b, seed, length, pairs, limit = job
    first, second = make_player(a), make_player(b)
    return job, [o for pair in pairs for o in play_pair(first, second, seed, pair, length, limit)]


# --- the report ------------------------------------------------------------------------------


def summary(player: str, opponent: str, outcomes: list[Outcome], match_length: int, seed: int,
            cube_limit: int | None = None) -> str:
    """The result line(s): mean with its standard error (from the pair means), sample sizes and the
    cube statistics of each side."""
    values = [o.value for o in outcomes]
    mean, se = pair_stats(values)
    games = sum(o.games for o in outcomes)
    cubes = [c for o in outcomes for c in o.final_cubes]
    if match_length:
        head = (f"{player} vs {opponent}, {match_length}-point matches (Crawford), cube on: "
                f"won {mean:.1%} +- {se:.1%} of {len(outcomes)} matches ({len(outcomes) // 2} mirrored "
                f"pairs, seed {seed}); {games} games, {games / len(outcomes):.1f} a match")
    else:
        limit = "no cube limit" if cube_limit is None else f"cube limit {cube_limit}"
        head = (f"{player} vs {opponent}, money games (cube on, Jacoby on, beavers off, {limit}): "
                f"{mean:+.3f} ppg +- {se:.3f} over {games} games ({games // 2} mirrored pairs, seed {seed}); "
                f"won {sum(v > 0 for v in values) / len(values):.1%}")
    lines = [head, f"  mean final cube {sum(cubes) / len(cubes):.2f}, largest {max(cubes)} "
                   f"({sum(c >= 16 for c in cubes)} games at 16 or more); {sum(o.dropped for o in outcomes)} "
                   f"of {games} games ended by a dropped double"]
    for name, k in ((player, 0), (opponent, 1)):
        c = CubeCount()
        for o in outcomes:
            c.add(o.cube[k])
        lines.append(f"  {name}: {c.doubles} doubles ({c.redoubles} redoubles), {c.takes} takes, "
                     f"{c.drops} drops ({c.doubles / games:.2f} doubles a game)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("player")
    parser.add_argument("opponent")
    parser.add_argument("--pairs", type=int, default=500,
                        help="dice sequences (games or matches = 2 x pairs)")
    parser.add_argument("--match", type=int, default=0, metavar="N", help="N-point matches (default: money)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cube-limit", type=int, default=None, help="highest cube in money games")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=5, help="pairs per job handed to a worker")
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop after this long and report the pairs finished by then")
    args = parser.parse_args()
    start = time.perf_counter()
    chunks = [list(range(k, min(k + args.chunk, args.pairs))) for k in range(0, args.pairs, args.chunk)]
    jobs = [(args.player, args.opponent, args.seed, args.match, c, args.cube_limit) for c in chunks]
    by_pair: dict[int, list[Outcome]] = {}
    with Pool(args.workers) as pool:
        for job, result in pool.imap_unordered(_run_job, jobs):
            for pair, k in zip(job[4], range(0, len(result), 2)):
                by_pair[pair] = result[k:k + 2]
            done = [o.value for r in by_pair.values() for o in r]
            unit = "matches" if args.match else "games"
            print(f"  {len(done)} {unit}, {sum(done) / len(done):+.3f} so far, "
                  f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
            if args.minutes is not None and time.perf_counter() - start > 60 * args.minutes:
                break  # leaving the pool stops the workers; the unfinished chunks are dropped
    outcomes = [o for pair in sorted(by_pair) for o in by_pair[pair]]
    print(summary(args.player, args.opponent, outcomes, args.match, args.seed, args.cube_limit))
    print(f"  {time.perf_counter() - start:.0f} s, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
