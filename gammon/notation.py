"""Standard play notation: ``24/18*/12 13/11``, ``bar/22``, ``6/off``, ``13/7(2)``.

:func:`parse_paths` checks syntax only; :func:`parse_play` matches the text against the legal plays
of a position, so every spelling that describes a legal play's result is accepted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gammon.errors import AmbiguousMoveError, IllegalMoveError, InvalidNotationError, cut
from gammon.i18n import ntr, tr
from gammon.primitives import BAR

# Only for types: Position and Play call this module, and it works on what they hand it.
if TYPE_CHECKING:
    from gammon.play import Play, Step
    from gammon.position import Position


@dataclass(frozen=True)
class CheckerPath:
    """One checker path as written: points from start to end, the landings marked as hits, and a
    repeat count (``13/7(2)`` is ``CheckerPath((13, 7), (False,), 2)``)."""

    points: tuple[int, ...]
    hits: tuple[bool, ...]
    count: int = 1


def format_point(point: int) -> str:
    return "bar" if point == BAR else "off" if point == 0 else str(point)


_NAMES = tuple(format_point(p) for p in range(BAR + 1))  # each point written once, looked up


def format_play(position: Position, steps: Iterable[Sequence[int]]) -> str:
    """Canonical notation of ``steps`` played from ``position``: paths of one checker joined
    (``24/18*/12``, landing points shown only where it hits), equal paths counted (``13/7(2)``)."""
    # Made once per legal play of every roll a UI shows, so kept lean: a landing hits where the
    # opponent has a blot not hit yet; a step from where a path ends goes on with that path.
    board = position.board
    hit: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    stops: list[str] = []  # each path's written stops after its start: the points it hit on the way
    end_hits: list[bool] = []
    for src, dst in steps:
        landing_hit = dst != 0 and board[dst] == -1 and dst not in hit
        if landing_hit:
            hit.append(dst)
        if src in ends:
            i = ends.index(src)
            if end_hits[i]:
                stops[i] += "/" + _NAMES[src] + "*"
            ends[i], end_hits[i] = dst, landing_hit
        else:
            starts.append(src)
            ends.append(dst)
            stops.append("")
            end_hits.append(landing_hit)
    texts = sorted((-a, -b, f"{_NAMES[a]}{middle}/{_NAMES[b]}{'*' if h else ''}")
                   for a, b, middle, h in zip(starts, ends, stops, end_hits))
    out: list[str] = []
    i = 0
    while i < len(texts):
        j = i + 1
        while j < len(texts) and texts[j][2] == texts[i][2]:
            j += 1
        out.append(texts[i][2] + (f"({j - i})" if j - i > 1 else ""))
        i = j
    return " ".join(out)


def hit_points(before: Position, after: Position) -> tuple[int, ...]:
    """Points (mover's numbering) where a play from ``before`` to ``after`` hit a blot."""
    b = before.board
    a = after.board
    return tuple(p for p in range(24, 0, -1) if b[p] == -1 and -a[25 - p] >= 0)


_POINT = r"(?:bar|b|off|o|\d{1,2})"
_MOVE = re.compile(rf"({_POINT}\*?(?:[/-]{_POINT}\*?)+)(?:\((\d)\))?\Z")
_COUNT = re.compile(r"\((\d)\)\Z")


def _read_point(token: str, text: str) -> int:
    if token in ("bar", "b"):
        return BAR
    if token in ("off", "o"):
        return 0
    value = int(token)
    if not 0 <= value <= 25:
        raise InvalidNotationError(tr("point {token} in {text} is not 0-25, 'bar' or 'off'",
                                      token=repr(cut(token)),
                                      text=repr(cut(text))))
    return value


def parse_paths(text: str) -> tuple[CheckerPath, ...]:
    """Read the syntax of a play: checker paths separated by spaces or commas."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"a play must be text, not {cut(repr(text))}")
    tokens = re.sub(r"\s*\(\s*(\d)\s*\)", r"(\1)", text.strip().lower()).replace(",", " ").split()
    if not tokens:
        raise InvalidNotationError(tr("the play {text} is empty", text=repr(cut(text))))
    paths: list[CheckerPath] = []
    for token in tokens:
        match = _MOVE.match(token)
        if not match:
            raise InvalidNotationError(
                tr("cannot read {token} in the play {text}: write moves like '24/18*/12 13/11', "
                   "'bar/22', '6/off' or '13/7(2)'", token=repr(cut(token)), text=repr(cut(text))))
        pieces = re.split(r"[/-]", match.group(1))
        points = tuple(_read_point(p.rstrip("*"), text) for p in pieces)
        hits = tuple(p.endswith("*") for p in pieces[1:])
        quoted = {"token": repr(cut(token)), "text": repr(cut(text))}
        if pieces[0].endswith("*"):
            raise InvalidNotationError(tr("{token} in {text} marks a hit on its starting point", **quoted))
        if any(a <= b for a, b in zip(points, points[1:])):
            raise InvalidNotationError(tr("{token} in {text} does not move towards home "
                                          "(points must go down)",
                                          **quoted))
        if points[0] == 0:
            raise InvalidNotationError(tr("{token} in {text} starts from 'off'", **quoted))
        if 0 in points[1:-1] or BAR in points[1:]:
            raise InvalidNotationError(tr("{token} in {text} passes through 'off' or the bar", **quoted))
        if points[-1] == 0 and hits[-1]:
            raise InvalidNotationError(tr("{token} in {text} marks a hit on 'off'", **quoted))
        count = int(match.group(2) or 1)
        if not 1 <= count <= 4:
            raise InvalidNotationError(tr("repeat count in {token} of {text} must be 1-4", **quoted))
        paths.append(CheckerPath(points, hits, count))
    return tuple(paths)


def parse_play(position: Position, text: str, dice: Sequence[int]) -> Play:
    """The legal play of ``position`` with ``dice`` that ``text`` describes.

    The text must move the mover's checkers from and to the points of a legal play. When several
    legal plays do that (they differ in the blots they hit on the way), the play is read as its
    steps are written, the way GNU Backgammon reads a ``.mat`` file: every point written is a
    point where the checker stops, so it hits a blot there whether or not it is marked ``*``
    (``13/10 10/8`` and ``13/10/8`` over a blot on 10 are ``13/10*/8``); a span of two dice
    written as one (``13/8`` with 3-2) goes by a point free of the opponent's checkers, that is
    without hitting, where there is one. Only if that does not decide, the ``*`` marks do.

    Raises :class:`InvalidNotationError` for bad syntax, :class:`IllegalMoveError` when no legal
    play matches and :class:`AmbiguousMoveError` when several do.
    """
    moves = parse_paths(text)
    plays = position.legal_plays(dice)
    where = position_words(position, dice)
    typed = repr(cut(text))
    if not plays:
        raise IllegalMoveError(tr("there is no legal play {where}: the turn passes (got {text})", where=where,
                                  text=typed))
    steps = _written_steps(moves)
    mover = [max(c, 0) for c in position.board]
    for src, dst in steps:
        if mover[src] <= 0 and src == BAR:
            raise IllegalMoveError(tr("{text}: no checker of yours on the bar {where}", text=typed,
                                      where=where))
        if mover[src] <= 0:
            raise IllegalMoveError(tr("{text}: no checker of yours left on {point} {where}", text=typed,
                                      point=format_point(src), where=where))
        mover[src] -= 1
        mover[dst] += 1
    mover[0] = 0
    candidates = [p for p in plays if _mover_side(p.after) == mover]
    if not candidates:
        why = why_illegal(position, steps, dice, plays)
        shown = plays[: 4 if why else 6]  # the reason first: fewer plays keep the line short
        legal = ", ".join(str(p) for p in shown)
        if why:
            raise IllegalMoveError(tr("{text} is not a legal play {where}: {why}; "
                                      "legal plays include {plays}",
                                      text=typed, where=where, why=why, plays=legal))
        raise IllegalMoveError(tr("{text} is not a legal play {where}; legal plays include {plays}",
                                  text=typed,
                                  where=where, plays=legal))
    if len(candidates) == 1:
        return candidates[0]
    # Same checkers moved, different hits on the way: the steps as written decide...
    as_written = _after_steps(position, steps, dice)
    for play in candidates:
        if play.after == as_written:
            return play
    # ...and where they cannot (a span of two dice with the opponent on both ways), the marks.
    marked = {p for move in moves for p, hit in zip(move.points[1:], move.hits) if hit}
    exact = [p for p in candidates if set(p.hits) == marked | _final_hits(p, mover)]
    if len(exact) == 1:
        return exact[0]
    fitting = [p for p in candidates if marked <= set(p.hits)]
    if len(fitting) == 1:
        return fitting[0]
    raise AmbiguousMoveError(tr("{text} {where} fits several plays: {plays}", text=typed, where=where,
                                plays=", ".join(str(p) for p in candidates)))


def position_words(position: Position, dice: Sequence[int]) -> str:
    """Where a play is read, as its errors say it ("in position 4HPwATDgc/ABMA with 3-1", the dice
    as the prompt and the rest of the message write them); the terminal, which shows the board,
    leaves it out of the message."""
    return tr("in position {id} with {dice}", id=position.id, dice=_dice_words(dice[0], dice[1]))


def why_illegal(position: Position, spans: Sequence[Step], dice: Sequence[int],
                plays: Sequence[Play] | None = None) -> str:
    """The rule that the written ``spans`` break, in the player's words ("you cannot bear off while
    a checker is outside your home board", "you must use both dice"), or "" where no single rule
    says it. ``plays``: the legal plays of ``position`` with ``dice``, if the caller has them."""
    board = position.board
    mover = [max(c, 0) for c in board]
    if mover[BAR] and not any(src == BAR for src, _ in spans):
        return tr("you have a checker on the bar: it must enter first")
    d1, d2 = dice[0], dice[1]
    reach = {d1 * k for k in range(1, 5)} if d1 == d2 else {d1, d2, d1 + d2}
    for src, dst in spans:
        if dst > 0 and board[dst] <= -2:
            return tr("the other player holds point {point}", point=dst)
        if dst == 0 and any(mover[p] for p in range(7, BAR + 1)):
            return tr("you cannot bear off while a checker is outside your home board")
        if dst > 0 and src - dst not in reach:
            return ntr("no die of {dice} moves a checker {n} pip",
                       "no die of {dice} moves a checker {n} pips",
                       src - dst, dice=_dice_words(d1, d2), n=src - dst)
        mover[src] -= 1
        mover[dst] += 1
    return _too_few_dice(position, spans, dice, position.legal_plays(dice) if plays is None else plays)


def _too_few_dice(position: Position, spans: Sequence[Step], dice: Sequence[int],
                  plays: Sequence[Play]) -> str:
    """Why ``spans`` that the dice can play one die at a time are still no legal play: they stop
    short of the dice the rules make a player use (both, all it can of a double, else the larger
    die); "" if they are not such a start of a play."""
    if not plays:
        return ""
    need = len(plays[0].steps)  # every legal play uses as many dice
    target = [0] * (BAR + 1)
    for src, dst in spans:
        target[src] -= 1
        target[dst] += 1
    board = list(position.board)
    goal = [max(c, 0) + t for c, t in zip(board, target)]
    used = _dice_reaching(board, sorted(dice if dice[0] != dice[1] else [dice[0]] * 4), goal[1:], need)
    if used is None:
        return ""
    if len(used) < need:
        if dice[0] == dice[1]:
            return tr("you must play as many dice as you can ({n})", n=need)
        return tr("you must use both dice")
    if dice[0] != dice[1] and used[0] < max(dice):
        return tr("only one die can be played: it must be the larger one, {die}", die=max(dice))
    return ""


def _dice_reaching(board: list[int], dice: list[int], goal: list[int], most: int) -> list[int] | None:
    """The dice (sorted) with which the mover of ``board`` (its checkers positive, the opponent's
    negative; index 25 the bar) brings its checkers on points 1-25 to ``goal`` one die at a time,
    using at most ``most`` dice; None if it cannot. The one-die rule is the move generator's
    (gammon.movegen.step_target), here in Python for the few boards a refusal looks at."""
    mine = [max(c, 0) for c in board[1:]]
    if mine == goal:
        return []
    behind = goal_behind = 0
    for have, want in zip(reversed(mine), reversed(goal)):
        behind, goal_behind = behind + have, goal_behind + want
        if behind < goal_behind:  # checkers only move forward: too many have gone past here
            return None
    if most == 0:
        return None
    for i, die in enumerate(dice):
        if i and die == dice[i - 1]:
            continue
        for src in range(BAR, 0, -1):
            dst = _step_target(board, src, die)
            if dst < 0:
                continue
            after = board.copy()
            after[src] -= 1
            if dst:
                after[dst] = 1 if after[dst] == -1 else after[dst] + 1
            rest = _dice_reaching(after, dice[:i] + dice[i + 1 :], goal, most - 1)
            if rest is not None:
                return sorted([die, *rest])
    return None


def _step_target(board: list[int], src: int, die: int) -> int:
    """Where one checker from ``src`` lands with ``die``: 1-24, 0 for off, -1 if it cannot move."""
    if board[src] <= 0 or (board[BAR] > 0 and src != BAR):
        return -1
    dst = src - die
    if dst >= 1:
        return -1 if board[dst] <= -2 else dst
    if any(board[p] > 0 for p in range(7, BAR + 1)):
        return -1
    if dst < 0 and any(board[p] > 0 for p in range(src + 1, 7)):
        return -1
    return 0


def _dice_words(d1: int, d2: int) -> str:
    # as the prompt shows a roll ("5-2", gammon.words.format_dice, which this module is below),
    # never "52", which reads as one number in a sentence
    return f"{max(d1, d2)}-{min(d1, d2)}"


def _written_steps(moves: Sequence[CheckerPath]) -> list[Step]:
    """Every (from, to) span the text writes, repeats expanded, farthest from home first (the
    order in which they can be played, whatever order they are written in)."""
    spans = [(a, b) for move in moves for _ in range(move.count)
             for a, b in zip(move.points, move.points[1:])]
    return sorted(spans, key=lambda span: (-span[0], -span[1]))


def _after_steps(position: Position, spans: Sequence[Step], dice: Sequence[int]) -> Position | None:
    """The position after playing ``spans`` as written, each written point a stop where a blot
    is hit, or None if they cannot be played so. A span longer than one die is cut into dice:
    with doubles every die is a stop; with two dice, the way through a point free of the
    opponent's checkers is taken (no hit), or none if both ways hold opponent checkers."""
    d1, d2 = dice[0], dice[1]
    board = position.board
    steps: list[int] = []
    for a, b in spans:
        if d1 == d2 and a - b > d1:
            points = list(range(a, b, -d1)) + [b]
        elif d1 != d2 and a - b == d1 + d2:
            free = [a - d for d in (d1, d2) if board[a - d] >= 0]
            if not free:
                return None
            points = [a, free[0], b]
        else:
            points = [a, b]
        for src, dst in zip(points, points[1:]):
            steps += [src, max(dst, 0)]
    try:
        return position.after_gnubg_move(steps)
    except IllegalMoveError:
        return None


def _mover_side(after: Position) -> list[int]:
    """The previous mover's checkers, in its own numbering, from the position after its play."""
    a = after.board
    side = [max(-a[25 - i], 0) for i in range(26)]
    side[0] = 0
    return side


def _final_hits(play: Play, mover: list[int]) -> set[int]:
    """Hits on points where the mover now stands: those hits are implied, marked or not."""
    return {p for p in play.hits if mover[p] > 0}
