"""The words of the game, one table for every front end: :func:`describe` says what a recorded
action did ("Alice doubles to 4"), with the players' names, in the current language
(:mod:`gammon.i18n`); the terminal prints it, the web's log and replays show it."""

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
from gammon.i18n import N_, ntr, tr
from gammon.rules import WinKind

# What is won or offered, translated where it is said (tr(WIN_WORDS[kind])).
WIN_WORDS = {WinKind.SINGLE: N_("a single game"), WinKind.GAMMON: N_("a gammon"),
             WinKind.BACKGAMMON: N_("a backgammon")}

YOU = "You"
"""The name of the person who plays the computer (in files too); shown as :func:`shown_name` says."""

# A verb said of a player: its sentence for a name, and for the player called "You" ("You roll",
# "pubeval rolls"), each a whole sentence so that a language words it its own way.
_VERB_FORMS = {
    "rolls": (N_("{name} rolls"), N_("You roll")),
    "plays": (N_("{name} plays"), N_("You play")),
    "doubles": (N_("{name} doubles"), N_("You double")),
    "takes": (N_("{name} takes"), N_("You take")),
    "passes": (N_("{name} passes"), N_("You pass")),
    "beavers": (N_("{name} beavers"), N_("You beaver")),
    "offers": (N_("{name} offers"), N_("You offer")),
    "accepts": (N_("{name} accepts"), N_("You accept")),
    "rejects": (N_("{name} rejects"), N_("You reject")),
    "wins": (N_("{name} wins"), N_("You win")),
    "throws": (N_("{name} throws"), N_("You throw")),
    "owns": (N_("{name} owns"), N_("You own")),
    "leaves": (N_("{name} leaves"), N_("You leave")),
}


def printable(text: str) -> str:
    """``text`` safe to show: each control or other invisible character (Unicode category C: the
    escape sequences that drive a terminal, line breaks, bidirectional overrides) replaced by
    U+FFFD. The match file readers pass the players' names through it, since a file may come from
    anyone and its names are printed in the terminal as they are."""
    if text.isprintable():
        return text
    return "".join("\ufffd" if unicodedata.category(c).startswith("C") else c for c in text)


def shown_name(name: str) -> str:
    """A player's name as shown: "You" in the current language, any other name as it is."""
    return tr("You") if name == YOU else name


def say_of(name: str, third: str, second: str, **values: object) -> str:
    """The sentence ``third`` of the player ``name`` ("{name} doubles to {value}"), or ``second``
    ("You double to {value}") for the player called "You"; both marked with N_ where written."""
    if name == YOU:
        return tr(second, **values)
    return tr(third, name=name, **values)


def said(name: str, verb: str) -> str:
    """``name`` followed by ``verb`` in the third person, or the second person for "You"."""
    third, second = _VERB_FORMS.get(verb, ("{name} " + verb, "You " + verb))
    return say_of(name, third, second)


def format_dice(dice: tuple[int, int]) -> str:
    """Dice as players write them: the higher die first, "6-4"."""
    return f"{max(dice)}-{min(dice)}"


def points_text(points: int) -> str:
    return ntr("{n} point", "{n} points", points, n=points)


def _opening(action: Roll, names: tuple[str, str]) -> str:
    """The opening roll: each player's throw, the tied throws before it and who plays first."""
    ties = ""
    if action.ties:
        ties = " " + ntr("(after the tie {dice})", "(after the ties {dice})", len(action.ties),
                         dice=", ".join(map(format_dice, action.ties)))
    throws = [say_of(names[i], N_("{name} throws {number}"), N_("You throw {number}"), number=action.dice[i])
              for i in (0, 1)]
    first = say_of(names[action.player], N_("{name} plays first"), N_("You play first"))
    return f"{throws[0]}, {throws[1]}{ties}: {first}"


def describe(action: Action, names: tuple[str, str]) -> str:
    """What ``action`` did, as a sentence without its full stop: "Alice plays 6-4: 24/18 13/9"."""
    who = names[action.player]
    if isinstance(action, Roll):
        if not action.opening:
            return say_of(who, N_("{name} rolls {dice}"), N_("You roll {dice}"),
                          dice=format_dice(action.dice))
        return _opening(action, names)
    if isinstance(action, PlayMade):
        dice = format_dice(action.dice)
        if action.play is None:
            return say_of(who, N_("{name} rolls {dice} and cannot move"),
                          N_("You roll {dice} and cannot move"),
                          dice=dice)
        return say_of(who, N_("{name} plays {dice}: {play}"), N_("You play {dice}: {play}"), dice=dice,
                      play=action.play)
    if isinstance(action, Double):
        return say_of(who, N_("{name} doubles to {value}"), N_("You double to {value}"),
                      value=action.cube_value)
    if isinstance(action, Take):
        return said(who, "takes")
    if isinstance(action, Pass):
        return said(who, "passes")
    if isinstance(action, Beaver):
        return say_of(who, N_("{name} beavers to {value}"), N_("You beaver to {value}"),
                      value=action.cube_value)
    if isinstance(action, Resign):
        return say_of(who, N_("{name} offers to resign {what}"), N_("You offer to resign {what}"),
                      what=tr(WIN_WORDS[action.win_kind]))
    if isinstance(action, AcceptResignation):
        return say_of(who, N_("{name} accepts the resignation"), N_("You accept the resignation"))
    if isinstance(action, RejectResignation):
        return say_of(who, N_("{name} rejects the resignation"), N_("You reject the resignation"))
    return say_of(who, N_("{name} leaves the game"), N_("You leave the game"))  # Abandon
