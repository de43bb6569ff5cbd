"""Match ID: round trips, published examples, and agreement with GNU Backgammon's own encoder."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon import InvalidNotationError, Position
from gammon.formats.matchid import GameState, MatchState, format_gnubg_id, parse_gnubg_id

gnubg = pytest.importorskip("gnubg", reason="PyPI gnubg (test extra) is the Match ID oracle")


@st.composite
def match_states(draw: st.DrawFn, gnubg_compatible: bool = False) -> MatchState:
    length = draw(st.sampled_from([0, 1, 3, 5, 7, 11, 25, 64]))
    # gnubg.cubeinfo drops the score of a money session
    top = max(length - 1, 0) if length else 0 if gnubg_compatible else 200
    score = (draw(st.integers(0, top)), draw(st.integers(0, top)))
    owner = draw(st.sampled_from([None, 0, 1]))
    on_roll = draw(st.sampled_from([0, 1]))
    dice = draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    return MatchState(
        match_length=length, score=score, cube_value=1 << draw(st.integers(0, 15 if not
                                                                         gnubg_compatible else 12)),
        cube_owner=owner, player_on_roll=on_roll, turn=draw(st.sampled_from([0, 1])),
        crawford=bool(length) and draw(st.booleans()), game_state=draw(st.sampled_from(GameState)),
        double_offered=draw(st.booleans()), resignation=draw(st.sampled_from([None, 1, 2, 3])),
        dice=dice, jacoby=(length == 0) if gnubg_compatible else draw(st.booleans()))


def test_known_ids() -> None:
    # gnubg manual: money game, player 1 on roll, nothing rolled yet
    s = MatchState.from_id("cAkAAAAAAAAA")
    assert s == MatchState(player_on_roll=1, turn=1)
    s = MatchState.from_id("EYnlADAAEAAE")
    assert (s.match_length, s.score, s.cube_value, s.cube_owner) == (7, (3, 2), 2, 1)
    assert (s.player_on_roll, s.turn, s.dice, s.jacoby) == (0, 1, (3, 1), False)


@settings(max_examples=600, deadline=None)
@given(match_states(gnubg_compatible=True))
def test_id_agrees_with_gnubg(state: MatchState) -> None:
    cube = gnubg.cubeinfo(state.cube_value, -1 if state.cube_owner is None else state.cube_owner,
                          state.player_on_roll, state.match_length, state.score, int(state.crawford), 0)
    pos = gnubg.posinfo(state.turn, state.resignation or 0, int(state.double_offered),
                        int(state.game_state), state.dice or (0, 0))
    expected = gnubg.matchid(cube, pos)
    assert state.id == expected
    back = MatchState.from_id(expected)
    # gnubg stores the higher die first
    assert back == MatchState(**{**state.__dict__, "dice": tuple(sorted(state.dice, reverse=True))
                                 if state.dice else None})


@given(match_states())
def test_round_trip(state: MatchState) -> None:
    back = MatchState.from_id(state.id)
    assert back.id == state.id
    assert back.dice == (tuple(sorted(state.dice, reverse=True)) if state.dice else None)
    assert repr(back) == f"MatchState.from_id({state.id!r})"


def test_gnubg_id() -> None:
    p, s = parse_gnubg_id("4HPwATDgc/ABMA:cAkAAAAAAAAA")
    assert p == Position.initial() and s.player_on_roll == 1
    assert format_gnubg_id(p, s) == "4HPwATDgc/ABMA:cAkAAAAAAAAA"


def _key_id(key: int) -> str:
    import base64

    return base64.b64encode(key.to_bytes(9, "little")).decode()


@pytest.mark.parametrize("text", [
    "", "cAkAAAAAAAA", "cAkAAAAAAAAAA", "cAkAAAAAAA!A", "////////////", 12, None,
    _key_id(1 << 67),  # bits after the last field
    _key_id(2 << 4 | 1 << 8),  # cube owner 2
    _key_id(5 << 8),  # game state 5
    _key_id(7 << 15 | 3 << 18 | 1 << 8),  # die 7
    _key_id(3 << 15 | 1 << 8),  # one die only
    _key_id(1 << 7 | 1 << 8),  # Crawford in a money session
])
def test_bad_ids_quote_the_input(text: object) -> None:
    with pytest.raises(InvalidNotationError) as e:
        MatchState.from_id(text)  # type: ignore[arg-type]
    assert repr(text) in str(e.value)


@pytest.mark.parametrize("text", ["4HPwATDgc/ABMA", "4HPwATDgc/ABMA:cAkAAAAAAAAA:x", "x:cAkAAAAAAAAA"])
def test_bad_gnubg_ids(text: str) -> None:
    with pytest.raises(InvalidNotationError):
        parse_gnubg_id(text)


@pytest.mark.parametrize("kwargs", [
    {"cube_value": 3}, {"cube_owner": 2}, {"score": (1,)}, {"dice": (0, 3)}, {"turn": 2},
    {"resignation": 0}, {"crawford": True, "match_length": 0}, {"match_length": -1},
])
def test_invalid_states_rejected(kwargs: dict) -> None:
    with pytest.raises(ValueError, match="invalid MatchState"):
        MatchState(**kwargs)


@given(st.text(max_size=20))
def test_fuzz_from_id(text: str) -> None:
    try:
        MatchState.from_id(text)
    except InvalidNotationError:
        pass


@given(st.binary(min_size=9, max_size=9))
def test_fuzz_any_key(raw: bytes) -> None:
    import base64

    try:
        s = MatchState.from_id(base64.b64encode(raw).decode())
    except InvalidNotationError:
        return
    assert MatchState.from_id(s.id) == s
