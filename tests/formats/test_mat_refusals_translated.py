"""The game's refusals of a match file's actions (a cube value that does not follow, an opening
double) come in the reader's language, like the reader's own errors."""

from __future__ import annotations

import pytest

from gammon.errors import InvalidNotationError
from gammon.formats.mat import read_mat, to_match
from gammon.i18n import use_language

MATCH = """\
 5 point match

 Game 1
 A : 0                          B : 0
  1)                             21: 13/11 24/23
  2) 52: 13/8 24/22              63: 8/5 11/5
  3) 53: 8/3 6/3                  Doubles => 2
  4)  Drops                       Wins 1 point
"""

MONEY = """\
 0 point match

 Game 1
 A : 0                          B : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Beavers => 4               52: 13/8 24/22
                                 Wins 4 points
"""


def _error(text: str, lang: str) -> str:
    with use_language(lang):
        record = read_mat(text)
        if record.errors:
            return str(record.errors[0])
        with pytest.raises(InvalidNotationError) as e:
            to_match(record)
        return str(e.value)


@pytest.mark.parametrize("lang, words", [
    ("en", "doubles to 65536 with the cube at 1, which makes 2"),
    ("pl", "podwojenie do 65536 przy kostce dublującej na 1, co daje 2"),
    ("cs", "zdvojení na 65536 při zdvojovací kostce na 1, což dává 2"),
    ("sk", "zdvojenie na 65536 pri zdvojovacej kocke na 1, čo dáva 2"),
])
def test_a_double_to_a_wrong_value(lang: str, words: str) -> None:
    error = _error(MATCH.replace("Doubles => 2", "Doubles => 65536"), lang)
    assert words in error and "Doubles => 65536" in error


@pytest.mark.parametrize("lang, words", [
    ("en", "beavers to 64 with the cube at 1, which makes 4"),
    ("pl", "beaver do 64 przy kostce dublującej na 1, co daje 4"),
    ("cs", "beaver na 64 při zdvojovací kostce na 1, což dává 4"),
    ("sk", "beaver na 64 pri zdvojovacej kocke na 1, čo dáva 4"),
])
def test_a_beaver_to_a_wrong_value(lang: str, words: str) -> None:
    assert words in _error(MONEY.replace("Beavers => 4", "Beavers => 64"), lang)


@pytest.mark.parametrize("lang, words", [
    ("en", "the opening roll 3-3 cannot be a double"),
    ("pl", "rzut otwierający 3-3 nie może być dubletem"),
    ("cs", "úvodní hod 3-3 nemůže mít dvě stejná čísla"),
    ("sk", "úvodný hod 3-3 nemôže mať dve rovnaké čísla"),
])
def test_an_opening_double(lang: str, words: str) -> None:
    text = MATCH.replace("  1)                             21: 13/11 24/23",
                         "  1)                             33: 13/10 13/10 24/21 24/21")
    assert words in _error(text, lang)
