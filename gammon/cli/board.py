"""Drawing the board for the terminal: rich text, plain when colours are off.

The viewer sits at the bottom: its home board is bottom right, points numbered from its side
(1-6 bottom right, 19-24 top right). Each side's checkers on the bar are drawn in the bar on the
half where they must enter; borne-off checkers stand in the tray on the right, each side at its own
home board. Stacks taller than five show their count in the fifth cell.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from gammon.dice import Dice
from gammon.i18n import tr
from gammon.position import Position
from gammon.words import shown_name

ROWS = 5  # checkers drawn per point before the count replaces the fifth
CELL = 3

PLAIN_GLYPHS = ("X", "O")
COLOR_GLYPHS = ("●", "○")
# Colour mode draws the playing area on its own dark felt, so both colours of checkers read the same
# on light and dark terminal themes; the points alternate two shades, like the triangles.
CHECKER_STYLES = ("bold #ff5f5f", "bold #f5f5dc")
FELT = "#1c3b2a"
POINT_SHADES = ("#24503a", "#2e6347")
BAR_FELT = "#142a1e"
FRAME = "grey50"
NUMBER_STYLES = ("bright_black", "cyan")  # alternate points, as the triangles of a real board
CUBE_STYLE = "bold black on bright_cyan"
DICE_STYLE = "bold black on bright_yellow"
# A terminal whose encoding has no box-drawing characters (LANG=C without UTF-8, ISO-8859-2 ...)
# gets the board in ASCII: one character for one, so the colours' spans stay where they were.
UNICODE_ONLY = "┌┬┐└┴┘─│◀" + "".join(COLOR_GLYPHS)
ASCII_FRAME = str.maketrans(UNICODE_ONLY, "++++++-|<" + "".join(PLAIN_GLYPHS))


def draws_in(encoding: str) -> bool:
    """Whether a terminal writing ``encoding`` can show the board's box-drawing characters."""
    try:
        UNICODE_ONLY.encode(encoding)
    except (UnicodeError, LookupError):
        return False
    return True


@dataclass(frozen=True)
class BoardView:
    """What the board shows; every pair is (viewer, opponent), ``position`` is the viewer's view.

    ``on_turn``/``cube_owner``/``cube_offered_by``: 0 = viewer, 1 = opponent, None = nobody /
    centred / no double offered. While a double awaits its answer the cube shows the value offered.
    ``position_id`` is shown as given (the ID of the position of the player on roll, as gnubg),
    joined to ``match_id`` by ':' where there is one: the GNU Backgammon ID that ``gammon eval``
    and GNU Backgammon read."""

    position: Position
    names: tuple[str, str] = ("X", "O")
    glyphs: tuple[str, str] = PLAIN_GLYPHS
    on_turn: int | None = None
    dice: Dice | None = None
    cube_value: int = 1
    cube_owner: int | None = None
    cube_offered_by: int | None = None
    cube_in_use: bool = True
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    crawford: bool = False
    position_id: str | None = None
    match_id: str | None = None
    players: tuple[int, int] = (0, 1)
    """Player numbers of (viewer, opponent): each player keeps its colour when the view turns."""


def _stack_cell(count: int, row: int, glyph: str, style: str, background: str = "") -> Text:
    """The cell ``row`` (0 = at the board's edge) of a stack of ``count`` checkers."""
    ground = f"on {background}" if background else ""
    if count > ROWS and row == ROWS - 1:
        return Text(f"{count:^{CELL}}", style=f"{style} {ground}".strip())
    if row < count:
        return Text(f" {glyph} ", style=f"{style} {ground}".strip())
    return Text(" " * CELL, style=ground)


def _point_cell(view: BoardView, slot: int, row: int, color: bool) -> Text:
    n = view.position.board[slot]
    side = 0 if n > 0 else 1
    shade = POINT_SHADES[slot % 2] if color else ""
    return _stack_cell(abs(n), row, _glyph(view, side, color), _style(view, side, color), shade)


def _felt(text: str, color: bool, background: str = FELT) -> Text:
    return Text(text, style=f"on {background}" if color else "")


def _glyph(view: BoardView, side: int, color: bool) -> str:
    return COLOR_GLYPHS[view.players[side]] if color else view.glyphs[side]


def _style(view: BoardView, side: int, color: bool) -> str:
    return CHECKER_STYLES[view.players[side]] if color else ""


TOP_LEFT = tuple(range(13, 19))
TOP_RIGHT = tuple(range(19, 25))
BOTTOM_LEFT = tuple(range(12, 6, -1))
BOTTOM_RIGHT = tuple(range(6, 0, -1))


def _numbers(left: tuple[int, ...], right: tuple[int, ...], color: bool) -> Text:
    line = Text("   ")
    for points in (left, right):
        for p in points:
            line.append(f"{p:>2} ", style=NUMBER_STYLES[p % 2] if color else "")
        if points is left:
            line.append(" " * 6)
    return line


def _frame(text: str, color: bool) -> Text:
    return Text(text, style=FRAME if color else "")


def _side_panel(view: BoardView, color: bool) -> list[Text]:
    """Eleven lines of text beside the board rows: opponent at the top, viewer at the bottom."""
    panel = [Text() for _ in range(2 * ROWS + 1)]
    pips = view.position.pip_counts
    off = view.position.off
    for side, (name_row, info_row) in ((1, (0, 1)), (0, (10, 9))):
        glyph = _glyph(view, side, color)
        name = Text()
        name.append_text(_stack_cell(1, 0, glyph, _style(view, side, color), FELT) if color else Text(glyph))
        if color or view.names[side] != glyph:  # two players named X and O: no "X X"
            name.append(f" {shown_name(view.names[side])}", style="bold")
        if view.on_turn == side:
            name.append("  ◀ " + (tr("on turn") if view.dice is None else tr("to play")), style="bold")
        panel[name_row] = name
        score = "   " + tr("score {score}", score=view.score[side])
        counts = tr("pips {pips}  off {off}", pips=f"{pips[side]:<3}", off=f"{off[side]:<2}")
        panel[info_row] = Text(f"  {counts}{score}")
    if view.cube_in_use:
        offered = view.cube_offered_by
        value = view.cube_value * 2 if offered is not None else view.cube_value
        cube = Text(f" {value} ", style=CUBE_STYLE) if color else Text(f"[{value}]")
        if offered is not None:  # in the middle until it is taken
            label, row = "  " + tr("offered by {name}", name=shown_name(view.names[offered])), ROWS
        elif view.cube_owner is None:
            label, row = "  " + tr("cube centred"), ROWS
        else:
            owner = shown_name(view.names[view.cube_owner])
            label, row = "  " + tr("cube owned by {name}", name=owner), (8, 2)[view.cube_owner]
        panel[row] = Text("  ").append(cube).append(label)
    if view.dice is not None and view.on_turn is not None:
        row = 6 if view.on_turn == 0 else 4
        d1, d2 = sorted(view.dice, reverse=True)
        if color:
            panel[row] = Text("  ").append(f" {d1} ", style=DICE_STYLE).append(" ").append(
                f" {d2} ", style=DICE_STYLE)
        else:
            panel[row] = Text("  " + tr("rolled {dice}", dice=f"{max(d1, d2)}-{min(d1, d2)}"))
    return panel


BOARD_WIDTH = 51  # a row of the board, up to the space before the side panel


def render_board(view: BoardView, color: bool = False, ascii_only: bool = False,
                 width: int | None = None) -> list[Text]:
    """The board as lines of rich text; ``color=False`` gives plain text (letters for checkers),
    ``ascii_only`` a frame of ASCII characters (:func:`draws_in`). The side panel (names, pips,
    cube, dice) stands beside the rows, or under the board where that would pass ``width``
    columns: a terminal that wrapped the rows would break the board apart."""
    b = view.position.board
    lines: list[Text] = []
    header = tr("money game") if not view.match_length else tr("match to {length}", length=view.match_length)
    if view.crawford:
        header += ", " + tr("Crawford game")
    lines.append(Text(f"  {header}", style="bold" if color else ""))
    lines.append(_numbers(TOP_LEFT, TOP_RIGHT, color))
    half = "─" * (6 * CELL + 1)
    lines.append(_frame(f" ┌{half}┬───┬{half}┬───┐", color))
    panel = _side_panel(view, color)
    beside = width is None or BOARD_WIDTH + max(p.cell_len for p in panel) <= width
    bar = (b[25], -b[0])  # viewer's bar (entering top), opponent's bar (entering bottom)
    off = view.position.off
    for r in range(2 * ROWS + 1):
        line = _frame(" │", color)
        if r == ROWS:
            line.append_text(_felt(" " * (6 * CELL + 1), color))
            line.append_text(_frame("│", color))
            # Translators: the bar's label on the terminal's board: exactly three letters
            bar_label = f"{tr('BAR'):^3.3}"
            line.append_text(_felt(bar_label, color, BAR_FELT) if color else Text(bar_label))
            line.append_text(_frame("│", color))
            line.append_text(_felt(" " * (6 * CELL + 1), color))
            line.append_text(_frame("│", color))
            line.append_text(_felt("   ", color, BAR_FELT))
            line.append_text(_frame("│", color))
        else:
            top = r < ROWS
            row = r if top else 2 * ROWS - r
            left, right = (TOP_LEFT, TOP_RIGHT) if top else (BOTTOM_LEFT, BOTTOM_RIGHT)
            bar_side, off_side = (0, 1) if top else (1, 0)
            line.append_text(_felt(" ", color))
            for p in left:
                line.append_text(_point_cell(view, p, row, color))
            line.append_text(_frame("│", color))
            line.append_text(_stack_cell(bar[bar_side], row, _glyph(view, bar_side, color),
                                         _style(view, bar_side, color), BAR_FELT if color else ""))
            line.append_text(_frame("│", color))
            line.append_text(_felt(" ", color))
            for p in right:
                line.append_text(_point_cell(view, p, row, color))
            line.append_text(_frame("│", color))
            line.append_text(_stack_cell(off[off_side], row, _glyph(view, off_side, color),
                                         _style(view, off_side, color), BAR_FELT if color else ""))
            line.append_text(_frame("│", color))
        if beside:
            line.append(" ")
            line.append_text(panel[r] if color else Text(panel[r].plain))
        lines.append(line)
    lines.append(_frame(f" └{half}┴───┴{half}┴───┘", color))
    lines.append(_numbers(BOTTOM_LEFT, BOTTOM_RIGHT, color))
    if not beside:
        lines.extend(p if color else Text(p.plain) for p in panel if p.plain.strip())
    if view.position_id:
        # one token, as gammon eval and GNU Backgammon take it
        ids = ("  " + tr("GNU Backgammon ID: {id}", id=f"{view.position_id}:{view.match_id}") if view.match_id
               else "  " + tr("Position ID: {id}", id=view.position_id))
        lines.append(Text(ids, style="dim" if color else ""))
    for line in lines:
        if ascii_only:
            line.plain = line.plain.translate(ASCII_FRAME)
        if not color:
            line.rstrip()
    return lines


def board_text(view: BoardView) -> str:
    """The board as plain text (no colour codes), one string."""
    return "\n".join(line.plain.rstrip() for line in render_board(view, color=False))
