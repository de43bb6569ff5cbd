"""The diagram as a PNG image: gammon.diagram.scene's shapes rasterized with numpy, drawn at twice
the size and averaged down (smooth edges), and written as a PNG with zlib. No imaging library is
needed. Text is drawn in a built-in 3x5 pixel font of capitals, digits and a few signs (the PNG's
words are in capitals); the file's text chunks carry the GNU Backgammon ID and the XGID.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

from gammon.diagram.scene import HEIGHT, WIDTH, Circle, Rect, Shape, Text, Triangle, scene
from gammon.diagram.words import words
from gammon.situation import Situation

SCALE = 2  # drawn at twice the size, then averaged down

# 3x5 glyphs, rows top to bottom, "1" a pixel
_GLYPHS = {
    "0": "111101101101111",
    "1": "010110010010111",
    "2": "111001111100111",
    "3": "111001111001111",
    "4": "101101111001001",
    "5": "111100111001111",
    "6": "111100111101111",
    "7": "111001010010010",
    "8": "111101111101111",
    "9": "111101111001111",
    "A": "010101111101101",
    "B": "110101110101110",
    "C": "011100100100011",
    "D": "110101101101110",
    "E": "111100110100111",
    "F": "111100110100100",
    "G": "011100101101011",
    "H": "101101111101101",
    "I": "111010010010111",
    "J": "001001001101010",
    "K": "101101110101101",
    "L": "100100100100111",
    "M": "101111111101101",
    "N": "110101101101101",
    "O": "010101101101010",
    "P": "110101110100100",
    "Q": "010101101110011",
    "R": "110101110101101",
    "S": "011100010001110",
    "T": "111010010010010",
    "U": "101101101101111",
    "V": "101101101101010",
    "W": "101101111111101",
    "X": "101101010101101",
    "Y": "101101010010010",
    "Z": "111001010100111",
    " ": "000000000000000",
    ".": "000000000000010",
    ",": "000000000010100",
    ":": "000010000010000",
    "-": "000000111000000",
    "(": "001010010010001",
    ")": "100010010010100",
    "/": "001001010100100",
    "=": "000111000111000",
    "+": "000010111010000",
    "*": "000101010101000",
    "'": "010010000000000",
    "%": "101001010100101",
}
_UNKNOWN = "111001010000010"  # ?


def _color(hex_color: str) -> np.ndarray:
    return np.array([int(hex_color[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.uint8)


def _box(image: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
    h, w = image.shape[:2]
    return max(int(x0), 0), max(int(y0), 0), min(int(np.ceil(x1)), w), min(int(np.ceil(y1)), h)


def _fill(image: np.ndarray, mask_box: tuple[int, int, int, int], mask: np.ndarray, color: str) -> None:
    x0, y0, x1, y1 = mask_box
    if x1 > x0 and y1 > y0:
        image[y0:y1, x0:x1][mask] = _color(color)


def _rect(image: np.ndarray, x: float, y: float, w: float, h: float, color: str) -> None:
    x0, y0, x1, y1 = _box(image, x, y, x + w, y + h)
    if x1 > x0 and y1 > y0:
        image[y0:y1, x0:x1] = _color(color)


def _grid(box: tuple[int, int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    x0, y0, x1, y1 = box
    ys, xs = np.mgrid[y0:y1, x0:x1]
    return xs + 0.5, ys + 0.5


def _circle(image: np.ndarray, cx: float, cy: float, r: float, color: str) -> None:
    box = _box(image, cx - r, cy - r, cx + r, cy + r)
    xs, ys = _grid(box)
    _fill(image, box, (xs - cx) ** 2 + (ys - cy) ** 2 <= r * r, color)


def _triangle(image: np.ndarray, points: list[tuple[float, float]], color: str) -> None:
    xs_p, ys_p = [p[0] for p in points], [p[1] for p in points]
    box = _box(image, min(xs_p), min(ys_p), max(xs_p), max(ys_p))
    xs, ys = _grid(box)
    sides = []
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1]):
        sides.append((bx - ax) * (ys - ay) - (by - ay) * (xs - ax))
    inside = np.all([s >= 0 for s in sides], axis=0) | np.all([s <= 0 for s in sides], axis=0)
    _fill(image, box, inside, color)


def _text(image: np.ndarray, shape: Text) -> None:
    unit = max(shape.size * SCALE * 0.72 / 5, 1.0)  # a capital's height is about 0.72 em
    text = shape.text.upper()
    width = (len(text) * 4 - 1) * unit
    left = shape.x * SCALE - (width / 2 if shape.anchor == "middle" else 0)
    top = shape.y * SCALE - 5 * unit
    for i, char in enumerate(text):
        glyph = _GLYPHS.get(char, _UNKNOWN)
        for cell, on in enumerate(glyph):
            if on == "1":
                row, column = divmod(cell, 3)
                x = left + (i * 4 + column) * unit
                _rect(image, round(x), round(top + row * unit), round(unit), round(unit), shape.fill)


def _draw(image: np.ndarray, shape: Shape) -> None:
    s = SCALE
    if isinstance(shape, Rect):
        if shape.stroke:
            _rect(image, shape.x * s, shape.y * s, shape.w * s, shape.h * s, shape.stroke)
            _rect(image, shape.x * s + 2, shape.y * s + 2, shape.w * s - 4, shape.h * s - 4, shape.fill)
        else:
            _rect(image, shape.x * s, shape.y * s, shape.w * s, shape.h * s, shape.fill)
    elif isinstance(shape, Circle):
        if shape.stroke:
            _circle(image, shape.cx * s, shape.cy * s, shape.r * s, shape.stroke)
            _circle(image, shape.cx * s, shape.cy * s, shape.r * s - 3, shape.fill)
        else:
            _circle(image, shape.cx * s, shape.cy * s, shape.r * s, shape.fill)
    elif isinstance(shape, Triangle):
        _triangle(image, [(x * s, y * s) for x, y in shape.points], shape.fill)
    else:
        _text(image, shape)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def encode_png(pixels: np.ndarray, texts: dict[str, str] | None = None) -> bytes:
    """An RGB image (height x width x 3, uint8) as the bytes of a PNG file, with ``texts`` as
    ``tEXt`` chunks, or ``iTXt`` (UTF-8) for a text beyond Latin-1 (a Czech description)."""
    height, width = pixels.shape[:2]
    rows = np.concatenate([np.zeros((height, 1), dtype=np.uint8), pixels.reshape(height, width * 3)], axis=1)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    chunks = [_chunk(b"IHDR", header)]
    for key, value in (texts or {}).items():
        try:
            chunks.append(_chunk(b"tEXt", key.encode("latin-1") + b"\0" + value.encode("latin-1")))
        except UnicodeEncodeError:  # no compression, no language tag, no translated keyword
            chunks.append(_chunk(b"iTXt", key.encode("latin-1") + b"\0\0\0\0\0" + value.encode("utf-8")))
    chunks.append(_chunk(b"IDAT", zlib.compress(rows.tobytes(), 6)))
    chunks.append(_chunk(b"IEND", b""))
    return b"\x89PNG\r\n\x1a\n" + b"".join(chunks)


def render_png(
    situation: Situation, names: tuple[str, str] = ("you", "opponent"), player_on_roll: int = 0
) -> bytes:
    """The PNG file's bytes; ``player_on_roll`` as :func:`render_svg`'s."""
    image = np.zeros((HEIGHT * SCALE, WIDTH * SCALE, 3), dtype=np.uint8)
    for shape in scene(situation, names, player_on_roll):
        if not (isinstance(shape, Text) and shape.exact):  # the IDs go in the tEXt chunks instead
            _draw(image, shape)
    small = np.zeros((HEIGHT, WIDTH, 3), dtype=np.uint16)
    for dy in range(SCALE):  # strided adds: much faster than a sum over reshaped axes
        for dx in range(SCALE):
            small += image[dy::SCALE, dx::SCALE]
    w = words(situation, names, player_on_roll)
    texts = {
        "Title": f"{w.position_id}:{w.match_id}",
        "Description": f"{w.description}; {w.xgid}" if w.xgid else w.description,
        "Software": "gammon",
    }
    return encode_png(((small + SCALE * SCALE // 2) // (SCALE * SCALE)).astype(np.uint8), texts)
