"""The public API as a library user meets it: values, copies, errors and types."""

import copy
import pickle

from gammon import Game, GamePhase, Match, RandomDice, Rules


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
