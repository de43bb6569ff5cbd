"""A position as an ID gives it: a Position ID (a money game, cube 1 centred, Jacoby rule), a GNU
Backgammon ID (``PositionID:MatchID``) or an XGID; the last two also give the match score, the
cube, the Crawford state and the dice. Read by ``gammon hint``/``eval``/``rollout`` and by the
browser's position editor; plays of a match are ranked by match winning chances (MWC)."""

from __future__ import annotations

from dataclasses import dataclass

from gammon.dice import Dice
from gammon.engine.cubeful import CubeOwner, MatchCube
from gammon.engine.cubeful import MatchState as MatchScore
from gammon.engine.engine import Engine, Hint
from gammon.engine.evaluator import Probabilities
from gammon.errors import InvalidNotationError, cut
from gammon.formats.matchid import GameState, MatchState, parse_gnubg_id
from gammon.formats.xgid import parse_xgid
from gammon.position import Position

MATCH_CANDIDATES = 5  # match play: plays the search keeps (by money equity) before ranking by MWC


@dataclass(frozen=True)
class Context:
    """What an ID says beyond the position, from the view of the player on roll ("you")."""

    position: Position
    dice: Dice | None = None
    match_length: int = 0  # 0: money
    score: tuple[int, int] = (0, 0)  # (you, the opponent)
    cube_value: int = 1
    cube_owner: CubeOwner = CubeOwner.CENTRED
    match: MatchScore | None = None  # points away and Crawford state; None for money
    jacoby: bool = True
    beavers: bool = False
    double_offered: bool = False  # you have doubled; the opponent must answer

    def describe(self) -> str:
        """``7-point match at 5-3 (you 2-away, opponent 4-away), cube 2 owned by you, Crawford game``."""
        owner = {CubeOwner.CENTRED: "centred", CubeOwner.MOVER: "owned by you",
                 CubeOwner.OPPONENT: "owned by the opponent"}[self.cube_owner]
        cube = f"cube {self.cube_value} {owner}"
        if self.match is None:
            parts = ["money game", cube, "Jacoby rule" if self.jacoby else "no Jacoby rule"]
            if self.beavers:
                parts.append("beavers")
        else:
            m = self.match
            parts = [f"{self.match_length}-point match at {self.score[0]}-{self.score[1]} "
                     f"(you {m.away}-away, opponent {m.opponent_away}-away)", cube]
            if m.crawford_game:
                parts.append("Crawford game")
            elif m.post_crawford:
                parts.append("post-Crawford")
        if self.double_offered:
            parts.append(f"you have doubled to {2 * self.cube_value}")
        return ", ".join(parts)


def parse_context(text: str) -> Context:
    """Read a Position ID, a GNU Backgammon ID or an XGID (with or without ``XGID=``)."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"an ID must be a string, not {text!r}")
    body = text.strip()
    if body[:5].upper() == "XGID=" or body.count(":") >= 8:
        xgid = parse_xgid(body)
        return _from_match_state(xgid.position, xgid.to_match_state(), xgid.beavers, body)
    if ":" in body:
        position, state = parse_gnubg_id(body)
        return _from_match_state(position, state, False, body)
    return Context(Position.from_id(body))


def _quote(text: str) -> str:
    return repr(cut(text))


def _from_match_state(position: Position, state: MatchState, beavers: bool, text: str) -> Context:
    if state.game_state not in (GameState.NONE, GameState.PLAYING):
        raise InvalidNotationError(f"the game in {_quote(text)} is over: there is nothing to analyse")
    me = state.player_on_roll
    score = (state.score[me], state.score[1 - me])
    owner = CubeOwner.seen_by(state.cube_owner, me)
    match = None
    length = state.match_length
    if length:
        if max(score) >= length:
            raise InvalidNotationError(
                f"{_quote(text)}: the score {score[0]}-{score[1]} has already won the {length}-point match")
        away, opponent_away = length - score[0], length - score[1]
        # as GNU Backgammon: the Crawford flag counts only with a side 1 away; a later game with a
        # side 1 away is post-Crawford
        match = MatchScore.from_away(away, opponent_away,
                                     crawford_game=state.crawford and 1 in (away, opponent_away))
    return Context(position, state.dice, length, score, state.cube_value, owner, match,
                   jacoby=state.jacoby and not length, beavers=beavers and not length,
                   double_offered=state.double_offered)


def cubeless_mwc(p: Probabilities, match: MatchScore, cube_value: int) -> float:
    """Match winning chances of the player on roll with these outcome chances, cube ``cube_value``
    not turned again (the Kazaross-XG2 table scores each outcome)."""
    cube = MatchCube(p.as_array(), match, 0.0)  # cube efficiency plays no part in these two values
    return p.win * cube.win_value(cube_value) + p.lose * cube.loss_value(cube_value)


def ranked_plays(engine: Engine, context: Context, dice: Dice, n: int) -> list[tuple[Hint, float]]:
    """The ``n`` best plays of ``dice`` in ``context``, best first, each with its score: cubeless
    equity for money, the match winning chance in a match (the search keeps the best
    ``MATCH_CANDIDATES`` by money equity, then they are ranked by MWC)."""
    match = context.match
    hints = engine.hint(context.position, dice, max(n, MATCH_CANDIDATES) if match else n)
    if match is None:
        return [(h, h.equity) for h in hints]
    return sorted(((h, cubeless_mwc(h.probabilities, match, context.cube_value)) for h in hints),
                  key=lambda hs: -hs[1])[:n]


__all__ = ["Context", "MATCH_CANDIDATES", "cubeless_mwc", "parse_context", "ranked_plays"]
