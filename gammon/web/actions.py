"""The actions a client may ask for: a validated :class:`~gammon.web.schemas.ActionRequest` made
into the core's request (:class:`gammon.game.Request`, or :class:`gammon.match.NewGame`) and
submitted through :meth:`gammon.match.Match.apply`, which checks it and says why it is refused.

What is stored is not the request but the actions it made in the games' ``history``
(:mod:`gammon.records`); :mod:`gammon.web.old_log` replays requests stored in the old format.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from pydantic import ValidationError

from gammon.accounts.games import stored_rules
from gammon.errors import IllegalActionError, cut
from gammon.game import ActionKind, Request
from gammon.i18n import tr
from gammon.match import Match, NewGame
from gammon.rules import Rules, WinKind
from gammon.web.schemas import ActionRequest

NEW_GAME = "new_game"  # the match's next game: the one request that is not a game's action
ACTIONS = (*(k.value for k in ActionKind), NEW_GAME)


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    return asdict(rules)


NAMES_KEY = "names"  # the stored rules dict also holds the players' names, when given


def rules_from_dict(data: dict[str, Any]) -> Rules:
    return stored_rules(data)  # without the names and the rated flag stored beside the rules


def core_request(req: ActionRequest, player: int | None) -> Request | NewGame:
    """The core's request for ``req``, made by ``player`` (None: whoever must act). A claim is
    not one: the server makes it the absent player's abandon."""
    if req.action == NEW_GAME:
        return NewGame()
    if req.action not in ACTIONS:
        raise IllegalActionError(tr("unknown action {action}; expected one of {actions}",
                                    action=cut(repr(req.action)), actions=", ".join(ACTIONS)))
    kind = ActionKind(req.action)
    if kind is ActionKind.PLAY:
        if req.play is None:
            raise IllegalActionError(tr("a play needs its notation as text, got None"))
        return Request(kind, player, play=req.play)
    if kind is ActionKind.RESIGN:
        if req.kind is None:
            raise IllegalActionError(
                tr("resign needs kind 1 (single), 2 (gammon) or 3 (backgammon), got None")
            )
        return Request(kind, player, win_kind=WinKind(req.kind))
    return Request(kind, player)


def submit(match: Match, req: ActionRequest, player: int | None) -> None:
    """Make ``req`` for ``player``. Raises IllegalActionError (its ``refused`` says why) /
    IllegalMoveError / InvalidNotationError with the match unchanged."""
    match.apply(core_request(req, player))


def stored_request(kind: str, args: dict[str, Any]) -> ActionRequest:
    """A request as the old log stored it (its kind and arguments), validated as the wire's; a
    pass was stored as "drop"."""
    try:
        return ActionRequest.model_validate({"action": "pass" if kind == "drop" else kind, **args})
    except ValidationError as e:
        raise IllegalActionError(f"the stored request {cut(repr(kind))} {cut(repr(args))} cannot be "
                                 f"read: {cut(str(e), 200)}") from None
