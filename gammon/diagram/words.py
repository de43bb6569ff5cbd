"""What a diagram writes beside the board, in GNU Backgammon's words (its ``show board``)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from gammon.formats.ids import describe_situation, situation_json
from gammon.rules import WinKind
from gammon.situation import CubeOwner, Situation


@dataclass(frozen=True)
class Words:
    position_id: str
    match_id: str
    xgid: str | None  # None: a resignation on offer, which no XGID holds
    mover: str  # "X: you", with " (Cube: 2)" when it owns the cube
    opponent: str
    mover_score: str  # "3 points"
    opponent_score: str
    match: str  # "7 points match (Cube: 1)"; the cube only while centred
    dice: str  # "Rolled 52", "On roll", or "" while a double waits for its answer; ", resigns gammon"
    offer_for_opponent: str  # "Cube offered at 4" while the opponent must answer a double; its resignation
    description: str  # describe_situation's sentence
    pips: tuple[int, int]


_RESIGNED = {WinKind.SINGLE: "single game", WinKind.GAMMON: "gammon", WinKind.BACKGAMMON: "backgammon"}


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _drawable(name: str) -> str:
    """``name`` with U+FFFD for each character no diagram can hold: control characters (XML has no
    place for most, and a newline would split the text board's line), lone surrogates (no UTF-8)
    and XML's non-characters U+FFFE and U+FFFF."""
    return "".join(
        "\ufffd" if unicodedata.category(c) in ("Cc", "Cs") or c in "\ufffe\uffff" else c for c in name
    )


def words(
    situation: Situation, names: tuple[str, str] = ("you", "opponent"), player_on_roll: int = 0
) -> Words:
    """``player_on_roll``: the number the GNU Backgammon ID gives the player on roll."""
    s = situation
    names = (_drawable(names[0]), _drawable(names[1]))
    ids = situation_json(s, player_on_roll)
    position_id, match_id = ids["gnubg_id"].split(":")
    cube = f" (Cube: {s.cube_value})"
    owner = s.cube_owner
    mover = f"X: {names[0]}" + (cube if owner is CubeOwner.MOVER else "")
    opponent = f"O: {names[1]}" + (cube if owner is CubeOwner.OPPONENT else "")
    centred = cube.strip() if owner is CubeOwner.CENTRED else ""
    if s.match_length:
        match = f"{_points(s.match_length)} match"
        if s.match is not None and s.match.crawford_game and s.match_length > 1:  # as GNU Backgammon:
            match += " (Crawford game)"  # a 1-point match has none
        elif centred and s.match_length > 1:  # the cube of a 1-point match is dead: not shown
            match += " " + centred
    else:
        match = centred
    if s.double_offered:
        dice = ""
    elif s.dice:
        dice = f"Rolled {s.dice[0]}{s.dice[1]}"
    elif s.position.is_game_over():  # one side borne off: nobody is on roll (GNU Backgammon's board)
        dice = ""
    else:
        dice = "On roll"
    offer = f"Cube offered at {2 * s.cube_value}" if s.double_offered else ""
    if s.resignation is not None:
        said = "resigns " + _RESIGNED[s.resignation]
        if s.opponent_resigns:  # the opponent offers, the player on roll answers: said on its side
            offer = f"{offer}, {said}" if offer else said.capitalize()
        else:  # as GNU Backgammon adds it to the dice
            dice += ", " + said
    return Words(
        position_id,
        match_id,
        ids["xgid"],
        mover,
        opponent,
        _points(s.score[0]),
        _points(s.score[1]),
        match,
        dice,
        offer,
        describe_situation(s),
        s.position.pip_counts,
    )
