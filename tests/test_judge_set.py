"""The judge-set file (benchmarks/strength/judge_set.py): reading, checking and sampling decisions."""

from __future__ import annotations

import random
from pathlib import Path

import gnubg
import pytest

from benchmarks.strength.judge_set import (
    CLASSES_SET,
    JUDGE_SET,
    Decision,
    crashed,
    interleave,
    kind_of,
    parse_line,
    read_judge_set,
    sample,
)
from gammon import Position
from gammon.errors import InvalidNotationError, InvalidPositionError

OPENING = Position.initial()
RACE = Position.from_points({6: 3, 5: 2}, {6: 4})


def test_line_round_trip() -> None:
    for d in (Decision(OPENING, (3, 1), "contact"), Decision(RACE, (6, 6), "race")):
        assert parse_line(d.line()) == d
    assert Decision(RACE, (2, 5), "race").line() == f"{RACE.id}\t25\trace"


def test_bad_lines_are_refused_quoting_them() -> None:
    with pytest.raises(InvalidNotationError, match="junk"):
        parse_line("junk")
    with pytest.raises(InvalidNotationError, match="31"):
        parse_line(f"{OPENING.id}\t31\tbackgame")
    with pytest.raises(InvalidNotationError):
        parse_line(f"{OPENING.id}\t71\tcontact")
    with pytest.raises(InvalidPositionError, match="marked race"):
        parse_line(f"{OPENING.id}\t31\trace")
    with pytest.raises(InvalidPositionError, match="marked crashed"):
        parse_line(f"{OPENING.id}\t31\tcrashed")


def test_read_skips_comments_and_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "set.tsv"
    path.write_text(f"# header\n\n{OPENING.id}\t42\tcontact\n{RACE.id}\t11\trace\n")
    assert read_judge_set(path) == [Decision(OPENING, (4, 2), "contact"), Decision(RACE, (1, 1), "race")]


def test_interleave_alternates_while_both_kinds_last() -> None:
    c = [Decision(OPENING, (i, 1), "contact") for i in range(1, 4)]
    r = [Decision(RACE, (i, 2), "race") for i in range(1, 2)]
    assert interleave([*c, *r]) == [c[0], r[0], c[1], c[2]]


def test_sample_counts_kinds_and_drops_repeats() -> None:
    contact = [Decision(OPENING, (a, b), "contact") for a in range(1, 7) for b in range(1, 7)]  # 21 distinct
    race = [Decision(RACE, (a, 1), "race") for a in range(1, 7)] * 3  # 6 distinct
    chosen = sample(contact + race, 10, 4, random.Random(5))
    assert sum(d.contact for d in chosen) == 10 and sum(not d.contact for d in chosen) == 4
    keys = {(d.position.id, tuple(sorted(d.dice))) for d in chosen}
    assert len(keys) == 14
    assert [d.contact for d in chosen[:8]] == [True, False] * 4
    assert sample(contact + race, 10, 4, random.Random(5)) == chosen  # seeded
    short = sample(contact + race, 50, 50, random.Random(5))  # the pool has 21 + 6 distinct
    assert len(short) == 27


def test_committed_set_has_both_kinds_and_real_decisions() -> None:
    decisions = read_judge_set(JUDGE_SET)
    n_contact = sum(d.contact for d in decisions)
    assert len(decisions) >= 3000 and n_contact >= 1000 and len(decisions) - n_contact >= 1000
    for d in decisions[::97]:
        assert len(d.position.legal_plays(d.dice)) >= 2


# A side with its checkers piled deep in its home board: gnubg counts those on its 1 and 2 points as
# out of play in different ways depending on how many sit on each (the cases of :func:`crashed`).
CRASH_CASES = [  # (mover, opponent) points; crashed or not
    ({1: 9, 6: 2, 13: 2, 24: 2}, {6: 5, 8: 3, 13: 5, 20: 2}),  # 9 on the 1 point: 6 in play, crashed
    ({1: 8, 6: 3, 13: 2, 24: 2}, {6: 5, 8: 3, 13: 5, 20: 2}),  # 8 on it: 7 in play
    ({1: 5, 2: 4, 6: 2, 13: 2, 24: 2}, {6: 5, 8: 3, 13: 5, 20: 2}),  # 1 and 2 points: 6 + one, 7
    ({1: 5, 2: 5, 6: 1, 13: 2, 24: 2}, {6: 5, 8: 3, 13: 5, 20: 2}),  # 5 + one, 6: crashed
    ({1: 1, 2: 10, 13: 2, 24: 2}, {6: 5, 8: 3, 13: 5, 20: 2}),  # one on the 1 point: 2 point's 10 - 1
    ({2: 10, 13: 3, 24: 2}, {6: 5, 8: 3, 13: 5, 20: 2}),  # the same with the 1 point empty
    ({2: 9, 13: 4, 24: 2}, {6: 5, 8: 3, 13: 5, 20: 2}),  # 7 in play
    ({6: 5, 8: 3, 13: 5, 20: 2}, {1: 1, 2: 10, 13: 2, 24: 2}),  # the side not on roll crashed
    ({6: 4, 24: 2}, {6: 5, 8: 3, 13: 5, 20: 2}),  # 9 borne off: 6 left, crashed
    ({6: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 20: 2}),  # 7 left
]


def gnubg_kind(position: Position) -> str:
    """The kind by GNU Backgammon's own position class (10 contact, 9 crashed, below: races)."""
    cls = gnubg.classify(position.to_gnubg_board())
    return {10: "contact", 9: "crashed"}.get(cls, "race")


def test_crashed_positions_are_those_gnubg_classes_so() -> None:
    positions = [Position.from_points(mine, theirs) for mine, theirs in CRASH_CASES]
    positions += [d.position for d in read_judge_set(CLASSES_SET)[::2]]
    kinds = [kind_of(p) for p in positions]
    assert kinds == [gnubg_kind(p) for p in positions]
    assert {"contact", "crashed", "race"} <= set(kinds)
    assert [crashed(p) for p in positions[:10]] == [
        True,
        False,
        False,
        True,
        True,
        True,
        False,
        True,
        True,
        False,
    ]


def test_sample_draws_crashed_decisions_apart_and_alternates_three_kinds() -> None:
    heavy = Position.from_points(*CRASH_CASES[0])
    pool = [Decision(OPENING, (a, b), "contact") for a in range(1, 7) for b in range(1, 7)]
    pool += [Decision(heavy, (a, b), "crashed") for a in range(1, 7) for b in range(1, 7)]
    pool += [Decision(RACE, (a, b), "race") for a in range(1, 7) for b in range(1, 7)]
    chosen = sample(pool, 4, 3, random.Random(2), crashed=5)
    assert [d.kind for d in chosen] == ["contact", "crashed", "race"] * 3 + ["contact", "crashed", "crashed"]
    as_contact = sample(pool, 8, 3, random.Random(2))  # without the quota crashed ones count as contact
    assert sum(d.contact for d in as_contact) == 8 and {d.kind for d in as_contact} >= {"race"}


def test_committed_classes_set_holds_each_kind_as_its_header_says() -> None:
    decisions = read_judge_set(CLASSES_SET)
    assert [sum(d.kind == k for d in decisions) for k in ("contact", "crashed", "race")] == [1500, 750, 750]
    assert [d.kind for d in decisions[:6]] == ["contact", "crashed", "race"] * 2
    for d in decisions[::97]:
        assert len(d.position.legal_plays(d.dice)) >= 2
