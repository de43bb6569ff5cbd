"""The computer player's public face: ``Engine`` picks plays, evaluates positions, gives hints and
cube decisions, at 0, 1 or 2 ply, over any evaluator (the trained net by default)."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from gammon.dice import check_dice
from gammon.engine.bearoff.one_sided import BearoffDatabase, default_bearoff
from gammon.engine.cube.cubeful import CubeState, cube_efficiency
from gammon.engine.cube.cubeful_search import cubeful_values, match_values
from gammon.engine.cube.decision import CubeDecision, match_cube_decision, money_cube_decision
from gammon.engine.cube.stakes import Stakes
from gammon.engine.net.evaluator import Evaluator, PipCountEvaluator, Probabilities, cubeless_equity
from gammon.engine.net.neural import NeuralEvaluator
from gammon.engine.rollout import rollouts as _rollout
from gammon.engine.search.searcher import MoveFilter, Searcher, SearchSettings
from gammon.errors import InvalidArgumentError, InvalidPositionError, cut
from gammon.game import Game
from gammon.movegen import generate_arrays
from gammon.play import Play
from gammon.position import Position, require_in_play, require_position
from gammon.situation import CubeOwner, Situation

DEFAULT_PLIES = 2
"""Plies of ``Engine()``: 2 ply with the default filters (its time and strength against GNU
Backgammon's: docs/measurements.md)."""


MATCH_CANDIDATES = 5
"""In a match, the plays a deeper search keeps (by money equity) before they are ranked by match
winning chances; at 0 ply, where every play is evaluated anyway, all of them are ranked."""
_EVERY_PLAY = 1 << 30


class Hint(NamedTuple):
    """One ranked play: probabilities and cubeless equity for the player who plays it; in a match
    also ``mwc``, that player's match winning chance after the play, cubeful (the opponent to roll
    with its cube options at the score: :class:`~gammon.engine.cube.stakes.Stakes`), which ranks
    the plays there."""

    play: Play
    probabilities: Probabilities
    equity: float
    plies: int
    mwc: float | None = None


@lru_cache(maxsize=1)
def default_evaluator() -> Evaluator:
    """The trained net (``NeuralEvaluator.default()``) when installed, else the pip-count race
    evaluator with a warning (much weaker)."""
    try:
        return NeuralEvaluator.default()
    except (ImportError, OSError, ValueError) as e:
        warnings.warn(
            f"the neural evaluator is not available ({e}); using the pip-count evaluator",
            RuntimeWarning,
            stacklevel=2,
        )
        return PipCountEvaluator()


def _with_cache(evaluator: Evaluator, nbytes: int) -> Evaluator:
    """``evaluator`` with an evaluation cache of ``nbytes`` bytes: a neural evaluator over the same
    nets (not copied; a change made to them in place later needs ``weights_changed()`` on this one
    too) unless its cache has that size already. Another kind of evaluator has no such cache."""
    if not isinstance(evaluator, NeuralEvaluator):
        raise InvalidArgumentError(f"cache_bytes needs a neural evaluator, not {type(evaluator).__name__}")
    if evaluator.cache.limit == nbytes:
        return evaluator
    return evaluator.replaced(cache_bytes=nbytes)


class Engine:
    """``Engine(plies=2)``: best plays, evaluations, hints and cube decisions.

    ``plies`` is 0, 1 or 2 (default :data:`DEFAULT_PLIES`); ``evaluator`` defaults to the trained
    net (at 0 ply its 0-ply nets, :meth:`NeuralEvaluator.at_zero_ply`: a given evaluator plays as it
    is, at every depth; :meth:`with_weights` plays other weights as the shipped ones);
    ``settings`` overrides the search (plies and move filters) entirely. ``cache_bytes`` sizes the
    neural evaluator's evaluation cache (:mod:`gammon.engine.net.cache`, a table of at most that
    many bytes, 52 a board; 0 caches nothing; each of its cube nets keeps an eighth of that again);
    by default the evaluator keeps its own (8 MiB for the trained net, shared by every Engine made
    without an evaluator). With a size, the Engine gets an evaluator of its own over the same nets,
    with a cache of that size.
    """

    def __init__(
        self,
        plies: int | None = None,
        evaluator: Evaluator | None = None,
        *,
        settings: SearchSettings | None = None,
        bearoff: bool = True,
        cache_bytes: int | None = None,
    ) -> None:
        if plies is not None:
            plies = _check_plies(plies)
        if settings is None:
            settings = SearchSettings(plies=DEFAULT_PLIES if plies is None else plies)
        elif not isinstance(settings, SearchSettings):
            raise InvalidArgumentError(
                f"settings must be a SearchSettings or None, got {cut(repr(settings))}")
        else:
            # SearchSettings takes 1.0 for 1 (1.0 in (0, 1, 2)); the search counts with an int
            checked = _check_plies(settings.plies)
            if type(settings.plies) is not int:
                settings = replace(settings, plies=checked)
            if plies is not None and plies != settings.plies:
                raise InvalidArgumentError(
                    f"plies={plies!r} disagrees with settings.plies={settings.plies!r}")
        if evaluator is not None and not callable(getattr(evaluator, "evaluate", None)):
            raise InvalidArgumentError(f"evaluator must be an Evaluator (with evaluate(boards)) or None, "
                             f"got {cut(repr(evaluator))}")
        self.settings = settings
        if evaluator is None:
            evaluator = default_evaluator()
            if settings.plies == 0 and isinstance(evaluator, NeuralEvaluator):
                evaluator = evaluator.at_zero_ply()
        self.evaluator = evaluator
        if cache_bytes is not None:
            self.evaluator = _with_cache(self.evaluator, cache_bytes)
        self._searcher = Searcher(self.evaluator, default_bearoff() if bearoff else None)

    @classmethod
    def with_weights(cls, weights: NeuralEvaluator | None, plies: int | None = None) -> Engine:
        """``Engine(plies)`` playing the nets of ``weights`` (None: the shipped ones) as it plays the
        shipped ones: at 0 ply with their 0-ply nets where they have them
        (:meth:`NeuralEvaluator.at_zero_ply`), which ``Engine(plies=0, evaluator=weights)`` would not."""
        if weights is None:
            return cls(plies)
        if not isinstance(weights, NeuralEvaluator):
            raise InvalidArgumentError(f"weights must be a NeuralEvaluator or None, got {cut(repr(weights))}")
        plies = DEFAULT_PLIES if plies is None else _check_plies(plies)
        return cls(plies, weights.at_zero_ply() if plies == 0 else weights)

    @property
    def plies(self) -> int:
        return self.settings.plies

    @property
    def bearoff(self) -> BearoffDatabase | None:
        """The one-sided bear-off database the search uses (None: ``Engine(bearoff=False)``)."""
        return self._searcher.bearoff

    def __repr__(self) -> str:
        return f"Engine(plies={self.plies}, evaluator={type(self.evaluator).__name__})"

    # --- checker play --------------------------------------------------------------------------

    def _ranked(
        self, position: Position, dice: Sequence[int]
    ) -> tuple[tuple[int, int], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        d = check_dice(dice)
        _, after, steps = generate_arrays(require_in_play(position, "a play", "play").as_array(), d)
        if len(after) <= 1:
            return d, after, steps, np.arange(len(after)), np.zeros((len(after), 5))
        order, probs, _ = self._searcher.rank_plays(after, self.settings)
        return d, after, steps, order, probs

    def best_play(
        self, decision: Situation | Game | Position, dice: Sequence[int] | None = None
    ) -> Play | None:
        """The best legal play for ``dice`` (by default the Situation's, or the Game's roll), or
        None when there is no legal play. In a match (a Situation or Game with a match score) the
        best by match winning chances (:meth:`hint`); a bare Position is a money game."""
        if type(decision) is Position and dice is not None:
            # a money decision, the usual one, at once: at 0 ply each step costs 1% of its search
            position, match = decision, None
        else:
            position, dice, match = _position_and_dice(decision, dice, "a play")
        if match is not None:
            hints = self._match_hints(match, position, check_dice(dice), 1)
            return hints[0].play if hints else None
        if self.settings.plies == 0:
            # hot path of 0-ply play: the best play leaves the opponent the lowest equity
            d = check_dice(dice)
            # the search checks that the game is in play: here that costs more than its search
            chosen = self._searcher.chosen_play(position.as_array(), d)
            return None if chosen is None else Play.from_kernel(position, d, *chosen)
        d, after, steps, order, _ = self._ranked(position, dice)
        if len(after) == 0:
            return None
        best = int(order[0])
        return Play.from_kernel(position, d, steps[best].tolist(), after[best].tolist())

    def hint(
        self, decision: Situation | Game | Position, dice: Sequence[int] | None = None, n: int = 5
    ) -> list[Hint]:
        """The ``n`` best plays of ``dice`` (by default the Situation's or the Game's), best first,
        each with probabilities and cubeless equity for the player on roll and the ply they come
        from. The move filters keep at least ``n`` plays, so all of them are searched at the
        engine's plies.

        In a match (a Situation or Game with a match score) the plays are ranked by the player's
        match winning chance after them (``Hint.mwc``), as the score values gammons and the cube:
        at 0 ply all of them, deeper the best :data:`MATCH_CANDIDATES` (or ``n``, if more) by
        money equity that the search keeps. A bare Position is a money game."""
        position, dice, match = _position_and_dice(decision, dice, "a hint")
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise InvalidArgumentError(f"n must be a positive number of plays, got {cut(repr(n))}")
        d = check_dice(dice)
        if match is not None:
            return self._match_hints(match, position, d, n)
        return self._hints(position, d, n)

    def _hints(self, position: Position, d: tuple[int, int], n: int) -> list[Hint]:
        """The ``n`` best plays by money equity (the search's own ranking)."""
        _, after, steps = generate_arrays(require_in_play(position, "a hint", "play").as_array(), d)
        if len(after) == 0:
            return []
        # the n plays shown are all searched to full depth, so their equities compare
        order, probs, plies = self._searcher.rank_plays(after, self.settings, at_least=n)
        out = []
        for i, p, ply in list(zip(order, probs, plies))[:n]:
            play = Play.from_kernel(position, d, steps[i].tolist(), after[i].tolist())
            out.append(Hint(play, Probabilities.from_array(p), float(cubeless_equity(p)), int(ply)))
        return out

    def _match_hints(self, s: Situation, position: Position, d: tuple[int, int], n: int) -> list[Hint]:
        """:meth:`_hints` of the best :data:`MATCH_CANDIDATES` (at least ``n``; at 0 ply every
        play) ranked by the mover's cubeful match winning chance after each play: one minus the
        opponent's, who is on roll there with its own cube options at the score."""
        # at 0 ply every play is evaluated anyway: ranking them all finds the few best by MWC that
        # money ranks below the fifth (20 of 3,000 judge-set decisions at seeded scores)
        wanted = max(n, MATCH_CANDIDATES) if self.settings.plies else _EVERY_PLAY
        hints = self._hints(position, d, wanted)
        if not hints:
            return []
        opponent = Stakes.seen_in(s, opponent=True)
        theirs = opponent.equities([h.play.after for h in hints], [h.probabilities.flip() for h in hints])
        ranked = [h._replace(mwc=1.0 - opponent.mwc(e)) for h, e in zip(hints, theirs)]
        # stable: plays the score values alike keep the search's order; a play that ends the game
        # first, as the search ranks it (its MWC is exact, a sure win's beside it only close)
        ranked.sort(key=lambda h: (not h.play.after.is_game_over(), -(h.mwc or 0.0)))  # every mwc is set
        return ranked[:n]

    # --- evaluation ----------------------------------------------------------------------------

    def evaluate(self, decision: Situation | Game | Position, plies: int | None = None) -> Probabilities:
        """Cubeless probabilities for the player on roll (before rolling) at ``plies`` (a Game's:
        its ``situation()``'s); where the opponent has borne off every checker, the loss it has
        suffered (the player on roll cannot have won already: InvalidPositionError)."""
        position = _situation(decision, "an evaluation").position
        depth = self.plies if plies is None else _check_plies(plies)
        mover_off, _ = require_position(position, "an evaluation").off
        if mover_off == 15:
            raise InvalidPositionError(f"the player on roll has already won in {position.id!r}")
        probs = self._searcher.evaluate_boards(position.as_array()[None, :], depth)[0]
        return Probabilities.from_array(probs)

    # --- cube ----------------------------------------------------------------------------------

    def cube_decision(self, decision: Situation | Game | Position) -> CubeDecision:
        """Double or not, and take or pass, for the player on roll of a
        :class:`~gammon.situation.Situation` (a Game's ``situation()``, or a bare Position: a
        money game, cube centred, Jacoby rule). While a double awaits its answer the Situation is
        the doubler's, so the decision is too. The player on roll may double when the rules, the
        Crawford game, the cube's owner and limit allow it, and it has not yet rolled (a double
        on offer is judged as made).

        The equities come from the cubeful search at the engine's plies
        (:mod:`gammon.engine.cube.cubeful_search`; exact for money in a bear-off of up to six checkers a
        side); the probabilities are the cubeless ones at those plies.
        """
        s = _situation(decision, "a cube decision")
        position, cube_value, cube_owner, match = s.position, s.cube_value, s.cube_owner, s.match
        jacoby, beavers = s.jacoby, s.beavers
        available = s.double_offered or (s.dice is None and s.resignation is None and s.can_double)
        require_in_play(position, "a cube decision", "double")
        x = cube_efficiency(position.is_race(), position.pip_counts[0])
        if match is None:
            # money: cubeful equities carried through the plies (gammon.engine.cube.cubeful_search)
            p, values = cubeful_values(
                self._searcher, position.as_array()[None, :], self.plies, jacoby=bool(jacoby)
            )
            return money_cube_decision(
                Probabilities.from_array(p[0]),
                cube_owner,
                x,
                jacoby=bool(jacoby),
                available=available,
                beavers=bool(beavers),
                values=values[0],
                doubles_left=_doubles_left(s),
            )
        # match: the same search in match winning chances
        states = [CubeState(cube_value, cube_owner), CubeState(2 * cube_value, CubeOwner.OPPONENT)]
        p, mwc = match_values(self._searcher, position.as_array()[None, :], self.plies, match, states)
        return match_cube_decision(
            Probabilities.from_array(p[0]),
            match,
            cube_value,
            cube_owner,
            x,
            available=available,
            mwc=(float(mwc[0, 0]), float(mwc[0, 1])),
        )

    # --- rollouts (gammon.engine.rollout.rollouts) ------------------------------------------------------

    rollout = _rollout.rollout
    rollout_plays = _rollout.rollout_plays
    rollout_cube = _rollout.rollout_cube


def _doubles_left(s: Situation) -> int | None:
    """How many more times the rules let the cube be doubled (0 without the cube), up to the
    highest cube when they set no limit."""
    if not s.rules.use_cube:
        return 0
    return max(s.rules.highest_cube // s.cube_value, 1).bit_length() - 1


def _check_plies(plies: object) -> int:
    """``plies`` as an int: 0, 1 or 2, not True or 1.0 (the search counts with it)."""
    if isinstance(plies, bool) or not isinstance(plies, int | np.integer) or plies not in (0, 1, 2):
        raise InvalidArgumentError(f"plies must be 0, 1 or 2, got {cut(repr(plies))}")
    return int(plies)


def _position_and_dice(
    decision: object, dice: Sequence[int] | None, what: str
) -> tuple[Position, Sequence[int], Situation | None]:
    """The position and dice of a play to choose, and its Situation when it is in a match (a
    Game's: its ``situation()``); None for money, a bare Position included."""
    if isinstance(decision, Game):
        decision = decision.situation()
    if isinstance(decision, Situation):
        if dice is None:
            if decision.dice is None:
                raise InvalidArgumentError(f"{what} needs dice: the Situation has none (give them)")
            dice = decision.dice
        return decision.position, dice, decision if decision.match is not None else None
    position = require_position(decision, what, "a Situation or a Game")  # the type before the dice
    if dice is None:
        raise InvalidArgumentError(f"{what} needs dice")
    return position, dice, None


def _situation(decision: object, what: str) -> Situation:
    """A Situation, a Game's situation or a bare Position as a money game."""
    if isinstance(decision, Game):
        return decision.situation()
    if isinstance(decision, Situation | Position):
        return Situation.of(decision)
    require_position(decision, what, "a Situation or a Game")  # neither: raises
    raise AssertionError("unreachable")


__all__ = [
    "DEFAULT_PLIES",
    "MATCH_CANDIDATES",
    "Engine",
    "Hint",
    "MoveFilter",
    "SearchSettings",
    "default_evaluator",
]
