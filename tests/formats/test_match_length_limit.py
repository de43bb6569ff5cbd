"""A match file's length must fit a Match ID's 15 bits, or analysis fails later on a state it
cannot name: the readers refuse a longer match when they read it, quoting the header."""

from __future__ import annotations

import pytest

from gammon.errors import InvalidNotationError
from gammon.formats.mat import read_mat, to_match
from gammon.formats.matchid import match_id
from gammon.formats.sgf import format_sgf, read_sgf
from gammon.formats.xg import read_xg
from gammon.i18n import use_language
from gammon.rules import Rules
from tests.formats.xg_writer import xg_bytes

MAT = """\
; [Site "Nowhere"]

 {length} point match

 Game 1
 A : 0                          B : 0
  1)                             21: 13/11 24/23
  2) 52: 13/8 24/22              63: 8/5 11/5
  3) 53: 8/3 6/3                  Doubles => 2
  4)  Drops                       Wins 1 point
"""


def _sgf(length: int) -> str:
    return format_sgf(to_match(read_mat(MAT.format(length=5))), ("A", "B")).replace(
        "MI[length:5]", f"MI[length:{length}]")


def test_the_longest_match_a_match_id_holds_is_read_and_analysable() -> None:
    match = to_match(read_mat(MAT.format(length=32767)))
    assert match.rules.match_length == 32767
    assert match_id(match)  # the state analysis names each position by
    assert read_sgf(_sgf(32767)).match.rules.match_length == 32767


@pytest.mark.parametrize("length", [32768, 99999])
def test_a_longer_mat_match_is_refused_quoting_its_header(length: int) -> None:
    with pytest.raises(InvalidNotationError) as e:
        read_mat(MAT.format(length=length))
    assert f"line 3: '{length} point match'" in str(e.value)
    assert "longer than gammon can hold (at most 32767)" in str(e.value)
    with use_language("pl"), pytest.raises(InvalidNotationError) as e:
        read_mat(MAT.format(length=length))
    assert f"wiersz 3: '{length} point match': mecz do {length} punktów" in str(e.value)


@pytest.mark.parametrize("length", [32768, 999999])
def test_a_longer_sgf_match_is_refused_quoting_its_mi(length: int) -> None:
    with pytest.raises(InvalidNotationError) as e:
        read_sgf(_sgf(length))
    assert f"MI[length:{length}]: a match of {length} points is longer than gammon can hold" in str(e.value)
    with use_language("cs"), pytest.raises(InvalidNotationError) as e:
        read_sgf(_sgf(length))
    assert f"zápas na {length} bodů je delší" in str(e.value)


def _xg(length: int) -> bytes:
    return xg_bytes(to_match(read_mat(MAT.format(length=5)), Rules(match_length=length)))


def test_an_xg_match_is_refused_past_the_longest_a_match_id_holds() -> None:
    assert read_xg(_xg(32767)).match_length == 32767
    with pytest.raises(InvalidNotationError, match=r"a match of 40000 points is longer than gammon can hold "
                                                   r"\(at most 32767\)"):
        read_xg(_xg(40000))
    with use_language("sk"), pytest.raises(InvalidNotationError, match="zápas na 40000 bodov je dlhší"):
        read_xg(_xg(40000))
