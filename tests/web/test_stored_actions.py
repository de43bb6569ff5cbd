"""A live match stores exactly its games' ``history`` actions: what an undo takes back is gone from
the store too, a restart (a new Store, as after ``kill -9``) replays the same match, and another
server process catches up by making only the actions it has not seen."""

from __future__ import annotations

import random

import pytest

from gammon.dice import RandomDice
from gammon.game import Double, GamePhase, PlayMade, Resign, Take
from gammon.match import Match
from gammon.records import match_actions
from gammon.rules import Rules
from gammon.store import Store
from gammon.web.schemas import ActionRequest
from gammon.web.session import LiveMatch
from gammon.web.views import match_view


def _histories(match: Match) -> list[list]:
    return [g.history for g in match.games]


def _act(live: LiveMatch, request: str, **args: object) -> None:
    live.act(None if live.record.mode == "local" else 0, ActionRequest(action=request, **args))
    live.save()
    stored = live.store.load_log(live.id)
    assert stored.actions == match_actions(live.match) and stored.version == live.version


def _play(live: LiveMatch, index: int = 0) -> str:
    assert live.match.game.phase is GamePhase.MOVE
    text = live.play_texts()[index]
    _act(live, "play", play=text)
    return text


def _restarted(live: LiveMatch) -> LiveMatch:
    """The match as a new server process on the same database loads it."""
    again = LiveMatch.load(Store(live.store.url), live.id, RandomDice(99))
    assert _histories(again.match) == _histories(live.match)
    assert (again.version, again.summary()) == (live.version, live.summary())
    return again


def test_a_local_match_stores_its_games_history_through_undo_double_and_resignation(store: Store) -> None:
    live, _ = LiveMatch.create(store, "local", Rules(match_length=5), None, RandomDice(4))
    assert store.load_log(live.id).actions == match_actions(live.match) != []  # the opening roll
    first = _play(live)
    assert any(first in line for line in match_view(live, None).log)
    played = live.match.game.history[-1]
    version = live.version
    _act(live, "undo")
    assert live.version == version + 1 and played not in live.match.game.history
    log = store.load_log(live.id)
    assert played not in [a.action for a in log.actions] and log.retracted_at == live.version
    assert not any(first in line for line in match_view(live, None).log)  # nor in the game's log
    _play(live, -1)
    _act(live, "double")
    _act(live, "take")
    history = live.match.game.history  # the doubler cannot double again: it rolled at once
    assert [type(a) for a in history[-3:-1]] == [Double, Take] and history[-1].kind == "roll"
    for _ in range(4):
        if live.match.game.phase is GamePhase.ROLL:
            _act(live, "roll")
        if live.match.game.phase is GamePhase.MOVE:
            _play(live)
    _act(live, "resign", kind=2)
    _act(live, "accept_resignation")
    assert isinstance(live.match.games[0].history[-2], Resign) and live.match.games[0].is_over
    _act(live, "new_game")  # no action of its own: the next game's opening roll is game 1's
    assert store.load_log(live.id).actions[-1].game == 1
    _play(live)
    _restarted(live)


@pytest.mark.slow
def test_a_computer_match_stores_the_computers_actions_and_restarts_the_same(store: Store) -> None:
    rng = random.Random(5)
    live, _ = LiveMatch.create(store, "computer", Rules(match_length=0), "random", RandomDice(5))
    for _ in range(600):
        game = live.match.game
        if len(live.match.games) == 3:
            break
        if game.is_over:
            _act(live, "new_game")
        elif game.phase is GamePhase.MOVE:
            _play(live, rng.randrange(len(live.play_texts())))
        elif game.phase is GamePhase.ROLL:
            _act(live, "double" if game.can_double() and rng.random() < 0.05 else "roll")
        elif game.phase is GamePhase.DOUBLED:
            _act(live, "take")
        elif game.phase is GamePhase.RESIGNED:
            _act(live, "accept_resignation")
        if rng.random() < 0.05:
            live = _restarted(live)  # the server went down and came back: play on from the store
    computer = [a for g in live.match.games for a in g.history if isinstance(a, PlayMade) and a.player == 1]
    assert computer and len(live.match.games) == 3
    _restarted(live)


def test_another_process_makes_only_the_new_actions_and_reloads_after_an_undo(store: Store) -> None:
    here, _ = LiveMatch.create(store, "local", Rules(match_length=3), None, RandomDice(8))
    there = LiveMatch.load(Store(store.url), here.id)

    def caught_up(reloaded: bool) -> None:
        match = there.match
        there.catch_up()
        assert (there.match is not match) == reloaded
        assert _histories(there.match) == _histories(here.match) and there.version == here.version

    _play(here)
    caught_up(reloaded=False)
    _act(here, "undo")
    caught_up(reloaded=True)
    _play(here)
    _act(here, "roll")
    caught_up(reloaded=False)
    caught_up(reloaded=False)  # nothing new: nothing happens
    _act(here, "resign", kind=1)
    _act(here, "accept_resignation")
    _act(here, "new_game")
    _play(here)
    caught_up(reloaded=False)  # into the next game
    assert len(there.match.games) == 2
