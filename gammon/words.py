"""The words of the game, one table for every front end: :func:`describe` says what a recorded
action did ("Alice doubles to 4"), with the players' names; the terminal prints it, the web's log
and replays show it."""

from __future__ import annotations

import unicodedata

from gammon.game import (
    AcceptResignation,
    Action,
    Beaver,
    Double,
    Pass,
    PlayMade,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from gammon.rules import WinKind

WIN_WORDS = {WinKind.SINGLE: "a single game", WinKind.GAMMON: "a gammon", WinKind.BACKGAMMON: "a backgammon"}

# A verb's second-person form, for the player called "You" ("You roll", "pubeval rolls").
_YOU_FORMS = {"rolls": "roll", "plays": "play", "doubles": "double", "takes": "take", "passes": "pass",
              "beavers": "beaver", "offers": "offer", "accepts": "accept", "rejects": "reject",
              "wins": "win", "throws": "throw", "owns": "own", "leaves": "leave"}


def printable(text: str) -> str:
    """``text`` safe to show: each control or other invisible character (Unicode category C: the
    escape sequences that drive a terminal, line breaks, bidirectional overrides) replaced by
    U+FFFD. The match file readers pass the players' names through it, since a file may come from
    anyone and its names are printed in the terminal as they are."""
    if text.isprintable():
        return text
    return "".join("\ufffd" if unicodedata.category(c).startswith("C") else c for c in text)


def said(name: str, verb: str) -> str:
    """``name`` followed by ``verb`` in the third person, or the second person for "You"."""
    return f"{name} {_YOU_FORMS.get(verb, verb) if name == 'You' else verb}"


def format_dice(dice: tuple[int, int]) -> str:
    """Dice as players write them: the higher die first, "6-4"."""
    return f"{max(dice)}-{min(dice)}"


def points_text(points: int) -> str:
    return f"{points} point{'s' if points != 1 else ''}"


def describe(action: Action, names: tuple[str, str]) -> str:
    """What ``action`` did, as a sentence without its full stop: "Alice plays 6-4: 24/18 13/9"."""
    who = names[action.player]
    if isinstance(action, Roll):
        if not action.opening:
            return f"{said(who, 'rolls')} {format_dice(action.dice)}"
        ties = ""
        if action.ties:
            plural = "s" if len(action.ties) > 1 else ""
            ties = f" (after the tie{plural} {', '.join(map(format_dice, action.ties))})"
        return (f"{said(names[0], 'throws')} {action.dice[0]}, {said(names[1], 'throws')} "
                f"{action.dice[1]}{ties}: {said(who, 'plays')} first")
    if isinstance(action, PlayMade):
        if action.play is None:
            return f"{said(who, 'rolls')} {format_dice(action.dice)} and cannot move"
        return f"{said(who, 'plays')} {format_dice(action.dice)}: {action.play}"
    if isinstance(action, Double):
        return f"{said(who, 'doubles')} to {action.cube_value}"
    if isinstance(action, Take):
        return said(who, "takes")
    if isinstance(action, Pass):
        return said(who, "passes")
    if isinstance(action, Beaver):
        return f"{said(who, 'beavers')} to {action.cube_value}"
    if isinstance(action, Resign):
        return f"{said(who, 'offers')} to resign {WIN_WORDS[action.win_kind]}"
    if isinstance(action, AcceptResignation):
        return f"{said(who, 'accepts')} the resignation"
    if isinstance(action, RejectResignation):
        return f"{said(who, 'rejects')} the resignation"
    return f"{said(who, 'leaves')} the game"  # Abandon
