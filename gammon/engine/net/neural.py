"""The neural evaluator: sigmoid nets (contact and race, and optionally crashed) over the inputs of
:mod:`gammon.engine.net.encode`, evaluated in batches by the compiled kernels of
:mod:`gammon.engine.net.forward` (``Net.forward`` is the same net in plain numpy; the tests check
one against the other).

Each net has one hidden layer of sigmoid units and five sigmoid outputs ``[win, win_gammon,
win_backgammon, lose_gammon, lose_backgammon]`` for the player on roll. The contact net may carry a
second output layer, its cube head (:class:`CubeHead`), for the chances its cube decisions value,
and a third, its borne-off head, for those chances in the positions where a side has borne off a
checker while another is still out (:func:`gammon.engine.net.encode.is_borne_off_board`).
A crashed net, where the weights have one, plays the contact positions where a side has crashed
(:func:`gammon.engine.net.crashed.has_crashed_side`), as GNU Backgammon's third net does, and may
carry a cube head of its own. Two cube nets, where the weights have them, give the chances the cube
decisions value in place of those heads: the cube net in the positions whose chances the contact
net's cube head gives, the borne-off net in every contact position where a side has borne off a
checker while another is still out, crashed or not. Fitted to gammon's own rollouts of those
positions alone, they value them as no output layer on a net fitted for checker play can, and
checker play never reads them (fitted to positions' values, a net ranks plays worse than the nets
fitted to the plays do).
A 0-ply net, where the weights have one, is a second contact net for ``Engine(plies=0)`` alone
(:meth:`NeuralEvaluator.at_zero_ply`): fitted to rank a roll's plays as the 2-ply search ranks them,
it plays better at 0 ply than the contact net, while the search, which reads the contact net at its
leaves, plays worse with it there, so each net serves the depth it plays best at. A 0-ply crashed
net is the same for the crashed net.
The weights file format is described in docs/weights.md; the shipped file is
``gammon/engine/weights/gammon.npz``.
"""

from __future__ import annotations

import importlib.resources
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gammon.engine.net.cache import DEFAULT_BYTES, EvaluationCache
from gammon.engine.net.crashed import crashed_mask
from gammon.engine.net.encode import (
    ENCODING,
    N_INPUTS,
    PER_SIDE,
    RAW_PER_SIDE,
    V1_FEATURES,
    V2_FEATURES,
    V3_FEATURES,
    borne_off_mask,
    race_mask,
)
from gammon.engine.net.forward import evaluate_batch, exact_first_layer, output_layer
from gammon.engine.net.npz import load_npz
from gammon.primitives import CHECKERS, checkers_on_board, clamp_probabilities

FORMAT_VERSION = 1
DEFAULT_WEIGHTS = "gammon.npz"
NET_NAMES = ("contact", "race")
"""The nets every weights file has; ``crashed`` is optional."""
CRASHED = "crashed"
V1_ENCODING = "gammon-v1"
V2_ENCODING = "gammon-v2"
V3_ENCODING = "gammon-v3"
OLDER_FEATURES = {V1_ENCODING: V1_FEATURES, V2_ENCODING: V2_FEATURES, V3_ENCODING: V3_FEATURES}
"""Encodings whose files still load: the hand-made features each had (a prefix of today's)."""


@dataclass(frozen=True)
class Net:
    """One net: ``w1 (inputs, hidden)``, ``b1 (hidden)``, ``w2 (hidden, 5)``, ``b2 (5)``, float32."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray

    def __post_init__(self) -> None:
        n_in, n_hidden = self.w1.shape
        if self.b1.shape != (n_hidden,) or self.w2.shape != (n_hidden, 5) or self.b2.shape != (5,):
            raise ValueError(
                f"inconsistent net shapes: w1 {self.w1.shape}, b1 {self.b1.shape}, "
                f"w2 {self.w2.shape}, b2 {self.b2.shape}"
            )

    @classmethod
    def random(cls, hidden: int, rng: np.random.Generator, n_inputs: int = N_INPUTS) -> Net:
        """Small random weights (the start of training from scratch)."""
        return cls(
            rng.uniform(-0.1, 0.1, (n_inputs, hidden)).astype(np.float32),
            np.zeros(hidden, dtype=np.float32),
            rng.uniform(-0.1, 0.1, (hidden, 5)).astype(np.float32),
            np.zeros(5, dtype=np.float32),
        )

    @property
    def w2t(self) -> np.ndarray:
        """``w2`` transposed, contiguous (the layout of the play-time kernel). Made on each use:
        training changes the weights in place, so a cached copy could go stale."""
        return np.ascontiguousarray(self.w2.T)

    @property
    def hidden(self) -> int:
        return int(self.b1.shape[0])

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self.w1, self.b1, self.w2, self.b2

    def forward(self, x: np.ndarray) -> np.ndarray:
        """Outputs (N, 5) of inputs ``x`` (N, inputs)."""
        h = sigmoid(x @ self.w1 + self.b1)
        return sigmoid(h @ self.w2 + self.b2)


@dataclass(frozen=True)
class CubeHead:
    """A second output layer of a net (the contact net's cube and borne-off heads, the crashed
    net's cube head), ``w2 (hidden, 5)`` and ``b2 (5)`` on the same hidden units: the chances that
    cube decisions value (:meth:`NeuralEvaluator.evaluate_for_cube`), fitted to gammon's own
    rollouts of positions where the cube is at stake (:mod:`gammon.train.cube_head`), while checker
    play keeps the net's own outputs. It belongs to the hidden layer it was fitted on: a fit of
    that net drops it."""

    w2: np.ndarray
    b2: np.ndarray

    def __post_init__(self) -> None:
        if self.w2.ndim != 2 or self.w2.shape[1] != 5 or self.b2.shape != (5,):
            raise ValueError(f"a cube head is w2 (hidden, 5) and b2 (5,), "
                             f"got {self.w2.shape}, {self.b2.shape}")

    @property
    def w2t(self) -> np.ndarray:
        return np.ascontiguousarray(self.w2.T)


def from_older(net: Net, encoding: str) -> Net:
    """A net of an older encoding (``gammon-v1``, ``gammon-v2``, ``gammon-v3``) in this one: the
    features added since get zero input weights, so it computes what it did, up to rounding (and
    training can then use them)."""
    old_side = RAW_PER_SIDE + OLDER_FEATURES[encoding]
    if net.w1.shape[0] != 2 * old_side:
        raise ValueError(f"a {encoding} net has {2 * old_side} inputs, this one {net.w1.shape[0]}")
    w1 = np.zeros((N_INPUTS, net.hidden), dtype=np.float32)
    w1[:old_side] = net.w1[:old_side]
    w1[PER_SIDE:PER_SIDE + old_side] = net.w1[old_side:]
    return Net(w1, net.b1, net.w2, net.b2)


def _checked(boards: np.ndarray) -> np.ndarray:
    """``boards`` as the kernels take them: int8 (N, 26), contiguous and writable."""
    b = np.asarray(boards)
    if b.ndim != 2 or b.shape[1] != 26:
        raise ValueError(f"boards must have shape (N, 26), got {b.shape}")
    return np.require(b, np.int8, ["C", "W"])


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))


def consistent(probs: np.ndarray, boards: np.ndarray | None = None) -> np.ndarray:
    """Rows (N, 5) made consistent by :func:`gammon.primitives.clamp_probabilities`, run in Python;
    with ``boards`` (N, 26), without the gammons each board rules out. Play gets this compiled
    inside :func:`gammon.engine.net.forward.evaluate_batch`; this form is what the tests check it
    against."""
    p = np.asarray(probs, dtype=np.float64)
    rows = p.reshape(-1, 5).tolist()
    on = [(CHECKERS, CHECKERS)] * len(rows) if boards is None else [checkers_on_board(b) for b in boards]
    out = [clamp_probabilities(r[0], r[1], r[2], r[3], r[4], mover, opponent)
           for r, (mover, opponent) in zip(rows, on, strict=True)]
    return np.array(out, dtype=np.float64).reshape(p.shape)


CUBE = "cube"
BORNE = "borne"
CUBE_NETS = (CUBE, BORNE)
"""The cube nets, in the order their chances are laid over the heads' (the borne-off net's last)."""
ZERO_PLY = "zero_ply"
"""The 0-ply net (:attr:`NeuralEvaluator.zero_ply`), set after construction as the cube nets are."""
ZERO_PLY_CRASHED = "zero_ply_crashed"
"""The 0-ply crashed net (:attr:`NeuralEvaluator.zero_ply_crashed`), set as the 0-ply net is."""
ZERO_PLY_NETS = (ZERO_PLY, ZERO_PLY_CRASHED)
_LATER_NETS = (*CUBE_NETS, *ZERO_PLY_NETS)
_NETS_AND_HEADS = ("contact", "race", "crashed", "cube_head", "borne_head", "crashed_head", *_LATER_NETS)
_CUBE_NET_SHARE = 8  # a cube net's own evaluation cache: this fraction of the evaluator's (few boards)


def borne_off_contact_mask(boards: np.ndarray) -> np.ndarray:
    """bool (N,): the contact boards where a side has a checker off and another still out: the
    borne-off class, crashed or not, whose cube chances the borne-off cube net gives."""
    return borne_off_mask(boards) & ~race_mask(boards)


class NeuralEvaluator:
    """Evaluator (see gammon.engine.net.evaluator) backed by a contact net and a race net, and a
    crashed net and the cube nets where it has them."""

    def __init__(self, contact: Net, race: Net, games: int = 0, cube_head: CubeHead | None = None,
                 borne_head: CubeHead | None = None, *, crashed: Net | None = None,
                 crashed_head: CubeHead | None = None, cache_bytes: int = DEFAULT_BYTES) -> None:
        for name, net in (("contact", contact), ("race", race), (CRASHED, crashed)):
            if net is not None and net.w1.shape[0] != N_INPUTS:
                raise ValueError(f"{name} net has {net.w1.shape[0]} inputs, the encoding {N_INPUTS}")
        for name, head in (("cube", cube_head), ("borne-off", borne_head)):
            if head is not None and head.w2.shape[0] != contact.hidden:
                raise ValueError(f"the {name} head has {head.w2.shape[0]} hidden units, the contact net "
                                 f"{contact.hidden}")
        if crashed_head is not None and (crashed is None or crashed_head.w2.shape[0] != crashed.hidden):
            raise ValueError(f"the crashed head has {crashed_head.w2.shape[0]} hidden units, the crashed net "
                             f"{'is missing' if crashed is None else crashed.hidden}")
        self.contact = contact
        self.race = race
        self.crashed = crashed
        """The net of the contact positions where a side has crashed
        (:func:`gammon.engine.net.crashed.has_crashed_side`), checker play and cube decisions
        alike (the cube decisions with :attr:`crashed_head` where there is one); None: the contact
        net plays them."""
        self.games = games
        self.cube_head = cube_head
        self.borne_head = borne_head
        """The cube head of the contact positions where a side has borne off a checker while another
        is still out (:func:`gammon.engine.net.encode.is_borne_off_board`), in place of
        :attr:`cube_head` there: play all but never reaches them, so the net knows them least
        (:mod:`gammon.train.cube_head`)."""
        self.crashed_head = crashed_head
        """The crashed net's cube head, on its hidden units: the chances the cube decisions value
        in the crashed net's positions (:mod:`gammon.train.cube_head`)."""
        self.cube: Net | None = None
        """The cube net: the chances the cube decisions value in the positions whose chances
        :attr:`cube_head` gives (the contact net's boards, but the borne-off head's where there is
        one), in place of it; checker play never reads it. None: the head values them. Set after
        construction, as :attr:`borne` (:meth:`replaced` takes both)."""
        self.borne: Net | None = None
        """The borne-off net: the chances the cube decisions value in the contact positions where a
        side has borne off a checker while another is still out
        (:func:`gammon.engine.net.encode.is_borne_off_board`), crashed or not, in place of
        :attr:`borne_head`, :attr:`crashed_head` and :attr:`cube` there; checker play never reads
        it. None: those value them."""
        self.zero_ply: Net | None = None
        """The 0-ply net: the contact net of ``Engine(plies=0)`` (:meth:`at_zero_ply`); the search at
        1 and 2 plies, the cube decisions and training's own evaluations never read it. None:
        the contact net plays at every depth."""
        self.zero_ply_crashed: Net | None = None
        """The 0-ply crashed net: the crashed net of ``Engine(plies=0)`` (:meth:`at_zero_ply`), read
        where :attr:`zero_ply` would be but in the crashed net's positions. None: the crashed net
        plays them at every depth."""
        self._cube_source: NeuralEvaluator | None = None  # at_zero_ply's: whose cube chances it values
        self.cache = EvaluationCache(cache_bytes)
        """The outputs of boards already evaluated (:mod:`gammon.engine.net.cache`), used by every
        evaluation."""
        self._play: tuple[tuple[Any, ...], tuple[Any, ...]] | None = None
        self._own: dict[str, NeuralEvaluator] = {}  # each cube net, and the 0-ply net, as an evaluator

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name in _NETS_AND_HEADS and "cache" in self.__dict__:  # a net or a head replaced
            self.weights_changed()

    def replaced(self, *, cache_bytes: int | None = None, **changes: Any) -> NeuralEvaluator:
        """A new evaluator over the same nets and heads (not copied) but those named in ``changes``
        (``contact``, ``race``, ``crashed``, ``games``, ``cube_head``, ``borne_head``,
        ``crashed_head``, ``cube``, ``borne``, ``zero_ply``, ``zero_ply_crashed``), with a cache of
        ``cache_bytes`` (default: this one's size), empty. A new crashed net comes without the old
        one's head (it belongs to that net's hidden units) unless ``crashed_head`` is given too."""
        parts: dict[str, Any] = {"contact": self.contact, "race": self.race, "games": self.games,
                                 "cube_head": self.cube_head, "borne_head": self.borne_head,
                                 CRASHED: self.crashed, "crashed_head": self.crashed_head,
                                 CUBE: self.cube, BORNE: self.borne, ZERO_PLY: self.zero_ply,
                                 ZERO_PLY_CRASHED: self.zero_ply_crashed}
        unknown = set(changes) - set(parts)
        if unknown:
            raise ValueError(f"no such part of an evaluator: {sorted(unknown)!r}")
        if CRASHED in changes and changes[CRASHED] is not self.crashed:
            parts["crashed_head"] = None
        parts.update(changes)
        later = {name: parts.pop(name) for name in _LATER_NETS}
        out = NeuralEvaluator(**parts, cache_bytes=self.cache.limit if cache_bytes is None else cache_bytes)
        for name, net in later.items():
            out._set_later_net(name, net)
        return out

    def at_zero_ply(self) -> NeuralEvaluator:
        """The evaluator ``Engine(plies=0)`` plays with: this one with its 0-ply net as the contact
        net and its 0-ply crashed net as the crashed net, where it has them, or this one where it
        has neither. It has its own cache, of this one's size, and drops the heads, which belong
        to the other nets' hidden units: its cube decisions value this evaluator's chances
        (:meth:`evaluate_for_cube`), so they stay the same. Made once, and again after
        :meth:`weights_changed`."""
        if self.zero_ply is None and self.zero_ply_crashed is None:
            return self
        if ZERO_PLY not in self._own:
            changes: dict[str, Any] = {"cube_head": None, "borne_head": None, ZERO_PLY: None,
                                       ZERO_PLY_CRASHED: None}
            if self.zero_ply is not None:
                changes["contact"] = self.zero_ply
            if self.zero_ply_crashed is not None:
                changes[CRASHED] = self.zero_ply_crashed
            played = self.replaced(**changes)
            played._cube_source = self if self.has_cube_chances else None
            self._own[ZERO_PLY] = played
        return self._own[ZERO_PLY]

    def _set_later_net(self, name: str, net: Net | None) -> None:
        if net is not None and net.w1.shape[0] != N_INPUTS:
            raise ValueError(f"{name} net has {net.w1.shape[0]} inputs, the encoding {N_INPUTS}")
        setattr(self, name, net)

    def weights_changed(self) -> None:
        """Say that the nets' arrays were changed in place (training does): what play derives from
        them (:func:`gammon.engine.net.forward.exact_first_layer`, the output layers transposed) is
        made again on the next evaluation, and the cache is emptied."""
        self._play = None
        self._own = {}
        self.cache.clear()

    def play_arrays(self) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """``(net, heads)`` for the play kernels (:func:`gammon.engine.net.forward.evaluate_batch`): each
        net's exact first layer and output layer, ``(cq, cunit, cw2, rq, runit, rw2, xq, xunit, xw2,
        crashed)`` (the crashed net's, or the contact net's again with ``crashed`` false), and the
        cube decisions' output layers ``(hw2, bw2, borne, xhw2)``."""
        if self._play is None:
            arrays: list[Any] = []
            for net in (self.contact, self.race, self.crashed):
                if net is None:  # no crashed net: the contact net's arrays again, not made twice
                    arrays += arrays[:3]
                else:
                    arrays += [*exact_first_layer(net.w1, net.b1), output_layer(net.w2, net.b2)]
            arrays.append(self.crashed is not None)
            head = self.cube_head or CubeHead(self.contact.w2, self.contact.b2)
            borne = self.borne_head or head  # not read without a borne-off head
            # without a crashed head, the crashed net's own outputs (not read without a crashed net)
            xhead = self.crashed_head or (
                CubeHead(self.crashed.w2, self.crashed.b2) if self.crashed is not None else head
            )
            heads = (output_layer(head.w2, head.b2), output_layer(borne.w2, borne.b2),
                     self.borne_head is not None, output_layer(xhead.w2, xhead.b2))
            self._play = (tuple(arrays), heads)
        return self._play

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_play"] = None  # made again where it is needed
        state["_own"] = {}
        return state

    @classmethod
    def default(cls) -> NeuralEvaluator:
        """The weights shipped inside the package."""
        ref = importlib.resources.files("gammon.engine.net.weights") / DEFAULT_WEIGHTS
        with importlib.resources.as_file(ref) as path:
            return cls.load(path)

    @classmethod
    def random(cls, hidden: int = 128, race_hidden: int = 64, seed: int = 0) -> NeuralEvaluator:
        rng = np.random.default_rng(seed)
        return cls(Net.random(hidden, rng), Net.random(race_hidden, rng))

    @classmethod
    def load(cls, path: str | Path) -> NeuralEvaluator:
        """Read a weights file (docs/weights.md)."""
        data = load_npz(path, "a gammon weights file")
        version = int(data["format_version"]) if "format_version" in data else None
        if version != FORMAT_VERSION:
            raise ValueError(f"{str(path)!r}: weights format {version!r}, expected {FORMAT_VERSION}")
        encoding = str(data["encoding"])
        if encoding != ENCODING and encoding not in OLDER_FEATURES:
            raise ValueError(f"{str(path)!r}: encoding {encoding!r}, this gammon uses {ENCODING!r}")
        nets = [
            Net(*(np.ascontiguousarray(data[f"{name}_{a}"], dtype=np.float32)
                  for a in ("w1", "b1", "w2", "b2")))
            for name in NET_NAMES
        ]
        if encoding in OLDER_FEATURES:
            nets = [from_older(net, encoding) for net in nets]
        # the crashed net came after the older encodings: read with the current one only
        crashed = (Net(*(np.ascontiguousarray(data[f"{CRASHED}_{a}"], dtype=np.float32)
                         for a in ("w1", "b1", "w2", "b2")))
                   if f"{CRASHED}_w1" in data and encoding == ENCODING else None)
        games = int(data["games"]) if "games" in data else 0
        # a head belongs to the hidden layer it was fitted on: read with the current encoding only
        heads = [CubeHead(*(np.ascontiguousarray(data[f"contact_{name}_{a}"], dtype=np.float32)
                            for a in ("w2", "b2")))
                 if f"contact_{name}_w2" in data and encoding == ENCODING else None
                 for name in ("cube", "borne")]
        crashed_head = (CubeHead(*(np.ascontiguousarray(data[f"{CRASHED}_cube_{a}"], dtype=np.float32)
                                   for a in ("w2", "b2")))
                        if crashed is not None and f"{CRASHED}_cube_w2" in data else None)
        later = {name: Net(*(np.ascontiguousarray(data[f"{name}_{a}"], dtype=np.float32)
                             for a in ("w1", "b1", "w2", "b2")))
                 for name in _LATER_NETS if f"{name}_w1" in data and encoding == ENCODING}
        out = cls(nets[0], nets[1], games, heads[0], heads[1], crashed=crashed, crashed_head=crashed_head)
        for name, net in later.items():
            out._set_later_net(name, net)
        return out

    def save(self, path: str | Path, **extra: np.ndarray | int | float | str) -> None:
        """Write a weights file (docs/weights.md); ``extra`` adds arrays (training state)."""
        arrays: dict[str, Any] = {
            "format_version": FORMAT_VERSION,
            "encoding": ENCODING,
            "games": self.games,
        }
        for name, net in (("contact", self.contact), ("race", self.race), (CRASHED, self.crashed),
                          (CUBE, self.cube), (BORNE, self.borne), (ZERO_PLY, self.zero_ply),
                          (ZERO_PLY_CRASHED, self.zero_ply_crashed)):
            if net is None:
                continue
            for a, value in zip(("w1", "b1", "w2", "b2"), net.arrays()):
                arrays[f"{name}_{a}"] = value
        for name, head in (("contact_cube", self.cube_head), ("contact_borne", self.borne_head),
                           (f"{CRASHED}_cube", self.crashed_head)):
            if head is not None:
                arrays[f"{name}_w2"] = head.w2
                arrays[f"{name}_b2"] = head.b2
        arrays.update(extra)
        tmp = Path(str(path) + ".tmp.npz")
        np.savez(tmp, **arrays)
        tmp.replace(path)

    @property
    def has_cube_chances(self) -> bool:
        """Whether its cube decisions value other chances than it plays with (it has a cube head,
        a borne-off head, a crashed head or a cube net, or values those of the evaluator it is the
        0-ply evaluator of)."""
        if self._cube_source is not None:
            return True
        return (self.cube_head is not None or self.borne_head is not None or self.crashed_head is not None
                or self.cube is not None or self.borne is not None)

    def evaluate(self, boards: np.ndarray) -> np.ndarray:
        """Probabilities float64 (N, 5) of boards int8 (N, 26), each seen from the player on roll."""
        return self._evaluate(boards, False)[0]

    def evaluate_for_cube(self, boards: np.ndarray) -> np.ndarray:
        """:meth:`evaluate` with the contact net's cube head in place of its outputs, its
        borne-off head in its positions, the crashed net's cube head in its, and the cube nets in
        theirs (:attr:`cube`, :attr:`borne`; the same as :meth:`evaluate` without any): the
        chances a cube decision values."""
        if self._cube_source is not None:
            return self._cube_source.evaluate_for_cube(boards)
        if not self.has_cube_chances:
            return self.evaluate(boards)
        return self._evaluate(boards, True)[1]

    def evaluate_with_cube(self, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`evaluate` and :meth:`evaluate_for_cube` of the same boards, from one pass through
        the hidden layer (a cubeful search's leaves want both)."""
        if self._cube_source is not None:
            return self.evaluate(boards), self._cube_source.evaluate_for_cube(boards)
        if not self.has_cube_chances:
            probs = self.evaluate(boards)
            return probs, probs
        return self._evaluate(boards, True)

    def _evaluate(self, boards: np.ndarray, with_head: bool) -> tuple[np.ndarray, np.ndarray]:
        b = _checked(boards)
        out = np.empty((b.shape[0], 5))
        out_head = np.empty((b.shape[0], 5)) if with_head else out
        if b.shape[0]:
            net, heads = self.play_arrays()
            evaluate_batch(b, net, heads, self.cache.arrays(), out, out_head, with_head)
            if with_head and (self.cube is not None or self.borne is not None):
                self._lay_cube_nets(b, out_head)
        return out, out_head

    def cube_net_mask(self, name: str, boards: np.ndarray) -> np.ndarray:
        """bool (N,): the boards whose cube chances the cube net ``name`` (:data:`CUBE_NETS`)
        gives. The borne-off net's are every borne-off contact board; the cube net's those of the
        cube head, so they depend on this evaluator's crashed net and borne-off head (the
        borne-off net's boards are then laid over them)."""
        b = _checked(boards)
        if name == BORNE:
            return borne_off_contact_mask(b)
        contact = ~race_mask(b)
        if name != CUBE:
            raise ValueError(f"no such cube net: {name!r}")
        if self.crashed is not None:
            contact &= ~crashed_mask(b)
        if self.borne_head is not None:
            contact &= ~borne_off_mask(b)
        return contact

    def _lay_cube_nets(self, b: np.ndarray, out_head: np.ndarray) -> None:
        """Each cube net's chances over ``out_head``'s rows of its boards, the borne-off net's
        last (in Python, after the compiled pass: a cube decision evaluates few boards). Each cube
        net evaluates through an evaluator of its own, with an eighth of this one's cache."""
        for name in CUBE_NETS:
            net = getattr(self, name)
            if net is None:
                continue
            mine = self.cube_net_mask(name, b)
            if mine.any():
                if name not in self._own:  # no crashed net: the crashed boards are its too
                    self._own[name] = NeuralEvaluator(net, self.race,
                                                      cache_bytes=self.cache.limit // _CUBE_NET_SHARE)
                out_head[mine] = self._own[name].evaluate(b[mine])
