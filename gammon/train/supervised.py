"""Supervised training: fit the nets to positions labelled by gammon's own deeper search.

:func:`improve` labels positions of greedy self-play games with their 1-ply probabilities (the mean
over the 21 rolls of the 0-ply best play's evaluation, computed with the nets as they were before
the fit), takes a few epochs of SGD toward them and keeps the epoch that does best in the pubeval
check. :func:`fit_labels` fits to a label set made by :mod:`gammon.train.labels` (2-ply search or
rollouts) and keeps the epoch with the least squared error on positions held out of the fit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path

import numba
import numpy as np

from gammon.engine.net.crashed import crashed_mask
from gammon.engine.net.encode import anchors, race_mask
from gammon.engine.net.neural import (
    BORNE,
    CRASHED,
    CUBE,
    CUBE_NETS,
    Net,
    NeuralEvaluator,
    borne_off_contact_mask,
)
from gammon.train import kernels
from gammon.train.batch_fit import AdamSettings, adam_fit, group_means
from gammon.train.labels import LabelSet, check_win_window, float32_labels, in_win_window
from gammon.train.selfplay import (
    Report,
    StrengthResult,
    TrainSettings,
    noter,
    pubeval_check,
    save,
    vs_pubeval,
)

_REPORT = Report()  # a pubeval check of 1,000 pairs after each step, no log


@dataclass(frozen=True)
class SgdSettings:
    """Per-position SGD on squared error: ``epochs`` passes at the learning rate ``alpha``, each in
    an order drawn from ``seed`` plus the epoch (and :func:`improve`'s self-play games from it)."""

    epochs: int = 4
    alpha: float = 0.005
    seed: int = 7


@dataclass(frozen=True)
class Selection:
    """Which labels :func:`adam_fit_labels` fits and which it holds out: the last ``holdout`` share
    of the labels is held out. ``drop_anchors`` (0: none) leaves out of the labels the positions
    where a side holds that many anchors (:func:`gammon.engine.net.encode.anchors`): there a search
    label carries the net's own bias. ``drop_window`` (lo, hi) leaves out the contact positions
    whose player on roll wins with the starting net's 0-ply chance in [lo, hi] (the cube window,
    where the search labels carry the net's optimism for a favourite and rollout labels of
    ``label --win-window`` stand instead). ``window_kept``, search labels fitted before the labels,
    are not left out by ``drop_window`` (``label --alternatives``: the plays a 0-ply choice
    compares, which that bias does not rank). ``rollouts``, label sets of rollouts, are fitted
    ``repeat`` times over beside the rest; with them the last epoch is kept, not the one closest
    to the held-out search labels, which favour the nets that keep that bias.

    ``keep_level`` moves each decision's labels (a position without decisions is one of its own)
    by the same amount per output, so that their mean is the starting nets' own 0-ply mean
    (:func:`level_kept`): a fit then learns how the plays of a roll differ, not the search's level,
    which carries the net's own bias. ``anchor_games`` (0: none) fits beside the labels the
    positions of that many self-play games of the starting nets, drawn from ``anchor_seed``,
    labelled with their own outputs (:func:`anchor_set`): what the labels do not speak to stays
    as it was."""

    holdout: float = 0.05
    drop_anchors: int = 0
    drop_window: tuple[float, float] | None = None
    window_kept: LabelSet | None = None
    rollouts: LabelSet | None = None
    repeat: int = 1
    keep_level: bool = False
    anchor_games: int = 0
    anchor_seed: int = 1

    def __post_init__(self) -> None:
        if self.repeat < 1 or not 0 <= self.drop_anchors <= 6 or self.anchor_games < 0:
            raise ValueError(
                f"repeat must be >= 1, drop_anchors 0-6 and anchor_games >= 0, got {self.repeat!r}, "
                f"{self.drop_anchors!r} and {self.anchor_games!r}"
            )
        if self.drop_window is not None:
            check_win_window(self.drop_window, "drop_window")


def labelled_positions(
    ev: NeuralEvaluator, games: int, every: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Every ``every``-th position of ``games`` self-play games and its 1-ply label."""
    boards = kernels.collect_positions(ev, seed, ev.games, games, every)
    return boards, kernels.label_one_ply(ev, boards)


def fit(ev: NeuralEvaluator, boards: np.ndarray, targets: np.ndarray, alpha: float, seed: int) -> float:
    """One SGD epoch in a random order; returns the mean squared error (per output) during the epoch."""
    order = np.random.default_rng(seed).permutation(len(boards)).astype(np.int64)
    error = kernels.fit_epoch(ev, boards, targets, order, alpha) / 5
    ev.weights_changed()  # the epoch changed the nets in place
    return error


def improve(
    ev: NeuralEvaluator,
    out: Path,
    sgd: SgdSettings = SgdSettings(alpha=0.01),
    *,
    games: int,
    every: int = 3,
    threads: int = 0,
    report: Report = _REPORT,
) -> tuple[NeuralEvaluator, StrengthResult]:
    """Label, fit, check after each epoch; ``out`` holds the best nets seen (the start included)."""
    if threads:
        numba.set_num_threads(threads)
    note = noter(report.log)
    seed, check_pairs = sgd.seed, report.check_pairs
    settings = TrainSettings(seed=seed)
    best = vs_pubeval(ev, check_pairs)
    note(f"start: vs pubeval {best}")
    save(ev, settings, out)
    start = time.perf_counter()
    boards, targets = labelled_positions(ev, games, every, seed)
    note(
        f"labelled {len(boards):,} positions from {games:,} games at 1-ply in "
        f"{time.perf_counter() - start:.0f} s"
    )
    for epoch in range(sgd.epochs):
        loss = fit(ev, boards, targets, sgd.alpha, seed + epoch)
        result = vs_pubeval(ev, check_pairs)
        note(f"epoch {epoch + 1}: mse {loss:.5f}  vs pubeval {result}")
        if result.ppg > best.ppg:
            best = result
            save(ev, settings, out)
    return NeuralEvaluator.load(out), best


def widen(net: Net, hidden: int, seed: int = 0) -> Net:
    """``net`` with ``hidden`` hidden units: the new units get small random input weights and zero
    output weights, so the widened net computes exactly what ``net`` did until it is trained."""
    if hidden < net.hidden:
        raise ValueError(f"cannot narrow a net of {net.hidden} hidden units to {hidden}")
    rng = np.random.default_rng(seed)
    extra = hidden - net.hidden
    w1 = np.concatenate([net.w1, rng.uniform(-0.1, 0.1, (net.w1.shape[0], extra)).astype(np.float32)], axis=1)
    b1 = np.concatenate([net.b1, np.zeros(extra, dtype=np.float32)])
    w2 = np.concatenate([net.w2, np.zeros((extra, 5), dtype=np.float32)])
    return Net(np.ascontiguousarray(w1), b1, np.ascontiguousarray(w2), net.b2.copy())


def label_error(ev: NeuralEvaluator, labels: LabelSet) -> float:
    """Mean squared error of the nets' 0-ply probabilities against the labels (per output)."""
    if len(labels) == 0:
        return float("nan")
    return float(np.mean((ev.evaluate(labels.boards) - labels.targets) ** 2))


def split(labels: LabelSet, holdout: float) -> tuple[LabelSet, LabelSet]:
    """The last ``holdout`` share of the positions apart from the rest: (fit, held out). A label
    set keeps a game's positions together, and the positions of one game are alike, so a random
    share would be judged on near copies of positions fitted; the last share is the last games'."""
    n_keep = held_out_start(len(labels), holdout)
    return labels.select(slice(None, n_keep)), labels.select(slice(n_keep, None))


def held_out_start(n: int, holdout: float) -> int:
    """The first of ``n`` positions in the last ``holdout`` share, which :func:`split` keeps out."""
    if not 0.0 <= holdout < 1.0:
        raise ValueError(f"holdout must be a share in [0, 1), got {holdout!r}")
    return n - int(round(holdout * n))


ANCHOR_EVERY = 2
"""An anchor set takes every second position of a game ..."""
ANCHOR_EXPLORE = 0.05
"""... of games that play a random legal play one time in twenty (greedy games repeat themselves)."""


def own_outputs(ev: NeuralEvaluator, nets: tuple[str, ...]) -> NeuralEvaluator:
    """The evaluator whose 0-ply outputs are those of the nets of ``nets`` as they start: a fit of
    the contact net without the crashed net fits the crashed positions too, so there the contact
    net speaks, not the crashed net; a fit of a cube net starts from it, or from the contact net
    where there is none, and speaks for every position of its own, crashed or not."""
    for name in CUBE_NETS:
        if name in nets:
            return NeuralEvaluator(getattr(ev, name) or ev.contact, ev.race)
    return ev.replaced(crashed=None) if "contact" in nets and CRASHED not in nets else ev


def net_masks(boards: np.ndarray) -> dict[str, np.ndarray]:
    """The boards each net is fitted to, in the order the nets are fitted: the contact net's every
    contact position, crashed or not; the race net's the races; the crashed net's the crashed; the
    cube net's the contact positions neither crashed nor borne-off (those whose cube chances the
    shipped evaluator takes from it); the borne-off net's the contact positions where a side has
    borne off a checker while another is still out, crashed or not."""
    races = race_mask(boards)
    crashed, borne = crashed_mask(boards), borne_off_contact_mask(boards)
    return {"contact": ~races, "race": races, CRASHED: crashed, CUBE: ~races & ~crashed & ~borne,
            BORNE: borne}


def fitted_mask(boards: np.ndarray, nets: tuple[str, ...]) -> np.ndarray:
    """The boards some net of ``nets`` is fitted to (:func:`net_masks`)."""
    keep = np.zeros(len(boards), dtype=bool)
    for name, mask in net_masks(boards).items():
        if name in nets:
            keep |= mask
    return keep


def level_kept(labels: LabelSet, own: NeuralEvaluator) -> LabelSet:
    """``labels`` with each decision's targets moved, output by output, so that their mean is
    ``own``'s mean over the decision's boards (then clipped to [0, 1] and made consistent): the
    differences between a decision's boards stay the labels', their level becomes the net's."""
    decisions = labels.decisions_or_own()
    groups = np.unique(decisions, return_inverse=True)[1]

    def decision_mean(a: np.ndarray) -> np.ndarray:
        return np.stack([group_means(a[:, k], groups) for k in range(a.shape[1])], axis=1)

    targets = labels.targets.astype(np.float64)
    moved = targets - decision_mean(targets) + decision_mean(own.evaluate(labels.boards))
    return LabelSet(
        labels.boards,
        float32_labels(np.clip(moved, 0.0, 1.0)),
        labels.description + "; moved to the net's own level in each decision",
        decisions,
    )


def anchor_set(ev: NeuralEvaluator, nets: tuple[str, ...], games: int, seed: int) -> LabelSet:
    """Every :data:`ANCHOR_EVERY`-th position of ``games`` self-play games of ``ev`` (exploring
    :data:`ANCHOR_EXPLORE` of the time, game ``i`` rolling from ``(seed, i)``) that a net of
    ``nets`` is fitted to, labelled with those nets' own 0-ply outputs."""
    boards = kernels.collect_positions(ev, seed, 0, games, ANCHOR_EVERY, ANCHOR_EXPLORE)
    boards = np.ascontiguousarray(boards[fitted_mask(boards, nets)])
    return LabelSet(
        boards,
        float32_labels(own_outputs(ev, nets).evaluate(boards)),
        f"{len(boards)} positions of {games} self-play games (seed {seed}), the nets' own outputs",
    )


NETS = ("contact", "race")
"""The nets every NeuralEvaluator has (its attributes), in the order they are fitted."""
ALL_NETS = (*NETS, CRASHED, *CUBE_NETS)
"""Those, the crashed net and the cube nets, which a fit makes from the contact net where there is
none (a cube net is fitted alone, to its own positions of the labels)."""


def adam_fit_labels(
    ev: NeuralEvaluator,
    labels: LabelSet,
    out: Path,
    settings: AdamSettings,
    *,
    selection: Selection = Selection(),
    seed: int = 7,
    nets: tuple[str, ...] = NETS,
    report: Report = _REPORT,
) -> tuple[NeuralEvaluator, float]:
    """:func:`gammon.train.batch_fit.adam_fit` of each net of ``nets`` (contact, race, crashed;
    or one cube net alone) to its positions of ``labels`` (:func:`net_masks`: the contact net's
    are every contact position, crashed or not; the crashed net's those
    :func:`gammon.engine.net.crashed.crashed_mask` gives, and it starts from the contact net when
    there is none yet; a cube net's, the labels cut to them before the held-out share is taken,
    start from it or the contact net too); a net with no positions, or not in ``nets``, stays as
    it is, and the contact net's cube heads stay while it does (a fit of another net keeps them). ``out``
    gets the result. Returns it and its held-out squared error (on the last ``selection.holdout``
    share of ``labels``, after what ``selection`` leaves out); ``ev`` itself is left as it was."""
    sel = selection
    drop_anchors, drop_window, rollouts = sel.drop_anchors, sel.drop_window, sel.rollouts
    cube_net = next((name for name in CUBE_NETS if name in nets), None)
    if not nets or not set(nets) <= set(ALL_NETS) or (cube_net is not None and len(nets) > 1):
        raise ValueError(f"nets must name some of 'contact', 'race' and 'crashed', or 'cube' or 'borne' "
                         f"alone, got {nets!r}")
    if settings.rank_weight and labels.decisions is None:
        raise ValueError(
            "a rank weight needs label files of alternatives (label --alternatives): these have no decisions"
        )
    note = noter(report.log)
    check_pairs = report.check_pairs
    # the fitted nets replace these, not the caller's; the cube heads go with the contact net
    ev = ev.replaced()
    if cube_net is not None:  # its positions alone, so that the held-out share is of them
        labels = labels.select(net_masks(labels.boards)[cube_net])
        note(f"{len(labels):,} positions of the {'borne-off' if cube_net == BORNE else 'cube'} net")
    if sel.keep_level:
        labels = level_kept(labels, own_outputs(ev, nets))
        note(f"{len(labels):,} labels moved to the nets' own level in each decision")
    if sel.anchor_games:
        anchor = anchor_set(ev, nets, sel.anchor_games, sel.anchor_seed)
        note(f"anchor: {len(anchor):,} positions of {sel.anchor_games:,} games, the nets' own outputs")
        labels = LabelSet.concatenate([anchor, labels])
    exempt = np.zeros(len(labels), dtype=bool)
    if sel.window_kept is not None:
        exempt = np.concatenate([np.ones(len(sel.window_kept), dtype=bool), exempt])
        labels = LabelSet.concatenate([sel.window_kept, labels])
    if drop_anchors:
        keep = anchors(labels.boards).max(axis=1) < drop_anchors
        note(f"{int((~keep).sum()):,} positions with {drop_anchors}+ anchors left out")
        labels, exempt = labels.select(keep), exempt[keep]
    if drop_window is not None:
        keep = exempt | race_mask(labels.boards) | ~in_win_window(ev, labels.boards, drop_window)
        note(
            f"{int((~keep).sum()):,} contact positions with a 0-ply win chance of "
            f"{drop_window[0]:g}-{drop_window[1]:g} left out"
        )
        labels = labels.select(keep)
    train, held = split(labels, sel.holdout)
    if rollouts is not None:
        train = LabelSet.concatenate([train] + [rollouts] * sel.repeat)
    # the error of what the fit moves: a cube net's outputs are not play's
    def judged(e: NeuralEvaluator) -> NeuralEvaluator:
        return own_outputs(e, nets) if cube_net is not None else e

    note(
        f"start: {len(train):,} positions to fit, {len(held):,} held out; held-out mse "
        f"{label_error(judged(ev), held):.6f}{pubeval_check(ev, check_pairs)}"
    )
    held_masks = net_masks(held.boards)
    for name, want in net_masks(train.boards).items():
        held_want = held_masks[name]
        if name not in nets or not want.any():
            continue
        note(f"{name} net:")
        fitted = adam_fit(
            getattr(ev, name) or ev.contact,
            train.boards[want],
            train.targets[want],
            replace(settings, keep_last=settings.keep_last or rollouts is not None),
            seed=seed,
            held=(held.boards[held_want], held.targets[held_want]),
            groups=train.decisions_or_own()[want] if settings.rank_weight else None,
            note=note,
        )
        setattr(ev, name, fitted)
        # its hidden layer moved: the heads fitted on it no longer fit
        if name == "contact":
            ev = ev.replaced(cube_head=None, borne_head=None)
        elif name == CRASHED:
            ev = ev.replaced(crashed_head=None)
    error = label_error(judged(ev), held)
    note(f"end: held-out mse {error:.6f}{pubeval_check(ev, check_pairs)}")
    save(ev, TrainSettings(seed=seed), out, heads=True)
    return ev, error


def fit_labels(
    ev: NeuralEvaluator,
    labels: LabelSet,
    out: Path,
    sgd: SgdSettings = SgdSettings(),
    *,
    holdout: float = 0.05,
    threads: int = 0,
    report: Report = _REPORT,
) -> tuple[NeuralEvaluator, float]:
    """SGD epochs toward ``labels``; ``out`` holds the nets of the epoch (the start included) with
    the least error on the held-out positions (with ``holdout`` 0: the last epoch). Returns those
    nets and their held-out error."""
    if threads:
        numba.set_num_threads(threads)
    note = noter(report.log)
    check_pairs = report.check_pairs
    train, held = split(labels, holdout)
    settings = TrainSettings(seed=sgd.seed)
    best = label_error(ev, held) if len(held) else float("inf")
    note(
        f"start: {len(train):,} positions to fit, {len(held):,} held out; held-out mse {best:.6f}"
        f"{pubeval_check(ev, check_pairs)}"
    )
    save(ev, settings, out)
    for epoch in range(sgd.epochs):
        start = time.perf_counter()
        loss = fit(ev, train.boards, train.targets, sgd.alpha, sgd.seed + epoch)
        error = label_error(ev, held) if len(held) else 0.0
        note(
            f"epoch {epoch + 1}: fit mse {loss:.6f}  held-out mse {error:.6f}"
            f"{pubeval_check(ev, check_pairs)}  ({time.perf_counter() - start:.0f} s)"
        )
        if error < best or not len(held):
            best = error
            save(ev, settings, out)
    return NeuralEvaluator.load(out), best
