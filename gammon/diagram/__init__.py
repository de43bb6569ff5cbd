"""Positions to share: a Situation (read from a GNU Backgammon ID or an XGID) drawn as the text
diagram forums use (GNU Backgammon's ASCII board), as an SVG image or as a PNG image. Used by
``gammon diagram`` and the web's ``GET /api/diagram``.

The player on roll is X, at the bottom, moving from its 24 point at the top right along the top,
then round along the bottom to its points 1-6 at the bottom right; the opponent is O. Nothing here
needs the engine.
"""

from __future__ import annotations

from typing import Literal

from gammon.diagram.png import render_png
from gammon.diagram.svg import render_svg
from gammon.diagram.text import render_text
from gammon.situation import Situation

Kind = Literal["text", "svg", "png"]
KINDS: tuple[Kind, ...] = ("text", "svg", "png")
MEDIA_TYPES = {"text": "text/plain; charset=utf-8", "svg": "image/svg+xml", "png": "image/png"}


def render(situation: Situation, kind: Kind, player_on_roll: int = 0) -> bytes:
    """The diagram of ``situation`` as the bytes of a ``kind`` file (text in UTF-8), its GNU
    Backgammon ID numbering the player on roll ``player_on_roll`` (as the ID it was read from)."""
    names = ("you", "opponent")
    if kind == "png":
        return render_png(situation, names, player_on_roll)
    if kind == "svg":
        return render_svg(situation, names, player_on_roll).encode("utf-8")
    if kind == "text":
        return render_text(situation, names, player_on_roll).encode("utf-8")
    raise ValueError(f"a diagram is text, svg or png, not {kind!r}")


__all__ = ["KINDS", "MEDIA_TYPES", "Kind", "render", "render_png", "render_svg", "render_text"]
