"""Inline SVG for the HTML report: a board (the viewer's home board bottom right, as the terminal
board of gammon.cli.board) and a line chart of winning chances. Plain strings, no I/O; the chart's
percentages are written as the current language writes them (:func:`gammon.i18n.format_number`)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from gammon.i18n import format_number
from gammon.position import Position

W, H = 380, 300  # board drawing size
MARGIN = 16  # room for the point numbers
LEFT = 30  # the board's left edge: the cube sits left of it, clear of the checkers of points 12 and 13
PT = 24  # width of a point
BAR = 24
TRAY = 28
CHECKER = 11  # radius
COLOURS = ("#c0392b", "#f4f1e8")  # player 0's checkers, player 1's
STROKES = ("#5c1a13", "#6b6659")


def _point_x(point: int) -> float:
    """Left edge of ``point`` (viewer's numbering, 1 bottom right ... 24 top right)."""
    col = point - 13 if point >= 13 else 12 - point  # 0-11 from the left
    x = LEFT + col * PT
    return x + BAR if col >= 6 else x


def _checker(x: float, y: float, player: int, label: str = "") -> str:
    out = (
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CHECKER}" fill="{COLOURS[player]}" '
        f'stroke="{STROKES[player]}" stroke-width="1.5"/>'
    )
    if label:
        ink = "#fff" if player == 0 else "#000"
        out += (
            f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="11" text-anchor="middle" '
            f'fill="{ink}">{escape(label)}</text>'
        )
    return out


def board_svg(
    position: Position,
    players: tuple[int, int] = (0, 1),
    dice: Sequence[int] | None = None,
    cube_value: int = 1,
    cube_owner: int | None = None,
    caption: str = "",
) -> str:
    """``position`` seen by its player on roll (the viewer, at the bottom). ``players``: the player
    numbers of (viewer, opponent), which pick the colours; ``cube_owner``: 0 viewer, 1 opponent,
    None centred."""
    b = position.board
    inner_w = 12 * PT + BAR
    top, bottom = MARGIN, H - MARGIN
    parts = [
        f'<svg class="board" width="{W}" height="{H + (18 if caption else 0)}" '
        f'viewBox="0 0 {W} {H + (18 if caption else 0)}" role="img">',
        f'<rect x="{LEFT}" y="{top}" width="{inner_w}" height="{bottom - top}" fill="#2e5e44"/>',
        f'<rect x="{LEFT + 6 * PT}" y="{top}" width="{BAR}" height="{bottom - top}" fill="#1c3b2a"/>',
        f'<rect x="{LEFT + inner_w + 4}" y="{top}" width="{TRAY}" height="{bottom - top}" fill="#1c3b2a"/>',
    ]
    half = (bottom - top) / 2
    for point in range(1, 25):
        x = _point_x(point)
        upper = point >= 13
        shade = "#8d6e4a" if point % 2 else "#d9c7a0"
        tip = top + half - 12 if upper else bottom - half + 12
        base = top if upper else bottom
        parts.append(
            f'<polygon points="{x:.1f},{base} {x + PT:.1f},{base} {x + PT / 2:.1f},{tip:.1f}" '
            f'fill="{shade}"/>'
        )
        label_y = top - 4 if upper else bottom + 12
        parts.append(
            f'<text x="{x + PT / 2:.1f}" y="{label_y}" font-size="9" text-anchor="middle" '
            f'fill="#555">{point}</text>'
        )
        n = b[point]
        if n:
            side = 0 if n > 0 else 1
            for k in range(min(abs(n), 5)):
                step = CHECKER + 1 + 2 * CHECKER * k
                cy = base + step if upper else base - step
                label = str(abs(n)) if k == 4 and abs(n) > 5 else ""
                parts.append(_checker(x + PT / 2, cy, players[side], label))
    bar_x = LEFT + 6 * PT + BAR / 2
    for side, count in ((0, b[25]), (1, -b[0])):  # viewer's bar checkers enter at the top
        for k in range(min(count, 3)):
            step = CHECKER + 2 + 2 * CHECKER * k
            bar_y = top + half - step if side == 0 else top + half + step
            parts.append(_checker(bar_x, bar_y, players[side], str(count) if k == 2 and count > 3 else ""))
    off = position.off
    tray_x = LEFT + inner_w + 4 + TRAY / 2
    for side in (0, 1):
        if off[side]:
            y0 = bottom - 4 if side == 0 else top + 4
            height = 6 * off[side]
            y = y0 - height if side == 0 else y0
            parts.append(
                f'<rect x="{tray_x - 10:.1f}" y="{y:.1f}" width="20" height="{height}" '
                f'fill="{COLOURS[players[side]]}" stroke="{STROKES[players[side]]}"/>'
            )
            parts.append(
                f'<text x="{tray_x:.1f}" y="{(y + height / 2 + 4):.1f}" font-size="10" '
                f'text-anchor="middle" fill="{"#fff" if players[side] == 0 else "#000"}">'
                f"{off[side]}</text>"
            )
    cube_y = {None: top + half - 11, 0: bottom - 26, 1: top + 4}[cube_owner]
    parts.append(
        f'<rect x="{LEFT - 26}" y="{cube_y:.1f}" width="22" height="22" rx="3" fill="#fff" '
        f'stroke="#333"/><text x="{LEFT - 15}" y="{cube_y + 15:.1f}" font-size="11" '
        f'text-anchor="middle">{cube_value if cube_value > 1 else 64}</text>'
    )
    if dice:
        for k, d in enumerate(dice):
            x = LEFT + 9 * PT + BAR + (k - 1) * 28
            parts.append(
                f'<rect x="{x}" y="{top + half - 12}" width="24" height="24" rx="4" '
                f'fill="{COLOURS[players[0]]}" stroke="{STROKES[players[0]]}"/>'
                f'<text x="{x + 12}" y="{top + half + 5}" font-size="14" text-anchor="middle" '
                f'fill="{"#fff" if players[0] == 0 else "#000"}">{int(d)}</text>'
            )
    if caption:
        parts.append(f'<text x="{LEFT}" y="{H + 12}" font-size="11" fill="#333">{escape(caption)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def text_width(text: str, font_size: float) -> float:
    """A generous estimate of the width of ``text`` in a sans-serif font (no font metrics here)."""
    return 0.62 * font_size * len(text)


def chart_svg(
    series: Sequence[float],
    breaks: Sequence[tuple[int, str]],
    names: tuple[str, str],
    width: int = 760,
    height: int = 240,
) -> str:
    """Player 0's chance (0..1) at each point of ``series`` and player 1's (one minus it);
    ``breaks``: (index in the series, label) where each game starts; the labels of games too short
    to hold theirs are left out (the game's line stays, with its label as a tooltip)."""
    left, right, top, bottom = 40, 10, 10, 30
    pw, ph = width - left - right, height - top - bottom
    n = max(len(series) - 1, 1)

    def xy(i: int, v: float) -> str:
        return f"{left + pw * i / n:.1f},{top + ph * (1.0 - v):.1f}"

    parts = [
        f'<svg class="chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">',
        f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="#fafafa" stroke="#ccc"/>',
    ]
    for v in (0.25, 0.5, 0.75):
        y = top + ph * (1 - v)
        share = format_number(v, ".0%")  # "25%", Czech and Slovak "25 %"
        parts.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{left + pw}" y2="{y:.1f}" stroke="#ddd"/>'
            f'<text x="{left - 4}" y="{y + 4:.1f}" font-size="10" text-anchor="end">{share}</text>'
        )
    label_end = float("-inf")  # the right end of the last label written
    for i, label in breaks:
        x = left + pw * i / n
        # every game has its line (its label as a tooltip); a label is written only where it
        # clears the one before and the chart's right edge, so short games' labels never overlap
        parts.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + ph}" stroke="#999" '
            f'stroke-dasharray="3,3"><title>{escape(label)}</title></line>'
        )
        end = x + 3 + text_width(label, 10)
        if x + 3 >= label_end + 6 and end <= width:
            parts.append(f'<text x="{x + 3:.1f}" y="{top + ph + 14}" font-size="10">{escape(label)}</text>')
            label_end = end
    if series:
        for player, colour in ((0, "#c0392b"), (1, "#2c3e50")):
            values = [v if player == 0 else 1.0 - v for v in series]
            points = " ".join(xy(i, v) for i, v in enumerate(values))
            parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="1.8"/>')
    x = left + 10
    for player, colour in ((0, "#c0392b"), (1, "#2c3e50")):
        parts.append(
            f'<line x1="{x:.1f}" y1="{height - 6}" x2="{x + 18:.1f}" y2="{height - 6}" stroke="{colour}" '
            f'stroke-width="3"/><text x="{x + 22:.1f}" y="{height - 2}" font-size="11">'
            f"{escape(names[player])}</text>"
        )
        x += max(200.0, 22 + text_width(names[player], 11) + 12)  # the next key clears a long name
    parts.append("</svg>")
    return "".join(parts)
