"""Computer players for the terminal and the web: checker play plus a simple, documented cube policy.

A :class:`ComputerPlayer` answers for the player whose turn it is in a :class:`gammon.game.Game`
(``game.turn``; ``game.position`` is seen from that player). Levels:

* ``random``: a uniformly random legal play (seeded);
* ``pubeval``: Tesauro's pubeval (:mod:`gammon.engine.pubeval`);
* ``engine-0ply`` / ``engine``: :class:`gammon.Engine` at 0 ply / its default depth, with its own
  cube decisions, when the trained net is installed.

Cube and resignation policy of random and pubeval (the engine levels judge both with the engine), a heuristic,
not an evaluation: the mover's chance to win is estimated from the pip counts with a normal
approximation of the race (:func:`gammon.primitives.race_win_chance`),
``p = Phi((opponent pips - mover pips + 4) / (2.13 * sqrt(mean pips)))`` (4 pips for being on roll;
2.13 * sqrt(pips) is the spread of the difference of two players' dice totals over a race), so that
the 8%-lead doubling point of race theory gives p ~ 0.7 and a 12% deficit p ~ 0.23. Then:

* double when p >= 0.70 in a race, p >= 0.75 in contact (gammons make contact volatile), unless the
  cube already wins the match;
* take when the taker's p >= 0.25 in a race, >= 0.30 in contact; beaver (when allowed) at p >= 0.60;
* accept a resignation when the points offered are at least the expected winnings
  ``cube * (2p - 1 + g + b)``, g and b being rough gammon and backgammon chances (both 0 once the
  resigner has borne off or gammons do not count). b is the chance that the resigner loses the
  race to get its checkers off the bar and out of the winner's home board before the winner bears
  off, the same normal approximation with the pips those checkers need to leave that board against
  the winner's pip count (0 with none there), at most p; g is 0.3 if the resigner still has
  checkers outside its home board, else 0.1, and at least b. Points beyond what wins a match are
  worth nothing.
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from gammon.engine.cube.resignation import judge_resignation
from gammon.engine.pubeval import pubeval_best_play
from gammon.errors import IllegalActionError, cut
from gammon.game import ActionKind, GamePhase, Request
from gammon.i18n import tr
from gammon.position import Position
from gammon.primitives import race_win_chance

if TYPE_CHECKING:
    from gammon.game import Game
    from gammon.play import Play

CubeAnswer = Literal["take", "pass", "beaver"]

DOUBLE_RACE = 0.70
DOUBLE_CONTACT = 0.75
TAKE_RACE = 0.25
TAKE_CONTACT = 0.30
BEAVER = 0.60


@dataclass(frozen=True)
class ComputerAction:
    """The computer's next action in a game: its kind (roll, double, play, take, pass, beaver,
    accept or reject a resignation) and, for a play, the play."""

    kind: ActionKind
    play: Play | None = None

    def request(self, player: int | None = None) -> Request:
        """This action as the request every front end submits (``player``: the computer's seat,
        or None for whoever must act)."""
        return Request(self.kind, player, play=self.play)

    def perform(self, game: Game) -> None:
        """Make this action in ``game`` (a roll with the game's own dice)."""
        game.apply(self.request())


class ComputerPlayer(Protocol):
    """What a computer opponent does when it is its turn to act in ``game``."""

    level: str

    def next_action(self, game: Game) -> ComputerAction: ...

    def choose_play(self, game: Game) -> Play | None: ...

    def wants_to_double(self, game: Game) -> bool: ...

    def answer_double(self, game: Game) -> CubeAnswer: ...

    def accepts_resignation(self, game: Game) -> bool: ...


def may_beaver(game: Game) -> bool:
    """The rules let the double on offer be beavered: money play with beavers, and the cube
    limit (or the highest cube) allows twice the doubled cube (the game refuses a beaver past it)."""
    rules = game.rules
    return rules.is_money and rules.beavers and 4 * game.cube_value <= rules.highest_cube


def win_chance(position: Position) -> float:
    """Rough chance that the player on roll in ``position`` wins (see the module docstring)."""
    return race_win_chance(*position.pip_counts)


def backgammon_chance(resigner_view: Position) -> float:
    """Rough chance that the player on roll in ``resigner_view``, with none borne off, is still on
    the bar or in the opponent's home board when the opponent has borne off (see the module
    docstring): a race of the pips its checkers there need to leave that board against the
    opponent's pip count."""
    board = resigner_view.board
    # slots 19-24 are the opponent's home board from the resigner's view, 25 its bar: 7 pips out
    escape = sum(board[s] * (s - 18) for s in range(19, 26) if board[s] > 0)
    if escape == 0:
        return 0.0
    return 1.0 - race_win_chance(escape, resigner_view.pip_counts[1])


class HeuristicCube:
    """The cube and resignation policy of the module docstring, shared by every level, and the one
    way every front end asks a computer player what to do next."""

    def choose_play(self, game: Game) -> Play | None:
        raise NotImplementedError

    def next_action(self, game: Game) -> ComputerAction:
        """What to do now, the computer being the player to act in ``game``."""
        phase = game.phase
        if phase is GamePhase.ROLL:
            return ComputerAction(ActionKind.DOUBLE if self.wants_to_double(game) else ActionKind.ROLL)
        if phase is GamePhase.MOVE:
            play = self.choose_play(game)
            if play is None:  # the MOVE phase always has a legal play: the roll passes otherwise
                raise IllegalActionError(f"the computer found no play in {game.position.id}")
            return ComputerAction(ActionKind.PLAY, play)
        if phase is GamePhase.DOUBLED:
            return ComputerAction(ActionKind(self.answer_double(game)))
        if phase is GamePhase.RESIGNED:
            return ComputerAction(ActionKind.ACCEPT_RESIGNATION if self.accepts_resignation(game)
                                  else ActionKind.REJECT_RESIGNATION)
        raise IllegalActionError("the computer has nothing to do: the game has not started or is over")

    def wants_to_double(self, game: Game) -> bool:
        if not game.can_double():
            return False
        rules = game.rules
        me = game.turn
        if me is None:
            return False
        if rules.match_length and game.score[me] + game.cube_value >= rules.match_length:
            return False  # the cube already wins the match: doubling only risks more
        p = win_chance(game.position)
        return p >= (DOUBLE_RACE if game.position.is_race() else DOUBLE_CONTACT)

    def answer_double(self, game: Game) -> CubeAnswer:
        # game.position is the taker's view; the doubler is on roll.
        doubler_view = game.position.flip()
        p = 1.0 - win_chance(doubler_view)
        if p >= BEAVER and may_beaver(game):
            return "beaver"
        return "take" if p >= (TAKE_RACE if doubler_view.is_race() else TAKE_CONTACT) else "pass"

    def accepts_resignation(self, game: Game) -> bool:
        kind = game.offered_resignation
        if kind is None:
            return False
        # game.position is the view of the player asked to accept; the resigner is its opponent.
        resigner_view = game.position.flip()
        p = 1.0 - win_chance(resigner_view)
        if resigner_view.off[0] > 0 or not game.rules.gammons_count(game.cube_owner):
            g = b = 0.0
        else:
            b = min(backgammon_chance(resigner_view), p)
            g = max(0.3 if any(c > 0 for c in resigner_view.board[7:26]) else 0.1, b)
        cube = game.cube_value
        offered = int(kind) * cube
        expected = cube * (2 * p - 1 + g + b)
        rules = game.rules
        if rules.match_length and game.turn is not None:
            needed = rules.match_length - game.score[game.turn]
            offered = min(offered, needed)
            expected = min(expected, needed)
        return offered >= expected


class RandomPlayer(HeuristicCube):
    """A uniformly random legal play; reproducible with ``seed``."""

    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose_play(self, game: Game) -> Play | None:
        plays = game.legal_plays()
        return self._rng.choice(plays) if plays else None


class PubevalPlayer(HeuristicCube):
    """Tesauro's pubeval: the reference opponent of the strength benchmarks."""

    level = "pubeval"

    def choose_play(self, game: Game) -> Play | None:
        if game.dice is None:
            return None
        return pubeval_best_play(game.position, game.dice)


class EnginePlayer(HeuristicCube):
    """The engine's best play (:class:`gammon.Engine`) and its cube decisions; resignations by the
    heuristic."""

    def __init__(self, engine: Any, level: str) -> None:
        self.engine = engine
        self.level = level

    def choose_play(self, game: Game) -> Play | None:
        if game.dice is None:
            return None
        return self.engine.best_play(game)  # a Game: in a match the play the score calls for

    def wants_to_double(self, game: Game) -> bool:
        return game.can_double() and self.engine.cube_decision(game).should_double

    def accepts_resignation(self, game: Game) -> bool:
        # the engine's judgement, not the heuristic's (which cannot see a certain backgammon),
        # from the position a rejection returns to, the resigner on roll or not, after its roll
        # from its best play of the dice
        answer = judge_resignation(self.engine, game.situation())
        return answer is not None and answer.accept

    def answer_double(self, game: Game) -> CubeAnswer:
        # While a double is pending the engine judges it from the doubler's side; ``take`` and
        # ``beaver`` are the right answers for the player asked.
        decision = self.engine.cube_decision(game)
        if decision.beaver and may_beaver(game):
            return "beaver"
        return "take" if decision.take else "pass"


def engine_available() -> bool:
    """True when the trained net loads: the engine levels are pointless on its pip-count fallback."""
    try:  # start-up: the engine (its kernels, its net) loads only when an engine level is asked for
        from gammon.engine.engine import default_evaluator
        from gammon.engine.net.evaluator import PipCountEvaluator
    except ImportError:
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return not isinstance(default_evaluator(), PipCountEvaluator)


BASIC_LEVELS = ("random", "pubeval")
ENGINE_LEVELS = ("engine-0ply", "engine")


def available_levels() -> tuple[str, ...]:
    """The levels :func:`computer_player` can build here (engine levels need the trained net)."""
    return BASIC_LEVELS + (ENGINE_LEVELS if engine_available() else ())


def computer_player(level: str, seed: int | None = None) -> ComputerPlayer:
    """A computer player of ``level`` ("random", "pubeval", "engine-0ply", "engine")."""
    if level == "random":
        return RandomPlayer(seed)
    if level == "pubeval":
        return PubevalPlayer()
    if level in ENGINE_LEVELS:
        if not engine_available():
            raise ValueError(tr("level {level} needs the engine's trained net, which is not installed",
                                level=repr(level)))
        from gammon.engine.engine import Engine  # start-up: as in engine_available

        return EnginePlayer(Engine(plies=0) if level == "engine-0ply" else Engine(), level)
    # a new match's level, from the browser's start page or the API: read in the user's language
    raise ValueError(tr("unknown computer level {level}; choose from {levels}", level=cut(repr(level)),
                        levels=", ".join(available_levels())))
