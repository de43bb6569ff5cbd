"""Situation: the one frozen answer to "what is being decided".

A Situation holds the position, the dice (if rolled), the cube (value, owner, a double on offer),
a resignation on offer, the match (length, score, Crawford game) and the rules, all seen by the
**player on roll**: the player who rolls (or has rolled) the dice this turn. That is GNU
Backgammon's convention for a Position ID + Match ID (:mod:`gammon.formats.matchid`), and it holds
while an answer is awaited too: after a double (``double_offered``) or an offer to resign
(``resignation``) the position, the cube owner and the score stay those of the player on roll,
who doubled or offered, while the opponent is the player to act (:attr:`Situation.is_answer_pending`).
The engine judges such a double from the doubler's side (double/take/pass of the player on roll).
The opponent may resign too (``opponent_resigns``): while the player on roll is about to roll, or
instead of answering its double (``double_offered`` stays set: what a rejection returns to). The
player on roll is then the one to answer, and the view is still its own.

A bare :class:`~gammon.position.Position` is the money-game shorthand wherever a Situation is
expected: cube 1 centred, the Jacoby rule, no dice (:meth:`Situation.of`).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TypedDict, Unpack

from gammon.dice import Dice
from gammon.errors import InvalidArgumentError, cut
from gammon.position import Position
from gammon.rules import Rules, WinKind


class CubeOwner(Enum):
    """Who owns the cube, from the view of the player on roll."""

    CENTRED = "centred"
    MOVER = "mover"
    OPPONENT = "opponent"

    @classmethod
    def seen_by(cls, owner: int | None, player: int) -> CubeOwner:
        """The owner ``owner`` (player 0 or 1, None: centred) from ``player``'s view."""
        return cls.CENTRED if owner is None else cls.MOVER if owner == player else cls.OPPONENT

    def flip(self) -> CubeOwner:
        """The same owner from the other player's view (a centred cube stays centred)."""
        if self is CubeOwner.CENTRED:
            return self
        return CubeOwner.OPPONENT if self is CubeOwner.MOVER else CubeOwner.MOVER


def crawford_counts(crawford: bool, match_length: int, score: tuple[int, int]) -> bool:
    """A Crawford flag (a Match ID's bit, an XGID's rules field) as GNU Backgammon reads either ID:
    it counts in a match longer than a point with a side 1-away, double match point included,
    and is dropped elsewhere (a 1-point match has no Crawford game). Both IDs of one state, and the
    Situation they stand for, must read it alike: the flag decides whether the cube may be turned."""
    return crawford and match_length > 1 and match_length - 1 in score


@dataclass(frozen=True)
class MatchScore:
    """A match score from the player on roll's view, in points away; ``crawford_game`` while the
    Crawford game is played (no cube), ``post_crawford`` in the games after it (a side 1 away, the
    cube free). ``crawford_rule`` False: the match is played without the Crawford rule, so no game
    is the Crawford game and a side that reaches 1 away plays on with the cube free at once."""

    away: int
    opponent_away: int
    crawford_game: bool = False
    post_crawford: bool = False
    crawford_rule: bool = True

    def __post_init__(self) -> None:
        for name in ("away", "opponent_away"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise InvalidArgumentError(
                    f"{name} must be a whole number of points away, 1 or more, got {cut(repr(v))}")
        if not isinstance(self.crawford_rule, bool):
            raise InvalidArgumentError(
                f"crawford_rule must be True or False, got {cut(repr(self.crawford_rule))}")
        if self.crawford_game and self.post_crawford:
            raise InvalidArgumentError(
                f"a game cannot be both the Crawford game and after it: {cut(repr(self))}")
        if (self.crawford_game or self.post_crawford) and 1 not in (self.away, self.opponent_away):
            raise InvalidArgumentError(
                f"Crawford and post-Crawford games need a side 1 away: {cut(repr(self))}")
        if self.crawford_game and not self.crawford_rule:
            raise InvalidArgumentError(
                f"a match without the Crawford rule has no Crawford game: {cut(repr(self))}")

    @classmethod
    def from_away(cls, away: int, opponent_away: int, crawford_game: bool = False,
                  crawford_rule: bool = True) -> MatchScore:
        """The state at a score: a game with a side 1-away that is not the Crawford game comes
        after it (at double match point neither matters)."""
        post = not crawford_game and 1 in (away, opponent_away) and (away, opponent_away) != (1, 1)
        return cls(away, opponent_away, crawford_game=crawford_game, post_crawford=post,
                   crawford_rule=crawford_rule)

    @property
    def crawford_done(self) -> bool:
        """No Crawford game lies ahead: this one is it or is behind, or the match has none. A
        score reaching 1 away is then valued as a game with the cube free (post-Crawford)."""
        return self.crawford_game or self.post_crawford or not self.crawford_rule

    def flip(self) -> MatchScore:
        """The same score from the opponent's view."""
        return MatchScore(self.opponent_away, self.away, self.crawford_game, self.post_crawford,
                          self.crawford_rule)


_MONEY = Rules()


class SituationChanges(TypedDict, total=False):
    """The fields :meth:`Situation.replace` takes, typed: a misspelt or mistyped one is a type error."""

    position: Position
    dice: Dice | None
    cube_value: int
    cube_owner: CubeOwner
    double_offered: bool
    resignation: WinKind | None
    opponent_resigns: bool
    score: tuple[int, int]
    crawford_game: bool
    rules: Rules


@dataclass(frozen=True)
class Situation:
    """A decision's whole state, seen by the player on roll (the module docstring says whose view
    it is while an answer is awaited).

    ``position``: from the player on roll's view. ``dice``: the roll to play (the higher die
    first; kept while its resignation after the roll waits), or None before the roll (to roll or
    double). ``cube_value``/``cube_owner``: the cube
    as it stands (a double on offer has not turned it yet). ``double_offered``: the player on
    roll has doubled to ``2 * cube_value`` and the opponent must take or pass. ``resignation``:
    what the player on roll offers to give up, the opponent to accept or reject; with
    ``opponent_resigns`` what the opponent offers, the player on roll to answer (before its roll,
    or with its double still awaiting the opponent's answer should it reject). ``score``: points
    won before this game, (player on roll, opponent). ``crawford_game``: this game is the Crawford game.
    ``rules``: ``rules.match_length`` 0 is money play.
    """

    position: Position
    dice: Dice | None = None
    cube_value: int = 1
    cube_owner: CubeOwner = CubeOwner.CENTRED
    double_offered: bool = False
    resignation: WinKind | None = None
    score: tuple[int, int] = (0, 0)
    crawford_game: bool = False
    rules: Rules = field(default=_MONEY)
    opponent_resigns: bool = False

    def __post_init__(self) -> None:
        problems = []
        if not isinstance(self.position, Position):
            problems.append(f"position {cut(repr(self.position))} is not a Position")
        if self.dice is not None:
            if (not isinstance(self.dice, tuple) or len(self.dice) != 2
                    or not all(isinstance(d, numbers.Integral) and not isinstance(d, bool) and 1 <= d <= 6
                               for d in self.dice)):
                problems.append(f"dice {cut(repr(self.dice))} are not two numbers 1-6 or None")
            else:  # ints, numpy's too: made ints, the higher first
                object.__setattr__(self, "dice", (int(max(self.dice)), int(min(self.dice))))
        v = self.cube_value
        if not _is_int(v) or v < 1 or v & (v - 1):
            problems.append(f"cube value {cut(repr(v))} is not a power of two")
        if not isinstance(self.cube_owner, CubeOwner):
            problems.append(f"cube owner {cut(repr(self.cube_owner))} is not a CubeOwner")
        if not isinstance(self.double_offered, bool) or not isinstance(self.crawford_game, bool):
            problems.append("double_offered and crawford_game must be True or False")
        if self.resignation is not None:
            try:
                object.__setattr__(self, "resignation", WinKind(self.resignation))
            except ValueError:
                problems.append(f"resignation {cut(repr(self.resignation))} is not 1, 2, 3 or None")
        if not isinstance(self.rules, Rules):
            problems.append(f"rules {cut(repr(self.rules))} is not a Rules")
        if (not isinstance(self.score, tuple) or len(self.score) != 2
                or not all(_is_int(s) and s >= 0 for s in self.score)):
            problems.append(f"score {cut(repr(self.score))} is not two whole numbers >= 0")
        elif isinstance(self.rules, Rules) and self.rules.match_length \
                and max(self.score) >= self.rules.match_length:
            problems.append(f"the score {self.score[0]}-{self.score[1]} has already won the "
                            f"{self.rules.match_length}-point match")
        if self.crawford_game and isinstance(self.rules, Rules) and self.rules.is_money:
            problems.append("a money game has no Crawford game")
        elif self.crawford_game and isinstance(self.rules, Rules) and not self.rules.crawford:
            problems.append("a match without the Crawford rule has no Crawford game")
        waiting = self.double_offered or self.resignation is not None
        if not isinstance(self.opponent_resigns, bool):
            problems.append(f"opponent_resigns {cut(repr(self.opponent_resigns))} is not True or False")
        elif self.opponent_resigns:
            if self.resignation is None:
                problems.append("the opponent resigns, but no resignation is offered")
            if self.dice is not None:  # it may resign only before the player on roll rolls
                problems.append("the opponent resigns before the roll: no dice with its resignation")
        elif self.double_offered and self.resignation is not None:
            problems.append("a double and the doubler's resignation cannot both be on offer")
        if waiting and self.dice is not None and self.double_offered:
            problems.append("a double is offered before the roll: no dice with a double on offer")
        if self.double_offered and self.cube_owner is CubeOwner.OPPONENT:
            problems.append("a double is offered, but the opponent owns the cube")
        if not problems:  # the cube against the match and the rules: each field is sound
            problems.extend(self._cube_problems())
        if problems:
            raise InvalidArgumentError("invalid Situation: " + "; ".join(problems))

    def _cube_problems(self) -> list[str]:
        """The cube where no game can put it: turned, owned or offered in the Crawford game, or
        above the rules' limit (1 without the cube). Every ID refuses these; a Situation took
        them, and its diagram or IDs failed later."""
        problems = []
        v, owned, offered = self.cube_value, self.cube_owner is not CubeOwner.CENTRED, self.double_offered
        length = self.rules.match_length
        if crawford_counts(self.crawford_game, length, self.score):  # the Crawford game, as IDs read it
            if offered:
                problems.append("the Crawford game is played without the cube, but a double is offered")
            elif v != 1 or owned:
                problems.append(f"the Crawford game is played without the cube, but the cube is at {v}"
                                + (" and owned" if owned else ""))
        limit = self.rules.cube_limit if self.rules.use_cube else 1
        if limit is not None and v * (2 if offered else 1) > limit:
            problems.append(f"the cube at {v * (2 if offered else 1)} is above the highest cube {limit}"
                            + ("" if self.rules.use_cube else " (the rules play without the cube)"))
        return problems

    @classmethod
    def of(cls, situation_or_position: Situation | Position) -> Situation:
        """A Situation as given, or a bare Position as a money game (cube 1 centred, Jacoby)."""
        if isinstance(situation_or_position, Situation):
            return situation_or_position
        if isinstance(situation_or_position, Position):
            return cls(situation_or_position)
        raise InvalidArgumentError(
            f"expected a Situation or a Position, got {type(situation_or_position).__name__}")

    @classmethod
    def at(cls, position: Position, *, cube_value: int = 1,
           cube_owner: CubeOwner = CubeOwner.CENTRED, match: MatchScore | None = None,
           jacoby: bool = True, beavers: bool = False, dice: Dice | None = None) -> Situation:
        """A Situation in the engine's terms: the cube from the player on roll's view and the score
        in points away (``match``; None for money, with ``jacoby`` and ``beavers``). A match is
        set up as one of ``max(away, opponent_away)`` points, with the Crawford rule as
        ``match.crawford_rule`` says."""
        if match is None:
            rules = Rules(jacoby=jacoby, beavers=beavers)
            return cls(position, dice, cube_value, cube_owner, rules=rules)
        if not isinstance(match, MatchScore):
            raise InvalidArgumentError(f"match must be a MatchScore or None, got {cut(repr(match))}")
        length = max(match.away, match.opponent_away)
        return cls(position, dice, cube_value, cube_owner,
                   score=(length - match.away, length - match.opponent_away),
                   crawford_game=match.crawford_game,
                   rules=Rules(match_length=length, crawford=match.crawford_rule))

    def replace(self, **changes: Unpack[SituationChanges]) -> Situation:
        """This Situation with the fields named changed (checked as the constructor checks them)."""
        return replace(self, **changes)

    # --- derived views -------------------------------------------------------------------------

    @property
    def match_length(self) -> int:
        """0 for money play."""
        return self.rules.match_length

    @property
    def is_money(self) -> bool:
        return self.rules.is_money

    @property
    def match(self) -> MatchScore | None:
        """The score in points away from the player on roll's view; None for money. As GNU
        Backgammon, the Crawford flag counts only with a side 1 away; ``crawford_rule`` is the rules'."""
        length = self.rules.match_length
        if not length:
            return None
        away, opponent_away = length - self.score[0], length - self.score[1]
        return MatchScore.from_away(away, opponent_away,
                                    crawford_game=self.crawford_game and 1 in (away, opponent_away),
                                    crawford_rule=self.rules.crawford)

    @property
    def jacoby(self) -> bool:
        """The Jacoby rule is in force (money play only)."""
        return self.rules.is_money and self.rules.jacoby

    @property
    def beavers(self) -> bool:
        """Beavers are allowed (money play only)."""
        return self.rules.is_money and self.rules.beavers

    @property
    def is_answer_pending(self) -> bool:
        """A double or a resignation awaits an answer: the opponent is to act, or the player on
        roll when the opponent resigns (``opponent_resigns``)."""
        return self.double_offered or self.resignation is not None

    @property
    def can_double(self) -> bool:
        """The player on roll may double now or could have doubled this turn (the rules use the
        cube, not the Crawford game, it does not belong to the opponent, the limit allows)."""
        rules = self.rules
        match = self.match  # its Crawford flag counts only with a side 1 away, as everywhere
        if not rules.use_cube or (match is not None and match.crawford_game):
            return False
        if self.cube_owner is CubeOwner.OPPONENT:
            return False
        return 2 * self.cube_value <= rules.highest_cube


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


__all__ = ["CubeOwner", "MatchScore", "Situation"]
