"""The report's drawings: nothing drawn covers what else they show."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from gammon.analysis.svg import board_svg, chart_svg, text_width
from gammon.position import Position

NS = "{http://www.w3.org/2000/svg}"


def _shapes(svg: str) -> ET.Element:
    return ET.fromstring(svg.replace("<svg ", f'<svg xmlns="{NS[1:-1]}" ', 1))


@pytest.mark.parametrize("owner", [None, 0, 1])
def test_the_cube_covers_no_checker_even_with_both_midpoints_full(owner: int | None) -> None:
    # five checkers on each side's midpoint: the columns at the board's left edge, beside the cube
    position = Position.from_points({13: 5, 6: 5, 8: 3, 24: 2}, {13: 5, 6: 5, 8: 3, 24: 2})
    root = _shapes(board_svg(position, cube_value=2, cube_owner=owner))
    cube = next(r for r in root.iter(f"{NS}rect") if r.get("fill") == "#fff")
    x0, y0 = float(cube.get("x", 0)), float(cube.get("y", 0))
    x1, y1 = x0 + float(cube.get("width", 0)), y0 + float(cube.get("height", 0))
    checkers = list(root.iter(f"{NS}circle"))
    assert len(checkers) == 30  # every checker drawn
    for c in checkers:
        cx, cy, r = (float(c.get(k, 0)) for k in ("cx", "cy", "r"))
        apart = cx + r <= x0 or cx - r >= x1 or cy + r <= y0 or cy - r >= y1
        assert apart, f"the cube ({x0}..{x1}, {y0}..{y1}) covers the checker at ({cx}, {cy})"


@pytest.mark.parametrize("first", ["Ann", "Squire-Jorgensen/Harmand-Unger consultation"])
def test_the_charts_legend_names_never_overlap(first: str) -> None:
    root = _shapes(chart_svg([0.5, 0.6, 0.4], [(0, "Game 1")], (first, "Bob")))
    names = [t for t in root.iter(f"{NS}text") if t.text in (first, "Bob")]
    assert [t.text for t in names] == [first, "Bob"]
    keys = [x for x in root.iter(f"{NS}line") if x.get("stroke-width") == "3"]  # each name's colour
    end = float(names[0].get("x", 0)) + text_width(first, 11)
    assert float(keys[1].get("x1", 0)) >= end, "the second name's key starts inside the first name"
