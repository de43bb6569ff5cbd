"""The judge set: checker-play decisions (position + roll) for ``benchmarks/strength/judge.py``.

The files (``benchmarks/data/judge_set.tsv`` and ``judge_set_classes.tsv``, written by
``benchmarks/strength/make_judge_set.py``) are one decision a line, tab-separated: GNU Backgammon
Position ID (player on roll to move), the two dice, its kind (``contact``, ``crashed`` or ``race``,
:func:`kind_of`); ``#`` lines are comments. They hold positions only, never gnubg's answers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from benchmarks import DATA
from gammon import Position
from gammon.dice import parse_dice
from gammon.engine.net.crashed import crashed_mask
from gammon.errors import InvalidNotationError, InvalidPositionError

JUDGE_SET = DATA / "judge_set.tsv"
CLASSES_SET = DATA / "judge_set_classes.tsv"
KINDS = ("contact", "crashed", "race")


class Decision(NamedTuple):
    """One checker-play decision: the position (mover on roll), its roll, its kind (:data:`KINDS`)."""

    position: Position
    dice: tuple[int, int]
    kind: str

    @property
    def contact(self) -> bool:
        """Contact (crashed included), not a race."""
        return self.kind != "race"

    def line(self) -> str:
        """The decision as a judge-set line (no newline)."""
        return f"{self.position.id}\t{self.dice[0]}{self.dice[1]}\t{self.kind}"


def crashed(position: Position) -> bool:
    """A contact position where a side has crashed, as GNU Backgammon classes positions
    (:func:`gammon.engine.net.crashed.crashed_mask`; tests/test_judge_set.py checks it against
    gnubg's own class)."""
    return bool(crashed_mask(position.as_array().reshape(1, 26))[0])


def kind_of(position: Position) -> str:
    """The kind of a decision's position: ``race``, ``crashed`` (see :func:`crashed`) or ``contact``."""
    if position.is_race():
        return "race"
    return "crashed" if crashed(position) else "contact"


def parse_line(text: str) -> Decision:
    """One judge-set line; the kind column must agree with the position."""
    fields = text.strip().split("\t")
    if len(fields) != 3 or fields[2] not in KINDS:
        raise InvalidNotationError(
            f"a judge-set line is 'ID<tab>dice<tab>contact|crashed|race', got {text[:80]!r}"
        )
    position = Position.from_id(fields[0])
    dice = parse_dice(fields[1])
    if fields[2] != kind_of(position):
        raise InvalidPositionError(f"{fields[0]!r} is marked {fields[2]} but is not: {text[:80]!r}")
    return Decision(position, (dice[0], dice[1]), fields[2])


def read_judge_set(path: Path = JUDGE_SET) -> list[Decision]:
    """Every decision in a judge-set file, in file order."""
    out = []
    for text in path.read_text().splitlines():
        if text.strip() and not text.startswith("#"):
            out.append(parse_line(text))
    return out


def interleave(
    decisions: Sequence[Decision], kinds: Sequence[Sequence[str]] = (("contact", "crashed"), ("race",))
) -> list[Decision]:
    """The decisions of each group of ``kinds`` alternating (each group in its own order) while the
    groups last, so that a prefix of any length keeps every group."""
    groups = [[d for d in decisions if d.kind in group] for group in kinds]
    out: list[Decision] = []
    for i in range(max(map(len, groups), default=0)):
        out.extend(group[i] for group in groups if i < len(group))
    return out


def sample(
    pool: Iterable[Decision], contact: int, race: int, rng: random.Random, crashed: int = 0
) -> list[Decision]:
    """``contact`` contact and ``race`` race decisions drawn without replacement from ``pool``, each
    (position, dice) at most once (a roll's two orders are one decision), fewer where the pool
    lacks them; the result interleaved (see :func:`interleave`). With ``crashed``, that many
    crashed decisions are drawn apart, the ``contact`` ones then from the others, and the three
    kinds alternate; without, crashed decisions count as contact."""
    distinct: dict[tuple[str, tuple[int, int]], Decision] = {}
    for d in pool:
        distinct.setdefault((d.position.id, (max(d.dice), min(d.dice))), d)
    groups: list[tuple[int, tuple[str, ...]]] = (
        [(contact, ("contact",)), (crashed, ("crashed",)), (race, ("race",))]
        if crashed
        else [(contact, ("contact", "crashed")), (race, ("race",))]
    )
    chosen = []
    for want, kinds in groups:
        kind = [d for d in distinct.values() if d.kind in kinds]
        chosen.extend(rng.sample(kind, min(want, len(kind))))
    return interleave(chosen, [kinds for _, kinds in groups])
