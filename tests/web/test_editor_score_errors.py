"""The position editor's scores refused in its own terms: the field as the user set it (you, the
opponent), not the XGID's order, and a number too high said to be too high, not no number."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from gammon import Position

BOARD = list(Position.initial().board)


def _error(client: TestClient, score: list[int], length: int = 0, lang: str = "en") -> str:
    r = client.post("/api/positions", json={"board": BOARD, "match_length": length, "score": score},
                    headers={"Accept-Language": lang})
    assert r.status_code == 422, r.text
    return str(r.json()["error"])


@pytest.mark.parametrize("score, length, words", [
    ([10**9, 0], 0, "your score 1000000000 is too high: a score goes up to 32767"),
    ([0, 10**9], 0, "the opponent's score 1000000000 is too high: a score goes up to 32767"),
    ([0, 10**9], 7, "the opponent's score 1000000000 is too high"),
    ([40000, 0], 0, "your score 40000 is too high"),
    ([-3, 0], 7, "your score -3 cannot be negative"),
    ([0, -3], 7, "the opponent's score -3 cannot be negative"),
])
def test_a_score_out_of_range_is_named_as_set(client: TestClient, score: list[int], length: int,
                                              words: str) -> None:
    error = _error(client, score, length)
    assert words in error
    assert "XGID" not in error and "(0, -3)" not in error and "(-3, 0)" not in error


def test_a_long_number_is_quoted_short(client: TestClient) -> None:
    error = _error(client, [0, -int("9" * 300)], 7)
    assert "the opponent's score -999" in error and "cannot be negative" in error and len(error) < 120


@pytest.mark.parametrize("lang, words", [
    ("pl", "wynik przeciwnika -3 nie może być ujemny"),
    ("cs", "skóre soupeře -3 nemůže být záporné"),
    ("sk", "skóre súpera -3 nemôže byť záporné"),
])
def test_in_the_pages_language(client: TestClient, lang: str, words: str) -> None:
    assert words in _error(client, [0, -3], 7, lang)


def test_the_highest_score_is_set_up(client: TestClient) -> None:
    r = client.post("/api/positions", json={"board": BOARD, "match_length": 0, "score": [32767, 5]})
    assert r.status_code == 200, r.text
    assert r.json()["score"] == [32767, 5]


@pytest.mark.parametrize("field", ["1000000000", "-100000"])
def test_a_typed_xgid_with_a_long_number_says_it_is_out_of_range(client: TestClient, field: str) -> None:
    xgid = f"XGID=-b----E-C---eE---c-e----B-:0:0:1:00:{field}:0:3:0:10"
    r = client.get("/api/positions", params={"id": xgid})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert f"field '{field}' is out of range (the fields go from -1 to 32767)" in error
    assert "not a number" not in error
    r = client.get("/api/positions", params={"id": xgid.replace(field, "1x")})
    assert "field '1x' is not a number" in r.json()["error"]
