"""Game: one game of backgammon, the one mutable domain object (docs/game-api.md).

Every action is checked against the state before anything changes, so a refused action (an
:class:`IllegalActionError`, or a notation / legality error from ``play``) leaves the game exactly
as it was. Every accepted action is appended to ``history``, from which :meth:`Game.replay`
rebuilds the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import ClassVar, cast

from gammon.cube import Cube
from gammon.dice import Dice, DiceSource, RandomDice, check_dice
from gammon.errors import GammonError, IllegalActionError, IllegalMoveError, InvalidArgumentError, cut
from gammon.i18n import ptr, tr
from gammon.notation import position_words, why_illegal
from gammon.play import Play
from gammon.position import CHECKERS, Position
from gammon.primitives import BAR
from gammon.refusal import PHASE_REFUSALS, Refusal, Refused
from gammon.rules import GameResult, Reason, Rules, WinKind, win_kind
from gammon.situation import CubeOwner, Situation

# A dice source that only ever throws ties would hang the opening roll; no fair source gets close.
_MAX_OPENING_TIES = 1000


class GamePhase(Enum):
    """Where a game stands: what the player who must act (``Game.turn``) is to do."""

    OPENING = "opening"    # nobody has rolled yet: roll() throws one die each
    ROLL = "roll"          # turn may double or roll
    MOVE = "move"          # turn must play the dice
    DOUBLED = "doubled"    # turn must take, pass or beaver
    RESIGNED = "resigned"  # turn must accept or reject a resignation
    OVER = "over"


class ActionKind(StrEnum):
    """What a player can do in a game; the values are the names clients and the store use."""

    ROLL = "roll"
    PLAY = "play"
    DOUBLE = "double"
    TAKE = "take"
    PASS = "pass"  # refuse a double (stored records may say "drop": gammon.records reads it)
    BEAVER = "beaver"
    RESIGN = "resign"
    ACCEPT_RESIGNATION = "accept_resignation"
    REJECT_RESIGNATION = "reject_resignation"
    ABANDON = "abandon"
    UNDO = "undo"  # takes the last play out of the history; never recorded itself


# --- history actions -------------------------------------------------------------------------
# One typed record of a game: ``Game.history`` holds these, ``Game.apply`` makes them (a roll with
# its recorded dice), the store, the match files and the analysis read and write them.


@dataclass(frozen=True)
class Roll:
    """A roll. The opening roll: ``player`` won it, ``dice`` is (player 0's die, player 1's die),
    ``ties`` the tied throws before it, in order."""

    kind: ClassVar[ActionKind] = ActionKind.ROLL
    player: int
    dice: Dice
    opening: bool = False
    ties: tuple[Dice, ...] = ()

    @classmethod
    def opening_won(cls, player: int, dice: Dice) -> Roll:
        """The opening roll ``player`` won with ``dice`` in either order, as match files write it
        (the winner's roll, high die first)."""
        high, low = max(dice), min(dice)
        return cls(player, (high, low) if player == 0 else (low, high), opening=True)


@dataclass(frozen=True)
class PlayMade:
    """A play of ``dice``; ``play`` None when no play was legal (the turn passed at once)."""

    kind: ClassVar[ActionKind] = ActionKind.PLAY
    player: int
    dice: Dice
    play: Play | None


@dataclass(frozen=True)
class Double:
    kind: ClassVar[ActionKind] = ActionKind.DOUBLE
    player: int
    cube_value: int  # the value offered


@dataclass(frozen=True)
class Take:
    kind: ClassVar[ActionKind] = ActionKind.TAKE
    player: int


@dataclass(frozen=True)
class Pass:
    kind: ClassVar[ActionKind] = ActionKind.PASS
    player: int


@dataclass(frozen=True)
class Beaver:
    kind: ClassVar[ActionKind] = ActionKind.BEAVER
    player: int
    cube_value: int  # the value after the beaver, owned by ``player``


@dataclass(frozen=True)
class Resign:
    kind: ClassVar[ActionKind] = ActionKind.RESIGN
    player: int
    win_kind: WinKind  # what is offered: a single game, a gammon or a backgammon


@dataclass(frozen=True)
class AcceptResignation:
    kind: ClassVar[ActionKind] = ActionKind.ACCEPT_RESIGNATION
    player: int


@dataclass(frozen=True)
class RejectResignation:
    kind: ClassVar[ActionKind] = ActionKind.REJECT_RESIGNATION
    player: int


@dataclass(frozen=True)
class Abandon:
    kind: ClassVar[ActionKind] = ActionKind.ABANDON
    player: int


Action = (Roll | PlayMade | Double | Take | Pass | Beaver | Resign | AcceptResignation | RejectResignation
          | Abandon)


# What a recorded action other than a roll or a play asks for: its kind (and a resignation's size).
_RECORDED = (Double, Take, Pass, Beaver, Resign, AcceptResignation, RejectResignation, Abandon)


@dataclass(frozen=True)
class Request:
    """A player's request to act: what the terminal, the web and the computer players submit
    through :meth:`Game.apply` (:meth:`gammon.match.Match.apply` for a match), and what
    :meth:`Game.why_not` judges. ``player`` None: whoever must act (anyone, for the opening
    roll); ``abandon`` needs it. ``play``: a play's :class:`Play` or notation; ``win_kind``: what
    a resignation offers. A roll is thrown with the game's dice; the ``history`` records it."""

    kind: ActionKind
    player: int | None = None
    play: Play | str | None = None
    win_kind: WinKind | int | None = None


# The phase each action that waits for one fits (resign, undo, abandon and the opening roll aside).
_PHASE_OF = {ActionKind.ROLL: GamePhase.ROLL, ActionKind.PLAY: GamePhase.MOVE,
             ActionKind.DOUBLE: GamePhase.ROLL, ActionKind.TAKE: GamePhase.DOUBLED,
             ActionKind.PASS: GamePhase.DOUBLED, ActionKind.BEAVER: GamePhase.DOUBLED,
             ActionKind.ACCEPT_RESIGNATION: GamePhase.RESIGNED,
             ActionKind.REJECT_RESIGNATION: GamePhase.RESIGNED}


@dataclass(frozen=True)
class _Resignation:
    player: int
    win_kind: WinKind
    phase: GamePhase  # where play goes on if it is rejected
    turn: int  # and who acts then


class Game:
    """One game between players 0 and 1 (see docs/game-api.md for the contract)."""

    def __init__(self, rules: Rules | None = None, dice: DiceSource | None = None,
                 score: tuple[int, int] = (0, 0), crawford_game: bool = False) -> None:
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise InvalidArgumentError(f"rules must be a Rules, got {cut(repr(rules))}")
        if not (isinstance(score, tuple | list) and len(score) == 2
                and all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in score)):
            raise InvalidArgumentError(f"score must be two integers >= 0, got {cut(repr(score))}")
        if not isinstance(crawford_game, bool):
            raise InvalidArgumentError(f"crawford_game must be True or False, got {cut(repr(crawford_game))}")
        if crawford_game and (rules.is_money or not rules.crawford):
            raise InvalidArgumentError(
                f"crawford_game=True needs match play with the Crawford rule, got {rules!r}")
        length = rules.match_length
        if length and max(score) >= length:
            raise InvalidArgumentError(
                f"the score {score[0]}-{score[1]} has already won the {length}-point match")
        if crawford_game and length - 1 not in score:
            raise InvalidArgumentError(
                f"crawford_game=True needs a side 1-away ({length - 1} points of {length}), "
                f"got the score {score[0]}-{score[1]}")
        if dice is not None and not callable(getattr(dice, "roll", None)):
            raise InvalidArgumentError(
                f"dice must be a dice source (RandomDice, ScriptedDice: a roll() method), "
                f"got {cut(repr(dice))}")
        self._rules = rules
        self._dice_source: DiceSource = RandomDice() if dice is None else dice
        self._score = (score[0], score[1])
        self._crawford_game = crawford_game
        self._phase = GamePhase.OPENING
        self._turn: int | None = None
        self._board0 = Position.initial()  # from player 0's view
        self._dice: Dice | None = None
        self._cube = Cube()
        self._resignation: _Resignation | None = None
        self._result: GameResult | None = None
        self._history: list[Action] = []
        self._plays_memo: tuple[Position, Dice, list[Play]] | None = None
        # The plays' notation for that memo's roll, and each text that names one play alone.
        self._texts_memo: tuple[list[Play], list[str], dict[str, Play]] | None = None

    # --- state -------------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def score(self) -> tuple[int, int]:
        """The score before this game."""
        return self._score

    @property
    def crawford_game(self) -> bool:
        return self._crawford_game

    @property
    def phase(self) -> GamePhase:
        """Where the game stands (:class:`GamePhase`)."""
        return self._phase

    @property
    def turn(self) -> int | None:
        """The player who must act now; None before the opening roll and after the end."""
        return self._turn

    @property
    def position(self) -> Position:
        """The position from ``turn``'s view; once over, from the winner's view."""
        if self._turn is not None:
            return self.position_for(self._turn)
        return self.position_for(self._result.winner if self._result else 0)

    def position_for(self, player: int) -> Position:
        """The position from ``player``'s view (0 or 1), whoever must act."""
        _check_player_value(player)
        return self._board0 if player == 0 else self._board0.flip()

    @property
    def dice(self) -> Dice | None:
        """The roll to play now (the opening roll: player 0's die first), or None."""
        return self._dice

    @property
    def cube(self) -> Cube:
        """The cube as it stands (frozen). While a double awaits its answer this is still the
        cube before the double: the double turns it only when taken."""
        return self._cube

    @property
    def cube_value(self) -> int:
        return self._cube.value

    @property
    def cube_owner(self) -> int | None:
        """The player who owns the cube; None while it is centred."""
        return self._cube.owner

    @property
    def offered_resignation(self) -> WinKind | None:
        """What a resignation awaiting its answer gives up; None when none is offered."""
        return self._resignation.win_kind if self._resignation else None

    @property
    def result(self) -> GameResult | None:
        """How the game ended; None while it goes on."""
        return self._result

    @property
    def is_over(self) -> bool:
        return self._phase is GamePhase.OVER

    @property
    def history(self) -> list[Action]:
        """Every accepted action, in order (a copy; ``undo`` removes the play it takes back)."""
        return list(self._history)

    def situation(self) -> Situation:
        """What is being decided now, seen by the player on roll: the player to roll or play, or
        the one who doubled or offered to resign while the opponent must answer; while the opponent
        of the player to roll, or the player doubled, offers to resign, still the player to roll or
        the doubler, who must answer (``opponent_resigns``; gammon.situation).
        Before the opening roll and once the game is over nothing is decided: IllegalActionError."""
        phase = self._phase
        turn = self._turn
        if turn is None or phase in (GamePhase.OPENING, GamePhase.OVER):
            raise IllegalActionError(tr("no decision to describe: {waiting}", waiting=self.awaiting()))
        offer = self._resignation if phase is GamePhase.RESIGNED else None
        if offer is not None:  # seen as where a rejection returns to: the resigner may not be on roll
            phase, turn = offer.phase, offer.turn
        on_roll = 1 - turn if phase is GamePhase.DOUBLED else turn
        return Situation(
            self.position_for(on_roll),
            dice=self._dice if phase is GamePhase.MOVE else None,  # kept by a resignation after the roll
            cube_value=self._cube.value, cube_owner=CubeOwner.seen_by(self._cube.owner, on_roll),
            double_offered=phase is GamePhase.DOUBLED,
            resignation=offer.win_kind if offer is not None else None,
            score=(self._score[on_roll], self._score[1 - on_roll]), crawford_game=self._crawford_game,
            rules=self._rules, opponent_resigns=offer is not None and offer.player != on_roll)

    def legal_plays(self) -> list[Play]:
        """The legal plays of the dice to play now; ``[]`` outside the MOVE phase."""
        if self._phase is not GamePhase.MOVE or self._dice is None:
            return []
        return list(self._plays_of(self.position, self._dice))

    def legal_play_texts(self) -> list[str]:
        """The notation of each legal play, in ``legal_plays()`` order; made once per roll (a UI
        shows it, and a play sent back in it is then found without parsing)."""
        if self._phase is not GamePhase.MOVE or self._dice is None:
            return []
        plays = self._plays_of(self.position, self._dice)
        memo = self._texts_memo
        if memo is None or memo[0] is not plays:
            texts = [str(p) for p in plays]
            named: dict[str, Play] = {}
            repeated: set[str] = set()
            for text, play in zip(texts, plays):
                if text in named:
                    repeated.add(text)
                named[text] = play
            for text in repeated:
                del named[text]
            memo = self._texts_memo = (plays, texts, named)
        return list(memo[1])

    def _written_play(self, text: str, position: Position, dice: Dice) -> Play | None:
        """The play ``text`` names if legal_play_texts() wrote it so for this roll (notation
        round-trips, so it is that play); None: parse it."""
        texts, plays = self._texts_memo, self._plays_memo
        if texts is None or plays is None or texts[0] is not plays[2]:
            return None
        if plays[0] != position or plays[1] != dice:
            return None
        return texts[2].get(text)

    def can_double(self) -> bool:
        """The player on turn may double now: its ROLL phase, and the cube's rules, the Crawford
        game, the owner and the limit allow it."""
        return (self._phase is GamePhase.ROLL and self._turn is not None
                and self._cube.refusal_to_double(self._turn, self._rules, self._crawford_game) is None)

    def can_undo(self) -> bool:
        """The last play may be taken back: the next player has not acted yet (see :meth:`undo`)."""
        return self._undoable_move() is not None

    def legal_actions(self) -> set[ActionKind]:
        """The kinds of action that may be taken now (each the name of its method, ``pass_`` for
        PASS)."""
        k = ActionKind
        phase = self._phase
        if phase is GamePhase.OPENING:
            return {k.ROLL, k.ABANDON}
        if phase is GamePhase.ROLL:
            actions = {k.ROLL, k.RESIGN, k.ABANDON}
            if self.can_double():
                actions.add(k.DOUBLE)
            if self.can_undo():
                actions.add(k.UNDO)
            return actions
        if phase is GamePhase.MOVE:
            return {k.PLAY, k.RESIGN, k.ABANDON}
        if phase is GamePhase.DOUBLED:
            actions = {k.TAKE, k.PASS, k.RESIGN, k.ABANDON}
            if self._cube.refusal_to_beaver(self._rules) is None:
                actions.add(k.BEAVER)
            return actions
        if phase is GamePhase.RESIGNED:
            return {k.ACCEPT_RESIGNATION, k.REJECT_RESIGNATION, k.ABANDON}
        return set()

    # --- actions -----------------------------------------------------------------------------
    # Each method builds a Request and submits it through the one dispatch, :meth:`_act`.

    def roll(self, player: int | None = None) -> Dice:
        """Roll the dice. The opening roll throws one die each until they differ (anyone may
        throw it); the higher die's player plays both numbers. A roll with no legal play passes
        the turn at once."""
        return cast(Dice, self._act(Request(ActionKind.ROLL, player)))

    def play(self, play: Play | str, player: int | None = None) -> Play:
        """Play the dice: a :class:`Play` from ``legal_plays()`` or its notation. Returns the play."""
        return cast(Play, self._act(Request(ActionKind.PLAY, player, play=play)))

    def undo(self, player: int | None = None) -> None:
        """Take back the last play while the next player has not acted (rolled, doubled, ...)."""
        self._act(Request(ActionKind.UNDO, player))

    def double(self, player: int | None = None) -> None:
        """Offer a double (on one's turn, before rolling); the opponent must answer."""
        self._act(Request(ActionKind.DOUBLE, player))

    def take(self, player: int | None = None) -> None:
        """Take the double: the taker owns the cube at twice the value; the doubler rolls."""
        self._act(Request(ActionKind.TAKE, player))

    def pass_(self, player: int | None = None) -> None:
        """Refuse the double: the doubler wins the value before the double."""
        self._act(Request(ActionKind.PASS, player))

    def beaver(self, player: int | None = None) -> None:
        """Take and redouble at once (money play with beavers): the beaver keeps the cube."""
        self._act(Request(ActionKind.BEAVER, player))

    def resign(self, kind: WinKind | int, player: int | None = None) -> None:
        """Offer to resign a single game, a gammon or a backgammon; the opponent answers.

        The player on turn may resign before or after rolling, or instead of answering a double;
        the other player (``player=`` naming it) may resign while its opponent is about to roll,
        as Backgammon Galaxy allows and its match files record."""
        self._act(Request(ActionKind.RESIGN, player, win_kind=kind))

    def accept_resignation(self, player: int | None = None) -> None:
        """The opponent accepts the resignation: the game ends, the resigner losing what it offered
        (as :meth:`Rules.points` counts it: Jacoby applied)."""
        self._act(Request(ActionKind.ACCEPT_RESIGNATION, player))

    def reject_resignation(self, player: int | None = None) -> None:
        """Play goes on where it was when the resignation was offered."""
        self._act(Request(ActionKind.REJECT_RESIGNATION, player))

    def abandon(self, player: int) -> None:
        """``player`` leaves the game and loses a backgammon times the cube (Jacoby or not)."""
        self._act(Request(ActionKind.ABANDON, player))

    # --- requests ----------------------------------------------------------------------------

    def why_not(self, request: Request) -> Refused | None:
        """Why ``request`` would be refused now (:mod:`gammon.refusal`), or None if :meth:`apply`
        would make it; a play is checked for legality too."""
        if not isinstance(request, Request):
            return Refused(Refusal.NOT_A_GAME_ACTION, detail=cut(repr(request)))
        refused = self._refusal(request)
        if refused is None and request.kind == ActionKind.PLAY:
            try:
                self._chosen_play(request.play)
            except GammonError as e:
                return Refused(Refusal.ILLEGAL_PLAY, detail=str(e))
        return refused

    def _refusal(self, request: Request) -> Refused | None:
        """Why ``request`` is refused, the legality of a play aside (its parser says why)."""
        try:
            kind = ActionKind(request.kind)
        except ValueError:
            return Refused(Refusal.NOT_A_GAME_ACTION, detail=cut(repr(request.kind)))
        player, phase = request.player, self._phase
        k = ActionKind
        if kind is k.ABANDON:
            if phase is GamePhase.OVER:
                return Refused(Refusal.GAME_OVER)
            if player is None:
                return Refused(Refusal.PLAYER_NEEDED)
            return _player_refusal(player)
        if kind is k.UNDO:
            move = self._undoable_move()
            if move is None:
                waiting = phase in (GamePhase.OVER, GamePhase.OPENING, GamePhase.DOUBLED, GamePhase.RESIGNED)
                return self._phase_refusal(kind) if waiting else Refused(Refusal.NOTHING_TO_UNDO)
            refused = _player_refusal(player)
            if refused is None and player is not None and player != move.player:
                refused = Refused(Refusal.NOT_YOUR_PLAY)
            return refused
        if kind is k.ROLL and phase is GamePhase.OPENING:
            return _player_refusal(player)  # anyone may throw the opening roll
        if kind is k.RESIGN:
            if phase not in (GamePhase.ROLL, GamePhase.MOVE, GamePhase.DOUBLED):
                return self._phase_refusal(kind)
            refused = _player_refusal(player)
            if refused:
                return refused
            if player is not None and player != self._turn and phase is not GamePhase.ROLL:
                return Refused(Refusal.NOT_ON_ROLL)
            offered = request.win_kind
            if isinstance(offered, bool) or offered not in (1, 2, 3):
                return Refused(Refusal.BAD_RESIGNATION, detail=cut(repr(offered)))
            return None
        if phase is not _PHASE_OF[kind]:
            return self._phase_refusal(kind)
        refused = _player_refusal(player)
        if refused:
            return refused
        turn = self._turn
        if turn is None or (player is not None and player != turn):
            return Refused(Refusal.NOT_YOUR_TURN)
        if kind is k.DOUBLE:
            return self._cube.refusal_to_double(turn, self._rules, self._crawford_game)
        if kind is k.BEAVER:
            return self._cube.refusal_to_beaver(self._rules)
        return None

    def _phase_refusal(self, kind: ActionKind) -> Refused:
        """Why ``kind`` does not fit what the game waits for."""
        phase = self._phase
        k = ActionKind
        if phase is GamePhase.OVER:
            return Refused(Refusal.GAME_OVER)
        if phase is GamePhase.OPENING:
            return Refused(Refusal.NOT_STARTED)
        if phase is GamePhase.RESIGNED:
            return Refused(Refusal.RESIGNATION_PENDING)
        if phase is GamePhase.DOUBLED:
            return Refused(Refusal.DOUBLE_PENDING)
        if kind in (k.TAKE, k.PASS, k.BEAVER):
            return Refused(Refusal.NO_DOUBLE)
        if kind in (k.ACCEPT_RESIGNATION, k.REJECT_RESIGNATION):
            return Refused(Refusal.NO_RESIGNATION)
        return Refused(Refusal.DICE_NOT_ROLLED if phase is GamePhase.ROLL else Refusal.DICE_ROLLED)

    def _refusal_error(self, kind: object, refused: Refused) -> IllegalActionError:
        """The error that refuses ``kind``: the reason, and the core's message for it (the action
        and the state of play in a player's words)."""
        r, words, waiting = refused.refusal, refused.words(), self.awaiting()
        name = _action_words(kind)
        if kind == ActionKind.UNDO and (r in PHASE_REFUSALS or r is Refusal.NOTHING_TO_UNDO):
            message = tr("cannot undo: there is no play to take back; {waiting}", waiting=waiting)
        elif r in PHASE_REFUSALS:
            message = tr("cannot {action}: {waiting}", action=name, waiting=waiting)
        elif r in (Refusal.BAD_RESIGNATION, Refusal.NOT_A_GAME_ACTION, Refusal.ILLEGAL_PLAY):
            message = words
        elif r is Refusal.PLAYER_NEEDED:
            message = f"{words}; {waiting}"
        else:
            message = tr("cannot {action}: {reason}; {waiting}", action=name, reason=words, waiting=waiting)
        return IllegalActionError(message, refused)

    def _act(self, request: Request, throw: Callable[[], Dice] | None = None,
             recorded: bool = False) -> Dice | Play | None:
        """The one dispatch of every action: check ``request`` (nothing changes when it is
        refused), then make it. A roll throws ``throw`` (default: the game's dice source);
        returns the dice of a roll, the play made, else None. A ``recorded`` cube action may pass
        the highest cube (:meth:`Cube.allows_recorded`)."""
        refused = self._refusal(request)
        if refused and not (recorded and self._cube.allows_recorded(refused, self._rules)):
            raise self._refusal_error(request.kind, refused)
        kind = ActionKind(request.kind)
        k = ActionKind
        if kind is k.ROLL:
            return self._roll(throw or self._dice_source.roll)
        if kind is k.PLAY:
            return self._play(self._chosen_play(request.play))
        player = request.player
        if kind is k.ABANDON:
            assert player is not None  # checked
            self._history.append(Abandon(player))
            self._finish(1 - player, WinKind.BACKGAMMON, "abandon")
            return None
        if kind is k.UNDO:
            self._undo()
            return None
        turn = self._turn
        assert turn is not None  # every phase these actions fit has a player to act
        if kind is k.RESIGN:
            resigner = turn if player is None else player
            offered = WinKind(cast(int, request.win_kind))
            self._history.append(Resign(resigner, offered))
            self._resignation = _Resignation(resigner, offered, self._phase, turn)
            self._turn, self._phase = 1 - resigner, GamePhase.RESIGNED
        elif kind is k.DOUBLE:
            self._history.append(Double(turn, self._cube.value * 2))
            self._turn, self._phase = 1 - turn, GamePhase.DOUBLED
        elif kind is k.TAKE:
            self._history.append(Take(turn))
            self._cube = self._cube.taken(turn)
            self._turn, self._phase = 1 - turn, GamePhase.ROLL
        elif kind is k.PASS:
            self._history.append(Pass(turn))
            self._finish(1 - turn, WinKind.SINGLE, "pass")
        elif kind is k.BEAVER:
            self._cube = self._cube.beavered(turn)
            self._history.append(Beaver(turn, self._cube.value))
            self._turn, self._phase = 1 - turn, GamePhase.ROLL
        elif kind is k.ACCEPT_RESIGNATION:
            offer = self._offer()
            self._history.append(AcceptResignation(turn))
            self._finish(turn, offer.win_kind, "resign")
        elif kind is k.REJECT_RESIGNATION:
            offer = self._offer()
            self._history.append(RejectResignation(turn))
            self._resignation = None
            self._turn, self._phase = offer.turn, offer.phase
        return None

    def _roll(self, throw: Callable[[], Dice]) -> Dice:
        if self._phase is GamePhase.OPENING:
            ties: list[Dice] = []
            while True:
                dice = check_dice(throw())
                if dice[0] != dice[1]:
                    break
                ties.append(dice)
                if len(ties) > _MAX_OPENING_TIES:
                    raise IllegalActionError(f"the dice source threw {len(ties)} ties in a row")
            mover = 0 if dice[0] > dice[1] else 1
            self._history.append(Roll(mover, dice, opening=True, ties=tuple(ties)))
            self._cube = self._cube.after_opening_ties(len(ties), self._rules)
        else:
            assert self._turn is not None  # the ROLL phase has a player on roll
            mover = self._turn
            dice = check_dice(throw())
            self._history.append(Roll(mover, dice))
        self._turn, self._dice, self._phase = mover, dice, GamePhase.MOVE
        if not self._plays_of(self.position, dice):
            self._history.append(PlayMade(mover, dice, None))
            self._pass_turn()
        return dice

    def _chosen_play(self, play: Play | str | None) -> Play:
        """The legal play ``play`` names (in the MOVE phase); the notation's errors propagate."""
        position, dice = self.position, self._dice
        assert dice is not None  # the MOVE phase always has dice
        if isinstance(play, str):
            chosen = self._written_play(play, position, dice)
            return chosen if chosen is not None else position.parse_play(play, dice)
        if isinstance(play, Play):
            legal = self._plays_of(position, dice)
            if play not in legal:
                raise IllegalMoveError(_illegal_play_words(play, position, dice, legal))
            return legal[legal.index(play)]
        refused = Refused(Refusal.ILLEGAL_PLAY,
                          detail=f"play must be a Play or its notation, got {cut(repr(play))}")
        raise IllegalActionError(refused.words(), refused)

    def _play(self, chosen: Play) -> Play:
        mover, dice = self._turn, self._dice
        assert mover is not None and dice is not None  # the MOVE phase
        self._history.append(PlayMade(mover, dice, chosen))
        self._board0 = chosen.after if mover == 1 else chosen.after.flip()
        if chosen.after.off[1] == CHECKERS:
            self._finish(mover, win_kind(chosen.after), "bear_off")
        else:
            self._pass_turn()
        return chosen

    def _undo(self) -> None:
        move = self._undoable_move()
        assert move is not None and move.play is not None  # checked: only plays are taken back
        self._history.pop()
        start = move.play.position
        self._board0 = start if move.player == 0 else start.flip()
        self._turn, self._dice, self._phase = move.player, move.dice, GamePhase.MOVE

    # --- replay ----------------------------------------------------------------------------

    @classmethod
    def replay(cls, actions: Iterable[Action], rules: Rules | None = None,
               score: tuple[int, int] = (0, 0), crawford_game: bool = False,
               dice: DiceSource | None = None) -> Game:
        """Rebuild a game by applying ``actions`` (a ``history``) to a fresh Game, each roll with
        its recorded dice; ``dice`` then supplies the rolls after them. Raises
        :class:`IllegalActionError` if the actions do not replay to the same history."""
        actions = list(actions)
        game = cls(rules, dice, score, crawford_game)
        checked = 0  # history entries already compared with ``actions``
        for i, action in enumerate(actions):
            if not _is_pass(action):  # passed turns are made by the roll before them
                game.apply(action)
            done = game._history
            if len(done) <= i or done[checked:] != actions[checked:len(done)]:
                raise IllegalActionError(
                    f"the actions do not replay: action {i} {cut(repr(action))} gave {cut(repr(done[i:]))}")
            checked = len(done)
        if len(game._history) != len(actions):
            raise IllegalActionError(
                f"the actions do not replay: {len(actions)} actions gave {len(game._history)}")
        return game

    def apply(self, action: Request | Action) -> None:
        """Make a player's :class:`Request`, or a recorded action (an entry of some game's
        ``history``) by its player; both go through the one dispatch, refused with an
        :class:`IllegalActionError` whose ``refused`` says why (a play's notation and legality
        errors propagate). A recorded roll is made with its recorded dice (and, for the opening
        roll, its ties), not with this game's dice source. A passed turn was made by its roll:
        applying it right after that roll does nothing."""
        if isinstance(action, Request):
            self._act(action)
            return
        if not isinstance(action, (Roll, PlayMade, *_RECORDED)):
            raise IllegalActionError(f"{cut(repr(action))} is not a game action")
        p = action.player
        if isinstance(action, Roll):
            self._apply_roll(action)
            return
        if isinstance(action, PlayMade):
            if action.play is None:
                if self._history and self._history[-1] == action:
                    return
                raise IllegalActionError(f"{action!r} is a passed turn, which its roll makes")
            played = check_dice(action.dice)  # a record's dice, quoted when they are none
            if self._dice is not None and sorted(played) != sorted(self._dice):
                raise IllegalActionError(
                    f"cannot play: the play is of {_roll_text(played)} but the dice are "
                    f"{_roll_text(self._dice)}")
            self._act(Request(ActionKind.PLAY, p, play=action.play))
            return
        if isinstance(action, Double | Beaver):
            value = self._cube.value * (2 if isinstance(action, Double) else 4)
            if action.cube_value != value:  # a match file's "Doubles => N" with a wrong N
                raise IllegalActionError(
                    tr("doubles to {given} with the cube at {cube}, which makes {value}",
                       given=action.cube_value, cube=self._cube.value, value=value)
                    if isinstance(action, Double) else
                    tr("beavers to {given} with the cube at {cube}, which makes {value}",
                       given=action.cube_value, cube=self._cube.value, value=value))
        offered = action.win_kind if isinstance(action, Resign) else None
        self._act(Request(action.kind, p, win_kind=offered), recorded=True)

    def _apply_roll(self, action: Roll) -> None:
        """Roll ``action``'s dice, checked first so that a refused roll changes nothing."""
        if not isinstance(action.ties, tuple | list):
            raise IllegalActionError(
                f"the opening roll's ties are a list of doubles, got {cut(repr(action.ties))}")
        throws = [check_dice(d) for d in (*action.ties, action.dice)]
        if action.opening:
            if self._phase is not GamePhase.OPENING:
                raise IllegalActionError(
                    tr("cannot make the opening roll: {waiting}", waiting=self.awaiting()))
            if action.dice[0] == action.dice[1]:
                raise IllegalActionError(  # a match file's first roll
                    tr("the opening roll {dice} cannot be a double: each player throws one die and "
                       "the higher plays both (ties are thrown again)", dice=_roll_text(action.dice)))
            if any(a != b for a, b in action.ties):
                raise IllegalActionError(f"the opening roll's ties {action.ties} must be doubles")
            if (action.dice[0] > action.dice[1]) != (action.player == 0):
                raise IllegalActionError(
                    f"the record gives the opening roll to the player who threw {min(action.dice)}, "
                    f"but the {max(action.dice)} wins it")
        elif action.ties or self._phase is GamePhase.OPENING:
            raise IllegalActionError(f"the roll {_roll_text(action.dice)} is not the opening roll, "
                                     "which must come first")
        script = iter(throws)
        self._act(Request(ActionKind.ROLL, None if action.opening else action.player),
                  lambda: next(script))

    # --- internals ---------------------------------------------------------------------------

    def awaiting(self) -> str:
        """The state of play in a player's words (for messages: what the game waits for)."""
        phase = self._phase
        if phase is GamePhase.OPENING:
            return tr("the game starts with the opening roll")
        if phase is GamePhase.ROLL:
            return tr("the player on roll is to roll or double")
        if phase is GamePhase.MOVE and self._dice:
            return tr("the player on roll is to play {dice}", dice=_roll_text(self._dice))
        if phase is GamePhase.MOVE:
            return tr("the player on roll is to play the dice")
        if phase is GamePhase.DOUBLED:
            return tr("a double waits for its answer")
        if phase is GamePhase.RESIGNED:
            return tr("an offer to resign waits for its answer")
        return tr("the game is over")

    def _offer(self) -> _Resignation:
        if self._resignation is None:  # the RESIGNED phase always has an offer
            raise IllegalActionError(tr("no resignation is offered; {waiting}", waiting=self.awaiting()))
        return self._resignation

    def _plays_of(self, position: Position, dice: Dice) -> list[Play]:
        # Remembered for the position and roll being played: roll(), legal_plays() and play()
        # all need them, and a UI asks legal_plays() often.
        memo = self._plays_memo
        if memo is None or memo[0] != position or memo[1] != dice:
            memo = self._plays_memo = (position, dice, position.legal_plays(dice))
        return memo[2]

    def _undoable_move(self) -> PlayMade | None:
        last = self._history[-1] if self._history else None
        if self._phase is GamePhase.ROLL and isinstance(last, PlayMade) and last.play is not None:
            return last
        return None

    def _pass_turn(self) -> None:
        if self._turn is None:
            raise IllegalActionError(
                tr("no player to pass the turn from; {waiting}", waiting=self.awaiting()))
        self._turn, self._dice, self._phase = 1 - self._turn, None, GamePhase.ROLL

    def _finish(self, winner: int, kind: WinKind, reason: Reason) -> None:
        cube = self._cube
        if reason == "abandon":
            points = cube.value * int(kind)  # abandoning loses a backgammon, Jacoby or not
        else:
            points = self._rules.points(kind, cube.value, cube.owner)
        self._result = GameResult(winner, kind, cube.value, points, reason)
        self._turn, self._dice, self._resignation = None, None, None
        self._phase = GamePhase.OVER

    def __copy__(self) -> Game:
        """``copy.copy(game)``: a game that goes on on its own from here (a history of its own: a
        shallow copy sharing the list would record the copy's actions in this game's history too),
        drawing from the same dice source; ``copy.deepcopy`` copies the dice source as well."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._history = list(self._history)
        return twin

    def __repr__(self) -> str:
        return (f"<Game {self._phase.name} turn={self._turn} dice={self._dice} cube={self._cube.value}"
                f"/{self._cube.owner} position={self._board0.id} actions={len(self._history)}>")


def _words(action: str) -> str:
    """A method name as words: "accept_resignation" -> "accept the resignation"."""
    return action.replace("_", " the ")


def _action_words(kind: object) -> str:
    """A refused action in the current language, as "cannot {action}" names it ("accept the
    resignation"); the table is worded at each refusal, which is rare."""
    names = {
        ActionKind.ROLL: ptr("refused action", "roll"),
        ActionKind.PLAY: ptr("refused action", "play"),
        ActionKind.DOUBLE: ptr("refused action", "double"),
        ActionKind.TAKE: ptr("refused action", "take"),
        ActionKind.PASS: ptr("refused action", "pass"),
        ActionKind.BEAVER: ptr("refused action", "beaver"),
        ActionKind.RESIGN: ptr("refused action", "resign"),
        ActionKind.ACCEPT_RESIGNATION: ptr("refused action", "accept the resignation"),
        ActionKind.REJECT_RESIGNATION: ptr("refused action", "reject the resignation"),
        ActionKind.ABANDON: ptr("refused action", "abandon"),
        ActionKind.UNDO: ptr("refused action", "undo"),
    }
    return names[kind] if isinstance(kind, ActionKind) else _words(str(kind))


def _roll_text(dice: Dice) -> str:
    return f"{max(dice)}-{min(dice)}"


def _is_pass(action: Action) -> bool:
    return isinstance(action, PlayMade) and action.play is None


def _illegal_play_words(play: Play, position: Position, dice: Dice, legal: list[Play]) -> str:
    """Why the :class:`Play` object ``play`` is refused, in the words the notation's errors use
    for the same play written out (the dice as "6-2", the rule it breaks where one does)."""
    typed = repr(cut(str(play)))
    where = position_words(position, dice)
    shown = ", ".join(str(p) for p in legal[:4])
    if play.position != position:
        return tr("{text} is a play from position {other}, not {where}; legal plays include {plays}",
                  text=typed, other=play.position.id, where=where, plays=shown)
    # a hand-made Play may hold any steps: only points 0-25 can be looked at on the board
    steps = play.steps
    sane = all(0 <= a <= BAR and 0 <= b < a for a, b in steps)
    why = why_illegal(position, steps, dice, legal) if sane and legal else ""
    if why:
        return tr("{text} is not a legal play {where}: {why}; legal plays include {plays}",
                  text=typed, where=where, why=why, plays=shown)
    return tr("{text} is not a legal play {where}; legal plays include {plays}",
              text=typed, where=where, plays=", ".join(str(p) for p in legal[:6]))


def _player_refusal(player: object) -> Refused | None:
    if player is not None and (type(player) is not int or player not in (0, 1)):
        return Refused(Refusal.NOT_A_PLAYER, detail=cut(repr(player)))
    return None


def _check_player_value(player: object) -> None:
    if player is not None and (type(player) is not int or player not in (0, 1)):
        raise IllegalActionError(f"a player is 0 or 1, got {cut(repr(player))}")
