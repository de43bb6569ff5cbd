"""The stored form of a match: its games' history actions, each with its game's number, as JSON."""

from __future__ import annotations

import json
import random

import pytest

from gammon import IllegalActionError, InvalidNotationError, RandomDice, Rules
from gammon.game import ActionKind, Game, GamePhase, PlayMade, Roll
from gammon.match import Match
from gammon.position import Position
from gammon.records import MatchAction, extend_match, match_actions, replay_match


def _random_match(seed: int, rules: Rules, games: int = 4) -> Match:
    """A match of random but legal actions of every kind: doubles, beavers, resignations, an
    abandoned game, opening ties and passed turns come up among them."""
    rng = random.Random(seed)
    match = Match(rules, RandomDice(seed))
    for number in range(games):
        if number:
            if match.is_over:
                break
            match.new_game()
        _random_game(match.game, rng)
    return match


def _random_game(game: Game, rng: random.Random) -> None:
    while not game.is_over:
        phase, turn = game.phase, game.turn
        if rng.random() < 0.002 and turn is not None:
            game.abandon(turn)
        elif phase is GamePhase.OPENING:
            game.roll()
        elif phase is GamePhase.ROLL:
            if game.can_double() and rng.random() < 0.1:
                game.double()
            elif rng.random() < 0.01:
                game.resign(rng.choice((1, 2, 3)))
            else:
                game.roll()
        elif phase is GamePhase.MOVE:
            game.play(rng.choice(game.legal_plays()))
        elif phase is GamePhase.DOUBLED:
            answers = [game.take, game.pass_]
            if ActionKind.BEAVER in game.legal_actions():
                answers.append(game.beaver)
            rng.choices(answers, weights=[6, 2, 2][:len(answers)])[0]()
        elif phase is GamePhase.RESIGNED:
            rng.choice((game.accept_resignation, game.reject_resignation))()


def _histories(match: Match) -> list[list]:
    return [g.history for g in match.games]


@pytest.mark.parametrize("rules", [Rules(match_length=0, beavers=True), Rules(match_length=7)])
def test_every_action_goes_through_json_and_replays_to_the_same_match(rules: Rules) -> None:
    kinds: set[str] = set()
    for seed in range(30):
        match = _random_match(seed, rules)
        actions = match_actions(match)
        stored = json.loads(json.dumps([a.to_dict() for a in actions]))
        kinds |= {d["kind"] for d in stored}
        read = [MatchAction.from_dict(d) for d in stored]
        assert read == actions
        again = replay_match(rules, read)
        assert _histories(again) == _histories(match)
        assert [g.result for g in again.games] == [g.result for g in match.games]
        assert again.score == match.score and again.game.phase is match.game.phase
    expected = {k.value for k in ActionKind} - {"undo"} - ({"beaver"} if not rules.beavers else set())
    assert kinds == expected  # the games above made every kind of action


def test_the_json_form_names_what_each_action_carries() -> None:
    play = Position.initial().parse_play("8/5 6/5", (3, 1))
    assert MatchAction(0, Roll(0, (3, 1), opening=True, ties=((2, 2),))).to_dict() == {
        "game": 0, "kind": "roll", "player": 0, "dice": [3, 1], "opening": True, "ties": [[2, 2]]}
    assert MatchAction(2, PlayMade(0, (3, 1), play)).to_dict() == {
        "game": 2, "kind": "play", "player": 0, "dice": [3, 1], "position": "4HPwATDgc/ABMA",
        "play": "8/5 6/5"}
    assert MatchAction(1, PlayMade(1, (6, 6), None)).to_dict() == {
        "game": 1, "kind": "play", "player": 1, "dice": [6, 6]}


@pytest.mark.parametrize("data, words", [
    ({"kind": "roll", "player": 0, "dice": [3, 1]}, "game number"),
    ({"game": 0, "kind": "roll", "player": 2, "dice": [3, 1]}, "player, 0 or 1"),
    ({"game": 0, "kind": "roll", "player": 0, "dice": [7, 1]}, "dice must be two numbers"),
    ({"game": 0, "kind": "fly", "player": 0}, "unknown kind of stored action 'fly'"),
    ({"game": 0, "kind": "double", "player": 0}, "not a stored action"),
    ({"game": 0, "kind": "play", "player": 0, "dice": [3, 1], "position": "4HPwATDgc/ABMA",
      "play": "8/1"}, "not a stored action"),
    ({"game": 0, "kind": "resign", "player": 0, "win_kind": "all"}, "resignation needs its kind"),
])
def test_a_bad_stored_action_is_refused_with_what_it_holds(data: dict, words: str) -> None:
    with pytest.raises(InvalidNotationError, match=words) as e:
        MatchAction.from_dict(data)
    assert json.dumps(data, sort_keys=True)[:60] in str(e.value)


def test_actions_that_do_not_continue_the_match_are_refused() -> None:
    match = _random_match(3, Rules(match_length=0), games=2)
    actions = match_actions(match)
    second = next(i for i, a in enumerate(actions) if a.game == 1)
    with pytest.raises(IllegalActionError, match="game 2 follows game 0"):
        replay_match(match.rules, [*actions[:second], *(MatchAction(2, a.action) for a in actions[second:])])
    i = next(i for i, a in enumerate(actions) if isinstance(a.action, PlayMade) and a.action.play is None)
    with pytest.raises(IllegalActionError, match="do not replay"):  # a passed turn made twice
        replay_match(match.rules, [*actions[:i + 1], actions[i], *actions[i + 1:]])
    with pytest.raises(IllegalActionError):  # an action left out
        replay_match(match.rules, actions[:3] + actions[4:])


def test_a_match_is_extended_by_the_actions_after_its_own() -> None:
    match = _random_match(5, Rules(match_length=0), games=3)
    actions = match_actions(match)
    for cut in (1, len(actions) // 2, len(actions) - 1):
        partial = replay_match(match.rules, actions[:cut])
        extend_match(partial, actions[cut:])
        assert _histories(partial) == _histories(match) and match_actions(partial) == actions


def test_a_pass_stored_as_drop_still_loads() -> None:
    from gammon.game import Pass
    from gammon.records import action_from_dict, action_to_dict

    assert action_to_dict(Pass(1)) == {"kind": "pass", "player": 1}
    assert action_from_dict({"kind": "drop", "player": 1}) == Pass(1)  # before "pass" was the term
    assert action_from_dict({"kind": "pass", "player": 1}) == Pass(1)
