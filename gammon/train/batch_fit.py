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

    def __post_init__(self) -> None:
        if self.epochs < 1 or self.batch < 1 or not self.lr > 0:
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
    keep_last: bool = False,
    note: Callable[[str], None] = print,
) -> Net:
    """Fit ``net`` to ``targets`` (N, 5) of ``boards`` (N, 26); returns the net of the epoch with the
    least cross-entropy on the held-out ``held`` (boards, targets), the start included, or of the
    last epoch without held-out positions or with ``keep_last`` (the held-out error is then only
    reported). The outputs the boards rule out score nothing unless ``settings.score_ruled_out``.
    ``net`` itself is left as it was."""
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
    s = settings
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
        order = rng.permutation(len(x))
        train_ce = 0.0
        for k in range(steps_per_epoch):
            idx = order[k * s.batch : (k + 1) * s.batch]
            ce, grads = gradients(params, x[idx], t[idx], None if mask is None else mask[idx])
            train_ce += ce * len(idx)
            lr = s.lr * (0.01 + 0.99 * 0.5 * (1 + math.cos(math.pi * step / total)))
            step += 1
            adam_step(params, grads, m, v, step, lr, (s.beta1, s.beta2), s.eps)
        error = held_error(params)
        note(f"adam epoch {epoch + 1}: train cross-entropy {train_ce / len(x):.6f}  held-out {error:.6f}")
        if hx is None or keep_last or error < best_error:
            best_error = error
            best = [p.copy() for p in params]
    return Net(*(np.ascontiguousarray(p, dtype=np.float32) for p in best))
