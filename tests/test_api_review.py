"""The public API as a library user meets it: values, copies, errors and types."""

import ast
import copy
import pickle
import re
from collections.abc import Callable
from pathlib import Path

import mypy.api
import numpy as np
import pytest

import gammon
from gammon import (
    Game,
    GamePhase,
    GammonError,
    IllegalMoveError,
    InvalidNotationError,
    InvalidPositionError,
    Match,
    MatchScore,
    Position,
    RandomDice,
    Rules,
    ScriptedDice,
    Situation,
    WinKind,
)
from gammon.game import Action, PlayMade, Roll
from gammon.records import MatchAction
from gammon.rules import win_kind


def _play_on(game: Game, turns: int) -> list[object]:
    """Roll and make the first legal play ``turns`` times; the dice and plays seen."""
    seen: list[object] = []
    for _ in range(turns):
        if game.is_over:
            break
        seen.append(game.roll())
        if game.phase is GamePhase.MOVE:
            seen.append(game.play(game.legal_plays()[0]))
    return seen


def test_a_game_with_the_os_dice_pickles_and_copies() -> None:
    game = Game()
    _play_on(game, 1)
    for restored in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert restored.history == game.history
        assert restored.position == game.position
        _play_on(restored, 3)  # it rolls on, with fresh dice of its own
        assert len(restored.history) > len(game.history)


def test_a_match_with_the_os_dice_pickles() -> None:
    match = Match(Rules(match_length=5))
    match.game.roll()
    restored = pickle.loads(pickle.dumps(match))
    assert restored.game.history == match.game.history
    assert restored.score == match.score


def test_a_seeded_game_restored_rolls_on_identically() -> None:
    game = Game(dice=RandomDice(seed=7))
    _play_on(game, 2)
    restored = pickle.loads(pickle.dumps(game))
    assert _play_on(restored, 10) == _play_on(game, 10)
    assert restored.history == game.history


USER_SCRIPT = '''
from gammon import CubeDecision, Engine, Position, Probabilities, Situation

engine = Engine(plies=0)
p = Position.initial()
best = engine.best_play(p, (3, 1))
chances: Probabilities = engine.evaluate(p)
decision: CubeDecision = engine.cube_decision(p)
reveal_type(best)
reveal_type(p.as_array())
Situation.of(p).replace(cube_vlue=2)  # type: ignore[call-arg]
Situation.of(p).replace(cube_value="2")  # type: ignore[arg-type]
'''


@pytest.mark.slow
def test_the_public_names_of_gammon_are_typed_for_a_users_mypy(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "user.py"
    script.write_text(USER_SCRIPT)
    monkeypatch.setenv("MYPYPATH", str(Path(gammon.__file__).parent.parent))
    out, err, status = mypy.api.run(["--strict", "--follow-imports=silent", "--no-incremental",
                                     "--cache-dir", str(tmp_path / "cache"), str(script)])
    assert status == 0, out + err
    assert 'Revealed type is "gammon.play.Play | None"' in out
    board_type = out.splitlines()[1]
    assert "numpy.ndarray" in board_type and "8Bit" in board_type, board_type  # int8, as it is


def test_the_stub_of_gammon_names_what_the_module_exports() -> None:
    stub = ast.parse((Path(gammon.__file__).parent / "__init__.pyi").read_text())
    listed = next(node.value for node in stub.body if isinstance(node, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets))
    assert ast.literal_eval(listed) == gammon.__all__
    imported = {alias.name for node in stub.body if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert imported == set(gammon.__all__)
    for name in gammon.__all__:  # each is there at run time, the stub's type its own
        assert getattr(gammon, name) is not None


def test_a_positions_array_cannot_be_made_writeable_and_changed() -> None:
    position = Position.initial()
    array = position.as_array()
    assert array.dtype == np.int8 and tuple(array) == position.board
    with pytest.raises(ValueError):
        array.flags.writeable = True
    with pytest.raises(ValueError):
        array[1] = 5
    assert tuple(position.as_array()) == Position.initial().board


def test_a_plays_position_and_dice_cannot_be_changed() -> None:
    play = Position.initial().parse_play("8/5 6/5", (3, 1))
    key = hash(play)
    for name, value in (("position", Position.initial().flip()), ("dice", (6, 6))):
        with pytest.raises(AttributeError):
            setattr(play, name, value)
    assert hash(play) == key and play.dice == (3, 1) and play.position == Position.initial()


HUGE = "x" * 100_000


def _opened() -> Game:
    game = Game(dice=ScriptedDice([(3, 1)]))
    game.roll()
    return game


@pytest.mark.parametrize("make", [
    lambda: Game(HUGE),  # type: ignore[arg-type]
    lambda: Game(score=(HUGE, 0)),  # type: ignore[arg-type]
    lambda: Game(crawford_game=HUGE),  # type: ignore[arg-type]
    lambda: Match(HUGE),  # type: ignore[arg-type]
    lambda: Situation(HUGE),  # type: ignore[arg-type]
    lambda: Situation(Position.initial(), dice=HUGE),  # type: ignore[arg-type]
    lambda: Situation(Position.initial(), cube_value=HUGE),  # type: ignore[arg-type]
    lambda: Situation(Position.initial(), cube_owner=HUGE),  # type: ignore[arg-type]
    lambda: Situation(Position.initial(), resignation=HUGE),  # type: ignore[arg-type]
    lambda: Situation(Position.initial(), rules=HUGE),  # type: ignore[arg-type]
    lambda: Situation(Position.initial(), score=HUGE),  # type: ignore[arg-type]
    lambda: Situation.at(Position.initial(), match=HUGE),  # type: ignore[arg-type]
    lambda: MatchScore(HUGE, 1),  # type: ignore[arg-type]
    lambda: Game().position_for(HUGE),  # type: ignore[arg-type]
    lambda: Game().roll(player=HUGE),  # type: ignore[arg-type]
    lambda: _opened().resign(HUGE),  # type: ignore[arg-type]
    lambda: _opened().play([1] * 100_000),  # type: ignore[arg-type]
])
def test_a_huge_bad_argument_is_quoted_cut(make: Callable[[], object]) -> None:
    with pytest.raises(ValueError) as caught:
        make()
    message = str(caught.value)
    assert "xxxxxxxx" in message or "1, 1, 1" in message  # the input is quoted
    assert len(message) < 400


@pytest.mark.parametrize("board", [[1, 2, 3], 5, (1, 2), "ab", None, ((0,) * 25, (0,) * 24)])
def test_a_malformed_gnubg_board_is_an_invalid_position_quoting_it(board: object) -> None:
    with pytest.raises(InvalidPositionError, match="two rows of 25 counts, got"):
        Position.from_gnubg_board(board)  # type: ignore[arg-type]


@pytest.mark.parametrize("side", [[1, 2], "13", 5])
def test_a_side_that_is_no_map_is_an_invalid_position_quoting_it(side: object) -> None:
    with pytest.raises(InvalidPositionError, match=f"map of point to count, got {re.escape(repr(side))}"):
        Position.from_points({6: 5}, side)  # type: ignore[arg-type]


@pytest.mark.parametrize("roll", [5, None, "3"])
def test_a_script_roll_that_is_no_pair_is_refused_quoting_it(roll: object) -> None:
    with pytest.raises(IllegalMoveError, match=f"got {re.escape(repr(roll))}"):
        ScriptedDice([(3, 1), roll])  # type: ignore[list-item]


def test_a_copied_game_goes_on_without_touching_the_original() -> None:
    game = Game(dice=ScriptedDice([(3, 1), (6, 5), (2, 1)]))
    game.roll()
    twin = copy.copy(game)
    twin.play("8/5 6/5")
    assert len(game.history) == 1 and game.phase is GamePhase.MOVE
    game.play("24/21 6/5")  # the original plays its own choice and still replays
    assert Game.replay(game.history).history == game.history
    assert twin.history[1] != game.history[1]
    assert twin.roll() == (6, 5) and game.roll() == (2, 1)  # the dice source is shared


def test_a_copied_match_goes_on_without_touching_the_original() -> None:
    match = Match(Rules(match_length=3), ScriptedDice([(3, 1)] * 4))
    twin = copy.copy(match)
    twin.game.roll()
    assert match.game.phase is GamePhase.OPENING and match.game.history == []
    twin.game.resign(WinKind.SINGLE)
    twin.game.accept_resignation()
    twin.new_game()
    assert len(twin.games) == 2 and len(match.games) == 1 and match.score == (0, 0)


@pytest.mark.parametrize("make", [
    lambda: Game(score=(-1, 0)),
    lambda: Game(Rules(match_length=3), score=(3, 0)),
    lambda: Game(dice=5),  # type: ignore[arg-type]
    lambda: Match("money"),  # type: ignore[arg-type]
    lambda: Situation(Position.initial(), cube_value=3),
    lambda: Situation.of("4HPwATDgc/ABMA"),  # type: ignore[arg-type]
    lambda: Situation.at(Position.initial(), match=(3, 2)),  # type: ignore[arg-type]
    lambda: MatchScore(0, 3),
    lambda: win_kind(Position.initial()),
])
def test_every_error_gammon_raises_on_purpose_is_a_gammon_error(make: Callable[[], object]) -> None:
    with pytest.raises(GammonError) as caught:
        make()
    assert isinstance(caught.value, ValueError)  # as before: code that caught ValueError still does


def test_numpys_whole_numbers_are_dice() -> None:
    dice = (np.int64(3), np.int8(1))
    position = Position.initial()
    assert position.legal_plays(dice) == position.legal_plays((3, 1))  # type: ignore[arg-type]
    assert str(position.parse_play("8/5 6/5", dice)) == "8/5 6/5"  # type: ignore[arg-type]
    assert ScriptedDice([dice]).roll() == (3, 1)  # type: ignore[list-item]
    situation = Situation(position, dice=(np.int64(1), np.int64(3)))  # type: ignore[arg-type]
    assert situation.dice == (3, 1) and all(type(d) is int for d in situation.dice)
    assert situation == Situation(position, dice=(3, 1))
    with pytest.raises(IllegalMoveError, match="got"):
        position.legal_plays((np.float64(3.0), 1))  # type: ignore[arg-type]


def test_a_stored_action_of_a_huge_unknown_kind_is_quoted_cut() -> None:
    with pytest.raises(InvalidNotationError, match="unknown kind of stored action 'xxx") as caught:
        MatchAction.from_dict({"game": 0, "kind": HUGE, "player": 0})
    assert len(str(caught.value)) < 400


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_plays_and_games_pickle_at_every_protocol(protocol: int) -> None:
    game = Game(dice=RandomDice(seed=5))
    game.roll()
    play = game.legal_plays()[0]  # made by the move generator's kernel
    restored = pickle.loads(pickle.dumps(play, protocol=protocol))
    assert restored == play and hash(restored) == hash(play)
    assert (str(restored), restored.steps, restored.dice, restored.hits) == (str(play), play.steps, play.dice,
                                                                              play.hits)
    twin = pickle.loads(pickle.dumps(game, protocol=protocol))
    assert twin.play(play) == game.play(play) and twin.history == game.history


@pytest.mark.parametrize("action, quoted", [
    (Roll(0, (3, 1), opening=True, ties=5), "got 5"),  # type: ignore[arg-type]
    (Roll(0, (3, 1), opening=True, ties=(5,)), "got 5"),  # type: ignore[arg-type]
    (PlayMade(0, None, Position.initial().parse_play("8/5 6/5", (3, 1))), "got None"),  # type: ignore[arg-type]
    (PlayMade(0, 5, Position.initial().parse_play("8/5 6/5", (3, 1))), "got 5"),  # type: ignore[arg-type]
])
def test_a_malformed_recorded_action_is_refused_quoting_it(action: Action, quoted: str) -> None:
    game = Game(dice=ScriptedDice([(3, 1)]))
    if not isinstance(action, Roll):
        game.roll()
    before = game.history
    with pytest.raises(GammonError, match=quoted):
        game.apply(action)
    assert game.history == before


def test_from_points_takes_numpys_whole_numbers_and_refuses_true() -> None:
    start = {np.int64(24): np.int64(2), np.int8(13): 5, 8: np.int32(3), 6: 5}
    assert Position.from_points(start, start) == Position.initial()  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError, match="checker count True on point 6"):
        Position.from_points({6: True}, {6: 1})
    with pytest.raises(InvalidPositionError, match="point True is not 1-24"):
        Position.from_points({True: 1}, {6: 1})


def test_seeded_dice_pickled_in_the_earlier_form_still_load() -> None:
    # before RandomDice had __getstate__, a seeded one pickled its __dict__: its generator
    dice = RandomDice(seed=11)
    old = object.__new__(RandomDice)
    old.__setstate__({"_rng": copy.deepcopy(dice._rng)})
    assert [old.roll() for _ in range(5)] == [dice.roll() for _ in range(5)]
