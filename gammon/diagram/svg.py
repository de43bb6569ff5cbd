"""The diagram as an SVG image (gammon.diagram.scene's shapes, one element each)."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from gammon.diagram.scene import HEIGHT, WIDTH, Circle, Rect, Shape, Triangle, scene
from gammon.diagram.words import words
from gammon.situation import Situation


def _number(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _element(shape: Shape) -> str:
    if isinstance(shape, Rect):
        stroke = f' stroke="{shape.stroke}"' if shape.stroke else ""
        return (
            f'<rect x="{_number(shape.x)}" y="{_number(shape.y)}" width="{_number(shape.w)}" '
            f'height="{_number(shape.h)}" fill="{shape.fill}"{stroke}/>'
        )
    if isinstance(shape, Triangle):
        points = " ".join(f"{_number(x)},{_number(y)}" for x, y in shape.points)
        return f'<polygon points="{points}" fill="{shape.fill}"/>'
    if isinstance(shape, Circle):
        stroke = f' stroke="{shape.stroke}" stroke-width="1.5"' if shape.stroke else ""
        return (
            f'<circle cx="{_number(shape.cx)}" cy="{_number(shape.cy)}" r="{_number(shape.r)}" '
            f'fill="{shape.fill}"{stroke}/>'
        )
    return (
        f'<text x="{_number(shape.x)}" y="{_number(shape.y)}" font-size="{_number(shape.size)}" '
        f'fill="{shape.fill}" text-anchor="{shape.anchor}">{escape(shape.text)}</text>'
    )


def render_svg(
    situation: Situation, names: tuple[str, str] = ("you", "opponent"), player_on_roll: int = 0
) -> str:
    """A standalone SVG document; its title is the position's GNU Backgammon ID, its description
    the situation in words, so that a shared image still carries the position. ``player_on_roll``:
    the number the GNU Backgammon ID gives the player on roll (that of the ID typed)."""
    w = words(situation, names, player_on_roll)
    # no XGID (a resignation on offer): none said rather than one without the offer
    xgid_attribute = f" data-xgid={quoteattr(w.xgid)}" if w.xgid else ""
    xgid_words = f"; {escape(w.xgid)}" if w.xgid else ""
    body = "\n".join(_element(shape) for shape in scene(situation, names, player_on_roll))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" '
        f"data-gnubg-id={quoteattr(w.position_id + ':' + w.match_id)}{xgid_attribute}>\n"
        f"<title>{escape(w.position_id)}:{escape(w.match_id)}</title>\n"
        f"<desc>{escape(w.description)}{xgid_words}</desc>\n"
        f"{body}\n</svg>\n"
    )
