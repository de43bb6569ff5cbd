"""A Situation as an ID gives it: a Position ID (a money game, cube 1 centred, Jacoby rule), a GNU
Backgammon ID (``PositionID:MatchID``) or an XGID; the last two also give the match score, the
cube, the Crawford state and the dice. Read by ``gammon hint``/``eval``/``rollout`` and by the
browser's position editor; plays of a match are ranked by match winning chances (MWC)."""

from __future__ import annotations

from gammon.dice import Dice
from gammon.engine.cube.cubeful import MatchCube
from gammon.engine.engine import Engine, Hint
from gammon.engine.net.evaluator import Probabilities
from gammon.errors import InvalidNotationError, cut
from gammon.formats.matchid import GameState, MatchState, parse_gnubg_id
from gammon.formats.xgid import parse_xgid
from gammon.position import Position
from gammon.situation import CubeOwner, MatchScore, Situation

MATCH_CANDIDATES = 5  # match play: plays the search keeps (by money equity) before ranking by MWC


def describe_situation(situation: Situation) -> str:
    """``7-point match at 5-3 (you 2-away, opponent 4-away), cube 2 owned by you, Crawford game``:
    a Situation in the words of its player on roll ("you")."""
    owner = {CubeOwner.CENTRED: "centred", CubeOwner.MOVER: "owned by you",
             CubeOwner.OPPONENT: "owned by the opponent"}[situation.cube_owner]
    cube = f"cube {situation.cube_value} {owner}"
    m = situation.match
    if m is None:
        parts = ["money game", cube, "Jacoby rule" if situation.jacoby else "no Jacoby rule"]
        if situation.beavers:
            parts.append("beavers")
    else:
        score = situation.score
        parts = [f"{situation.match_length}-point match at {score[0]}-{score[1]} "
                 f"(you {m.away}-away, opponent {m.opponent_away}-away)", cube]
        if m.crawford_game:
            parts.append("Crawford game")
        elif m.post_crawford:
            parts.append("post-Crawford")
    if situation.double_offered:
        parts.append(f"you have doubled to {2 * situation.cube_value}")
    return ", ".join(parts)


def parse_context(text: str) -> Situation:
    """Read a Position ID (a money game, cube 1 centred, Jacoby rule), a GNU Backgammon ID or an
    XGID (with or without ``XGID=``) into a Situation."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"an ID must be a string, not {text!r}")
    body = text.strip()
    if body[:5].upper() == "XGID=" or body.count(":") >= 8:
        xgid = parse_xgid(body)
        _check_in_play(xgid.position, xgid.to_match_state(), body)
        return xgid.situation
    if ":" in body:
        position, state = parse_gnubg_id(body)
        _check_in_play(position, state, body)
        return state.to_situation(position)
    return Situation(Position.from_id(body))


def _quote(text: str) -> str:
    return repr(cut(text))


def _check_in_play(position: Position, state: MatchState, text: str) -> None:
    if state.game_state not in (GameState.NONE, GameState.PLAYING):
        raise InvalidNotationError(f"the game in {_quote(text)} is over: there is nothing to analyse")
    me = state.player_on_roll
    score = (state.score[me], state.score[1 - me])
    length = state.match_length
    if length and max(score) >= length:
        raise InvalidNotationError(
            f"{_quote(text)}: the score {score[0]}-{score[1]} has already won the {length}-point match")


def cubeless_mwc(p: Probabilities, match: MatchScore, cube_value: int) -> float:
    """Match winning chances of the player on roll with these outcome chances, cube ``cube_value``
    not turned again (the Kazaross-XG2 table scores each outcome)."""
    cube = MatchCube(p.as_array(), match, 0.0)  # cube efficiency plays no part in these two values
    return p.win * cube.win_value(cube_value) + p.lose * cube.loss_value(cube_value)


def ranked_plays(engine: Engine, context: Situation, dice: Dice, n: int) -> list[tuple[Hint, float]]:
    """The ``n`` best plays of ``dice`` in ``context``, best first, each with its score: cubeless
    equity for money, the match winning chance in a match (the search keeps the best
    ``MATCH_CANDIDATES`` by money equity, then they are ranked by MWC)."""
    match = context.match
    hints = engine.hint(context.position, dice, max(n, MATCH_CANDIDATES) if match else n)
    if match is None:
        return [(h, h.equity) for h in hints]
    return sorted(((h, cubeless_mwc(h.probabilities, match, context.cube_value)) for h in hints),
                  key=lambda hs: -hs[1])[:n]


__all__ = ["MATCH_CANDIDATES", "cubeless_mwc", "describe_situation", "parse_context", "ranked_plays"]
