"""The records of eXtreme Gammon's ``temp.xg``: fixed 2560-byte ``TSaveRec`` entries, decoded into
plain frozen values in gammon's conventions.

Every entry starts with two unused pointers and a type byte at offset 8, then the fields of its
type, laid out as Delphi lays out a record (each integer on a multiple of 4, each double on a
multiple of 8, strings and booleans unaligned); the offsets below follow XG's ``XG_format.pas``.

XG's conventions, and what they become here:

* XG's player 1 is gammon's player 0 and its player 2 player 1 (XG writes them +1 and -1).
* A position (``PositionEngine``, 26 signed bytes) is laid out as a gammon :class:`Position`'s
  board: points 1-24, slot 25 a side's bar, slot 0 the other side's bar. The positions in cube
  entries, in a move's start and in a game header are seen from player 0 (positive: its
  checkers); a move's end position is seen from the player who moved. They are kept as 26-tuples
  (``board``): a position file leaves the unused ones all zero, which is no position.
* A play is up to four (from, to) pairs numbered from the mover's side counting from 0: the bar is
  24 and any negative point is off (XG writes ``from`` minus the pips moved). A pair may move one
  checker by more than one die (``24/15`` for 63), so pairs are not always single steps. Here
  they are (from, to) pairs in gammon's numbering: 25 the bar, 0 off. A play of all -1 is a
  roll with no legal play; all 0 a roll left unplayed (the player then resigned).
* The cube (``CubeB``) is log2 of its value, positive when player 0 owns it, negative for player 1.
* A comment is an index into the comments of ``temp.xgc`` (from 0; -1 none): the match header
  holds the match's two (``CommentHeaderMatch`` and ``CommentFooterMatch``), a game header its
  game's two, a cube or move entry its own. ``temp.xgc`` holds one RTF document a line (lines
  end in CR LF; a line break inside a comment is written as the bytes 1 and 2), which
  :func:`decode_comments` turns into plain text.
"""

from __future__ import annotations

import codecs
import datetime
import re
import struct
from dataclasses import dataclass

from gammon.errors import InvalidNotationError
from gammon.formats.matchid import MAX_SCORE
from gammon.i18n import tr
from gammon.words import printable

RECORD_SIZE = 2560
FORMAT_MAGIC = 0x494C4D44  # 'DMLI', at offset 556 of the match header
UNLIMITED = 99999          # the match length of a money session
VARIATIONS = ("backgammon", "nackgammon", "hypergammon", "longgammon")

Board = tuple[int, ...]
Step = tuple[int, int]

HEADER_MATCH, HEADER_GAME, CUBE, MOVE, FOOTER_GAME, FOOTER_MATCH, COMMENT, MISSING = range(8)


@dataclass(frozen=True)
class XGMatchHeader:
    """``tsHeaderMatch``: who plays what. ``match_length`` is 0 for a money session (XG: 99999);
    ``cube_limit`` the highest cube value (None: not limited); ``automatic_doubles`` the most
    automatic doubles (0: none)."""

    names: tuple[str, str]
    match_length: int
    variation: int
    crawford: bool
    jacoby: bool
    beavers: bool
    automatic_doubles: int
    cube_limit: int | None
    event: str
    location: str
    round: str
    transcriber: str
    date: datetime.datetime | None
    elo: tuple[float, float]
    site_id: int
    version: int
    comments: tuple[int, int] = (-1, -1)  # the match's comments: before it and after it



@dataclass(frozen=True)
class XGGameHeader:
    """``tsHeaderGame``: the game's number (from 1), the score before it, whether it is the
    Crawford game, its first position (player 0's view; all zero for the standard start), how many
    automatic doubles it began with, and whether it was still being played when saved."""

    number: int
    score: tuple[int, int]
    crawford: bool
    board: Board
    automatic_doubles: int
    in_progress: bool
    comments: tuple[int, int] = (-1, -1)  # the game's comments: before it and after it



@dataclass(frozen=True)
class XGCube:
    """``tsCube``: ``player`` is on roll and may double. ``double`` 1 when it did (0 it did not;
    -1 or -2 when there was no decision to make); ``take`` the answer: 0 drop, 1 take,
    2 beaver (-1 none); ``beaver_answer`` the doubler's answer to a beaver: 0 drop, 1 take,
    2 raccoon. ``cube_value`` / ``cube_owner`` (None: centred) before the decision; ``board`` the
    position (player 0's view); ``dice`` the roll that followed, when XG noted one."""

    player: int
    double: int
    take: int
    beaver_answer: int
    raccoon_answer: int
    cube_value: int
    cube_owner: int | None
    board: Board
    dice: tuple[int, int] | None
    comment: int = -1



@dataclass(frozen=True)
class XGMove:
    """``tsMove``: ``player`` rolled ``dice`` and played ``steps``: (from, to) pairs in gammon's
    numbering (25 the bar, 0 off), each moving one checker by one die or more. ``steps`` is ``()``
    for a roll with no legal play and None for a roll left unplayed. ``board`` is the position
    before (player 0's view), ``end`` after the play (the mover's view; all zero in a position
    file)."""

    player: int
    dice: tuple[int, int]
    steps: tuple[Step, ...] | None
    board: Board
    end: Board
    cube_value: int
    cube_owner: int | None
    played: bool
    comment: int = -1



@dataclass(frozen=True)
class XGGameFooter:
    """``tsFooterGame``: the score after the game (XG caps it at the match length), the winner and
    the points won. ``termination``: 0 a dropped double, 1-3 a single game, gammon or backgammon
    borne off, 100 more for a resignation, 1000 more for a settlement."""

    score: tuple[int, int]
    crawford_next: bool
    winner: int
    points: int
    termination: int


@dataclass(frozen=True)
class XGMatchFooter:
    """``tsFooterMatch``: the final score and the winner (None: none recorded)."""

    score: tuple[int, int]
    winner: int | None


XGRecord = XGMatchHeader | XGGameHeader | XGCube | XGMove | XGGameFooter | XGMatchFooter


class RecordError(Exception):
    """A record that cannot be decoded; the caller adds where it is."""


def decode_records(data: bytes) -> list[XGRecord]:
    """Every record of a ``temp.xg``, in order (comment records, unused by XG, are skipped).
    Raises :class:`InvalidNotationError` naming the record that cannot be read."""
    if not data or len(data) % RECORD_SIZE:
        raise InvalidNotationError(
            tr("temp.xg has {n} bytes: a whole number (at least one) of {size}-byte records is expected, so "
               "it is "
               "truncated or damaged", n=len(data), size=RECORD_SIZE))
    records: list[XGRecord] = []
    version = 0
    for k in range(len(data) // RECORD_SIZE):
        raw = data[k * RECORD_SIZE:(k + 1) * RECORD_SIZE]
        kind = raw[8]
        try:
            if k == 0 and kind != HEADER_MATCH:
                raise RecordError(tr("the first record must be the match header, found type {kind}",
                                     kind=kind))
            if kind == HEADER_MATCH:
                if k:
                    raise RecordError(tr("a second match header"))
                match_header = _match_header(raw)
                record: XGRecord = match_header
                version = match_header.version
            elif kind == HEADER_GAME:
                record = _game_header(raw, version)
            elif kind == CUBE:
                record = _cube(raw)
            elif kind == MOVE:
                record = _move(raw)
            elif kind == FOOTER_GAME:
                record = _game_footer(raw)
            elif kind == FOOTER_MATCH:
                record = _match_footer(raw)
            elif kind == COMMENT:
                continue
            elif kind == MISSING:
                raise RecordError(tr("a game recorded as missing (tsMissing): its plays are not in the file"))
            else:
                raise RecordError(tr("unknown record type {kind}", kind=kind))
        except (RecordError, struct.error) as e:
            raise InvalidNotationError(tr("temp.xg record {k}: {problem}", k=k + 1, problem=e)) from None
        records.append(record)
    return records


# --- the record types ------------------------------------------------------------------------

def _match_header(raw: bytes) -> XGMatchHeader:
    version, magic = struct.unpack_from("<ii", raw, 552)
    if magic != FORMAT_MAGIC:
        raise RecordError(tr("the match header's magic number is {magic}, not {expected} ('DMLI')",
                             magic=f"{magic:#x}", expected=f"{FORMAT_MAGIC:#x}"))
    length, variation = struct.unpack_from("<ii", raw, 92)
    crawford, jacoby, beavers, auto_double = raw[100:104]
    if not 0 <= variation < len(VARIATIONS):
        raise RecordError(tr("unknown variation {variation}", variation=variation))
    if length < 0:
        raise RecordError(tr("match length {length}", length=length))
    if MAX_SCORE < length != UNLIMITED:  # a Match ID holds the length in 15 bits: analysis could not go on
        raise RecordError(tr("a match of {length} points is longer than gammon can hold (at most {most})",
                             length=length, most=MAX_SCORE))
    names = (_pascal(raw, 9, 40), _pascal(raw, 50, 40))
    event, location, round_ = _pascal(raw, 136, 128), _pascal(raw, 283, 128), _pascal(raw, 417, 128)
    cube_log = auto_max = 0
    transcriber = ""
    if version >= 8:
        cube_log, auto_max = struct.unpack_from("<ii", raw, 612)
    if version >= 24:  # the Unicode copies of the names, preferred where set
        event = _utf16(raw, 622) or event
        names = (_utf16(raw, 880) or names[0], _utf16(raw, 1138) or names[1])
        location = _utf16(raw, 1396) or location
        round_ = _utf16(raw, 1654) or round_
    if version >= 30:
        transcriber = _utf16(raw, 1960)
    if not 0 <= cube_log <= 15:
        raise RecordError(tr("cube limit 2^{power}", power=cube_log))
    elo = struct.unpack_from("<dd", raw, 104)
    (days,) = struct.unpack_from("<d", raw, 128)
    site_id = struct.unpack_from("<i", raw, 608)[0]
    return XGMatchHeader(
        names=(printable(names[0]), printable(names[1])),
        match_length=0 if length == UNLIMITED else length, variation=variation,
        crawford=bool(crawford), jacoby=bool(jacoby), beavers=bool(beavers),
        automatic_doubles=max(auto_max, 0) if auto_double else 0,
        cube_limit=1 << cube_log if cube_log else None, event=event, location=location,
        round=round_, transcriber=transcriber, date=_date(days), elo=(elo[0], elo[1]),
        site_id=site_id, version=version, comments=_pair(raw, 576))


def _game_header(raw: bytes, version: int) -> XGGameHeader:
    score = struct.unpack_from("<ii", raw, 12)
    number, = struct.unpack_from("<i", raw, 48)
    autos = struct.unpack_from("<i", raw, 64)[0] if version >= 26 else 0
    if min(score) < 0 or autos < 0:
        raise RecordError(tr("game header with score {score} and {autos} automatic doubles", score=score,
                             autos=autos))
    return XGGameHeader(number=number, score=(score[0], score[1]), crawford=bool(raw[20]),
                        board=_board(raw, 21), automatic_doubles=autos, in_progress=bool(raw[52]),
                        comments=_pair(raw, 56))


def _cube(raw: bytes) -> XGCube:
    actif, double, take, beaver, raccoon, cube = struct.unpack_from("<6i", raw, 12)
    value, owner = _cube_state(cube)
    dice = _pascal(raw, 208, 2)
    rolled = (int(dice[0]), int(dice[1])) if len(dice) == 2 and all(c in "123456" for c in dice) \
        else None
    return XGCube(player=_player(actif), double=double, take=take, beaver_answer=beaver,
                  raccoon_answer=raccoon, cube_value=value, cube_owner=owner,
                  board=_board(raw, 36), dice=rolled, comment=struct.unpack_from("<i", raw, 292)[0])


def _move(raw: bytes) -> XGMove:
    actif, = struct.unpack_from("<i", raw, 64)
    moves = struct.unpack_from("<8i", raw, 68)
    dice = struct.unpack_from("<2i", raw, 100)
    cube, = struct.unpack_from("<i", raw, 108)
    if not all(1 <= d <= 6 for d in dice):
        raise RecordError(tr("a move with dice {dice}", dice=dice))
    value, owner = _cube_state(cube)
    return XGMove(player=_player(actif), dice=(dice[0], dice[1]), steps=_steps(moves),
                  board=_board(raw, 9), end=_board(raw, 35), cube_value=value, cube_owner=owner,
                  played=bool(raw[2308]), comment=struct.unpack_from("<i", raw, 2524)[0])


def _game_footer(raw: bytes) -> XGGameFooter:
    score = struct.unpack_from("<ii", raw, 12)
    winner, points, termination = struct.unpack_from("<iii", raw, 24)
    return XGGameFooter(score=(score[0], score[1]), crawford_next=bool(raw[20]),
                        winner=_player(winner), points=points, termination=termination)


def _match_footer(raw: bytes) -> XGMatchFooter:
    score = struct.unpack_from("<ii", raw, 12)
    winner, = struct.unpack_from("<i", raw, 20)
    return XGMatchFooter(score=(score[0], score[1]), winner=_player(winner) if winner else None)


# --- fields ----------------------------------------------------------------------------------

def _player(value: int) -> int:
    if value not in (1, -1):
        raise RecordError(tr("player {value} (XG writes 1 for player 1, -1 for player 2)", value=value))
    return 0 if value == 1 else 1


def _cube_state(cube: int) -> tuple[int, int | None]:
    if abs(cube) > 15:
        raise RecordError(tr("cube 2^{power}", power=abs(cube)))
    return 1 << abs(cube), (None if cube == 0 else 0 if cube > 0 else 1)


def _pair(raw: bytes, offset: int) -> tuple[int, int]:
    first, second = struct.unpack_from("<ii", raw, offset)
    return first, second


def _board(raw: bytes, offset: int) -> Board:
    return struct.unpack_from("<26b", raw, offset)


def _steps(moves: tuple[int, ...]) -> tuple[Step, ...] | None:
    if moves[0] == 0 and moves[1] == 0:  # (1-point, 1-point) cannot be a step: nothing played
        return None
    steps = []
    for src, dst in zip(moves[::2], moves[1::2]):
        if src == -1:
            break
        if not 0 <= src <= 24 or not src - 24 <= dst < src:
            raise RecordError(tr("the play {moves} has an impossible step {step} (XG numbers the points "
                                 "from 0, "
                                 "the bar 24)", moves=moves, step=f"{src}/{dst}"))
        steps.append((src + 1, max(dst + 1, 0)))
    return tuple(steps)


def _pascal(raw: bytes, offset: int, limit: int) -> str:
    n = min(raw[offset], limit)
    return raw[offset + 1:offset + 1 + n].decode("cp1252", errors="replace")


def _utf16(raw: bytes, offset: int, chars: int = 129) -> str:
    return raw[offset:offset + 2 * chars].decode("utf-16-le", errors="replace").split("\0", 1)[0]


def _date(days: float) -> datetime.datetime | None:
    """A Delphi TDateTime: days since 30 December 1899 (0: not set; None too for a date Python
    cannot hold, before the year 1 or after 9999, like any other date out of range)."""
    if not days or not -1e6 < days < 1e6:
        return None
    try:
        return datetime.datetime(1899, 12, 30) + datetime.timedelta(days=days)
    except OverflowError:
        return None


# --- the comments (temp.xgc) -----------------------------------------------------------------

# RTF's tokens: a control word with its number, a byte in the code page (\'e0), a control symbol,
# a group's brace, text.
_RTF_TOKEN = re.compile(r"\\([a-zA-Z]+)(-?\d+)? ?|\\'([0-9a-fA-F]{2})|\\(.)|([{}])|([^\\{}\r\n]+)|[\r\n]+",
                        re.DOTALL)
# The groups whose text is not the document's (fonts, colours, styles, the generator...).
_RTF_HIDDEN = frozenset({"fonttbl", "colortbl", "stylesheet", "info", "pict", "object", "header",
                         "footer", "headerl", "headerr", "footerl", "footerr", "listtable",
                         "listoverridetable", "rsidtbl", "generator", "themedata", "latentstyles"})
# Groups nested deeper than this are kept as text of their parent's kind without a state of their
# own: XG's comments nest three deep, and a file of braces must not cost memory for each.
_RTF_DEPTH = 64
_RTF_SYMBOLS = {"\\": "\\", "{": "{", "}": "}", "~": "\u00a0", "_": "\u2011", "-": ""}


def decode_comments(data: bytes) -> tuple[str, ...]:
    """The comments of a ``temp.xgc`` in order (a comment's index is its place), as plain text:
    one RTF document a line; an empty line is an empty comment."""
    lines = data.split(b"\r\n")
    if lines and not lines[-1]:
        lines.pop()  # the last line's end
    return tuple(rtf_text(line.replace(b"\x01\x02", b"\r\n")) for line in lines)


def rtf_text(rtf: bytes) -> str:
    """The text of an RTF document as XG writes its comments (paragraphs as lines, the code page's
    bytes and Unicode characters decoded, the font and colour tables left out); bytes that are not
    RTF are taken as Windows-1252 text."""
    if not rtf.lstrip().startswith(b"{\\rtf"):
        plain = rtf.decode("cp1252", errors="replace").strip()
        return "\n".join(printable(line.replace("\t", " ").rstrip()) for line in plain.splitlines())
    text = rtf.decode("latin-1")  # RTF is 7-bit; any other byte stands for itself
    out: list[str] = []
    codec = "cp1252"
    hidden, skip_chars, uc = False, 0, 1
    stack: list[tuple[bool, int]] = []
    deeper = 0  # groups open beyond _RTF_DEPTH
    for m in _RTF_TOKEN.finditer(text):
        word, number, hexa, symbol, brace, plain = m.groups()
        if brace == "{":
            if len(stack) < _RTF_DEPTH:
                stack.append((hidden, uc))
            else:
                deeper += 1
        elif brace == "}":
            if deeper:
                deeper -= 1
            elif stack:
                hidden, uc = stack.pop()
            skip_chars = 0
        elif skip_chars and (hexa or symbol or plain):  # a Unicode character's ANSI stand-in
            taken = 1 if not plain else min(skip_chars, len(plain))
            skip_chars -= taken
            if plain and len(plain) > taken and not hidden:
                out.append(plain[taken:])
        elif word is not None:
            hidden = hidden or word in _RTF_HIDDEN
            if word == "ansicpg" and number:
                codec = _codec(f"cp{number}")
            elif word == "uc" and number:
                uc = max(int(number), 0)
            elif hidden:
                continue
            elif word in ("par", "line"):
                out.append("\n")
            elif word == "tab":
                out.append("\t")
            elif word == "u" and number:
                out.append(chr(int(number) % 65536))
                skip_chars = uc
        elif symbol == "*":
            hidden = True  # an optional destination gammon does not know
        elif hidden:
            continue
        elif hexa is not None:
            out.append(bytes([int(hexa, 16)]).decode(codec, errors="replace"))
        elif symbol is not None:
            out.append(_RTF_SYMBOLS.get(symbol, ""))
        elif plain is not None:
            out.append(plain.encode("latin-1").decode(codec, errors="replace"))
    # a character beyond U+FFFF comes as two \u halves (UTF-16); a lone half is no character
    joined = "".join(out).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    # the text is shown in terminals and pages: each line's control characters replaced
    return "\n".join(printable(line.replace("\t", " ").rstrip()) for line in joined.strip().splitlines())


def _codec(name: str) -> str:
    try:
        codecs.lookup(name)
    except LookupError:
        return "cp1252"
    return name
