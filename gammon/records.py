"""The one stored form of a match: its games' ``history`` actions, each with its game's number.

:class:`MatchAction` pairs an action of :mod:`gammon.game` (a :class:`~gammon.game.Roll` with its
dice, a :class:`~gammon.game.PlayMade`, a :class:`~gammon.game.Double`, ...) with the number of its
game within the match; :meth:`MatchAction.to_dict` / :meth:`MatchAction.from_dict` are its plain
JSON form (what the web's store keeps), and :func:`replay_match` / :func:`extend_match` rebuild a
:class:`~gammon.match.Match` from them through ``Match.new_game`` and ``Game.apply``, the path
``Game.replay`` and the match-file readers take. A stored roll carries its dice, so a replay needs
no dice but for what is rolled after it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from gammon.dice import Dice, DiceSource, check_dice
from gammon.errors import GammonError, IllegalActionError, InvalidNotationError, cut
from gammon.game import (
    Abandon,
    AcceptResignation,
    Action,
    ActionKind,
    Beaver,
    Double,
    Pass,
    PlayMade,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from gammon.match import Match
from gammon.position import Position
from gammon.rules import Rules, WinKind

# The actions that carry nothing but their player, by kind.
_PLAYER_ONLY: dict[str, type[Take | Pass | AcceptResignation | RejectResignation | Abandon]] = {
    c.kind.value: c for c in (Take, Pass, AcceptResignation, RejectResignation, Abandon)}
_PLAYER_ONLY["drop"] = Pass  # what a pass was stored as before "pass" became the term


@dataclass(frozen=True)
class MatchAction:
    """An action of a match's game number ``game`` (counted from 0)."""

    game: int
    action: Action

    def to_dict(self) -> dict[str, Any]:
        """The plain JSON form: ``{"game": 0, "kind": "roll", "player": 1, "dice": [6, 4]}``; a play
        also names the position it was made from (its ID) and its notation."""
        return {"game": self.game, **action_to_dict(self.action)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchAction:
        """Read :meth:`to_dict`'s form; :class:`InvalidNotationError` quotes what does not fit."""
        game = data.get("game") if isinstance(data, Mapping) else None
        if type(game) is not int or game < 0:
            raise InvalidNotationError(f"a stored action needs its game number (0 or more): {_quote(data)}")
        return cls(game, action_from_dict(data))


def action_to_dict(action: Action) -> dict[str, Any]:
    """One ``history`` action as a plain JSON dict (its kind, its player and what it carries)."""
    data: dict[str, Any] = {"kind": action.kind.value, "player": action.player}
    if isinstance(action, Roll):
        data["dice"] = list(action.dice)
        if action.opening:
            data["opening"] = True
            if action.ties:
                data["ties"] = [list(t) for t in action.ties]
    elif isinstance(action, PlayMade):
        data["dice"] = list(action.dice)
        if action.play is not None:  # a passed turn (no legal play) has neither
            data["position"] = action.play.position.id
            data["play"] = str(action.play)
    elif isinstance(action, Double | Beaver):
        data["cube_value"] = action.cube_value
    elif isinstance(action, Resign):
        data["win_kind"] = int(action.win_kind)
    return data


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """The action :func:`action_to_dict` wrote; :class:`InvalidNotationError` for anything else."""
    try:
        return _action_from_dict(data)
    except InvalidNotationError:
        raise
    except (GammonError, KeyError, TypeError, ValueError) as e:
        raise InvalidNotationError(f"not a stored action ({e}): {_quote(data)}") from None


def _action_from_dict(data: Mapping[str, Any]) -> Action:
    if not isinstance(data, Mapping):
        raise InvalidNotationError(f"a stored action is a JSON object: {_quote(data)}")
    kind, player = data.get("kind"), data.get("player")
    if type(player) is not int or player not in (0, 1):
        raise InvalidNotationError(f"a stored action needs its player, 0 or 1: {_quote(data)}")
    if kind == ActionKind.ROLL:
        ties = tuple(_dice(t) for t in data.get("ties", ()))
        return Roll(player, _dice(data["dice"]), opening=data.get("opening") is True, ties=ties)
    if kind == ActionKind.PLAY:
        dice = _dice(data["dice"])
        if data.get("play") is None:
            return PlayMade(player, dice, None)
        return PlayMade(player, dice, Position.from_id(data["position"]).parse_play(data["play"], dice))
    if kind in (ActionKind.DOUBLE, ActionKind.BEAVER):
        value = data["cube_value"]
        if type(value) is not int:
            raise InvalidNotationError(f"a stored {kind} needs its cube value: {_quote(data)}")
        return Double(player, value) if kind == ActionKind.DOUBLE else Beaver(player, value)
    if kind == ActionKind.RESIGN:
        value = data["win_kind"]
        if type(value) is not int:
            raise InvalidNotationError(f"a stored resignation needs its kind, 1, 2 or 3: {_quote(data)}")
        return Resign(player, WinKind(value))
    if isinstance(kind, str) and kind in _PLAYER_ONLY:
        return _PLAYER_ONLY[kind](player)
    raise InvalidNotationError(f"unknown kind of stored action {cut(repr(kind))}: {_quote(data)}")


def match_actions(match: Match) -> list[MatchAction]:
    """Every action of ``match``'s games, in order."""
    return [MatchAction(number, action) for number, game in enumerate(match.games) for action in game.history]


def replay_match(rules: Rules, actions: Iterable[MatchAction], dice: DiceSource | None = None) -> Match:
    """A match under ``rules`` rebuilt from its ``actions``; ``dice`` rolls what comes after them."""
    match = Match(rules, dice)
    extend_match(match, actions)
    return match


def extend_match(match: Match, actions: Iterable[MatchAction]) -> None:
    """Make ``actions``, which continue ``match``'s own: each roll with its recorded dice, an action
    of the next game after starting it. Raises :class:`IllegalActionError` (or a notation or
    legality error) if they do not replay to the same history."""
    for number, chunk in groupby(actions, key=lambda a: a.game):
        if number == len(match.games):
            match.new_game()
        elif number != len(match.games) - 1:
            raise IllegalActionError(f"an action of game {number} follows game {len(match.games) - 1}")
        game = match.game
        done = game.history
        made = [a.action for a in chunk]
        for action in made:
            if not (isinstance(action, PlayMade) and action.play is None):  # its roll passes the turn
                game.apply(action)
        if game.history != done + made:
            raise IllegalActionError(f"the actions of game {number} do not replay: {cut(repr(made))} gave "
                                     f"{cut(repr(game.history[len(done):]))}")


def _dice(value: Any) -> Dice:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise InvalidNotationError(f"dice are two numbers, got {_quote(value)}")
    return check_dice((value[0], value[1]))


def _quote(value: object) -> str:
    try:
        text = json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return cut(text)
