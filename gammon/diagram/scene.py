"""The picture of a position as a list of shapes (rectangles, triangles, circles, text), laid out
once and drawn by both the SVG writer and the PNG rasterizer.

The board is WIDTH x HEIGHT units: X (the player on roll) at the bottom, its points 1-6 at the
bottom right; the bar in the middle; the tray on the right holds the checkers borne off (O's at
the top, X's at the bottom) and the cube (in the middle while centred, towards its owner's side
once taken). The dice (or a double on offer) lie across the middle of the right half of the
board, or of the nearest columns whose stacks leave room; under the board, two lines of words say
the score, the cube, the pip counts, the dice and any offer, and a third the GNU Backgammon ID.
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.diagram.words import Words, words
from gammon.situation import CubeOwner, Situation

WIDTH, HEIGHT = 620, 500
LEFT, BAR_LEFT, BAR_RIGHT, RIGHT = 20.0, 270.0, 310.0, 560.0
TOP, BOTTOM = 30.0, 410.0
POINT = (BAR_LEFT - LEFT) / 6
RADIUS = POINT / 2 - 2
TRAY_LEFT, TRAY_RIGHT = 568.0, 608.0
SHOWN = 5  # checkers drawn on a point; the fifth carries the count when there are more

FRAME, BOARD, DARK_POINT, LIGHT_POINT = "#5b3a1e", "#e9d8b4", "#9c4a2f", "#c9a66b"
X_FILL, O_FILL, EDGE, INK, PAPER = "#f7f3ea", "#2b2b2b", "#1a1a1a", "#1a1a1a", "#ffffff"


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str
    stroke: str | None = None


@dataclass(frozen=True)
class Triangle:
    points: tuple[tuple[float, float], tuple[float, float], tuple[float, float]]
    fill: str


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str
    stroke: str | None = None


@dataclass(frozen=True)
class Text:
    x: float
    y: float  # the baseline
    text: str
    size: float
    fill: str = INK
    anchor: str = "middle"  # or "start"
    exact: bool = False  # case matters (an ID): left out where only capitals can be drawn


Shape = Rect | Triangle | Circle | Text


def point_x(point: int) -> float:
    """The left edge of X's point ``point`` (1-24)."""
    if point <= 12:  # bottom, 12 at the left to 1 at the right
        column = 12 - point
    else:  # top, 13 at the left to 24 at the right
        column = point - 13
    return LEFT + column * POINT + (BAR_RIGHT - BAR_LEFT if column >= 6 else 0)


def _points() -> list[Shape]:
    shapes: list[Shape] = []
    height = (BOTTOM - TOP) * 0.4
    for point in range(1, 25):
        x = point_x(point)
        fill = DARK_POINT if point % 2 else LIGHT_POINT
        if point <= 12:
            tip = ((x, BOTTOM), (x + POINT, BOTTOM), (x + POINT / 2, BOTTOM - height))
            label_y = BOTTOM + 22
        else:
            tip = ((x, TOP), (x + POINT, TOP), (x + POINT / 2, TOP + height))
            label_y = TOP - 12
        shapes.append(Triangle(tip, fill))
        shapes.append(Text(x + POINT / 2, label_y, str(point), 11))
    return shapes


def _stack(
    cx: float, edge: float, down: bool, count: int, fill: str, step: float = 2 * RADIUS
) -> list[Shape]:
    """``count`` checkers from ``edge`` towards the middle (``down``: from the top edge)."""
    shapes: list[Shape] = []
    sign = 1 if down else -1
    for i in range(min(count, SHOWN)):
        cy = edge + sign * (RADIUS + 1 + i * step)
        shapes.append(Circle(cx, cy, RADIUS, fill, EDGE))
    if count > SHOWN:
        cy = edge + sign * (RADIUS + 1 + (SHOWN - 1) * step)
        shapes.append(Text(cx, cy + 5, str(count), 15, O_FILL if fill == X_FILL else X_FILL))
    return shapes


def _checkers(situation: Situation) -> list[Shape]:
    b = situation.position.board
    shapes: list[Shape] = []
    for point in range(1, 25):
        n = b[point]
        if n:
            cx = point_x(point) + POINT / 2
            down = point > 12
            shapes += _stack(cx, TOP if down else BOTTOM, down, abs(n), X_FILL if n > 0 else O_FILL)
    middle = (TOP + BOTTOM) / 2
    bar_x = (BAR_LEFT + BAR_RIGHT) / 2
    # a bar's checkers start 30 from the middle: five a full checker apart would pass the board's edge
    step = min(2 * RADIUS, (middle - 30 - TOP - 2 * RADIUS - 2) / (SHOWN - 1))
    if b[0]:  # O's bar: above the middle, stacked upwards
        shapes += _stack(bar_x, middle - 30, False, -b[0], O_FILL, step)
    if b[25]:
        shapes += _stack(bar_x, middle + 30, True, b[25], X_FILL, step)
    return shapes


def _tray(situation: Situation) -> list[Shape]:
    x_off, o_off = situation.position.off
    shapes: list[Shape] = [Rect(TRAY_LEFT, TOP, TRAY_RIGHT - TRAY_LEFT, BOTTOM - TOP, BOARD, FRAME)]
    for i in range(o_off):
        shapes.append(Rect(TRAY_LEFT + 3, TOP + 3 + i * 7, TRAY_RIGHT - TRAY_LEFT - 6, 6, O_FILL, EDGE))
    for i in range(x_off):
        shapes.append(Rect(TRAY_LEFT + 3, BOTTOM - 9 - i * 7, TRAY_RIGHT - TRAY_LEFT - 6, 6, X_FILL, EDGE))
    return shapes


def _cube(x: float, y: float, value: int) -> list[Shape]:
    size = 34.0
    number = str(value)
    # a digit is about 0.64 of the font size wide: 1024 at 20 would spill over the cube's sides
    font = min(20.0, (size - 6) / (0.64 * len(number)))
    return [Rect(x - size / 2, y - size / 2, size, size, PAPER, EDGE), Text(x, y + font * 0.35, number, font)]


def _die(x: float, y: float, value: int) -> list[Shape]:
    size = 32.0
    pips = {
        1: [(0, 0)],
        2: [(-1, -1), (1, 1)],
        3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    }[value]
    shapes: list[Shape] = [Rect(x - size / 2, y - size / 2, size, size, X_FILL, EDGE)]
    shapes += [Circle(x + dx * 8, y + dy * 8, 3.2, INK) for dx, dy in pips]
    return shapes


# pairs of neighbouring columns (0-11, left to right) the dice may lie across, the middle of the
# right half first, then the nearest ones, then the left half's
_DICE_COLUMNS = ((8, 9), (7, 8), (9, 10), (6, 7), (10, 11), (2, 3), (1, 2), (3, 4), (0, 1), (4, 5))


def _dice_x(situation: Situation) -> float:
    """Where the dice (or a double on offer) lie across the board's middle: the middle of the right
    half, unless a point there holds five checkers or more, whose stack reaches the middle and
    would be hidden under them with its count; then the nearest two columns with none."""
    b = situation.position.board
    for pair in _DICE_COLUMNS:
        if all(abs(b[point]) < SHOWN for column in pair for point in (13 + column, 12 - column)):
            return point_x(13 + pair[1])  # the edge between the two columns
    return (BAR_RIGHT + RIGHT) / 2  # every column crowded somewhere (a few such boards exist)


def _cube_and_dice(situation: Situation) -> list[Shape]:
    middle = (TOP + BOTTOM) / 2
    tray_x = (TRAY_LEFT + TRAY_RIGHT) / 2
    dice_x = _dice_x(situation)
    value = situation.cube_value
    if situation.double_offered:  # the double on the board, waiting for O's answer
        shapes = _cube(dice_x, middle, 2 * value)
    else:
        shapes = []
        if situation.dice:
            shapes += _die(dice_x - 24, middle, situation.dice[0])
            shapes += _die(dice_x + 24, middle, situation.dice[1])
        cube_y = {CubeOwner.CENTRED: middle, CubeOwner.OPPONENT: middle - 45, CubeOwner.MOVER: middle + 45}
        shown = 64 if value == 1 and situation.cube_owner is CubeOwner.CENTRED else value
        dead = situation.match_length == 1 and situation.cube_owner is CubeOwner.CENTRED
        if situation.rules.use_cube and not dead and not (situation.match and situation.match.crawford_game):
            shapes += _cube(tray_x, cube_y[situation.cube_owner], shown)
    return shapes


def _caption(w: Words) -> list[Shape]:
    y = BOTTOM + 48
    first = (
        f"{w.mover} ({w.mover_score}, pips {w.pips[0]})   {w.opponent} ({w.opponent_score}, pips {w.pips[1]})"
    )
    second = " ".join(part for part in (w.match, w.dice) if part)
    if w.offer_for_opponent:  # the opponent's to answer, or its own resignation: said as its words
        second += f"   O: {w.offer_for_opponent}"
    return [
        Text(LEFT, y, first, 13, anchor="start"),
        Text(LEFT, y + 18, second, 13, anchor="start"),
        Text(LEFT, y + 36, f"{w.position_id}:{w.match_id}", 11, anchor="start", exact=True),
    ]


def scene(
    situation: Situation, names: tuple[str, str] = ("you", "opponent"), player_on_roll: int = 0
) -> list[Shape]:
    """The shapes of the diagram, back to front."""
    shapes: list[Shape] = [
        Rect(0, 0, WIDTH, HEIGHT, PAPER),
        Rect(LEFT - 8, TOP - 8, RIGHT - LEFT + 16, BOTTOM - TOP + 16, FRAME),
        Rect(LEFT, TOP, BAR_LEFT - LEFT, BOTTOM - TOP, BOARD),
        Rect(BAR_RIGHT, TOP, RIGHT - BAR_RIGHT, BOTTOM - TOP, BOARD),
    ]
    shapes += _points()
    shapes += _tray(situation)
    shapes += _checkers(situation)
    shapes += _cube_and_dice(situation)
    shapes += _caption(words(situation, names, player_on_roll))
    return shapes
