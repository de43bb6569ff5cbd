"""Diagrams of a known position, checked structurally: the text board line by line as GNU
Backgammon draws it, the SVG's elements, the PNG's header, size and colours."""

from __future__ import annotations

import errno
import io
import os
import re
import resource
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import numpy as np
import pytest

from benchmarks.gnubg_harness import run_gnubg
from gammon.cli.main import main
from gammon.diagram import render, render_png, render_svg, render_text
from gammon.diagram.png import encode_png
from gammon.diagram.scene import (
    BAR_LEFT,
    BAR_RIGHT,
    BOTTOM,
    HEIGHT,
    RADIUS,
    RIGHT,
    TOP,
    WIDTH,
    Circle,
    Rect,
    scene,
)
from gammon.formats.ids import describe_situation, gnubg_player_on_roll, read_id
from gammon.i18n import use_language
from gammon.position import Position
from gammon.rules import Rules
from gammon.situation import CubeOwner, Situation
from tests.helpers import needs_gnubg

# the starting position, 7-point match at 1-2, X (on roll, 2 points) owns a 2-cube and rolled 52
XGID = "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:1:0:7:10"
# GNU Backgammon 1.07's "show board" of that XGID, trailing blanks dropped, its names "you"/"opponent"
GNUBG_BOARD = """\
 GNU Backgammon  Position ID: 4HPwATDgc/ABMA
                 Match ID   : UYnqABAAEAAE
 +13-14-15-16-17-18------19-20-21-22-23-24-+     O: opponent
 | X           O    |   | O              X |     1 point
 | X           O    |   | O              X |
 | X           O    |   | O                |
 | X                |   | O                |
 | X                |   | O                |
v|                  |BAR|                  |     7 points match
 | O                |   | X                |
 | O                |   | X                |
 | O           X    |   | X                |
 | O           X    |   | X              O |     Rolled 52
 | O           X    |   | X              O |     2 points
 +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: you (Cube: 2)
"""


def test_text_is_gnubgs_board() -> None:
    """Its Match ID too: gnubg numbers an XGID's bottom player on roll 1 (the Match ID was
    gammon's own numbering, player 0 on roll: the same board to gnubg with its top player on roll)."""
    assert render_text(read_id(XGID), player_on_roll=gnubg_player_on_roll(XGID)) == GNUBG_BOARD


# the ID typed, as gnubg's "show board" writes it back: player 1 or player 0 on roll, either ID form
TYPED = ["4HPwATDgc/ABMA:cAkAAAAAAAAA", "4HPwATDgc/ABMA:MAEAAAAAAAAA", "4HPwATDgc/ABMA:cImpAAAAAAAE",
         "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:2:3:0:7:10",
         "XGID=-b----E-C---eE---c-e----B-:0:0:-1:52:2:3:0:7:10"]


@pytest.mark.parametrize("typed", TYPED[:3])
def test_cli_draws_the_gnubg_id_typed(typed: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``gammon diagram 4HPwATDgc/ABMA:cAkAAAAAAAAA`` wrote Match ID MAEAAAAAAAAA, which gnubg
    reads with its other player on roll."""
    assert main(["diagram", typed]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert (lines[0].split()[-1], lines[1].split()[-1]) == tuple(typed.split(":"))


@needs_gnubg
@pytest.mark.parametrize("typed", TYPED)
def test_diagram_ids_are_gnubgs_own(typed: str) -> None:
    """GNU Backgammon, given the ID, writes its GNU Backgammon ID: the diagram's (text, SVG, PNG)
    is the same for a GNU Backgammon ID. gnubg numbers the players of an XGID its own ways (with its
    display off, its player on roll is the one it draws at the bottom): for one, the same situation."""
    command = "set xgid " if typed.startswith("XGID") else "set gnubgid "
    [theirs] = run_gnubg(f"gnubg.command({command + typed!r})\nemit(gnubg.gnubgid())\n", expect=1)
    s, on_roll = read_id(typed), gnubg_player_on_roll(typed)
    ours = ET.fromstring(render_svg(s, player_on_roll=on_roll)).get("data-gnubg-id")
    assert ours == render_text(s, player_on_roll=on_roll).splitlines()[1].split()[-1].join(
        [s.position.id + ":", ""])
    assert ours is not None and ours.encode() in render_png(s, player_on_roll=on_roll)
    assert read_id(ours) == read_id(theirs)
    if not typed.startswith("XGID"):
        assert ours == theirs


def test_text_counts_bar_and_off() -> None:
    """Checked against GNU Backgammon 1.07's board of the same Position ID: counts past four, both
    bars, and the checkers borne off (X 7, O 6) in the right-hand column."""
    s = Situation(Position.from_points({6: 7, 25: 1}, {1: 7, 25: 2}))
    assert render_text(s).splitlines()[3:14] == [
        " |                  | O |                O | OO  0 points",
        " |                  | O |                O | O",
        " |                  |   |                O | O",
        " |                  |   |                O | O",
        " |                  |   |                7 | O",
        "v|                  |BAR|                  |     (Cube: 1)",
        " |                  |   | 7                | X",
        " |                  |   | X                | X",
        " |                  |   | X                | X",
        " |                  |   | X                | XX  On roll",
        " |                  | X | X                | XX  0 points",
    ]


def test_svg_structure() -> None:
    svg = render_svg(read_id(XGID))
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.get("viewBox") == f"0 0 {WIDTH} {HEIGHT}"
    assert root.get("data-xgid", "").startswith("XGID=-b----E-C---eE---c-e----B-")
    assert root.findtext(f"{ns}title") == "4HPwATDgc/ABMA:AYHqACAACAAE"
    circles = root.findall(f"{ns}circle")
    checkers = [c for c in circles if float(c.get("r", 0)) > 10]
    assert len(checkers) == 30  # every checker of the start is on the board, none over 5 a point
    assert len(root.findall(f"{ns}polygon")) == 24
    pips = [c for c in circles if float(c.get("r", 0)) < 5]
    assert len(pips) == 5 + 2  # the dice 5 and 2
    texts = [t.text for t in root.findall(f"{ns}text")]
    assert "2" in texts  # the cube
    assert any(t and "7 points match" in t for t in texts)
    assert {str(n) for n in range(1, 25)} <= set(texts)


def _png_parts(data: bytes) -> tuple[tuple[int, ...], dict[str, str], np.ndarray]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    i, idat, texts, header = 8, b"", {}, ()
    while i < len(data):
        (length,) = struct.unpack(">I", data[i : i + 4])
        kind, body = data[i + 4 : i + 8], data[i + 8 : i + 8 + length]
        assert struct.unpack(">I", data[i + 8 + length : i + 12 + length])[0] == zlib.crc32(kind + body)
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"tEXt":
            key, value = body.split(b"\0")
            texts[key.decode()] = value.decode("latin-1")
        elif kind == b"iTXt":  # keyword, flag 0 (not compressed), method, language, keyword again, UTF-8
            key, rest = body.split(b"\0", 1)
            assert rest[:2] == b"\0\0"
            _language, _translated, value = rest[2:].split(b"\0", 2)
            texts[key.decode()] = value.decode("utf-8")
        i += 12 + length
    width, height = header[0], header[1]
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, width * 3 + 1)
    assert not raw[:, 0].any()  # filter 0 on every row
    return header, texts, raw[:, 1:].reshape(height, width, 3)


def test_png_structure() -> None:
    header, texts, pixels = _png_parts(render_png(read_id(XGID)))
    assert header == (WIDTH, HEIGHT, 8, 2, 0, 0, 0)
    assert texts["Title"] == "4HPwATDgc/ABMA:AYHqACAACAAE"
    assert "XGID=" in texts["Description"]
    # the checkers' two colours are there, and the paper around the board is white
    colours = {tuple(int(v) for v in p) for p in pixels.reshape(-1, 3)[::7]}
    assert (0xF7, 0xF3, 0xEA) in colours and (0x2B, 0x2B, 0x2B) in colours
    assert tuple(pixels[2, 2]) == (255, 255, 255)


def test_encode_png_round_trip() -> None:
    pixels = np.arange(4 * 5 * 3, dtype=np.uint8).reshape(4, 5, 3)
    _, _, back = _png_parts(encode_png(pixels))
    assert (back == pixels).all()


def test_render_kinds() -> None:
    s = read_id("4HPwATDgc/ABMA")
    assert render(s, "text").decode().startswith(" GNU Backgammon")
    assert render(s, "svg").startswith(b"<svg")
    assert render(s, "png").startswith(b"\x89PNG")
    with pytest.raises(ValueError):
        render(s, "gif")  # type: ignore[arg-type]


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagram", XGID]) == 0
    assert capsys.readouterr().out == GNUBG_BOARD
    out = tmp_path / "board.png"
    assert main(["diagram", XGID, "-o", str(out)]) == 0  # the extension says PNG
    assert out.read_bytes().startswith(b"\x89PNG")
    assert main(["diagram", XGID, "--svg", "-o", str(tmp_path / "b")]) == 0
    assert (tmp_path / "b").read_text().startswith("<svg")
    assert main(["diagram", "XGID=" + "x" * 200]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gammon diagram:") and len(err) < 300
    assert re.search(r"xxx\.\.\.", err)


@pytest.mark.parametrize("name", ["board.gif", "board.JPG", "board.jpeg"])
def test_cli_refuses_an_output_extension_it_cannot_tell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """A picture asked for by a name it cannot draw is refused, not a text board written in it."""
    out = tmp_path / name
    assert main(["diagram", XGID, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gammon diagram:") and repr(str(out)) in err and "--png" in err
    assert not out.exists()
    assert main(["diagram", XGID, "--png", "-o", str(out)]) == 0  # a kind named says what to write
    assert out.read_bytes().startswith(b"\x89PNG")


def test_cli_write_error_quotes_the_path_cut(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing"
    assert main(["diagram", XGID, "-o", str(missing / "board.svg")]) == 1
    err = capsys.readouterr().err
    assert repr(str(missing / "board.svg")) in err  # quoted: a name with spaces shows where it ends
    long = str(missing / ("x" * 2000) / "board.svg")
    assert main(["diagram", XGID, "-o", long]) == 1
    err = capsys.readouterr().err
    assert err.startswith("gammon diagram:") and "xxx..." in err and len(err) < 500


@pytest.mark.parametrize("on_bar", [4, 5, 15])
def test_checkers_on_the_bar_stay_on_the_board(on_bar: int) -> None:
    """Five checkers or more on a bar were stacked past the board's edge, over the point numbers."""
    rest = {6: 15 - on_bar} if on_bar < 15 else {}
    s = Situation(Position.from_points({25: on_bar, **rest}, {25: on_bar, **rest}))
    checkers = [c for c in scene(s) if isinstance(c, Circle) and c.r > 10]
    assert len(checkers) == 2 * (min(on_bar, 5) + min(15 - on_bar, 5))
    for c in checkers:
        assert TOP <= c.cy - c.r and c.cy + c.r <= BOTTOM, c
    bar = sorted(c.cy for c in checkers if BAR_LEFT < c.cx < BAR_RIGHT)
    assert all(b - a >= 2 * RADIUS - 12 for a, b in zip(bar, bar[1:]))  # overlapping a little at most


def test_a_1_point_match_has_no_cube() -> None:
    """GNU Backgammon 1.07's board of a 1-point match says "1 point match", no cube: it is dead."""
    s = read_id("4HPwATDgc/ABMA:cIklAAAAAAAE")  # 1-point match, 31 rolled
    assert render_text(s).splitlines()[8] == "v|                  |BAR|                  |     1 point match"
    root = ET.fromstring(render_svg(s))
    cubes = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("width") == "34"]
    assert cubes == []
    assert len(ET.fromstring(render_svg(read_id("4HPwATDgc/ABMA:cAlgAAAAAAAE"))).findall(
        "{http://www.w3.org/2000/svg}rect[@width='34']")) == 1  # a 3-point match's cube is drawn


def test_a_resignation_on_offer_is_shown() -> None:
    """As GNU Backgammon's board says it (", resigns gammon" after the dice): a diagram of the
    decision whether to accept showed only the roll."""
    # money game, X rolled 31 and offers to resign a gammon: GNU Backgammon's own ID of it (the
    # player to decide is the opponent; were it X, the opponent would be resigning)
    s = read_id("4HPwATDgc/ABMA:cMEFAAAAAAAA")
    assert s.resignation is not None
    lines = render_text(s).splitlines()
    assert lines[12] == " | O           X    |   | X              O |     Rolled 31, resigns gammon"
    texts = [t.text for t in ET.fromstring(render_svg(s)).iter("{http://www.w3.org/2000/svg}text")]
    assert any(t and "Rolled 31, resigns gammon" in t for t in texts)


@pytest.mark.parametrize("mover, opponent, line", [
    ({}, {6: 3}, " |                  |   |                  | XXX"),
    ({6: 3}, {}, " |                  |   | X                | XXX"),
])
def test_a_finished_game_has_nobody_on_roll(
    mover: dict[int, int], opponent: dict[int, int], line: str
) -> None:
    """GNU Backgammon 1.07's board of a position with one side borne off says nothing where
    "On roll" stands: the game is over."""
    s = Situation(Position.from_points(mover, opponent))
    assert render_text(s).splitlines()[12] == line and "On roll" not in render_svg(s)


@pytest.mark.parametrize("lang, words", [("cs", "vám chybí 5, soupeři 6"), ("pl", "kostka 2")])
def test_png_description_keeps_every_letter(lang: str, words: str) -> None:
    """The description is in the user's language: Czech 'ě' and 'ř' (not Latin-1) came out as '?'."""
    with use_language(lang):
        _, texts, _ = _png_parts(render_png(read_id(XGID)))
        description = describe_situation(read_id(XGID))
    assert texts["Description"] == f"{description}; {XGID}" and words in texts["Description"]
    assert texts["Title"] == "4HPwATDgc/ABMA:AYHqACAACAAE"


class _FullDisk(io.BytesIO):
    def write(self, data: object) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_cli_standard_output_that_cannot_be_written(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Standard output sent to a full disk (> /dev/full) ended in a traceback."""
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(_FullDisk()))
    assert main(["diagram", XGID, "--svg"]) == 1
    err = capsys.readouterr().err
    assert err == f"gammon diagram: cannot write to standard output: {os.strerror(errno.ENOSPC)}\n"


def _overlaps(rect: Rect, circle: Circle) -> bool:
    nearest_x = min(max(circle.cx, rect.x), rect.x + rect.w)
    nearest_y = min(max(circle.cy, rect.y), rect.y + rect.h)
    return (nearest_x - circle.cx) ** 2 + (nearest_y - circle.cy) ** 2 < circle.r ** 2


@pytest.mark.parametrize("mover, opponent, offered", [
    ({4: 8, 3: 7}, {4: 9, 3: 6}, False),  # tall stacks where the dice lie: their counts were hidden
    ({4: 8, 3: 7}, {4: 9, 3: 6}, True),  # the cube of a double on offer lies there too
    ({4: 8, 3: 7}, {5: 5, 2: 5, 6: 5}, False),  # the right half crowded: the left one
    ({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}, False),
])
def test_the_dice_and_an_offered_cube_cover_no_checker(
    mover: dict[int, int], opponent: dict[int, int], offered: bool
) -> None:
    s = Situation(Position.from_points(mover, opponent), dice=None if offered else (6, 5),
                  double_offered=offered)
    shapes = scene(s)
    checkers = [c for c in shapes if isinstance(c, Circle) and c.r > 10]
    dice = [r for r in shapes if isinstance(r, Rect) and r.w in (32.0, 34.0) and r.x < RIGHT]  # not the tray
    assert len(dice) == (1 if offered else 2)
    assert not [(d, c) for d in dice for c in checkers if _overlaps(d, c)]


def test_an_image_cut_short_leaves_the_file_there_whole(tmp_path: Path) -> None:
    """-o over a file where the image cannot be written whole (a file size limit, a full disk): the
    file there was cut to the image's first bytes (a 21679-byte PNG left as 4096 bytes of SVG)."""
    there = tmp_path / "board.png"
    assert main(["diagram", XGID, "-o", str(there)]) == 0
    before = there.read_bytes()
    limit = 1024  # less than the SVG
    proc = subprocess.run([sys.executable, "-m", "gammon", "diagram", XGID, "--svg", "-o", "board.png"],
                          text=True, capture_output=True, cwd=tmp_path, timeout=120,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit)))
    assert proc.returncode == 1 and "cannot write 'board.png': File too large" in proc.stderr, proc.stderr
    assert there.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["board.png"]  # no temporary file


def test_an_image_is_written_over_a_file_there(tmp_path: Path) -> None:
    there = tmp_path / "board.svg"
    there.write_text("old")
    there.chmod(0o640)
    assert main(["diagram", XGID, "-o", str(there)]) == 0
    assert there.read_bytes() == render(read_id(XGID), "svg", gnubg_player_on_roll(XGID))
    assert there.stat().st_mode & 0o777 == 0o640


def test_the_opponents_resignation_is_shown_on_its_side() -> None:
    """The opponent offers a single game while the player on roll is about to roll (the player on
    roll answers): it was written 'On roll, resigns single game' beside the player on roll."""
    s = read_id("sGfwATDgc/ABMA:MCEAAAAAAAAA")
    assert s.resignation is not None and s.opponent_resigns
    lines = render_text(s).splitlines()
    assert lines[4].endswith("     Resigns single game")  # under the opponent's score
    assert lines[12].endswith("     On roll")
    texts = [t.text for t in ET.fromstring(render_svg(s)).iter("{http://www.w3.org/2000/svg}text")]
    assert any(t and "Resigns single game" in t for t in texts)
    assert not any(t and "On roll, resigns" in t for t in texts)


@pytest.mark.parametrize("gnubg_id, line", [
    # the opponent resigns before the roll: the player on roll is to answer, then roll
    ("sGfwATDgc/ABMA:MCEAAAAAAAAA", "(Cube: 1) On roll   O: Resigns single game"),
    # the opponent resigns instead of answering a double
    ("sGfwATDgc/ABMA:MDEAAAAAAAAA", "(Cube: 1)   O: Cube offered at 2, resigns single game"),
])
def test_an_image_says_the_opponent_resigns(gnubg_id: str, line: str) -> None:
    """An image's caption ran the opponent's resignation on after the player on roll's words, as
    if the player on roll resigned ('(Cube: 1) On roll Resigns single game')."""
    s = read_id(gnubg_id)
    assert s.opponent_resigns
    texts = [t.text for t in ET.fromstring(render_svg(s)).iter("{http://www.w3.org/2000/svg}text")]
    assert line in texts


def test_names_with_characters_xml_cannot_hold() -> None:
    """A name with a control character made an SVG no XML reader takes ('not well-formed (invalid
    token)' at a NUL), a newline in it split the text board's line, a lone surrogate raised
    UnicodeEncodeError; each such character is drawn as U+FFFD."""
    names = ("a\x00b\x1b", "c\nd\ud800\ufffe")
    svg = render_svg(read_id(XGID), names)
    texts = [t.text or "" for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    assert any("X: a\ufffdb\ufffd (Cube: 2)" in t and "O: c\ufffdd\ufffd\ufffd" in t for t in texts)
    board = render_text(read_id(XGID), names)
    assert len(board.splitlines()) == 15 and board.splitlines()[2].endswith("O: c\ufffdd\ufffd\ufffd")
    board.encode("utf-8")
    assert render_png(read_id(XGID), names).startswith(b"\x89PNG")


@pytest.mark.parametrize("value", [128, 1024, 16384])
def test_a_high_cube_s_number_stays_on_the_cube(value: int) -> None:
    """A cube of 1024 owned by the opponent had its number drawn 43 units wide on a cube 34 wide,
    over the tray's edge and off it."""
    s = Situation(Position.initial(), cube_value=value, cube_owner=CubeOwner.OPPONENT)
    cube = next(r for r in scene(s) if isinstance(r, Rect) and r.w == 34.0)
    _, _, pixels = _png_parts(render_png(s))
    beside = pixels[int(cube.y) : int(cube.y + cube.h), int(RIGHT) :]  # the tray and the paper past it
    ink = beside.max(axis=2) < 60  # the cube's number; the frame, the tray and the paper are lighter
    columns = np.flatnonzero(ink.any(axis=0)) + int(RIGHT)
    assert columns.size and cube.x <= columns.min() and columns.max() < cube.x + cube.w


def test_a_1_point_match_has_no_crawford_game() -> None:
    """A 1-point match with its Crawford flag set: GNU Backgammon 1.07 shows no Crawford game
    ("1 point match"; the rule has no meaning there), the diagram said "1 point match (Crawford
    game)". Built by hand: its Match ID, ``sAEgAAAAAAAA``, reads without the flag, as gnubg reads it."""
    s = Situation(Position.initial(), crawford_game=True, rules=Rules(match_length=1))
    assert render_text(s).splitlines()[8] == "v|                  |BAR|                  |     1 point match"
    texts = [t.text or "" for t in ET.fromstring(render_svg(s)).iter("{http://www.w3.org/2000/svg}text")]
    assert "1 point match On roll" in texts


def test_cli_an_empty_output_name_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """-o '' (a shell variable left empty: -o "$OUT") wrote the board to standard output, as if no
    -o had been given, and a PNG was refused as 'not for the terminal'."""
    for kind in ("--text", "--png"):
        assert main(["diagram", XGID, kind, "-o", ""]) == 1
        out, err = capsys.readouterr()
        assert out == "" and err == f"gammon diagram: cannot write '': {os.strerror(errno.ENOENT)}\n"


@pytest.mark.parametrize(("name", "start"), [
    (".png", b"\x89PNG"), (".SVG", b"<svg"), (".txt", b" GNU Backgammon"), (".board", b" GNU Backgammon"),
])
def test_cli_a_name_that_is_only_an_extension_says_the_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, start: bytes
) -> None:
    """-o .png: a name with nothing before its dot, which Path reads as no extension, got the
    text board. A user naming a file .png wants a PNG in it; a hidden name of no kind (.board)
    still gets the text board."""
    out = tmp_path / name
    assert main(["diagram", XGID, "-o", str(out)]) == 0
    assert out.read_bytes().startswith(start)
