"""The contact net's cube head: its output layer fitted again, on its own hidden units, to gammon's
own rollouts of contact positions, for the chances that cube decisions value
(:class:`gammon.engine.net.neural.CubeHead`).

Why a second head: the net's outputs are fitted mostly to 2-ply search labels, which carry the
net's own errors at the leaves, above all in its gammon chances; rollouts are the better teacher
there (docs/training.md, "After step 20"), but fitted into the whole net they cost checker play
as much as they buy cube decisions. A cube decision needs the chances of one position before the
roll to be right; checker play needs the positions after each play to be ordered right. So the
head takes the rollouts, checker play keeps the net's outputs, and both share the hidden layer,
which costs the head one small matrix.

The borne-off head is a second cube head for the contact positions where a side has borne off a
checker while another of its checkers is on the bar or outside its home board. Play all but never
reaches them, while set-up positions (many of the wildbg set's) have them, and there the net's
gammon chances are far off (rollouts of set-up positions, ``python -m gammon.train label --set-up
3 --kind rollout``: about 0.14 and 0.17 root mean square in the chances to win and to lose a
gammon). Such a layer made the cube decisions there better but, tried for checker play too, ranked
the plays of those positions worse (docs/training.md, step 22), so it serves the cube decisions
alone, as the cube head does.

The crashed head is the crashed net's cube head, on the crashed net's hidden units, for the
contact positions where a side has crashed (:func:`gammon.engine.net.crashed.has_crashed_side`),
which the crashed net plays. That net is fitted to 2-ply search labels of the plays of crashed
positions, which rank the plays well but carry the search's errors into the chances of a position
(docs/training.md, step 24); the crashed label campaign's rollouts teach the head those chances.
Each head is fitted only to the positions it serves: the cube head not to the borne-off head's
positions, nor to the crashed net's where the weights have one; the borne-off head not to the
crashed net's.

The fit: cross-entropy of the five sigmoid outputs against the rollout chances (but the gammons the
board rules out, which play zeroes: :func:`gammon.train.batch_fit.ruled_out_mask`), full batch, Adam,
starting from the net's own output layer and held near it by an L2 penalty ``lam`` on the
difference (the rollouts are few and noisy; the outputs elsewhere should stay the net's). A share
of the positions is held out first to report the fit; the head then refits on all of them. With
``from_head`` the fit starts from the head the net already has, and is held near it instead: new
rollouts added to those it was fitted on, which need not be at hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gammon.engine.net.crashed import crashed_mask
from gammon.engine.net.encode import borne_off_mask, encode, race_mask
from gammon.engine.net.neural import CubeHead, NeuralEvaluator, sigmoid
from gammon.train.batch_fit import adam_step, cross_entropy, ruled_out_mask
from gammon.train.labels import LabelSet, check_win_window, in_win_window


@dataclass(frozen=True)
class CubeHeadSettings:
    """``lam``: L2 pull towards the net's own output layer (with ``from_head``, towards the head
    it has); ``steps`` and ``lr``: full-batch Adam; ``holdout``: share of the positions held out
    (drawn with ``seed``) to report the fit; ``win_window`` (lo, hi): only the positions whose
    player on roll wins with the net's 0-ply chance in it (a label campaign's folder holds every
    source's positions, and the head serves the cube window); ``score_ruled_out``: score the
    gammons the board rules out too, as the fits before step 27 did (they are left out of the loss:
    :func:`gammon.train.batch_fit.ruled_out_mask`)."""

    lam: float = 1e-4
    steps: int = 300
    lr: float = 0.01
    holdout: float = 0.2
    seed: int = 1
    from_head: bool = False
    win_window: tuple[float, float] | None = None
    score_ruled_out: bool = False

    def __post_init__(self) -> None:
        if self.win_window is not None:
            check_win_window(self.win_window, "win_window")
        if self.lam < 0 or self.steps < 1 or self.lr <= 0 or not 0 <= self.holdout < 1:
            raise ValueError(
                f"a cube head fit needs lam >= 0, steps >= 1, lr > 0 and 0 <= holdout < 1, got {self!r}"
            )


HEADS = ("cube", "borne", "crashed")
"""The heads :func:`fit_cube_head` fits: the contact net's cube head and borne-off head, the crashed
net's cube head."""

HEAD_PARTS = {"cube": "cube_head", "borne": "borne_head", "crashed": "crashed_head"}
"""The evaluator's part (:meth:`gammon.engine.net.neural.NeuralEvaluator.replaced`) each head is."""

_WHAT = {
    "cube": ("contact", "cube head"),
    "borne": ("borne-off", "borne-off head"),
    "crashed": ("crashed", "crashed head"),
}


@dataclass(frozen=True)
class CubeHeadReport:
    """Held-out cross-entropy (less the targets' own entropy, as every fit scores it:
    :func:`gammon.train.batch_fit.cross_entropy`) and root mean square error of each of the five
    chances, of the net's own outputs and of the fitted head, on ``held_out`` of the ``positions``
    contact positions (the outputs the board rules out count as no error unless the fit scored
    them); ``kind``: which head was fitted (:data:`HEADS`)."""

    positions: int
    held_out: int
    net: tuple[float, np.ndarray]
    head: tuple[float, np.ndarray]
    kind: str = "cube"
    before: tuple[float, np.ndarray] | None = None  # the head it started from (``from_head``)

    def lines(self) -> list[str]:
        names = "win, win gammon, win backgammon, lose gammon, lose backgammon"
        what, head = _WHAT[self.kind]
        rows = [("net", self.net)] + ([] if self.before is None else [("the head before", self.before)])
        return [
            f"{self.positions:,} {what} positions, {self.held_out:,} held out; "
            f"cross-entropy and root mean square error ({names}):"
        ] + [
            f"  {label:<15} {ce:.5f}  " + " ".join(f"{e:.4f}" for e in rms)
            for label, (ce, rms) in rows + [(head, self.head)]
        ]


def _fit(
    h: np.ndarray,
    t: np.ndarray,
    mask: np.ndarray | None,
    w2: np.ndarray,
    b2: np.ndarray,
    settings: CubeHeadSettings,
) -> tuple[np.ndarray, np.ndarray]:
    """Adam on the mean cross-entropy (the outputs ``mask`` zeroes left out) plus
    ``lam / 2 * |w - w2|^2`` (weights and biases)."""
    w, b = w2.copy(), b2.copy()
    m, v = [np.zeros_like(w), np.zeros_like(b)], [np.zeros_like(w), np.zeros_like(b)]
    for step in range(1, settings.steps + 1):
        g = (sigmoid(h @ w + b) - t) / len(t)
        if mask is not None:
            g *= mask
        grads = (h.T @ g + settings.lam * (w - w2), g.sum(0) + settings.lam * (b - b2))
        adam_step([w, b], grads, m, v, step, settings.lr)
    return w, b


def fit_cube_head(
    ev: NeuralEvaluator,
    labels: LabelSet,
    settings: CubeHeadSettings = CubeHeadSettings(),
    kind: str = "cube",
) -> tuple[NeuralEvaluator, CubeHeadReport]:
    """A copy of ``ev`` with a cube head fitted to the contact positions of ``labels`` (rollout
    chances; races are left out: the race net has no head), and the report of the fit. ``kind``
    (:data:`HEADS`) says which head: "cube", the contact net's cube head; "borne", the borne-off
    head, fitted to the positions where a side has borne off a checker while another is still out
    (:func:`gammon.engine.net.encode.borne_off_mask`), which set-up positions have and play all but
    never reaches (``label --set-up``); "crashed", the crashed net's head, fitted to the positions
    where a side has crashed (``ev`` must have a crashed net). Each head is fitted to the positions
    it serves alone: where ``ev`` has a crashed net, neither of the contact net's heads to its
    positions, and where it has a borne-off head, the cube head not to that head's. With
    ``settings.win_window``, only those in the window are. With ``settings.from_head`` the fit
    starts from (and is held near) the head ``ev`` has."""
    if kind not in HEADS:
        raise ValueError(f"kind must be one of {', '.join(HEADS)}, got {kind!r}")
    borne, crashed = kind == "borne", kind == "crashed"
    if crashed and ev.crashed is None:
        raise ValueError("a crashed head needs a crashed net: these weights have none (fit --nets crashed)")
    contact = ~race_mask(labels.boards)
    in_crashed = crashed_mask(labels.boards) if ev.crashed is not None else np.zeros(len(contact), np.bool_)
    if crashed:
        contact &= in_crashed
    else:
        contact &= ~in_crashed
        if borne:
            contact &= borne_off_mask(labels.boards)
        elif ev.borne_head is not None:
            contact &= ~borne_off_mask(labels.boards)
    if settings.win_window is not None:
        contact[contact] = in_win_window(ev, labels.boards[contact], settings.win_window)
    boards, targets = labels.boards[contact], labels.targets[contact].astype(np.float64)
    if len(boards) < 2:
        raise ValueError(
            f"a {_WHAT[kind][1]} needs {_WHAT[kind][0]} positions to fit, the labels have {len(boards)}"
        )
    net = ev.crashed if crashed and ev.crashed is not None else ev.contact
    w1, b1, w2, b2 = (a.astype(np.float64) for a in net.arrays())
    start = w2, b2
    if settings.from_head:
        had = getattr(ev, HEAD_PARTS[kind])
        if had is None:
            raise ValueError(f"from_head: the net has no {_WHAT[kind][1]} to start from")
        start = had.w2.astype(np.float64), had.b2.astype(np.float64)
    h = sigmoid(encode(boards).astype(np.float64) @ w1 + b1)
    order = np.random.default_rng(settings.seed).permutation(len(boards))
    n_held = min(len(boards) - 1, int(round(settings.holdout * len(boards))))
    held, train = order[:n_held], order[n_held:]

    mask = None if settings.score_ruled_out else ruled_out_mask(boards).astype(np.float64)
    held_mask = None if mask is None else mask[held]

    def scores(w: np.ndarray, b: np.ndarray) -> tuple[float, np.ndarray]:
        y = sigmoid(h[held] @ w + b)
        error = (y - targets[held]) ** 2 if held_mask is None else (y - targets[held]) ** 2 * held_mask
        return cross_entropy(y, targets[held], held_mask), np.sqrt(np.mean(error, axis=0))

    if n_held:
        w, b = _fit(h[train], targets[train], None if mask is None else mask[train], *start, settings)
        report = CubeHeadReport(
            len(boards),
            n_held,
            scores(w2, b2),
            scores(w, b),
            kind,
            scores(*start) if settings.from_head else None,
        )
    else:
        nothing = (float("nan"), np.full(5, np.nan))
        report = CubeHeadReport(len(boards), 0, nothing, nothing, kind)
    w, b = _fit(h, targets, mask, *start, settings)
    head = CubeHead(w.astype(np.float32), b.astype(np.float32))
    if borne:
        return ev.replaced(borne_head=head), report
    if crashed:
        return ev.replaced(crashed_head=head), report
    return ev.replaced(cube_head=head), report
