"""Mini-batch fitting of a net to a label set: Adam on the cross-entropy of the five outputs.

The per-position SGD of :func:`gammon.train.supervised.fit` moves a net by the squared error,
whose gradient vanishes as a sigmoid output saturates, one position at a time. This fit treats
each output (win, win gammon, win backgammon, lose gammon, lose backgammon) as a probability with
a soft target and minimises their binary cross-entropy, whose gradient at the output's input is
simply ``output - target``; Adam on shuffled mini-batches, the learning rate falling on a cosine
from ``lr`` to ``lr / 100``. The inputs are encoded once; the arithmetic is numpy's (float32
matrix products), so it runs wherever numpy does.

The outputs the board rules out are left out of the loss (:func:`ruled_out_mask`): a side that has
borne off a checker can no longer be gammoned, so play zeroes those chances whatever the net says
(:func:`gammon.primitives.clamp_probabilities`), and a net need not spend its weights on them. Scored
against their zero targets, they pulled the race net's other outputs out of shape wherever a side
had borne off (docs/training.md, step 27). ``AdamSettings.score_ruled_out`` scores them as the fits
before step 27 did.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from gammon.engine.net.encode import encode
from gammon.engine.net.neural import Net, consistent, sigmoid


@dataclass(frozen=True)
class AdamSettings:
    epochs: int = 20
    batch: int = 256
    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    score_ruled_out: bool = False
    keep_last: bool = False
    """Keep the last epoch's net, not the one with the least held-out cross-entropy (which is then
    only reported)."""
    rank_weight: float = 0.0
    """With a weight above 0, the loss adds that many times the mean square of each board's error
    in its cubeless equity less its decision's mean (:func:`rank_gradients`)."""

    def __post_init__(self) -> None:
        if self.epochs < 1 or self.batch < 1 or not self.lr > 0 or not self.rank_weight >= 0:
            raise ValueError(f"bad Adam settings: {self!r}")


def ruled_out_mask(boards: np.ndarray) -> np.ndarray:
    """(N, 5) float32 of ``boards`` (N, 26): 0 for each output the board rules out, 1 for the
    others: the chances to win a gammon and a backgammon once the opponent has borne off a checker,
    those to lose them once the player on roll has; the chance to win never. The rule is play's own
    (:func:`gammon.engine.net.neural.consistent`): even chances made consistent with each board keep
    what it allows and zero what it rules out."""
    even = np.full((len(boards), 5), 0.5)
    return (consistent(even, boards) > 0).astype(np.float32)


def cross_entropy(y: np.ndarray, t: np.ndarray, mask: np.ndarray | None = None) -> float:
    """Mean binary cross-entropy of outputs ``y`` against targets ``t``, less the targets' own
    entropy (so a perfect fit scores 0); with ``mask`` (shaped as ``t``), the outputs it zeroes score
    nothing (the mean is still over all of them, so a mask of ones changes nothing)."""
    e = 1e-7
    y = np.clip(y, e, 1 - e)
    tc = np.clip(t, e, 1 - e)
    terms = t * np.log(tc / y) + (1 - t) * np.log((1 - tc) / (1 - y))
    return float(np.mean(terms if mask is None else terms * mask))


def gradients(
    params: list[np.ndarray], x: np.ndarray, t: np.ndarray, mask: np.ndarray | None = None
) -> tuple[float, list[np.ndarray]]:
    """The mean cross-entropy of the net ``params`` (w1, b1, w2, b2) on inputs ``x`` against
    targets ``t`` (with ``mask``, as :func:`cross_entropy` scores it), and its gradient with respect
    to each of the four arrays (the sum over the five outputs, the mean over the positions)."""
    w1, b1, w2, b2 = params
    h = sigmoid(x @ w1 + b1)
    y = sigmoid(h @ w2 + b2)
    d_out = (y - t) / (len(x) * 5)  # d(mean cross-entropy) / d(an output's input)
    if mask is not None:
        d_out *= mask
    d_h = (d_out @ w2.T) * h * (1 - h)
    return cross_entropy(y, t, mask), [x.T @ d_h, d_h.sum(axis=0), h.T @ d_out, d_out.sum(axis=0)]


EQUITY = np.array([2.0, 1.0, 1.0, -1.0, -1.0], dtype=np.float32)
"""Cubeless equity's weights on the five outputs (less 1, which no difference between boards sees)."""


def group_means(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """For each of ``values``, the mean of its group's (``groups``: numbers 0 to n - 1)."""
    n = int(groups.max()) + 1 if len(groups) else 0
    sums = np.bincount(groups, weights=values, minlength=n)
    return (sums / np.maximum(np.bincount(groups, minlength=n), 1))[groups]


def deviations(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each of ``values`` less the mean of its group's (``groups``: numbers 0 to n - 1)."""
    return values - group_means(values, groups)


def rank_gradients(
    params: list[np.ndarray],
    x: np.ndarray,
    t: np.ndarray,
    mask: np.ndarray,
    groups: np.ndarray,
    weight: float,
) -> tuple[float, float, list[np.ndarray]]:
    """:func:`gradients` with a ranking term: ``weight`` times the mean over the positions of
    ``(e - mean of e over the decision) - (the same of the targets)`` squared, ``e`` each board's
    cubeless equity (the outputs ``mask`` keeps, weighted by :data:`EQUITY`), ``groups`` each
    position's decision (0 to n - 1). A 0-ply choice compares the boards of a roll's plays, so
    only their equities' differences count there; the cross-entropy spends most of a net on the
    level they share. Returns the cross-entropy, the mean squared deviation error and the
    gradient of both terms."""
    w1, b1, w2, b2 = params
    h = sigmoid(x @ w1 + b1)
    y = sigmoid(h @ w2 + b2)
    n = len(x)
    miss = deviations((y * mask) @ EQUITY, groups) - deviations((t * mask) @ EQUITY, groups)
    # d(mean miss^2)/d(a board's equity) is 2 miss / n: each decision's misses sum to 0, so the
    # mean subtracted passes no gradient on
    d_out = ((y - t) / (n * 5) + (2.0 * weight / n) * miss[:, None] * EQUITY * y * (1 - y)) * mask
    d_h = (d_out @ w2.T) * h * (1 - h)
    grads = [x.T @ d_h, d_h.sum(axis=0), h.T @ d_out, d_out.sum(axis=0)]
    return cross_entropy(y, t, mask), float(np.mean(miss * miss)), grads


def _decisions_a_batch(decisions: int, positions: int, batch: int) -> int:
    """Whole decisions a mini-batch takes so that it holds about ``batch`` positions."""
    return max(1, round(batch * decisions / max(positions, 1)))


def decision_batches(groups: np.ndarray, batch: int, rng: np.random.Generator) -> list[np.ndarray]:
    """The rows of ``groups`` (each position's decision, in runs) in mini-batches of whole
    decisions in a random order, about ``batch`` positions each."""
    edges = np.flatnonzero(np.diff(groups)) + 1
    starts = np.concatenate([[0], edges])
    stops = np.concatenate([edges, [len(groups)]])
    per = _decisions_a_batch(len(starts), len(groups), batch)
    order = rng.permutation(len(starts))
    return [
        np.concatenate([np.arange(starts[d], stops[d]) for d in order[k : k + per]])
        for k in range(0, len(order), per)
    ]


def adam_step(
    params: list[np.ndarray],
    grads: Sequence[np.ndarray],
    m: list[np.ndarray],
    v: list[np.ndarray],
    step: int,
    lr: float,
    betas: tuple[float, float] = (0.9, 0.999),
    eps: float = 1e-8,
) -> None:
    """One Adam step (``step`` counts from 1): moves each array of ``params`` in place by its
    gradient in ``grads``, updating the moment estimates ``m`` and ``v`` (arrays shaped as
    ``params``, zero at the start) in place; ``betas``: their decay rates."""
    beta1, beta2 = betas
    for p, g, mi, vi in zip(params, grads, m, v, strict=True):
        mi *= beta1
        mi += (1 - beta1) * g
        vi *= beta2
        vi += (1 - beta2) * g * g
        p -= lr * (mi / (1 - beta1**step)) / (np.sqrt(vi / (1 - beta2**step)) + eps)


def adam_fit(
    net: Net,
    boards: np.ndarray,
    targets: np.ndarray,
    settings: AdamSettings,
    *,
    seed: int = 7,
    held: tuple[np.ndarray, np.ndarray] | None = None,
    groups: np.ndarray | None = None,
    note: Callable[[str], None] = print,
) -> Net:
    """Fit ``net`` to ``targets`` (N, 5) of ``boards`` (N, 26); returns the net of the epoch with the
    least cross-entropy on the held-out ``held`` (boards, targets), the start included, or of the
    last epoch without held-out positions or with ``settings.keep_last`` (the held-out error is then
    only reported). The outputs the boards rule out score nothing unless ``settings.score_ruled_out``.
    With ``settings.rank_weight``, ``groups`` gives each board's decision (runs of equal numbers):
    the mini-batches are whole decisions, the loss has :func:`rank_gradients`' ranking term, and
    the last epoch is kept (the cross-entropy alone no longer says which is best).
    ``net`` itself is left as it was."""
    s = settings
    if s.rank_weight and (groups is None or len(groups) != len(boards)):
        raise ValueError("a fit with a rank weight needs each board's decision")
    x = encode(boards)
    t = np.ascontiguousarray(targets, dtype=np.float32)
    hx = None if held is None or len(held[0]) == 0 else encode(held[0])
    ht = None if held is None else np.asarray(held[1], dtype=np.float32)
    masks = not settings.score_ruled_out
    mask = ruled_out_mask(boards) if masks else None
    held_mask = ruled_out_mask(held[0]) if masks and held is not None and hx is not None else None
    params = [a.copy() for a in net.arrays()]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    rng = np.random.default_rng(seed)
    ranked = groups is not None and s.rank_weight > 0
    if groups is not None and ranked:
        decisions = int(np.count_nonzero(np.diff(groups))) + 1 if len(groups) else 0
        steps_per_epoch = math.ceil(decisions / _decisions_a_batch(decisions, len(groups), s.batch))
    else:
        steps_per_epoch = math.ceil(len(x) / s.batch)
    total = s.epochs * steps_per_epoch
    step = 0

    def held_error(p: list[np.ndarray]) -> float:
        if hx is None or ht is None:
            return float("nan")
        return cross_entropy(Net(*p).forward(hx), ht, held_mask)

    best = [p.copy() for p in params]
    best_error = held_error(params)
    note(
        f"adam: {len(x):,} positions, {0 if hx is None else len(hx):,} held out; "
        f"start: held-out cross-entropy {best_error:.6f}"
    )
    for epoch in range(s.epochs):
        if ranked:
            assert groups is not None
            batches = decision_batches(groups, s.batch, rng)
        else:
            order = rng.permutation(len(x))
            batches = [order[k * s.batch : (k + 1) * s.batch] for k in range(steps_per_epoch)]
        train_ce = train_rank = 0.0
        for idx in batches:
            if ranked:
                assert groups is not None
                local = np.unique(groups[idx], return_inverse=True)[1]
                ones = np.ones_like(t[idx]) if mask is None else mask[idx]
                ce, ms, grads = rank_gradients(params, x[idx], t[idx], ones, local, s.rank_weight)
                train_rank += ms * len(idx)
            else:
                ce, grads = gradients(params, x[idx], t[idx], None if mask is None else mask[idx])
            train_ce += ce * len(idx)
            lr = s.lr * (0.01 + 0.99 * 0.5 * (1 + math.cos(math.pi * step / total)))
            step += 1
            adam_step(params, grads, m, v, step, lr, (s.beta1, s.beta2), s.eps)
        error = held_error(params)
        rank = f"  deviation error {math.sqrt(train_rank / len(x)):.5f}" if ranked else ""
        note(f"adam epoch {epoch + 1}: train cross-entropy {train_ce / len(x):.6f}{rank}  "
             f"held-out {error:.6f}")
        if hx is None or s.keep_last or ranked or error < best_error:
            best_error = error
            best = [p.copy() for p in params]
    return Net(*(np.ascontiguousarray(p, dtype=np.float32) for p in best))
