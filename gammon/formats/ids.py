"""A Situation as an ID gives it, whichever of the three forms: a Position ID (a money game, cube 1
centred, Jacoby rule), a GNU Backgammon ID (``PositionID:MatchID``) or an XGID; the last two also
give the match score, the cube, the Crawford state and the dice. Read by ``gammon hint``/``eval``/
``rollout`` and by the browser's position editor, which also gets a Situation as JSON with its IDs
in the three forms, and sets positions up by hand (:class:`SetUp`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gammon.dice import Dice
from gammon.errors import GammonError, InvalidArgumentError, InvalidNotationError, cut
from gammon.formats.matchid import (
    MAX_SCORE,
    GameState,
    MatchState,
    format_gnubg_id,
    parse_gnubg_id,
)
from gammon.formats.xgid import (
    NO_CUBE_LIMIT,
    XGID,
    crawford_cube_problem,
    highest_cube_written,
    max_cube_of,
    parse_xgid,
)
from gammon.i18n import tr
from gammon.position import Position
from gammon.situation import CubeOwner, Situation, crawford_counts

OWNERS = {CubeOwner.CENTRED: "centred", CubeOwner.MOVER: "you", CubeOwner.OPPONENT: "opponent"}


def describe_situation(situation: Situation) -> str:
    """``7-point match at 5-3 (you 2-away, opponent 4-away), cube 2 owned by you, Crawford game``:
    a Situation in the words of its player on roll ("you")."""
    # in the current language (gammon.i18n); the web's pages read the English parts back
    owner = {
        CubeOwner.CENTRED: tr("centred"),
        CubeOwner.MOVER: tr("owned by you"),
        CubeOwner.OPPONENT: tr("owned by the opponent"),
    }[situation.cube_owner]
    cube = tr("cube {value} {owner}", value=situation.cube_value, owner=owner)
    m = situation.match
    if m is None:
        parts = [tr("money game"), cube, tr("Jacoby rule") if situation.jacoby else tr("no Jacoby rule")]
        if situation.beavers:
            parts.append(tr("beavers"))
    else:
        score = situation.score
        parts = [
            tr("{length}-point match at {score} (you {away}-away, opponent {opponent_away}-away)",
               length=situation.match_length, score=f"{score[0]}-{score[1]}", away=m.away,
               opponent_away=m.opponent_away),
            cube,
        ]
        if crawford_shown(situation):
            parts.append(tr("Crawford game"))
        elif not m.crawford_rule:  # no Crawford game was played: a side 1-away is not "post-Crawford"
            if situation.match_length > 1:
                parts.append(tr("no Crawford rule"))
        elif m.post_crawford:
            parts.append(tr("post-Crawford"))
    if situation.double_offered:
        parts.append(tr("you have doubled to {value}", value=2 * situation.cube_value))
    return ", ".join(parts)


def crawford_shown(situation: Situation) -> bool:
    """The Crawford game as a description or an ID says it: as GNU Backgammon, never in a 1-point
    match, where the rule has no meaning (a GNU Backgammon ID may still carry the flag)."""
    m = situation.match
    return m is not None and m.crawford_game and situation.match_length > 1


def read_id(text: str) -> Situation:
    """Read a Position ID (a money game, cube 1 centred, Jacoby rule), a GNU Backgammon ID or an
    XGID (with or without ``XGID=``) into a Situation."""
    if not isinstance(text, str):
        raise InvalidNotationError(tr("an ID must be a string, not {text}", text=cut(repr(text))))
    body = text.strip()
    if body[:5].upper() == "XGID=" or body.count(":") >= 8:
        xgid = parse_xgid(body)
        try:
            _check_in_play(xgid.position, xgid.to_match_state(), body)
            return xgid.situation
        except InvalidNotationError:
            raise
        except ValueError as e:  # fields read but out of the match state's range (a score of 40000)
            raise InvalidNotationError(tr("XGID {text}: {problem}", text=_quote(body), problem=e)) from None
    if ":" in body or len(body.split()) > 1:  # gnubg's two IDs, joined by a colon or spaces
        position, state = parse_gnubg_id(body)
        _check_in_play(position, state, body)
        _check_double(state, body)
        _check_crawford_cube(state, body)
        try:
            return state.to_situation(position)
        except ValueError as e:  # fields each in range that make no state together (dice and a double)
            raise InvalidNotationError(
                tr("GNU Backgammon ID {text}: {problem}", text=_quote(body), problem=e)) from None
    return Situation(Position.from_id(body))


def gnubg_player_on_roll(text: str) -> int:
    """The number GNU Backgammon gives the player on roll of an ID that :func:`read_id` reads: a
    GNU Backgammon ID's own, an XGID's as gnubg's ``set xgid`` numbers it (the bottom player 1, the
    top one 0), 0 for a Position ID. An ID written back for the situation with it reads in gnubg
    as the ID typed, with the same player on roll."""
    body = text.strip()
    if body[:5].upper() == "XGID=" or body.count(":") >= 8:
        return parse_xgid(body).player_on_roll
    if ":" in body or len(body.split()) > 1:
        return parse_gnubg_id(body)[1].player_on_roll
    return 0


def _quote(text: str) -> str:
    return repr(cut(text))


def _check_in_play(position: Position, state: MatchState, text: str) -> None:
    if state.game_state not in (GameState.NONE, GameState.PLAYING):
        raise InvalidNotationError(tr("the game in {text} is over: there is nothing to analyse",
                                      text=_quote(text)))
    me = state.player_on_roll
    score = (state.score[me], state.score[1 - me])
    length = state.match_length
    if length and max(score) >= length:
        raise InvalidNotationError(
            tr("{text}: the score {mine}-{theirs} has already won the {length}-point match",
               text=_quote(text),
               mine=score[0], theirs=score[1], length=length)
        )


def _check_double(state: MatchState, text: str) -> None:
    """A double on offer that no game has: said here in the user's language (Situation says it too,
    in English)."""
    if not state.double_offered:
        return
    quoted = _quote(text)
    if state.dice:
        raise InvalidNotationError(tr("GNU Backgammon ID {text}: the dice are rolled with a double on offer, "
                                      "but a double comes before the roll", text=quoted))
    if state.resignation and state.turn != state.player_on_roll:  # the taker's resignation is answered
        raise InvalidNotationError(
            tr("GNU Backgammon ID {text}: a double and a resignation are both on offer", text=quoted))
    if state.cube_owner is not None and state.cube_owner != state.player_on_roll:
        raise InvalidNotationError(
            tr("GNU Backgammon ID {text}: a double is offered, but the opponent owns the cube", text=quoted))


def _check_crawford_cube(state: MatchState, text: str) -> None:
    """The cube of a Crawford game turned, owned or offered: refused as in an XGID, in the user's
    language (the Situation would refuse it in English)."""
    if not crawford_counts(state.crawford, state.match_length, state.score):
        return
    problem = crawford_cube_problem(state.cube_value, state.cube_owner is not None, state.double_offered)
    if problem:
        raise InvalidNotationError(
            tr("GNU Backgammon ID {text}: {problem}", text=_quote(text), problem=problem))


def board_json(position: Position) -> dict[str, Any]:
    """A board as the browser draws it: the 26 slots from the player on roll's view, and the
    checkers off (player on roll, opponent)."""
    return {"board": list(position.board), "off": list(position.off)}


@dataclass(frozen=True)
class SetUp:
    """A position set up in the editor: ``board`` from the view of the player on roll ("you", drawn
    at the bottom), ``score`` (you, the opponent), ``cube_owner`` "centred", "you" or "opponent";
    ``double_offered``: you have doubled."""

    board: Sequence[int]
    dice: Dice | None
    cube_value: int
    cube_owner: str
    match_length: int
    score: tuple[int, int]
    crawford: bool
    jacoby: bool
    beavers: bool
    double_offered: bool = False
    max_cube: int = NO_CUBE_LIMIT

    def xgid(self) -> str:
        """Its XGID. Raises ValueError (or InvalidPositionError) saying what is wrong."""
        _check_score(self.score)
        owner = {"centred": None, "you": 1, "opponent": 0}[self.cube_owner]  # XGID: you are player 1
        money = self.match_length == 0
        offered = self.double_offered
        xgid = XGID(
            position=Position(self.board),
            player_on_roll=1,
            cube_value=self.cube_value,
            cube_owner=owner,
            dice=None if offered else self.dice,
            cube_action="double" if offered else None,
            score=(self.score[1], self.score[0]),
            match_length=self.match_length,
            crawford=self.crawford and not money,
            jacoby=self.jacoby and money,
            beavers=self.beavers and money,
            max_cube=highest_cube_written(self.max_cube, self.cube_value * (2 if offered else 1)),
        )
        return str(xgid)


def _check_score(score: tuple[int, int]) -> None:
    """Each score in the editor's terms: the XGID's own errors name its fields in its order (the
    opponent's score first) and read a score past its five digits as no number."""
    yours, theirs = (cut(str(n), 20) for n in score)  # a pasted number of any length is quoted short
    if score[0] < 0:
        raise ValueError(tr("your score {value} cannot be negative", value=yours))
    if score[1] < 0:
        raise ValueError(tr("the opponent's score {value} cannot be negative", value=theirs))
    if score[0] > MAX_SCORE:
        raise ValueError(tr("your score {value} is too high: a score goes up to {most}", value=yours,
                            most=MAX_SCORE))
    if score[1] > MAX_SCORE:
        raise ValueError(tr("the opponent's score {value} is too high: a score goes up to {most}",
                            value=theirs, most=MAX_SCORE))


def situation_json(situation: Situation, player_on_roll: int = 0) -> dict[str, Any]:
    """What the editor shows of a position read from an ID, with its IDs in the three forms, the
    GNU Backgammon ID's player on roll numbered ``player_on_roll`` (``xgid`` None while a resignation
    is on offer, which no XGID holds); InvalidArgumentError for one no ID can hold (a cube past
    32768, a match past 32767 points)."""
    try:
        return _situation_json(situation, player_on_roll)
    except GammonError:
        raise
    except ValueError as e:  # the Match ID's range: a Situation (a Game) is not bound by it
        raise InvalidArgumentError(tr("no ID can hold this situation: {problem}", problem=e)) from None


def _situation_json(situation: Situation, player_on_roll: int) -> dict[str, Any]:
    position = situation.position
    crawford = crawford_shown(situation)
    # the one Match ID of a Situation, as gnubg_id's
    state = MatchState.from_situation(situation, player_on_roll)
    # an XGID has no field for an offer to resign: written without it, it would name another
    # situation (the editor asks about the GNU Backgammon ID instead)
    xgid = None if situation.resignation is not None else SetUp(
        position.board,
        situation.dice,
        situation.cube_value,
        OWNERS[situation.cube_owner],
        situation.match_length,
        situation.score,
        crawford,
        situation.jacoby,
        situation.beavers,
        situation.double_offered,
        max_cube_of(situation.rules),
    ).xgid()
    return {
        **board_json(position),
        "dice": list(situation.dice) if situation.dice else None,
        "cube_value": situation.cube_value,
        "cube_owner": OWNERS[situation.cube_owner],
        "match_length": situation.match_length,
        "score": list(situation.score),
        "crawford": crawford,
        "jacoby": situation.jacoby,
        "beavers": situation.beavers,
        "double_offered": situation.double_offered,
        "pips": list(position.pip_counts),
        "description": describe_situation(situation),
        "position_id": position.id,
        "gnubg_id": format_gnubg_id(position, state),
        "xgid": xgid,
        "game_over": position.is_game_over(),
    }


__all__ = [
    "OWNERS", "SetUp", "board_json", "crawford_shown", "describe_situation", "gnubg_player_on_roll",
    "read_id", "situation_json",
]
