"""The text diagram: GNU Backgammon's ASCII board (its ``show board``), the style forums use.

X is the player on roll, at the bottom; O the opponent. Up to five checkers a point are drawn, the
fifth row giving the count (6-9, then A-F) where there are more; the column right of the board
holds the checkers borne off. Right of it: the names, the scores, the match and the cube, the
dice ("Rolled 52") or "On roll", and a double on offer.
"""

from __future__ import annotations

from gammon.diagram.words import Words, words
from gammon.situation import Situation

_COUNT = "     X6789ABCDEF"
_TOP = " +13-14-15-16-17-18------19-20-21-22-23-24-+     "
_BOTTOM = " +12-11-10--9--8--7-------6--5--4--3--2--1-+     "


def _rows(situation: Situation) -> tuple[list[int], list[int], int, int, int, int]:
    """Checker counts: X's and O's by X's point (index 1-24), the bars and the checkers off."""
    b = situation.position.board
    x = [max(c, 0) for c in b[:25]]
    o = [max(-c, 0) for c in b[:25]]
    return x, o, b[25], -b[0], *situation.position.off


def _cell(x: int, o: int, row: int) -> str:
    """One point's character in checker row ``row`` (0 at the edge, 4 the count row)."""
    if row == 4:
        if x:
            return _COUNT[min(x, 15)]
        return _COUNT[min(o, 15)].replace("X", "O") if o else " "
    return "X" if x > row else "O" if o > row else " "


def _line(points: list[int], x: list[int], o: list[int], bar: str, row: int) -> str:
    left = "".join(f" {_cell(x[p], o[p], row)} " for p in points[:6])
    right = "".join(f" {_cell(x[p], o[p], row)} " for p in points[6:])
    return f" |{left}| {bar} |{right}|"


def _off(count: int, row: int, mark: str) -> str:
    return "".join(mark if count > 5 * column + row else " " for column in range(3))


def render_text(
    situation: Situation, names: tuple[str, str] = ("you", "opponent"), player_on_roll: int = 0
) -> str:
    """The diagram, in lines ended by newlines; ``names``: (player on roll, opponent);
    ``player_on_roll`` as :func:`gammon.diagram.svg.render_svg`'s."""
    w: Words = words(situation, names, player_on_roll)
    x, o, x_bar, o_bar, x_off, o_off = _rows(situation)
    top_points = list(range(13, 25))
    bottom_points = list(range(12, 0, -1))
    lines = [
        f" {'GNU Backgammon':<15} Position ID: {w.position_id}",
        f"                 Match ID   : {w.match_id}",
        _TOP + w.opponent,
    ]
    right = [w.opponent_score, w.offer_for_opponent]
    for row in range(5):
        bar = "O" if o_bar > row else " "
        if row == 4:
            bar = _COUNT[min(o_bar, 15)].replace("X", "O")
        text = _line(top_points, x, o, bar, row) + " " + _off(o_off, 4 if row == 4 else row, "O")
        lines.append(text + (" " + right[row] if row < 2 else " " if row < 4 else ""))
    lines.append("v|                  |BAR|                  |     " + w.match)
    right = [w.mover_score, w.dice]
    for row in range(4, -1, -1):
        bar = _COUNT[min(x_bar, 15)] if row == 4 else "X" if x_bar > row else " "
        text = _line(bottom_points, x, o, bar, row) + " " + _off(x_off, row, "X")
        lines.append(text + (" " + right[row] if row < 2 else " " if row < 4 else ""))
    lines.append(_BOTTOM + w.mover)
    return "\n".join(line.rstrip() for line in lines) + "\n"
