"""Training labels from gammon's own deeper search and its own rollouts (never from another engine).

A label set is positions from greedy self-play games of a net, each with the cubeless
probabilities (win, win gammon, win backgammon, lose gammon, lose backgammon; player on roll) that
a stronger judge than the net's own 0-ply gives it:

- ``search``: gammon's n-ply search (:meth:`gammon.engine.search.searcher.Searcher.evaluate_boards`, 1 or 2
  plies, the bear-off database exact where it applies);
- ``rollout``: a cubeless rollout per position (:func:`gammon.engine.rollout.rollouts.rollout`): variance
  reduced, quasi-random dice, played at ``rollout_plies``, optionally truncated after ``truncate``
  half-moves.

The work is split into chunks of positions and spread with :func:`gammon.engine.rollout.parallel.ordered_map`
over local processes (default: every core) or a Ray cluster. A label file (``.npz``: ``boards`` int8
(N, 26), ``targets`` float32 (N, 5), and what made them; with ``alternatives``, ``decisions``: the
roll each board's play was chosen from, :mod:`gammon.train.choices`) is rewritten as chunks
finish, so a run that stops early keeps what it labelled, and a run given the same file resumes
after its last chunk: the positions come from ``(seed, games, every)`` alone, so a resumed run
labels the same positions.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gammon.engine.engine import Engine, default_bearoff
from gammon.engine.net.crashed import crashed_mask
from gammon.engine.net.encode import anchors, race_mask
from gammon.engine.net.neural import NeuralEvaluator, consistent
from gammon.engine.net.npz import load_npz
from gammon.engine.rollout.parallel import ordered_map
from gammon.engine.rollout.rollouts import RolloutSettings, rollout
from gammon.engine.search.searcher import Searcher, SearchSettings
from gammon.movegen import generate_arrays
from gammon.position import Position
from gammon.primitives import pip_counts
from gammon.train import kernels

KINDS = ("search", "rollout")
ZERO_PLY = SearchSettings(plies=0)
LABEL_FORMAT = 1


@dataclass(frozen=True)
class LabelSettings:
    """What labels a set: ``kind`` (``search`` or ``rollout``), the search's ``plies``, or the
    rollouts' ``trials``, ``rollout_plies``, ``truncate`` and dice ``seed``. With
    ``common_dice`` (rollouts of alternatives) the plays of one roll are rolled out on the same dice,
    trial by trial, so that their labels differ by the plays, not by the luck of their trials."""

    kind: str = "search"
    plies: int = 2
    trials: int = 144
    rollout_plies: int = 0
    truncate: int | None = None
    seed: int = 1
    common_dice: bool = False

    def __post_init__(self) -> None:
        problems = []
        if self.kind not in KINDS:
            problems.append(f"kind must be one of {', '.join(KINDS)}, got {self.kind!r}")
        if self.kind == "search" and self.plies not in (1, 2):
            problems.append(f"a search label needs 1 or 2 plies, got {self.plies!r}")
        if self.trials < 1 or self.rollout_plies not in (0, 1, 2):
            problems.append(f"bad rollout settings: trials {self.trials!r}, plies {self.rollout_plies!r}")
        if self.truncate is not None and self.truncate < 1:
            problems.append(f"truncate must be a number of half-moves >= 1, got {self.truncate!r}")
        if self.common_dice and self.kind != "rollout":
            problems.append("common dice are for rollout labels")
        if problems:
            raise ValueError("invalid LabelSettings: " + "; ".join(problems))

    def describe(self) -> str:
        if self.kind == "search":
            return f"{self.plies}-ply search"
        cut = "" if self.truncate is None else f", truncated at {self.truncate} half-moves"
        same = ", a roll's plays on the same dice" if self.common_dice else ""
        return f"rollout, {self.trials} trials at {self.rollout_plies} ply{cut}{same}"


@dataclass(frozen=True)
class _Job:
    evaluator: NeuralEvaluator
    boards: np.ndarray
    settings: LabelSettings
    dice: np.ndarray  # each board's dice key: its index, or its decision with common dice


def check_win_window(window: tuple[float, float], name: str) -> None:
    """Refuse, naming the option ``name``, a window that is not two probabilities, low then high."""
    if not 0.0 <= window[0] <= window[1] <= 1.0:
        raise ValueError(f"{name} must be two probabilities, low then high, got {window!r}")


def in_win_window(ev: NeuralEvaluator, boards: np.ndarray, window: tuple[float, float]) -> np.ndarray:
    """Mask of the ``boards`` whose player on roll wins with ``ev``'s 0-ply chance in ``window``
    (lo, hi), both ends included."""
    win = ev.evaluate(boards)[:, 0]
    return (win >= window[0]) & (win <= window[1])


def best_plays(ev: NeuralEvaluator, boards: np.ndarray, k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """For each board (player on roll), a roll drawn from ``(seed, its index)`` and the boards after
    its ``k`` plays that are best at 0 ply (fewer where it has fewer; seen from the opponent, now on
    roll; finished games left out), best first. These are the positions a 0-ply choice compares:
    labelled by a deeper judge, they teach the net to rank the plays it hesitates between, which
    positions of greedy games (only the play it chose) do not. Returns the boards and, for each,
    the index of the board it came from (its decision: :mod:`gammon.train.choices`)."""
    if k < 1:
        raise ValueError(f"the number of best plays must be 1 or more, got {k!r}")
    searcher = Searcher(ev, default_bearoff())
    picked, sources = [], []
    for i, board in enumerate(np.require(boards, np.int8, ["C", "W"])):
        d1, d2 = (int(d) for d in np.random.default_rng([seed, i]).integers(1, 7, size=2))
        _, after, _ = generate_arrays(board, (d1, d2))
        after = after[~searcher.exact(after, finished_only=True)]
        if len(after) == 0:
            continue
        order, _, _ = searcher.rank_plays(after, ZERO_PLY)  # as Engine(plies=0) ranks them
        picked.append(after[order[:k]])
        sources.append(np.full(len(picked[-1]), i, dtype=np.int64))
    if not picked:
        return np.empty((0, 26), dtype=np.int8), np.empty(0, dtype=np.int64)
    return np.concatenate(picked), np.concatenate(sources)


def set_up_positions(
    boards: np.ndarray, most: int, seed: int, races: bool = False, trailing: int = 0
) -> np.ndarray:
    """Positions set up from ``boards``: in each, a side (drawn) takes 1 to ``most`` (drawn) of its
    checkers off its home board (each checker there as likely), if it has more than that many there
    and a checker outside; kept where contact remains (with ``races``, the races instead). Board
    ``i`` draws from ``(seed, i)``. With ``trailing`` (pips), the side is not drawn: it is the one
    behind in the pip count by that many or more, and boards closer than that are left out (a side
    hit after it bore off, sent back against one bearing in: the kind the set-ups of either side
    hold least of). They are the positions of
    :func:`gammon.engine.net.encode.borne_off_mask`, which play all but never reaches (a side bears
    off only with every checker home, so only a hit sends one out again), while set-up positions,
    such as many of the wildbg set's, have them: a side part borne off with checkers still back.
    The races among them follow such a hit once contact is over, and the race net, which learnt
    from self-play's races, knows them least."""
    if most < 1:
        raise ValueError(f"a set-up takes 1 or more checkers off, got {most!r}")
    made = []
    for i, board in enumerate(np.asarray(boards, dtype=np.int8)):
        rng = np.random.default_rng([seed, i, 7])
        flip = bool(rng.random() < 0.5)
        if trailing:
            mover, opponent = pip_counts(board.tolist())  # Python ints: int8 sums overflow
            if abs(mover - opponent) < trailing:
                continue
            flip = bool(opponent > mover)  # the opponent is the one behind
        side = -board[::-1] if flip else board.copy()  # the side taking off has the positive counts
        home = np.repeat(np.arange(1, 7), side[1:7].clip(min=0))
        take = int(rng.integers(1, most + 1))
        if len(home) <= take or side[7:].clip(min=0).sum() == 0:
            continue
        for point in rng.choice(home, size=take, replace=False):
            side[point] -= 1
        made.append(-side[::-1] if flip else side)
    out = np.array(made, dtype=np.int8).reshape(-1, 26)
    return np.ascontiguousarray(out[race_mask(out) == races]) if len(out) else out


@dataclass(frozen=True)
class Sampling:
    """What positions a label set takes: every ``every``-th position (player on roll) of ``games``
    0-ply self-play games of the net, game ``i`` rolling from ``(seed, i)``; each play the net's
    best or, with probability ``explore``, a legal play drawn at random. ``contact_only`` leaves
    the races out, ``race_only`` keeps only them (the race net's positions, cheap to roll out),
    and ``min_anchors`` every position where neither side holds that many anchors
    (:func:`gammon.engine.net.encode.anchors`): it keeps the holding and back games, where the net's own
    search is least to be trusted. ``win_window`` (lo, hi) keeps the positions where the player on
    roll wins with a 0-ply chance (of the net) in [lo, hi]: a cube window (0.55, 0.97) keeps the
    positions where a double is close or real, the ones whose probabilities the cube depends on.
    ``crashed_only`` keeps the crashed positions (:func:`gammon.engine.net.crashed.crashed_mask`),
    where a side has few checkers left in play. ``from_crashed`` keeps, before ``alternatives``, only
    the crashed game positions, so that the boards are those their plays lead to (with
    ``race_only``: the races a crashed position turns into, which self-play's races seldom hold).
    ``alternatives`` replaces each position, before those filters, by the boards after its
    ``alternatives`` best 0-ply plays of a drawn roll (:func:`best_plays`); ``min_anchors`` and
    ``contact_only`` then keep all of a roll's plays where the position it is played in qualifies
    (a play that breaks contact is labelled beside those that keep it). ``set_up`` (a number
    of checkers) replaces the positions, first of all, by :func:`set_up_positions` of them (its
    races with ``race_only``), the side ``set_up_trailing`` or more pips behind taking them off
    where that is given."""

    games: int
    every: int = 3
    seed: int = 21
    explore: float = 0.0
    contact_only: bool = False
    race_only: bool = False
    min_anchors: int = 0
    win_window: tuple[float, float] | None = None
    alternatives: int = 0
    set_up: int = 0
    set_up_trailing: int = 0
    crashed_only: bool = False
    from_crashed: bool = False

    def __post_init__(self) -> None:
        if not 0.0 <= self.explore <= 1.0:
            raise ValueError(f"explore must be a probability, got {self.explore!r}")
        for other in ("contact_only", "crashed_only"):
            if self.race_only and getattr(self, other):
                raise ValueError(f"{other} and race_only leave nothing: choose one")
        if not 0 <= self.min_anchors <= 6:
            raise ValueError(f"min_anchors must be 0-6 points, got {self.min_anchors!r}")
        if self.win_window is not None:
            check_win_window(self.win_window, "win_window")
        if self.set_up_trailing and (self.set_up_trailing < 0 or not self.set_up):
            raise ValueError(f"set_up_trailing must be pips >= 0 with a set_up, got {self.set_up_trailing!r}")
        if self.from_crashed and not self.alternatives:
            raise ValueError("from_crashed keeps the plays of crashed positions: give alternatives")

    def describe(self) -> str:
        """The positions in words (a label file's description, which a resumed run must match)."""
        played = f", {self.explore:.0%} random plays" if self.explore else ""
        if self.set_up:
            side = f"the side {self.set_up_trailing}+ pips behind" if self.set_up_trailing else "a side"
            played += f", set up with 1-{self.set_up} checkers of {side} taken off"
        if self.alternatives:
            of = " of a crashed position" if self.from_crashed else ""
            played += f", the boards after the {self.alternatives} best 0-ply plays of a roll{of}"
        only = ", contact only" if self.contact_only else ", races only" if self.race_only else ""
        if self.crashed_only:
            only += ", crashed only"
        if self.min_anchors:
            only += f", a side holding {self.min_anchors}+ anchors"
        if self.win_window is not None:
            only += f", 0-ply win chance {self.win_window[0]:g}-{self.win_window[1]:g}"
        return f"positions every {self.every} of {self.games} self-play games{played}, seed {self.seed}{only}"


@dataclass(frozen=True)
class Work:
    """How a labelling run spreads its work: ``chunk`` positions a piece, over ``workers`` local
    processes or the Ray cluster at ``ray_address``, for at most ``minutes`` (0: no limit)."""

    chunk: int = 256
    workers: int = 1
    ray_address: str | None = None
    minutes: float = 0.0


def self_play_positions(ev: NeuralEvaluator, sampling: Sampling) -> np.ndarray:
    """The positions ``sampling`` takes from self-play games of ``ev``."""
    return sampled_positions(ev, sampling)[0]


def sampled_positions(ev: NeuralEvaluator, sampling: Sampling) -> tuple[np.ndarray, np.ndarray]:
    """:func:`self_play_positions` and each position's decision: the index of the game position
    its play was chosen in (with ``alternatives``; otherwise its own index)."""
    s = sampling
    boards = kernels.collect_positions(ev, s.seed, 0, s.games, s.every, s.explore)
    if s.set_up:
        boards = set_up_positions(boards, s.set_up, s.seed, races=s.race_only, trailing=s.set_up_trailing)
    if s.from_crashed:
        boards = np.ascontiguousarray(boards[crashed_mask(boards)])
    decisions = np.arange(len(boards), dtype=np.int64)
    # holding and contact are those of the position where the roll is played, so that its
    # alternatives that give the anchor up or break contact are labelled beside those that keep it
    holding = anchors(boards).max(axis=1) >= s.min_anchors
    contact = ~race_mask(boards)
    if s.alternatives:
        boards, decisions = best_plays(ev, boards, s.alternatives, s.seed)
    keep = np.ones(len(boards), dtype=bool)
    if s.contact_only:
        keep &= contact[decisions]
    if s.race_only:
        keep &= race_mask(boards)
    if s.crashed_only:
        keep &= crashed_mask(boards)
    if s.min_anchors:
        keep &= holding[decisions]
    if s.win_window is not None:
        keep[keep] = in_win_window(ev, boards[keep], s.win_window)
    return np.ascontiguousarray(boards[keep]), decisions[keep]


def label_chunk(job: _Job, start: int, stop: int) -> np.ndarray:
    """Labels float32 (stop - start, 5) of ``job.boards[start:stop]`` (module level: it runs in
    worker processes and on Ray)."""
    boards = job.boards[start:stop]
    s = job.settings
    if s.kind == "search":
        probs = Searcher(job.evaluator, default_bearoff()).evaluate_boards(boards, s.plies)
        return float32_labels(probs)
    engine = Engine(plies=s.rollout_plies, evaluator=job.evaluator)
    rows = []
    for i, board in enumerate(boards):
        # dice fixed by the label seed and the board's key: its index in the set, or its decision's
        settings = RolloutSettings(trials=s.trials, seed=s.seed * 1_000_003 + int(job.dice[start + i]),
                                   truncate=s.truncate)
        result = rollout(engine, Position(board.tolist()), settings, workers=1)
        rows.append(result.probabilities.as_tuple())
    return float32_labels(np.array(rows, dtype=np.float64).reshape(len(boards), 5))


def float32_labels(probs: np.ndarray) -> np.ndarray:
    """``probs`` made consistent, as float32. Rounding to float32 can undo ``lose_gammon <= 1 -
    win`` by an ulp, so that bound (and ``lose_backgammon <= lose_gammon`` after it) is applied again
    in float32; the other bounds survive rounding, which keeps order."""
    t = consistent(probs).astype(np.float32)
    t[:, 3] = np.minimum(t[:, 3], np.float32(1.0) - t[:, 0])
    t[:, 4] = np.minimum(t[:, 4], t[:, 3])
    return t


def weights_digest(ev: NeuralEvaluator) -> str:
    """sha256 of the nets' weights: which net a label set was made with (the crashed net's too,
    where there is one: without, the digest is what it was before there could be one)."""
    h = hashlib.sha256()
    nets = [ev.contact, ev.race] + ([] if ev.crashed is None else [ev.crashed])
    for net in nets:
        for a in net.arrays():
            h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


@dataclass
class LabelSet:
    boards: np.ndarray
    targets: np.ndarray
    description: str = ""
    decisions: np.ndarray | None = None
    """The decision of each position where the set has them (``label --alternatives``: the boards
    after the plays of one roll share one, in runs), else None."""

    def __post_init__(self) -> None:
        if self.boards.ndim != 2 or self.boards.shape[1] != 26 or self.targets.shape != (len(self.boards), 5):
            raise ValueError(
                f"a label set needs boards (N, 26) and targets (N, 5), got "
                f"{self.boards.shape} and {self.targets.shape}"
            )
        if self.decisions is not None and (
            self.decisions.shape != (len(self.boards),) or np.any(np.diff(self.decisions) < 0)
        ):
            raise ValueError("decisions must give each position its decision, in order")

    def __len__(self) -> int:
        return len(self.boards)

    def select(self, rows: slice | np.ndarray) -> LabelSet:
        """The positions ``rows`` (a slice or a boolean mask) picks, with their targets."""
        decisions = None if self.decisions is None else self.decisions[rows]
        return LabelSet(self.boards[rows], self.targets[rows], self.description, decisions)

    def decisions_or_own(self) -> np.ndarray:
        """:attr:`decisions`, or each position a decision of its own where the set has none."""
        return np.arange(len(self), dtype=np.int64) if self.decisions is None else self.decisions

    @classmethod
    def load(cls, path: str | Path) -> LabelSet:
        return cls.from_arrays(load_npz(path, "a gammon label file"), path)

    @classmethod
    def from_arrays(cls, data: Mapping[str, np.ndarray], path: str | Path) -> LabelSet:
        """The label set of a label file's arrays (:func:`gammon.engine.net.npz.load_npz`), read
        from ``path``."""
        if "label_format" not in data or int(data["label_format"]) != LABEL_FORMAT:
            raise ValueError(f"{str(path)!r} is not a gammon label file (format {LABEL_FORMAT})")
        return cls(
            np.ascontiguousarray(data["boards"], dtype=np.int8),
            np.ascontiguousarray(data["targets"], dtype=np.float32),
            str(data["description"]),
            np.asarray(data["decisions"], dtype=np.int64) if "decisions" in data else None,
        )

    @classmethod
    def concatenate(cls, sets: list[LabelSet]) -> LabelSet:
        """The sets one after another; their decisions numbered on from set to set (a set without
        any: each position its own), or None where no set has them."""
        decisions = None
        if any(s.decisions is not None for s in sets):
            decisions = run_on([s.decisions_or_own() for s in sets])
        return cls(
            np.concatenate([s.boards for s in sets]),
            np.concatenate([s.targets for s in sets]),
            "; ".join(s.description for s in sets),
            decisions,
        )


def run_on(parts: list[np.ndarray]) -> np.ndarray:
    """Decisions of consecutive parts, each numbered in order from its own start, as one array in
    which each part's numbers follow the last of the part before."""
    out, offset = [], 0
    for own in parts:
        own = np.asarray(own, dtype=np.int64)
        out.append(own - (own[0] if len(own) else 0) + offset)
        offset = int(out[-1][-1]) + 1 if len(own) else offset
    return np.concatenate(out) if out else np.empty(0, dtype=np.int64)


def _save(path: Path, boards: np.ndarray, targets: np.ndarray, meta: dict[str, object]) -> None:
    tmp = Path(str(path) + ".tmp.npz")
    np.savez(tmp, boards=boards, targets=targets, label_format=LABEL_FORMAT, **meta)  # type: ignore[arg-type]
    tmp.replace(path)


def make_labels(
    ev: NeuralEvaluator,
    out: Path,
    settings: LabelSettings,
    sampling: Sampling,
    *,
    positions: int | None = None,
    work: Work = Work(),
    note: Callable[[str], None] = print,
) -> LabelSet:
    """Label the positions ``sampling`` takes from self-play games of ``ev`` into ``out`` (resuming
    it if it holds the start of the same set), spread as ``work`` says; stops after
    ``work.minutes`` (0: when all are labelled) or, with ``positions``, once the first that many
    are."""
    if settings.common_dice and not sampling.alternatives:
        raise ValueError("common dice share a roll's dice among its alternatives: give alternatives")
    boards, decisions = sampled_positions(ev, sampling)
    boards, decisions = boards[:positions], decisions[:positions]
    description = f"{settings.describe()}; {sampling.describe()}; net {weights_digest(ev)[:16]}"
    meta: dict[str, object] = {"description": description}
    done = np.empty((0, 5), dtype=np.float32)
    if out.exists():
        old = LabelSet.load(out)
        if old.description != description or not np.array_equal(old.boards, boards[: len(old)]):
            raise ValueError(
                f"{str(out)!r} holds another label set ({old.description!r}); give a new file to start one"
            )
        done = old.targets
    note(f"{len(boards):,} positions ({description}); {len(done):,} labelled already")
    edges = list(range(len(done), len(boards), work.chunk)) + [len(boards)]
    ranges = list(zip(edges[:-1], edges[1:]))
    parts = [done]
    started = time.perf_counter()
    last_save = started
    dice = decisions if settings.common_dice else np.arange(len(boards), dtype=np.int64)
    results = ordered_map(
        label_chunk,
        _Job(ev, boards, settings, dice),
        ranges,
        workers=work.workers,
        ray_address=work.ray_address,
    )
    labelled = len(done)

    def save_and_note(now: float) -> np.ndarray:
        targets = np.concatenate(parts)
        if sampling.alternatives:  # the plays of one roll, for gammon.train.choices
            meta["decisions"] = decisions[:labelled]
        _save(out, boards[:labelled], targets, meta)
        rate = (labelled - len(done)) / max(now - started, 1e-9)
        note(f"{labelled:,} / {len(boards):,} labelled ({rate:.1f} positions/s)")
        return targets

    try:
        for part in results:
            parts.append(part)
            labelled += len(part)
            now = time.perf_counter()
            if work.minutes and now - started > 60 * work.minutes:
                break
            if now - last_save > 60 and labelled < len(boards):
                save_and_note(now)
                last_save = now
    except KeyboardInterrupt:  # the pieces done since the last save (up to a minute's) were lost
        if labelled > len(done):
            save_and_note(time.perf_counter())
        raise
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return LabelSet(boards[:labelled], save_and_note(time.perf_counter()), description)
