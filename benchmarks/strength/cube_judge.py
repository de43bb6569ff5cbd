"""Cube decisions judged by GNU Backgammon 2-ply: equity lost per decision for Engine(),
Engine(plies=0) and GNU Backgammon 0-ply side by side.

Decisions: positions before the roll where a cube action is close or real (the mover's 2-ply
cubeless win chance, as GNU Backgammon gives it, between 55% and 97%), taken from the wildbg
benchmark positions, the same positions seen from the other side, and the position after one
seeded roll played by ``Engine(plies=0)``. Money (Jacoby off): each position twice, cube centred
and cube owned by the mover (at 2). Match (``--match``): each position once at a seeded score from
2- to 11-away against 1- to 11-away (a side 1-away: post-Crawford), cube centred or owned by the
mover where it is still alive.

The judge: Debian ``gnubg -t`` ``hint`` without dice at 2 ply (its cubeful ND, DT and DP, in
equivalent money equity at the score); the same run gives GNU Backgammon 0-ply's ND, DT and DP,
whose cube action is judged too, as a reference. A player's error on a decision is the equity its
doubling choice gives up (``max(ND, min(DT, DP))`` less what its choice earns when the taker answers
right) plus ``|DT - DP|`` when its take/pass answer is wrong. GNU Backgammon's answers are stored in
``benchmarks/data/cube_money.tsv`` / ``cube_match.tsv`` (benchmark data: never labels for gammon);
``--rejudge`` builds them again.

``--set borne`` judges instead the positions of the borne-off class alone (a side has borne off a
checker while another is still out, contact, crashed or not: the positions of the net's borne-off
net, where the cube errs most and the wildbg set holds few): those of 4,000 0-ply self-play games of
the shipped net (5% random plays; their own seed, apart from every label campaign's), in the same
window, the same cube states, stored in ``cube_borne_money.tsv`` / ``cube_borne_match.tsv``.
``--set seven`` (match scores: it implies ``--match``) judges the scores of a 7-point match alone,
where the wildbg set holds 645 decisions: every position of 4,000 0-ply self-play games of the
shipped net (5% random plays, their own seed), contact and race, each once at a seeded score of
2- to 7-away against 1- to 7-away, in the same window, stored in ``cube_seven_match.tsv``.

    python -m benchmarks.strength.cube_judge [--match] [--set wildbg|borne|seven] [--positions 1500 | --quick]
        [--rejudge] [--weights FILE] [--chances [--teachers N]]

``--chances`` reports instead where ``Engine(plies=0)``'s money decisions err: over the contact
positions with the cube centred, its cubeless chances (and its cube head's, which its cube decisions
value, where the net has one) and its ND and DT against GNU Backgammon
2-ply's (PyPI ``gnubg`` for the chances), beside GNU Backgammon 0-ply's; and gammon's Janowski
model fed GNU Backgammon 0-ply's own chances against that player's ND and DT, which shows whether
the model or the chances make the difference; then both players' errors on all the money decisions
by the class of the position (:data:`POSITION_CLASSES`): contact with every checker on the board,
contact where a side has borne off a checker (it can no longer be gammoned) with its others home or
one still out, and races, beside those of gammon's cube model fed GNU Backgammon 0-ply's chances
(:func:`model_choices`). With ``--match``, that table for the match decisions. ``--teachers N``
adds, on the first N of those contact positions, how far from GNU Backgammon 2-ply's chances each
of gammon's possible teachers (label kinds) is: the net at 0 ply, its 2-ply search and its own
0-ply rollouts (``--trials``, 144 by default).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: BLAS threads only add waiting

import argparse  # noqa: E402
import csv  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import asdict, dataclass, fields  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from benchmarks import DATA, WILDBG  # noqa: E402
from benchmarks.gnubg_harness import run_gnubg  # noqa: E402
from gammon import Position  # noqa: E402
from gammon.engine.net.encode import borne_off_mask  # noqa: E402
from gammon.engine.net.neural import borne_off_contact_mask  # noqa: E402
from gammon.engine.rollout.rollouts import RolloutSettings  # noqa: E402
from gammon.formats.matchid import MatchState as MatchId  # noqa: E402
from gammon.situation import Situation

WINDOW = (0.55, 0.97)


# --- the arithmetic --------------------------------------------------------------------------


@dataclass(frozen=True)
class Equities:
    """Cubeful equities of the player on roll: no double, double/take, double/pass."""

    nd: float
    dt: float
    dp: float

    @property
    def should_double(self) -> bool:
        """Doubling is right when the taker's best answer is worth at least playing on (a tie
        doubles, as GNU Backgammon cashes)."""
        return min(self.dt, self.dp) >= self.nd

    @property
    def should_take(self) -> bool:
        return self.dt <= self.dp

    @property
    def best(self) -> float:
        return max(self.nd, min(self.dt, self.dp))


@dataclass(frozen=True)
class Error:
    """Equity given up on one decision: by the doubling choice and by the take/pass answer."""

    double: float
    take: float

    @property
    def total(self) -> float:
        return self.double + self.take


def decision_error(judge: Equities, doubles: bool, takes: bool) -> Error:
    """What a player who ``doubles`` (or not) and ``takes`` (or passes) gives up by ``judge``'s
    equities. A double earns ``min(DT, DP)`` (the taker answers right); a wrong answer costs
    ``|DT - DP|``."""
    earned = min(judge.dt, judge.dp) if doubles else judge.nd
    wrong_answer = takes != judge.should_take and judge.dt != judge.dp
    return Error(judge.best - earned, abs(judge.dt - judge.dp) if wrong_answer else 0.0)


@dataclass(frozen=True)
class Summary:
    decisions: int
    mean: float  # mEMG per decision, doubling and answer together
    mean_double: float
    mean_take: float
    wrong_doubles: int  # doubled when it should not have
    missed_doubles: int  # did not double when it should have
    wrong_takes: int  # took a pass
    wrong_passes: int  # passed a take
    se: float = 0.0  # standard error of ``mean`` (0 for a single decision)


def summarise(judges: list[Equities], choices: list[tuple[bool, bool]]) -> Summary:
    """Mean errors (mEMG) and miscounts of ``choices`` ((doubles, takes) per decision)."""
    if len(judges) != len(choices) or not judges:
        raise ValueError(f"need one choice per judged decision, got {len(choices)} for {len(judges)}")
    errs = [decision_error(j, d, t) for j, (d, t) in zip(judges, choices)]
    n = len(errs)
    totals = 1000 * np.array([e.total for e in errs])
    se = float(totals.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0
    return Summary(
        n, float(totals.mean()), 1000 * sum(e.double for e in errs) / n,
        1000 * sum(e.take for e in errs) / n,
        sum(1 for j, (d, _), e in zip(judges, choices, errs) if d and not j.should_double and e.double > 0),
        sum(1 for j, (d, _), e in zip(judges, choices, errs) if not d and j.should_double and e.double > 0),
        sum(1 for (_, t), e in zip(choices, errs) if t and e.take > 0),
        sum(1 for (_, t), e in zip(choices, errs) if not t and e.take > 0), se)


_EQUITY_LINES = {"No double": "nd", "Double, take": "dt", "Double, pass": "dp"}


def parse_hint(text: str) -> tuple[Equities, float]:
    """GNU Backgammon's cube ``hint`` text: its cubeful equities and the cubeless win chance."""
    found: dict[str, float] = {}
    for line in text.splitlines():
        m = re.match(r"\s*\d\.\s+(No double|Double, take|Double, pass)\s+([-+]?\d+\.\d+)", line)
        if m:
            found[_EQUITY_LINES[m.group(1)]] = float(m.group(2))
    probs = re.search(r"cubeless equity\s+\S+.*\n\s*(\d\.\d+)", text)
    if len(found) != 3 or probs is None:
        raise ValueError(f"not a GNU Backgammon cube hint: {text[:200]!r}")
    return Equities(**found), float(probs.group(1))


# --- the decisions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One judged cube decision; ``away`` 0 for money; ``owned``: the mover owns the cube."""

    position: str
    away: int
    opponent_away: int
    cube: int
    owned: bool
    win: float  # GNU Backgammon 2-ply cubeless
    nd2: float
    dt2: float
    dp2: float
    nd0: float
    dt0: float
    dp0: float

    @property
    def judge(self) -> Equities:
        return Equities(self.nd2, self.dt2, self.dp2)

    @property
    def gnubg0(self) -> Equities:
        return Equities(self.nd0, self.dt0, self.dp0)

    def gnubg_id(self) -> str:
        """Position and Match ID, player 1 on roll before rolling (no dice), Jacoby off."""
        owner = 1 if self.owned else None
        if self.away:
            length = max(self.away, self.opponent_away) + 1
            state = MatchId(match_length=length, score=(length - self.opponent_away, length - self.away),
                            cube_value=self.cube, cube_owner=owner, player_on_roll=1, turn=1, jacoby=False)
        else:
            state = MatchId(cube_value=self.cube, cube_owner=owner, player_on_roll=1, turn=1, jacoby=False)
        return f"{self.position}:{state.id}"


SEVEN = 7  # the match length the engine's cube target names


def in_match_of(d: Decision, length: int) -> bool:
    """Whether ``d``'s score can arise in a match of ``length`` points (neither side more than
    ``length``-away); money decisions never do."""
    return bool(d.away) and d.away <= length and d.opponent_away <= length


SELF_PLAY_GAMES = 4000
BORNE_SEED = 9001  # the self-play games of --set borne: no label campaign's seed
SEVEN_SEED = 9002  # those of --set seven


def self_play_candidates(seed: int, games_seed: int, borne_only: bool) -> list[Position]:
    """The positions of ``SELF_PLAY_GAMES`` 0-ply self-play games of the shipped net (5% random
    plays, seed ``games_seed``), only those where a side has borne off a checker while another is
    still out where ``borne_only``, without repeats or finished games, shuffled by ``seed``."""
    from gammon.engine.net.neural import NeuralEvaluator
    from gammon.train.kernels import collect_positions

    boards = collect_positions(NeuralEvaluator.default(), games_seed, 0, SELF_PLAY_GAMES, 1, 0.05)
    if borne_only:
        boards = boards[borne_off_contact_mask(boards)]
    out: dict[str, Position] = {}
    for b in boards:
        p = Position(b.tolist())
        if not p.is_game_over():
            out.setdefault(p.id, p)
    pool = list(out.values())
    # build() shuffles the pool again: both kept, so that the committed sets are made again as they were
    random.Random(seed).shuffle(pool)
    return pool


def candidates(seed: int) -> list[Position]:
    """The wildbg positions, each seen from both sides and after one seeded roll (best 0-ply
    play), contact and race interleaved, without repeats or finished games."""
    from gammon.engine.engine import Engine

    files = [(WILDBG / f"{n}.csv").read_text().split() for n in ("contact", "race")]
    base = [Position.from_id(pid) for pair in zip(*files) for pid in pair]
    rng = random.Random(seed)
    engine = Engine(plies=0)
    out: dict[str, Position] = {}
    for p in base:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        play = engine.best_play(p, dice)
        after = play.after if play is not None else p.flip()
        for q in (p, p.flip(), after):
            if not q.is_game_over():
                out.setdefault(q.id, q)
    return list(out.values())


# Runs inside gnubg: for each spec, the 2-ply hint; when the win chance is in the window, the rest.
GNUBG_SCRIPT = r'''
import re
CONFIG = json.loads(%(config)r)

def hint(gid, plies):
    capture("set evaluation cubedecision evaluation plies %%d" %% plies)
    capture("set gnubgid " + gid)
    return capture("hint")

capture("set jacoby off")
lo, hi = CONFIG["window"]
for group in CONFIG["groups"]:
    first = hint(group[0], 2)
    m = re.search(r"cubeless equity\s+\S+.*\n\s*(\d\.\d+)", first)
    if m is None or not lo <= float(m.group(1)) <= hi:
        out = [None]
    else:
        out = [[first, hint(group[0], 0)]] + [[hint(g, 2), hint(g, 0)] for g in group[1:]]
    emit(out)
'''


def judge_in_gnubg(groups: list[list[Decision]]) -> list[list[Decision]]:
    """Judge each group (one position, its cube states) in one gnubg run; a group whose first
    decision's win chance falls outside the window comes back empty."""
    config = json.dumps({"window": WINDOW, "groups": [[d.gnubg_id() for d in g] for g in groups]})
    lines = run_gnubg(GNUBG_SCRIPT % {"config": config}, timeout=None, expect=len(groups))
    out = []
    for group, answer in zip(groups, lines):
        if answer == [None]:
            out.append([])
            continue
        judged = []
        for d, (two, zero) in zip(group, answer):
            e2, win = parse_hint(two)
            e0, _ = parse_hint(zero)
            judged.append(Decision(d.position, d.away, d.opponent_away, d.cube, d.owned, win,
                                   e2.nd, e2.dt, e2.dp, e0.nd, e0.dt, e0.dp))
        out.append(judged)
    return out


MATCH_AWAY = 11  # the scores of the match set: 2- to 11-away against 1- to 11-away


def specs(p: Position, match: bool, rng: random.Random, longest: int = MATCH_AWAY) -> list[Decision]:
    """The cube states judged for one position (equities left at 0 until judged); at match
    scores, a seeded score of 2- to ``longest``-away against 1- to ``longest``-away."""
    blank = dict(win=0.0, nd2=0.0, dt2=0.0, dp2=0.0, nd0=0.0, dt0=0.0, dp0=0.0)
    if not match:
        return [Decision(p.id, 0, 0, 1, False, **blank), Decision(p.id, 0, 0, 2, True, **blank)]
    away = rng.randint(2, longest)
    opponent = rng.randint(1, longest)
    owned = away > 2 and rng.random() < 0.5  # a 2-cube owned at 2-away is dead
    return [Decision(p.id, away, opponent, 2 if owned else 1, owned, **blank)]


SETS = ("wildbg", "borne", "seven")
"""The decision sets: the wildbg positions, the borne-off class alone, a 7-point match's scores alone."""


def build(path: Path, match: bool, wanted: int, seed: int, kind: str = "wildbg") -> list[Decision]:
    rng = random.Random(seed)
    if kind == "wildbg":
        pool = candidates(seed)
    else:
        pool = self_play_candidates(seed, BORNE_SEED if kind == "borne" else SEVEN_SEED, kind == "borne")
    rng.shuffle(pool)
    longest = SEVEN if kind == "seven" else MATCH_AWAY
    out: list[Decision] = []
    batch = 400
    for start in range(0, len(pool), batch):
        groups = [specs(p, match, rng, longest) for p in pool[start:start + batch]]
        for g in judge_in_gnubg(groups):
            out.extend(g)
        print(f"  {start + batch} candidates, {len(out)} decisions", file=sys.stderr)
        if len(out) >= wanted:
            break
    path.parent.mkdir(exist_ok=True)
    with path.open("w", newline="") as f:
        w = csv.writer(f, delimiter="\t")
        w.writerow([fl.name for fl in fields(Decision)])
        for d in out:
            w.writerow([int(v) if isinstance(v, bool) else v for v in asdict(d).values()])
    return out


def load(path: Path) -> list[Decision]:
    with path.open() as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    types = {fl.name: fl.type for fl in fields(Decision)}
    conv = {"str": str, "int": int, "float": float, "bool": lambda s: bool(int(s))}
    return [Decision(**{k: conv[str(types[k])](v) for k, v in r.items()}) for r in rows]


# --- where the 0-ply cube errs ---------------------------------------------------------------

CHANCES = ("win", "win gammon", "win bg", "lose gammon", "lose bg")


def gnubg_chances(positions: list[Position], plies: int) -> np.ndarray:
    """GNU Backgammon's cubeless chances (PyPI ``gnubg``) of each position for the player on roll,
    gammons including backgammons as gammon's do: shape (N, 5)."""
    import gnubg  # type: ignore[import-not-found]

    cube = {**gnubg.cubeinfo(), "jacoby": 0}
    context = gnubg.evalcontext(0, plies, 1, 0, 0.0)
    return np.array([gnubg.evaluate(p.to_gnubg_board(), cube, context)[:5] for p in positions])


def model_nd_dt(chances: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """gammon's ND and DT (``money_cube_decision``: Janowski's model, money, cube centred, Jacoby
    off, contact cube efficiency) of each row of cubeless chances, per unit of the cube before the
    double."""
    from gammon.engine.cube.cubeful import CONTACT_EFFICIENCY
    from gammon.engine.cube.decision import money_cube_decision
    from gammon.engine.net.evaluator import Probabilities
    from gammon.situation import CubeOwner

    decisions = [money_cube_decision(Probabilities.from_array(row), CubeOwner.CENTRED, CONTACT_EFFICIENCY,
                                     jacoby=False) for row in chances]
    return np.array([d.no_double for d in decisions]), np.array([d.double_take for d in decisions])


def model_choices(work: list[Decision], chances: np.ndarray) -> list[tuple[bool, bool]]:
    """The double and take of gammon's cube model (Janowski's for money, Jacoby off; the match
    equity curves at a score: :mod:`gammon.engine.cube.cubeful`), with the cube efficiency of each
    position, fed each decision's cubeless chances (rows of ``chances``): what
    ``Engine(plies=0)`` would decide with those chances, less its exact bear-off values."""
    from gammon.engine.cube.cubeful_search import efficiencies
    from gammon.engine.cube.decision import match_cube_decision, money_cube_decision
    from gammon.engine.net.evaluator import Probabilities
    from gammon.situation import CubeOwner, MatchScore

    boards = np.array([Position.from_id(d.position).as_array() for d in work], dtype=np.int8)
    out = []
    for d, row, x in zip(work, chances, efficiencies(boards), strict=True):
        probs = Probabilities.from_array(row)
        owner = CubeOwner.MOVER if d.owned else CubeOwner.CENTRED
        if d.away:
            match = MatchScore.from_away(d.away, d.opponent_away)
            dec = match_cube_decision(probs, match, d.cube, owner, float(x))
        else:
            dec = money_cube_decision(probs, owner, float(x), jacoby=False)
        out.append((dec.should_double, dec.take))
    return out


def centred_contact(work: list[Decision]) -> list[Decision]:
    """The money decisions of contact positions with the cube centred."""
    return [d for d in work if not d.owned and not d.away and not Position.from_id(d.position).is_race()]


POSITION_CLASSES = ("contact, no checker off", "contact, a checker off, the others home",
                    "contact, a checker off, another out", "race")


def position_class(p: Position) -> str:
    """Which of :data:`POSITION_CLASSES` ``p`` is in. A side that has borne off a checker can no
    longer be gammoned; "another out": one of its checkers is still on the bar or on its points
    7-24 (after a hit, or in a set-up position such as many of the wildbg set's), the positions of
    the net's borne-off head (:func:`gammon.engine.net.encode.borne_off_mask`)."""
    if p.is_race():
        return POSITION_CLASSES[3]
    if borne_off_mask(np.array([p.board], dtype=np.int8))[0]:
        return POSITION_CLASSES[2]
    return POSITION_CLASSES[1 if any(p.off) else 0]


def _rms_bias(diff: np.ndarray) -> str:
    return f"{np.sqrt(np.mean(diff ** 2)):.4f} ({np.mean(diff):+.4f})"


def _chance_table(rows: dict[str, np.ndarray], judge: np.ndarray) -> None:
    """Each row's cubeless chances against ``judge``'s: root mean square (bias) of each of the five."""
    print(f"{'cubeless chances':<18}" + "".join(f"{c:>18}" for c in CHANCES))
    for name, chances in rows.items():
        print(f"{name:<18}" + "".join(f"{_rms_bias(chances[:, i] - judge[:, i]):>18}" for i in range(5)))


TEACHER_TRIALS = 144  # rollout trials of --teachers unless --trials


def chance_report(work: list[Decision], evaluator, teachers: int = 0,  # type: ignore[no-untyped-def]
                  trials: int = TEACHER_TRIALS) -> None:
    """Print where ``Engine(plies=0)``'s money cube errs (module docstring, ``--chances``); with
    ``teachers``, how good a teacher each of gammon's labels would be (:func:`teacher_report`)."""
    from gammon.engine.engine import Engine

    picked = centred_contact(work)
    positions = [Position.from_id(d.position) for d in picked]
    engine = Engine.with_weights(evaluator, 0)
    judge = gnubg_chances(positions, 2)
    zero = gnubg_chances(positions, 0)
    ours = np.array([engine.evaluate(p).as_tuple() for p in positions])
    print(f"{len(picked)} contact positions of the money set, cube centred; root mean square (bias) "
          "against GNU Backgammon 2-ply")
    rows = {"Engine(plies=0)": ours}
    if getattr(engine.evaluator, "has_cube_chances", False):  # the chances its cube decisions value
        boards = np.array([p.as_array() for p in positions], dtype=np.int8)
        rows["its cube head"] = engine.evaluator.evaluate_for_cube(boards)  # type: ignore[attr-defined]
    _chance_table(rows | {"gnubg 0-ply": zero}, judge)
    decisions = [engine.cube_decision(Situation.at(p, jacoby=False)) for p in positions]
    nd2 = np.array([d.nd2 for d in picked])
    dt2 = np.array([d.dt2 for d in picked])
    nd0 = np.array([d.nd0 for d in picked])
    dt0 = np.array([d.dt0 for d in picked])
    print(f"{'cubeful equities':<18}{'ND':>18}{'DT':>18}")
    print(f"{'Engine(plies=0)':<18}{_rms_bias(np.array([d.no_double for d in decisions]) - nd2):>18}"
          f"{_rms_bias(np.array([d.double_take for d in decisions]) - dt2):>18}")
    print(f"{'gnubg 0-ply':<18}{_rms_bias(nd0 - nd2):>18}{_rms_bias(dt0 - dt2):>18}")
    model_nd, model_dt = model_nd_dt(zero)
    print(f"gammon's model fed gnubg 0-ply's chances, against gnubg 0-ply's own ND and DT: "
          f"{_rms_bias(model_nd - nd0)}, {_rms_bias(model_dt - dt0)}")
    class_report(work, engine)
    if teachers:
        teacher_report(positions[:teachers], judge[:teachers], ours[:teachers], evaluator, trials)


def teacher_report(positions: list[Position], judge: np.ndarray,  # type: ignore[no-untyped-def]
                   net: np.ndarray, weights, trials: int) -> None:
    """The cubeless chances of ``positions`` by each of gammon's possible teachers (the net at 0
    ply, ``net``, as ``Engine(plies=0)`` gave them with ``weights``, None the shipped ones; its 2-ply
    search; its own 0-ply rollouts of ``trials`` trials, variance reduced, seeded by the position's
    index) against GNU Backgammon 2-ply's ``judge``: root mean square (bias)."""
    from gammon.engine.engine import Engine

    start = time.perf_counter()
    engine, two = Engine.with_weights(weights, 0), Engine.with_weights(weights, 2)
    rolled = [engine.rollout(p, RolloutSettings(trials=trials, seed=1000 + i)).probabilities
              for i, p in enumerate(positions)]
    rows = {
        "Engine(plies=0)": net,
        "Engine() search": np.array([two.evaluate(p).as_tuple() for p in positions]),
        f"rollouts ({trials})": np.array([r.as_tuple() for r in rolled]),
    }
    print(f"the teachers, on the first {len(positions)} of those contact positions, against GNU "
          f"Backgammon 2-ply ({time.perf_counter() - start:.0f} s)")
    _chance_table(rows, judge)


def class_errors(work: list[Decision], choices: list[tuple[bool, bool]]) -> dict[str, np.ndarray]:
    """The error (mEMG) of each decision by the class of its position (:func:`position_class`)."""
    out: dict[str, list[float]] = {c: [] for c in POSITION_CLASSES}
    for d, (doubles, takes) in zip(work, choices, strict=True):
        out[position_class(Position.from_id(d.position))].append(
            1000 * decision_error(d.judge, doubles, takes).total)
    return {c: np.array(v) for c, v in out.items()}


def class_report(work: list[Decision], engine) -> None:  # type: ignore[no-untyped-def]
    """Each player's decisions by the class of the position: mEMG a decision, and that class's
    part of the mean over all; beside them gammon's cube model fed GNU Backgammon 0-ply's chances
    (:func:`model_choices`), which shows whether the chances or the model make the difference."""
    zero = gnubg_chances([Position.from_id(d.position) for d in work], 0)
    players = {"Engine(plies=0)": [engine_choice(engine, d) for d in work],
               "model, gnubg 0-ply chances": model_choices(work, zero),
               "gnubg 0-ply": [(d.gnubg0.should_double, d.gnubg0.should_take) for d in work]}
    errors = {name: class_errors(work, c) for name, c in players.items()}
    kind = "match" if work and work[0].away else "money"
    print(f"{len(work)} {kind} decisions by position class: mEMG a decision (part of the mean over all)")
    print(f"{'class':<42}{'decisions':>10}" + "".join(f"{name:>28}" for name in players))
    for c in POSITION_CLASSES:
        n = len(errors["gnubg 0-ply"][c])
        cells = "".join(f"{e[c].mean() if n else float('nan'):>19.2f} ({e[c].sum() / len(work):4.2f})"
                        for e in errors.values())
        print(f"{c:<42}{n:>10}{cells}")
    print(f"{'all':<42}{len(work):>10}" + "".join(f"{sum(v.sum() for v in e.values()) / len(work):>26.2f}  "
                                                  for e in errors.values()))


# --- the players -----------------------------------------------------------------------------


def engine_choice(engine, d: Decision) -> tuple[bool, bool]:  # type: ignore[no-untyped-def]
    from gammon.situation import CubeOwner, MatchScore

    owner = CubeOwner.MOVER if d.owned else CubeOwner.CENTRED
    match = MatchScore.from_away(d.away, d.opponent_away) if d.away else None
    dec = engine.cube_decision(Situation.at(Position.from_id(d.position), cube_value=d.cube, cube_owner=owner,
                               match=match, jacoby=False))
    return dec.should_double, dec.take


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--match", action="store_true", help="match scores instead of money")
    parser.add_argument("--set", choices=SETS, default="wildbg",
                        help="the decisions: of the wildbg positions, of the borne-off class alone, or "
                             "at the scores of a 7-point match alone (match scores: implies --match)")
    parser.add_argument("--positions", type=int, default=None, help="decisions judged (default: all)")
    parser.add_argument("--quick", action="store_true", help="the first 300 decisions")
    parser.add_argument("--rejudge", action="store_true", help="ask GNU Backgammon again")
    parser.add_argument("--build", type=int, default=3200, help="decisions to build with --rejudge")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", nargs="*", default=["2", "0"], help="Engine plies to judge")
    parser.add_argument("--weights", type=Path, default=None,
                        help="a weights file instead of the shipped net")
    parser.add_argument("--chances", action="store_true",
                        help="where Engine(plies=0)'s decisions err: chances, ND and DT (money), "
                             "errors by position class beside its model's on gnubg 0-ply's chances")
    parser.add_argument("--teachers", type=int, default=0, metavar="N",
                        help="with --chances: the chances of the first N of its positions by the net, "
                             "its 2-ply search and its own 0-ply rollouts (--trials)")
    parser.add_argument("--trials", type=int, default=None,
                        help=f"rollout trials for --teachers ({TEACHER_TRIALS})")
    args = parser.parse_args()
    if args.set == "seven":
        args.match = True
    if args.teachers and args.match:
        parser.error("--teachers reports money decisions; leave out --match")
    if args.teachers and not args.chances:
        parser.error("--teachers is part of --chances")
    if args.trials is not None and not args.teachers:
        parser.error("--trials is for the rollouts of --teachers")
    prefix = "cube_" if args.set == "wildbg" else f"cube_{args.set}_"
    path = DATA / (prefix + ("match.tsv" if args.match else "money.tsv"))
    if args.rejudge or not path.exists():
        start = time.perf_counter()
        seed = args.seed + (100 if args.match else 0)
        work = build(path, args.match, args.build, seed, args.set)
        print(f"judged {len(work)} decisions in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    work = load(path)
    limit = 300 if args.quick else args.positions
    if limit is not None:
        work = work[:limit]

    from gammon.engine.engine import Engine
    from gammon.engine.net.neural import NeuralEvaluator

    evaluator = None if args.weights is None else NeuralEvaluator.load(args.weights)
    if args.chances and args.match:
        class_report(work, Engine.with_weights(evaluator, 0))
        return
    if args.chances:
        chance_report(work, evaluator, args.teachers, args.trials or TEACHER_TRIALS)
        return
    judges = [d.judge for d in work]
    race = [Position.from_id(d.position).is_race() for d in work]
    choices: dict[str, list[tuple[bool, bool]]] = {}
    seconds: dict[str, float] = {}
    for plies in args.players:
        engine = Engine.with_weights(evaluator, int(plies))
        name = "Engine()" if int(plies) == 2 else f"Engine(plies={plies})"
        engine_choice(engine, work[0])  # loads the net and the kernels before the clock starts
        start = time.perf_counter()
        choices[name] = [engine_choice(engine, d) for d in work]
        seconds[name] = time.perf_counter() - start
    choices["gnubg 0-ply"] = [(d.gnubg0.should_double, d.gnubg0.should_take) for d in work]
    results = {name: summarise(judges, c) for name, c in choices.items()}
    # the same by phase (contact, race)
    phases = {name: [summarise([j for j, r in zip(judges, race) if r is want],
                               [x for x, r in zip(c, race) if r is want]).mean
                     if want in race else float("nan") for want in (False, True)]
              for name, c in choices.items()}
    kind = "match scores" if args.match else "money, Jacoby off, cube centred or owned"
    print(f"weights: {args.weights or 'shipped'}")
    print(f"{len(work)} cube decisions ({kind}); judge: GNU Backgammon 2-ply cube hint; "
          f"{sum(j.should_double for j in judges)} doubles, {sum(not j.should_take for j in judges)} passes")
    print(f"{'player':<18}{'mEMG/decision':>14}{'+- se':>7}{'double':>8}{'take':>7}{'contact':>9}{'race':>7}"
          f"{'wrong dbl':>10}{'missed dbl':>11}{'wrong take':>11}{'wrong pass':>11}{'time/dec':>10}")
    for name, s in results.items():
        t = f"{1000 * seconds[name] / len(work):.1f}ms" if name in seconds else ""
        contact, in_race = phases[name]
        print(f"{name:<18}{s.mean:>14.2f}{s.se:>7.2f}{s.mean_double:>8.2f}{s.mean_take:>7.2f}{contact:>9.2f}"
              f"{in_race:>7.2f}{s.wrong_doubles:>10}{s.missed_doubles:>11}{s.wrong_takes:>11}{s.wrong_passes:>11}"
              f"{t:>10}")
    print(f"({len(race) - sum(race)} contact and {sum(race)} race decisions; mEMG per decision: the "
          "doubling choice and the take/pass answer together)")
    if args.match:
        seven = [i for i, d in enumerate(work) if in_match_of(d, SEVEN)]
        if seven:
            sevens = {name: summarise([judges[i] for i in seven], [c[i] for i in seven])
                      for name, c in choices.items()}
            line = ", ".join(f"{name} {s.mean:.2f} +- {s.se:.2f}" for name, s in sevens.items())
            print(f"at the scores of a {SEVEN}-point match (neither side more than {SEVEN}-away), "
                  f"{len(seven)} decisions: {line}")


if __name__ == "__main__":
    main()
