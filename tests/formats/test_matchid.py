"""Match ID: round trips, published examples, and agreement with GNU Backgammon's own encoder."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.gnubg_harness import run_gnubg
from gammon import InvalidNotationError, Position, ScriptedDice
from gammon.cli.main import main
from gammon.formats.matchid import (
    GameState,
    MatchState,
    format_gnubg_id,
    gnubg_id,
    match_id,
    match_state,
    new_game,
    parse_gnubg_id,
)
from gammon.game import Game, GamePhase, PlayMade
from gammon.match import Match
from gammon.rules import Rules
from tests.helpers import needs_gnubg


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
    gnubg = pytest.importorskip("gnubg", reason="PyPI gnubg (test extra) is the Match ID oracle")
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
    "cAkAAAAAAAA=", "cAkAAAAAAA==",  # padded: 12 characters, but 8 or 7 bytes, not 9
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


# --- the Match State of a Game -----------------------------------------------------------------


def _game(rolls: list[tuple[int, int]], length: int = 7, score: tuple[int, int] = (2, 3)) -> Game:
    return Game(Rules(match_length=length), ScriptedDice(rolls), score=score)


def test_state_through_a_game() -> None:
    g = _game([(5, 2), (3, 1), (6, 4)])
    s = match_state(g)
    assert (s.game_state, s.player_on_roll, s.dice, s.score, s.match_length) == (GameState.NONE, 0, None,
                                                                               (2, 3), 7)
    g.roll()  # player 0 opens with 52
    s = match_state(g)
    assert (s.game_state, s.player_on_roll, s.turn, s.dice) == (GameState.PLAYING, 0, 0, (5, 2))
    assert gnubg_id(g) == f"4HPwATDgc/ABMA:{s.id}"
    g.play("13/8 13/11")
    s = match_state(g)
    assert (s.player_on_roll, s.turn, s.dice) == (1, 1, None)
    assert gnubg_id(g).split(":")[0] == g.position_for(1).id
    g.double()
    s = match_state(g)
    assert (s.player_on_roll, s.turn, s.double_offered, s.cube_value) == (1, 0, True, 1)
    g.take()
    s = match_state(g)
    assert (s.player_on_roll, s.turn, s.double_offered, s.cube_value, s.cube_owner) == (1, 1, False, 2, 0)
    g.roll()
    g.resign(2)
    s = match_state(g)  # the roll is kept, as GNU Backgammon keeps it (test_resignation_sides)
    assert (s.player_on_roll, s.turn, s.resignation, s.dice) == (1, 0, 2, g.dice)
    g.accept_resignation()
    s = match_state(g)
    assert (s.game_state, s.score, s.player_on_roll) == (GameState.RESIGNED, (6, 3), 0)
    assert match_id(g) == s.id


def test_state_of_a_match_and_drop() -> None:
    m = Match(Rules(match_length=3), ScriptedDice([(6, 1)]))
    m.game.roll()
    m.game.play("13/7 8/7")
    m.game.double()  # player 1, on roll after the opening play, doubles; player 0 drops
    m.game.pass_()
    s = match_state(m)
    assert (s.game_state, s.score, s.cube_value, s.player_on_roll) == (GameState.DROPPED, (0, 1), 1, 1)


def test_money_state_and_new_game() -> None:
    g = Game(Rules(), ScriptedDice([(2, 1)]))
    s = match_state(g)
    assert (s.match_length, s.jacoby) == (0, True)
    fresh = new_game(MatchState(match_length=5, score=(4, 2), crawford=True, game_state=GameState.NONE))
    assert (fresh.score, fresh.crawford_game, fresh.rules.match_length) == ((4, 2), True, 5)
    with pytest.raises(ValueError, match="not yet started"):
        new_game(s.__class__(game_state=GameState.PLAYING))


@pytest.mark.slow
@needs_gnubg
def test_game_states_are_what_gnubg_reads() -> None:
    """GNU Backgammon's ``set gnubgid`` corrects a Match ID that does not fit its rules (a cube
    in the Crawford game, a double it cannot show ...): our states must come back unchanged."""
    from tests.formats.random_play import play_match

    ids = []
    match = play_match(3, Rules(match_length=7), double=0.1, resign=0.0)
    for game in match.games:
        history = game.history
        for k in range(len(history)):
            if isinstance(history[k], PlayMade) and history[k].play is None:
                continue  # a pass is made by the roll before it
            state = Game.replay(history[:k], game.rules, game.score, game.crawford_game)
            if state.phase in (GamePhase.ROLL, GamePhase.MOVE):
                ids.append(gnubg_id(state))
    script = f"for x in {ids!r}:\n    gnubg.command('set gnubgid ' + x)\n    emit(gnubg.gnubgid())\n"
    got = run_gnubg(script)
    assert len(ids) > 100
    assert got == ids


@needs_gnubg
def test_a_padded_match_id_is_refused_by_gnubg_too() -> None:
    """GNU Backgammon's ``set gnubgid`` leaves the match as it was for a Match ID padded with '='."""
    script = ("gnubg.command('set player 0 human')\ngnubg.command('new match 7')\nbefore = gnubg.gnubgid()\n"
              "gnubg.command('set gnubgid 4HPwATDgc/ABMA:cAkAAAAAAAA=')\nemit([before, gnubg.gnubgid()])\n")
    [[before, after]] = run_gnubg(script)
    assert after == before  # a 7-point match still: not the money game the ID would say


MATCH_OF_40000 = """ 40000 point match

 Game 1
 Alice : 0                            Bob : 0
  1) 31: 8/5 6/5                      42: 8/4 6/4
"""


@pytest.mark.parametrize("lang, words", [
    ("pl", "mecz do 40000 punktów jest dłuższy, niż gammon potrafi obsłużyć (najwyżej 32767)"),
    ("cs", "zápas na 40000 bodů je delší, než gammon zvládne (nejvýše 32767)"),
    ("sk", "zápas na 40000 bodov je dlhší, než gammon zvládne (najviac 32767)")])
def test_a_match_too_long_for_a_match_id_is_refused_in_the_users_language(lang, words, tmp_path, capsys):
    """A .mat file of a 40000-point match: its analysis needs Match IDs, which hold 15 bits, so the
    reader refuses it (gammon analyse --lang pl once said 'match length 40000 is not 0-32767' in
    English, after the file had been read)."""
    path = tmp_path / "long.mat"
    path.write_text(MATCH_OF_40000, encoding="utf-8")
    assert main(["--lang", lang, "analyse", "--plies", "0", str(path)]) != 0
    assert words in capsys.readouterr().err
