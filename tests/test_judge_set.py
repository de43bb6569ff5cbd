"""The judge-set file (benchmarks/strength/judge_set.py): reading, checking and sampling decisions."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks.strength.judge_set import JUDGE_SET, Decision, interleave, parse_line, read_judge_set, sample
from gammon import Position
from gammon.errors import InvalidNotationError, InvalidPositionError

OPENING = Position.initial()
RACE = Position.from_points({6: 3, 5: 2}, {6: 4})


def test_line_round_trip() -> None:
    for d in (Decision(OPENING, (3, 1), True), Decision(RACE, (6, 6), False)):
        assert parse_line(d.line()) == d
    assert Decision(RACE, (2, 5), False).line() == f"{RACE.id}\t25\trace"


def test_bad_lines_are_refused_quoting_them() -> None:
    with pytest.raises(InvalidNotationError, match="junk"):
        parse_line("junk")
    with pytest.raises(InvalidNotationError, match="31"):
        parse_line(f"{OPENING.id}\t31\tbackgame")
    with pytest.raises(InvalidNotationError):
        parse_line(f"{OPENING.id}\t71\tcontact")
    with pytest.raises(InvalidPositionError, match="marked race"):
        parse_line(f"{OPENING.id}\t31\trace")


def test_read_skips_comments_and_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "set.tsv"
    path.write_text(f"# header\n\n{OPENING.id}\t42\tcontact\n{RACE.id}\t11\trace\n")
    assert read_judge_set(path) == [Decision(OPENING, (4, 2), True), Decision(RACE, (1, 1), False)]


def test_interleave_alternates_while_both_kinds_last() -> None:
    c = [Decision(OPENING, (i, 1), True) for i in range(1, 4)]
    r = [Decision(RACE, (i, 2), False) for i in range(1, 2)]
    assert interleave([*c, *r]) == [c[0], r[0], c[1], c[2]]


def test_sample_counts_kinds_and_drops_repeats() -> None:
    contact = [Decision(OPENING, (a, b), True) for a in range(1, 7) for b in range(1, 7)]  # 21 distinct
    race = [Decision(RACE, (a, 1), False) for a in range(1, 7)] * 3  # 6 distinct
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
