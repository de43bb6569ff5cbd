"""The judge set: checker-play decisions (position + roll) for ``benchmarks/strength/judge.py``.

The file (``benchmarks/data/judge_set.tsv``, written by ``benchmarks/strength/make_judge_set.py``) is one
decision a line, tab-separated: GNU Backgammon Position ID (player on roll to move), the two dice,
``contact`` or ``race``; ``#`` lines are comments. It holds positions only, never gnubg's answers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from benchmarks import DATA
from gammon import Position
from gammon.dice import parse_dice
from gammon.errors import InvalidNotationError, InvalidPositionError

JUDGE_SET = DATA / "judge_set.tsv"
KINDS = ("contact", "race")


class Decision(NamedTuple):
    """One checker-play decision: the position (mover on roll), its roll, contact or race."""

    position: Position
    dice: tuple[int, int]
    contact: bool

    def line(self) -> str:
        """The decision as a judge-set line (no newline)."""
        return f"{self.position.id}\t{self.dice[0]}{self.dice[1]}\t{KINDS[not self.contact]}"


def kind_of(position: Position) -> bool:
    """True for a contact position, False for a race (the set's ``contact`` column)."""
    return not position.is_race()


def parse_line(text: str) -> Decision:
    """One judge-set line; the kind column must agree with the position."""
    fields = text.strip().split("\t")
    if len(fields) != 3 or fields[2] not in KINDS:
        raise InvalidNotationError(f"a judge-set line is 'ID<tab>dice<tab>contact|race', got {text[:80]!r}")
    position = Position.from_id(fields[0])
    dice = parse_dice(fields[1])
    contact = fields[2] == "contact"
    if contact != kind_of(position):
        raise InvalidPositionError(f"{fields[0]!r} is marked {fields[2]} but is not: {text[:80]!r}")
    return Decision(position, (dice[0], dice[1]), contact)


def read_judge_set(path: Path = JUDGE_SET) -> list[Decision]:
    """Every decision in a judge-set file, in file order."""
    out = []
    for text in path.read_text().splitlines():
        if text.strip() and not text.startswith("#"):
            out.append(parse_line(text))
    return out


def interleave(decisions: Sequence[Decision]) -> list[Decision]:
    """Contact and race decisions alternating (each in its own order) while both last, so that a
    prefix of any length keeps both kinds."""
    contact = [d for d in decisions if d.contact]
    race = [d for d in decisions if not d.contact]
    out: list[Decision] = []
    for i in range(max(len(contact), len(race))):
        out.extend(kind[i] for kind in (contact, race) if i < len(kind))
    return out


def sample(pool: Iterable[Decision], contact: int, race: int, rng: random.Random) -> list[Decision]:
    """``contact`` contact and ``race`` race decisions drawn without replacement from ``pool``, each
    (position, dice) at most once (a roll's two orders are one decision), fewer where the pool
    lacks them; the result interleaved (see :func:`interleave`)."""
    distinct: dict[tuple[str, tuple[int, int]], Decision] = {}
    for d in pool:
        distinct.setdefault((d.position.id, (max(d.dice), min(d.dice))), d)
    chosen = []
    for want, is_contact in ((contact, True), (race, False)):
        kind = [d for d in distinct.values() if d.contact == is_contact]
        chosen.extend(rng.sample(kind, min(want, len(kind))))
    return interleave(chosen)
