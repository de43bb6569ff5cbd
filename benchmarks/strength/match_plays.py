"""Checker play at match scores, judged by GNU Backgammon 2-ply at the score: does ranking the plays
by match winning chances (what ``Engine`` does with a Situation in a match) pick better plays than
ranking them by money equity (a bare Position)?

Decisions: the second judge set (``benchmarks/data/judge_set_classes.tsv``: contact, crashed and
race positions of GNU Backgammon self-play with noise, each with its roll), each at a seeded score:
1- to 9-away each (double match point, the Crawford game, post-Crawford and ordinary scores among
them), the cube centred, or at 2 owned by the mover or by its opponent (centred where the score
leaves no cube). For each, ``Engine(plies=0)`` and ``Engine()`` pick a play twice: with the score
(``best_play(situation)``) and without it (``best_play(position, dice)``, money).

The judge: Debian ``gnubg -t`` ``eval`` at 2 ply of each picked play's resulting position, the
opponent on roll at the score with its cube (the "Cubeful" equity of its "2 ply" line: the
opponent's equity after its best cube action, EMG), turned into the mover's match winning chance
through the match equity table (Kazaross-XG2, gnubg's default; a finished game is worth the score it
reaches). A pick's loss is the best judged pick's MWC less its own, in the mover's EMG (mEMG): the
reference is the best of the plays judged, so the paired differences between the two rankings are
the measurement, over all decisions (those where the picks agree count as 0). GNU Backgammon judges
here and is never a teacher: nothing it says is kept.

    python -m benchmarks.strength.match_plays [--decisions 1500] [--seed 1] [--players 0 2]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: BLAS threads only add waiting

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402

import numpy as np  # noqa: E402

from benchmarks.gnubg_harness import run_gnubg  # noqa: E402
from benchmarks.strength.judge_set import CLASSES_SET, KINDS, Decision, read_judge_set  # noqa: E402
from gammon import Position  # noqa: E402
from gammon.engine.cube.stakes import Stakes  # noqa: E402
from gammon.engine.engine import Engine  # noqa: E402
from gammon.formats.matchid import gnubg_id  # noqa: E402
from gammon.play import Play  # noqa: E402
from gammon.situation import CubeOwner, MatchScore, Situation  # noqa: E402

MAX_AWAY = 9


@dataclass(frozen=True)
class MatchDecision:
    """A judge-set decision at a score: the mover's Situation (its roll included)."""

    decision: Decision
    situation: Situation

    @property
    def score_class(self) -> str:
        m = self.situation.match
        assert m is not None
        if m.away == m.opponent_away == 1:
            return "DMP"
        if m.crawford_game:
            return "Crawford"
        if m.post_crawford:
            return "post-Crawford"
        return "other"


SCORE_CLASSES = ("DMP", "Crawford", "post-Crawford", "other")


def at_scores(decisions: list[Decision], seed: int) -> list[MatchDecision]:
    """Each decision at a seeded score and cube (the cube only where the score lets it live)."""
    rng = random.Random(seed)
    out = []
    for d in decisions:
        away, opponent = rng.randint(1, MAX_AWAY), rng.randint(1, MAX_AWAY)
        crawford = away != opponent and 1 in (away, opponent) and rng.random() < 0.3
        match = MatchScore.from_away(away, opponent, crawford)
        value, owner = 1, CubeOwner.CENTRED
        live = not crawford and min(away, opponent) > 1
        if live and rng.random() < 0.5:
            value, owner = 2, rng.choice([CubeOwner.MOVER, CubeOwner.OPPONENT])
        s = Situation.at(d.position, cube_value=value, cube_owner=owner, match=match, dice=d.dice)
        out.append(MatchDecision(d, s))
    return out


def after_situation(s: Situation, after: Position) -> Situation:
    """The opponent's Situation after the mover's play: on roll, no dice yet, the same cube and score."""
    assert s.match is not None
    return Situation.at(after, cube_value=s.cube_value, cube_owner=s.cube_owner.flip(),
                        match=s.match.flip())


# Runs inside gnubg: the 2-ply cubeful equity of the player on roll of each ID.
GNUBG_SCRIPT = r'''
CONFIG = json.loads(%(config)r)
capture("set evaluation chequerplay evaluation plies 2")
capture("set evaluation cubedecision evaluation plies 2")
capture("set jacoby off")
for gid in CONFIG:
    capture("set gnubgid " + gid)
    emit(capture("eval"))
'''

_TWO_PLY = re.compile(r"^\s*2 ply:\s+(?:\S+\s+){5}\S+\s+([-+]?\d+\.\d+)\s*$", re.MULTILINE)


def parse_eval(text: str) -> float:
    """The Cubeful column of the "2 ply" line of GNU Backgammon's ``eval``."""
    m = _TWO_PLY.search(text)
    if m is None:
        raise ValueError(f"not a GNU Backgammon 2-ply eval: {text[:300]!r}")
    return float(m.group(1))


def judge_in_gnubg(ids: list[str], batch: int = 250) -> dict[str, float]:
    """The opponent's 2-ply cubeful equity (EMG) of each GNU Backgammon ID."""
    out: dict[str, float] = {}
    for start in range(0, len(ids), batch):
        part = ids[start:start + batch]
        texts = run_gnubg(GNUBG_SCRIPT % {"config": json.dumps(part)}, timeout=None, expect=len(part))
        out.update((gid, parse_eval(t)) for gid, t in zip(part, texts))
        print(f"  judged {min(start + batch, len(ids))} / {len(ids)} resulting positions", file=sys.stderr)
    return out


def mover_mwc(s: Situation, after: Position, judged: dict[str, float], engine: Engine) -> float:
    """The mover's match winning chance after a play, by the judge (exact where the game is over)."""
    theirs = after_situation(s, after)
    opponent = Stakes.seen_in(s, opponent=True)
    if after.is_game_over():
        emg = opponent.equity(after, engine.evaluate(after))  # the loss suffered, exactly
    else:
        emg = judged[gnubg_id(theirs)]
    return 1.0 - opponent.mwc(emg)


def players(plies: list[int]) -> dict[str, tuple[Engine, bool]]:
    """Each player: its engine and whether it is given the score."""
    out: dict[str, tuple[Engine, bool]] = {}
    for n in plies:
        name = "Engine()" if n == 2 else f"Engine(plies={n})"
        engine = Engine(plies=n)
        out[f"{name} money"] = (engine, False)
        out[f"{name} score"] = (engine, True)
    return out


def pick(engine: Engine, md: MatchDecision, with_score: bool) -> Play | None:
    if with_score:
        return engine.best_play(md.situation)
    return engine.best_play(md.decision.position, md.decision.dice)


def _mean_se(x: np.ndarray) -> str:
    if len(x) == 0:
        return "-"
    se = x.std(ddof=1) / np.sqrt(len(x)) if len(x) > 1 else 0.0
    return f"{x.mean():.2f} +- {se:.2f}"


def report(work: list[MatchDecision], losses: dict[str, np.ndarray]) -> None:
    names = list(losses)
    print(f"\n{len(work)} decisions at match scores, mEMG lost a decision (judged by GNU Backgammon 2-ply, "
          "cubeful at the score; reference: the best of the plays judged)")
    groups: list[tuple[str, np.ndarray]] = [("all", np.ones(len(work), dtype=bool))]
    groups += [(k, np.array([m.decision.kind == k for m in work])) for k in KINDS]
    groups += [(c, np.array([m.score_class == c for m in work])) for c in SCORE_CLASSES]
    header = f"{'':<24}" + "".join(f"{g:>17}" for g, _ in groups)
    print(header)
    print(f"{'decisions':<24}" + "".join(f"{int(mask.sum()):>17}" for _, mask in groups))
    for name in names:
        print(f"{name:<24}" + "".join(f"{_mean_se(losses[name][mask]):>17}" for _, mask in groups))
    for name in names:
        if name.endswith(" score"):
            base = name[: -len(" score")] + " money"
            diff = losses[name] - losses[base]
            changed = int(np.count_nonzero(diff))
            print(f"{name} - {base}: {_mean_se(diff)} mEMG a decision ({changed} of {len(work)} picks judged "
                  "differently); by score class: "
                  + ", ".join(f"{c} {_mean_se(diff[mask])}" for c, mask in groups[1 + len(KINDS):]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="+", default=[0, 2], choices=[0, 1, 2])
    args = parser.parse_args()
    started = time.time()
    decisions = [d for d in read_judge_set(CLASSES_SET) if len(d.position.legal_plays(d.dice)) > 1]
    work = at_scores(decisions[: args.decisions], args.seed)
    who = players(args.players)
    picks: dict[str, list[Play]] = {}
    for name, (engine, with_score) in who.items():
        chosen = [pick(engine, md, with_score) for md in work]
        picks[name] = [p for p in chosen if p is not None]  # every decision has two plays or more
        assert len(picks[name]) == len(work)
    print(f"picked in {time.time() - started:.0f} s", file=sys.stderr)
    afters = {after_situation(md.situation, p.after) for plays in picks.values() for md, p in zip(work, plays)
              if not p.after.is_game_over()}
    ids = sorted({gnubg_id(s) for s in afters})
    judged = judge_in_gnubg(ids)
    engine = next(iter(who.values()))[0]
    mwcs = {name: np.array([mover_mwc(md.situation, p.after, judged, engine) for md, p in zip(work, plays)])
            for name, plays in picks.items()}
    best = np.max(np.stack(list(mwcs.values())), axis=0)
    losses = {}
    for name in who:
        scale = [Stakes.seen_in(md.situation) for md in work]
        losses[name] = np.array([1000.0 * s.emg(b) - 1000.0 * s.emg(m)
                                 for s, b, m in zip(scale, best, mwcs[name])])
    report(work, losses)
    print(f"\n{len(ids)} positions judged; {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
