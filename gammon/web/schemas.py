"""Wire schemas of the HTTP/WebSocket API (pydantic), kept apart from the domain types."""

from __future__ import annotations

import unicodedata
from typing import Literal

from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from gammon.i18n import tr
from gammon.rules import HIGHEST_CUBE

ActionName = Literal[
    "roll",
    "play",
    "undo",
    "double",
    "take",
    "pass",
    "beaver",
    "resign",
    "accept_resignation",
    "reject_resignation",
    "abandon",
    "new_game",
    "claim",
]


NAME_LENGTH = 24


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateMatchRequest(Strict):
    mode: Literal["computer", "local", "online"] = "computer"
    level: str = Field("random", max_length=32, description="computer level (mode 'computer')")
    # strict: a JSON true is no number of points (lax pydantic reads it as 1), nor is "7"
    match_length: int = Field(0, ge=0, le=99, strict=True, description="points to win; 0 = money game")
    crawford: bool = True
    jacoby: bool = True
    beavers: bool = False
    cube_limit: int | None = Field(None, ge=2, le=HIGHEST_CUBE, strict=True)
    use_cube: bool = Field(True, description="play with the doubling cube (never in a 1-point match)")
    name: str | None = Field(
        None, max_length=200, description="the creator's name (seat 0); shown as plain text"
    )
    opponent_name: str | None = Field(
        None, max_length=200, description="seat 1's name (not against the computer)"
    )
    rated: bool = Field(
        False,
        description="online matches to a length, made signed in: rated when it ends if two "
        "accounts hold its seats then (the friend claims seat 1 signed in)",
    )

    @field_validator("name", "opponent_name")
    @classmethod
    def _one_line_name(cls, value: str | None) -> str | None:
        """A name is one line of up to NAME_LENGTH characters, spaces collapsed; empty means none."""
        if value is None:
            return None
        if any(unicodedata.category(c).startswith("C") for c in value):
            raise ValueError(tr("a name may not hold control characters (such as line breaks)"))
        name = " ".join(value.split())
        if len(name) > NAME_LENGTH:
            raise ValueError(
                tr("a name has at most {most} characters, got {n}", most=NAME_LENGTH, n=len(name))
            )
        return name or None


class CreateMatchResponse(BaseModel):
    match_id: str
    token: str = Field(
        description="the creator's seat token; send it in the X-Gammon-Token header (the match's "
        "WebSocket and its match.mat download also take ?token=)"
    )
    seat: int | None = Field(description="0 or 1; None when one device plays both seats")
    url: str = Field(description="the creator's page (token in the URL fragment)")
    invite_url: str | None = Field(None, description="online games: the link for the friend's seat")


class PlayerAccount(BaseModel):
    """The account at a seat: its name and rating."""

    name: str
    rating: float


class ActionRequest(Strict):
    action: ActionName
    play: str | None = Field(None, max_length=80, description="notation, e.g. '13/7 8/7'")
    # strict: lax pydantic read "kind": true as a single game's resignation
    kind: int | None = Field(None, ge=1, le=3, strict=True,
                             description="resign: 1 single, 2 gammon, 3 backgammon")
    version: int | None = Field(None, ge=0, le=2**31 - 1, strict=True,
                                description="the state version the client acted on")


class StepSequence(BaseModel):
    play: int = Field(description="index into plays")
    steps: list[tuple[int | str, int | str]] = Field(description="(from, to) in the viewer's numbering")


class LastPlay(BaseModel):
    """The latest play of the game, for the browser to show checker by checker."""

    key: str = Field(description="'game:action' numbers; the same play keeps its key")
    player: int
    dice: tuple[int, int]
    text: str = Field(description="its line of the log")
    board: list[int] = Field(description="the board before it, numbered like MatchView.board")
    off: tuple[int, int]
    steps: list[tuple[int | str, int | str]] = Field(
        description="(from, to) in the viewer's numbering, in playing order"
    )


class GameResultView(BaseModel):
    winner: int
    kind: int
    points: int
    cube_value: int
    reason: str


class RulesView(BaseModel):
    crawford: bool
    jacoby: bool
    beavers: bool
    cube_limit: int | None


class MatchView(BaseModel):
    """One seat's view of a match; points are numbered from ``viewer``'s side (1 = its ace point)."""

    match_id: str
    mode: str
    level: str | None
    seat: int | None
    viewer: int
    names: tuple[str, str]
    version: int
    match_length: int
    score: tuple[int, int]
    match_over: bool
    match_winner: int | None
    crawford_game: bool
    use_cube: bool = Field(
        True, description="False: the match is played without the cube (a 1-point match, or rules without it)"
    )
    rules: RulesView | None = None
    game_number: int
    phase: str
    turn: int | None
    dice: tuple[int, int] | None
    opening_dice: tuple[int, int] | None
    cube_value: int
    cube_owner: int | None
    offered_resignation: int | None
    board: list[int] = Field(
        description="26 counts, viewer's checkers positive: 1-24 points, 0 the "
        "opponent's bar (negative), 25 the viewer's bar"
    )
    off: tuple[int, int]
    pips: tuple[int, int]
    position_id: str
    gnubg_id: str = Field(
        "",
        description="'PositionID:MatchID' of the game as it stands, as GNU Backgammon and `gammon eval` "
        "read it ('' once the game is over: there is nothing to analyse; '' for a cube past 32768, "
        "which no Match ID holds, in a game stored before the cube stopped there)",
    )
    actions: list[str] = Field(description="what this seat may do now")
    plays: list[str]
    sequences: list[StepSequence]
    result: GameResultView | None
    log: list[str]
    last_play: LastPlay | None = Field(None, description="the game's latest play (None before one)")
    opponent_away: float | None = Field(
        None,
        description="online: seconds the opponent has been away while the game waits on it "
        "(None: connected, or never joined)",
    )
    claim_in: float | None = Field(
        None,
        description="online: seconds until this seat may claim the game (action 'claim': the "
        "absent opponent abandons it); 0 = now, None = not possible",
    )
    opponent_idle: float | None = Field(
        None,
        description="online: seconds the game has waited on the opponent's present decision, "
        "connected or not (None: it does not wait on them); past the server's idle limit the game "
        "may be claimed (claim_in)",
    )
    opponent_joined: bool | None = Field(
        None,
        description="online: whether the invited friend has opened the game yet (None: not "
        "an online game, or a viewer without a seat)",
    )
    rated: bool = Field(False, description="made to be rated (when two accounts hold the seats at its end)")
    accounts: tuple[PlayerAccount | None, PlayerAccount | None] = Field(
        (None, None), description="the account at each seat with its rating (None: a guest)"
    )


class ErrorResponse(BaseModel):
    error: str


def error_response(status: int, message: str) -> JSONResponse:
    """An answer in the API's one error shape (:class:`ErrorResponse`)."""
    return JSONResponse({"error": message}, status_code=status)


class Frame(BaseModel):
    """The board after one action of a game, for stepping through it."""

    text: str
    board: list[int]
    off: tuple[int, int]
    dice: tuple[int, int] | None
    mover: int | None
    cube_value: int
    cube_owner: int | None
    score: tuple[int, int] = Field(
        (0, 0), description="the match score (after the game, on its result's frame)"
    )
    crawford_game: bool = False
    cube_offered: bool = Field(
        default=False, description="the action was a double: cube_value is the value offered, not yet taken"
    )
    position_id: str = Field(
        default="", description="the board's Position ID, from the side of the player to act next"
    )
    gnubg_id: str = Field(
        default="",
        description="'PositionID:MatchID' of the board with its cube and score, the player to act next "
        "on roll ('' on the frames of a finished game's end, and of a cube past 32768)",
    )


class Hint(BaseModel):
    play: str
    score: float


class CubeHint(BaseModel):
    question: Literal["double", "take"] = Field(
        description="'double': before the roll, should the player on roll double; 'take': the answer "
        "to a double on offer (the equities are then the doubler's)"
    )
    action: str = Field(description="the engine's cube action, e.g. 'no double', 'double, take'")
    answer: Literal["take", "pass", "beaver"] | None = Field(
        description="the right answer to a double; None for a double the player cannot make"
    )
    available: bool = Field(description="whether the cube may be turned at all")
    no_double: float
    double_take: float | None = Field(description="None for a double the player cannot make")
    double_pass: float | None = Field(description="None for a double the player cannot make")
    mwc: list[float | None] | None = Field(
        description="in a match: the doubler's MWC after no double, double/take, double/pass "
        "(the last two None for a double the player cannot make)"
    )


class HintResponse(BaseModel):
    source: str = Field(description="'engine' or 'pubeval' (no equities without the engine)")
    kind: Literal["plays", "cube"] = "plays"
    unit: Literal["equity", "mwc", "pubeval"] = Field(
        "equity",
        description="what ranks the plays: cubeless equity (money), match winning chances "
        "(a match) or pubeval's score; for the cube, the equities are cubeful ('mwc': in a match)",
    )
    plies: int | None = Field(None, description="the engine's depth")
    hints: list[Hint] = []
    cube: CubeHint | None = None
