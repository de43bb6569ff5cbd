"""A test-only writer of eXtreme Gammon ``.xg`` / ``.xgp`` files, per XG's published layout
(``XG_format.pas``, ``ZLibArchive.pas``) and the conventions real XG files show (documented in
gammon/formats/xg_records.py): records of 2560 bytes in a zlib archive after an 8232-byte
RichGameFormat header.

It writes what XG writes for a game: a game header; before every roll a cube entry for the player
on roll (whether it doubled and the answer, the position, the cube); a move entry for every roll
(the position before it in player 0's view, the pairs counted from 0 with the bar 24 and off
written as ``from - die``, the end position in the mover's view); a game footer (winner, points,
0 drop / 1-3 borne off / 100 + kind for a resignation); a match footer when the match is over.
Opening ties and rejected resignations are not recorded (XG does not record them).
"""

from __future__ import annotations

import random
import struct
import zlib
from collections.abc import Sequence
from typing import NamedTuple

from gammon.formats.matchid import MatchState
from gammon.game import (
    AcceptResignation,
    Beaver,
    Double,
    Game,
    Pass,
    PlayMade,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from gammon.match import Match
from gammon.play import Play
from gammon.position import Position
from gammon.rules import Rules

RECORD = 2560
HEADER = 8232

Board = Sequence[int]


# --- the container ---------------------------------------------------------------------------

def container(files: dict[str, bytes], compress: bool = True, game_name: str = "gammon test") -> bytes:
    """A RichGameFormat file holding ``files`` (in order) in a ZLibArchive."""
    data = bytearray()
    entries = []
    for name, body in files.items():
        stored = zlib.compress(body, 6) if compress else body
        entries.append(Entry(name, len(body), len(stored), len(data), zlib.crc32(body), compress))
        data += stored
    return laid_out(bytes(data), entries, game_name)


class Entry(NamedTuple):
    """An archive entry as its registry gives it: the file's size, its stored bytes' length and
    offset in the archive's data, its CRC-32, and whether it is zlib-compressed."""

    name: str
    size: int
    stored: int
    offset: int
    crc: int
    compressed: bool = True


def laid_out(data: bytes, entries: Sequence[Entry], game_name: str = "gammon test") -> bytes:
    """A RichGameFormat file of the archive data ``data`` and a registry of ``entries`` as given
    (tests forge entries that overlap or lie)."""
    header = bytearray(HEADER)
    struct.pack_into("<4sIIqI", header, 0, b"RGMH", 1, HEADER, 0, 0)
    _put_utf16(header, 36, game_name, 1024)
    registry = bytearray()
    for e in entries:
        entry = bytearray(532)
        _put_pascal(entry, 0, e.name, 255)
        struct.pack_into("<iiiIBB", entry, 512, e.size, e.stored, e.offset, e.crc,
                         0 if e.compressed else 1, 2 if e.compressed else 0)
        registry += entry
    packed = zlib.compress(bytes(registry))
    archive = data + packed
    trailer = struct.pack("<IiiiiI12x", zlib.crc32(archive), len(entries), 1, len(packed), len(data), 1)
    return bytes(header) + archive + trailer


def archive_files(records: Sequence[bytes]) -> dict[str, bytes]:
    """temp.xg and temp.xgi (its first and last records) of a list of records."""
    body = b"".join(records)
    return {"temp.xg": body, "temp.xgi": records[0] + records[-1]}


# --- records ---------------------------------------------------------------------------------

def match_header(names: Sequence[str], rules: Rules, event: str = "", version: int = 30) -> bytes:
    r = _record(0)
    _put_pascal(r, 9, names[0], 40)
    _put_pascal(r, 50, names[1], 40)
    automatic = rules.automatic_doubles if rules.is_money else 0
    struct.pack_into("<ii4B", r, 92, rules.match_length or 99999, 0, rules.crawford,
                     rules.jacoby and rules.is_money, rules.beavers and rules.is_money, bool(automatic))
    struct.pack_into("<ddiid", r, 104, 1600.0, 1600.0, 0, 0, 45000.5)
    _put_pascal(r, 136, event, 128)
    struct.pack_into("<iiii", r, 548, 1, version, 0x494C4D44, 0)
    struct.pack_into("<ii", r, 576, -1, -1)
    cube_log = (rules.cube_limit or 1024).bit_length() - 1
    struct.pack_into("<ii", r, 612, cube_log, automatic)
    if version >= 24:
        _put_utf16(r, 622, event, 129)
        _put_utf16(r, 880, names[0], 129)
        _put_utf16(r, 1138, names[1], 129)
    return bytes(r)


def game_header(number: int, score: Sequence[int], crawford: bool, board: Board | None = None,
                in_progress: bool = False) -> bytes:
    r = _record(1)
    struct.pack_into("<iiB26b", r, 12, score[0], score[1], crawford, *(board or (0,) * 26))
    struct.pack_into("<iB", r, 48, number, in_progress)
    struct.pack_into("<iii", r, 56, -1, -1, 0)
    return bytes(r)


def cube_entry(player: int, board: Board, cube_value: int, cube_owner: int | None, double: int = 0,
               take: int = -1, beaver: int = -1, dice: str = "77") -> bytes:
    r = _record(2)
    struct.pack_into("<6i26b", r, 12, _xg_player(player), double, take, beaver, -1,
                     _cube(cube_value, cube_owner), *board)
    _put_pascal(r, 208, dice, 2)
    struct.pack_into("<i", r, 292, -1)
    return bytes(r)


def move_entry(player: int, board: Board, end: Board, pairs: Sequence[int], dice: Sequence[int],
               cube_value: int, cube_owner: int | None, played: bool = True) -> bytes:
    r = _record(3)
    struct.pack_into("<26b26b", r, 9, *board, *end)
    moves = list(pairs) + [-1] * (8 - len(pairs))
    struct.pack_into("<i8i2ii", r, 64, _xg_player(player), *moves, *dice, _cube(cube_value, cube_owner))
    r[2308] = played
    struct.pack_into("<i", r, 2524, -1)
    return bytes(r)


def game_footer(score: Sequence[int], winner: int, points: int, termination: int,
                crawford_next: bool = False) -> bytes:
    r = _record(4)
    struct.pack_into("<iiBxxxiii", r, 12, score[0], score[1], crawford_next, _xg_player(winner), points,
                     termination)
    return bytes(r)


def match_footer(score: Sequence[int], winner: int | None) -> bytes:
    r = _record(5)
    struct.pack_into("<iii", r, 12, score[0], score[1], 0 if winner is None else _xg_player(winner))
    return bytes(r)


# --- whole files -----------------------------------------------------------------------------

def xg_bytes(source: Match | Sequence[Game], names: Sequence[str] = ("Alice", "Bob"),
             merge: random.Random | None = None, event: str = "") -> bytes:
    """The ``.xg`` file of a Match (or Games played one after another). With ``merge``, some
    checkers moved by several dice are written as one pair, as XG sometimes does."""
    games = source.games if isinstance(source, Match) else list(source)
    rules = games[0].rules
    records = [match_header(names, rules, event)]
    for number, game in enumerate(games, start=1):
        records.extend(game_records(game, number, merge))
    last = games[-1]
    if last.is_over and (rules.is_money or max(_score_after(last)) >= rules.match_length):
        score = _score_after(last)
        winner = None if rules.is_money else max((0, 1), key=lambda p: score[p])
        records.append(match_footer(score, winner))
    return container(archive_files(records))


def game_records(game: Game, number: int, merge: random.Random | None = None) -> list[bytes]:
    """The records XG writes for one game."""
    board0 = Position.initial()
    records = [game_header(number, game.score, game.crawford_game,
                           None if number == 1 else board0.board, in_progress=not game.is_over)]
    history = _recorded(game.history)
    cube_value, cube_owner = 1, None
    pending: bytes | None = None  # the cube entry of the player on roll, until its roll is known
    for k, action in enumerate(history):
        if isinstance(action, Roll):
            player = action.player
            if pending is None:
                pending = cube_entry(player, board0.board, cube_value, cube_owner,
                                     double=_can_double(game, player, cube_owner, action.opening))
            records.append(_with_dice(pending, _dice(action.dice, action.opening)))
            pending = None
        elif isinstance(action, PlayMade):
            mover = board0 if action.player == 0 else board0.flip()
            if action.play is None:
                records.append(move_entry(action.player, board0.board, mover.board, [], action.dice,
                                          cube_value, cube_owner))
                after = mover.flip()
            else:
                opening = isinstance(history[k - 1], Roll) and history[k - 1].opening
                records.append(move_entry(action.player, board0.board, action.play.after.flip().board,
                                          xg_pairs(action.play, merge), _dice(action.dice, opening),
                                          cube_value, cube_owner))
                after = action.play.after
            board0 = after if action.player == 1 else after.flip()
        elif isinstance(action, Double):
            answer = history[k + 1] if k + 1 < len(history) else None
            take = {Take: 1, Pass: 0, Beaver: 2}.get(type(answer), -1)
            pending = cube_entry(action.player, board0.board, cube_value, cube_owner, double=1, take=take,
                                 beaver=1 if take == 2 else -1)
            if take in (1, 2):
                cube_value, cube_owner = answer_cube(cube_value, take, answer.player)
            else:
                records.append(pending)  # dropped or left unanswered: no roll follows
                pending = None
        elif isinstance(action, Resign):
            if isinstance(history[k - 1], Double):
                raise ValueError("XG cannot record a resignation offered instead of answering a double")
            if isinstance(history[k - 1], Roll):
                roll = history[k - 1]
                records.append(move_entry(action.player, board0.board, (0,) * 26, [0] * 8, roll.dice,
                                          cube_value, cube_owner, played=False))
            elif pending is None:
                records.append(cube_entry(action.player, board0.board, cube_value, cube_owner,
                                          double=_can_double(game, action.player, cube_owner, False)))
    if pending is not None:
        records.append(pending)
    if game.result is not None:
        result = game.result
        termination = {"bear_off": int(result.kind), "pass": 0, "resign": 100 + int(result.kind)}
        if result.reason not in termination:
            raise ValueError(f"XG cannot record a game ended by {result.reason}")
        records.append(game_footer(_score_after(game), result.winner, result.points,
                                   termination[result.reason], _crawford_next(game)))
    return records


def xgp_bytes(position: Position, state: MatchState, names: Sequence[str] = ("Alice", "Bob"),
              rules: Rules | None = None) -> bytes:
    """A ``.xgp`` position file: ``position`` is seen from ``state.player_on_roll``; with
    ``state.dice`` it is a checker play (a move entry follows the cube entry)."""
    rules = rules or Rules(match_length=state.match_length, jacoby=state.jacoby or bool(state.match_length))
    player = state.player_on_roll
    board0 = (position if player == 0 else position.flip()).board
    records = [match_header(names, rules),
               game_header(1, state.score, state.crawford, board0, in_progress=True),
               cube_entry(player, board0, state.cube_value, state.cube_owner, double=-1, dice="11")]
    if state.dice:
        records.append(move_entry(player, board0, (0,) * 26, [0] * 8, state.dice, state.cube_value,
                                  state.cube_owner, played=False))
    return container(archive_files(records))


# --- conversions -----------------------------------------------------------------------------

def xg_pairs(play: Play, merge: random.Random | None = None) -> list[int]:
    """XG's pairs of a play: from and to counted from 0 (the bar 24), off as ``from - die``."""
    dice = list(play.dice) * (2 if play.dice[0] == play.dice[1] else 1)
    steps = list(play.steps)
    for src, dst in steps:
        if dst:
            dice.remove(src - dst)
    pairs: list[list[int]] = []
    for src, dst in steps:
        if dst:
            die = src - dst
        else:
            die = min(d for d in dice if d >= src)
            dice.remove(die)
        if merge and pairs and pairs[-1][1] == src - 1 and src != 25 and merge.random() < 0.5:
            pairs[-1][1] -= die  # the same checker moves on: one pair
        else:
            pairs.append([src - 1, src - 1 - die])
    return [n for pair in pairs for n in pair]


def answer_cube(value: int, take: int, taker: int) -> tuple[int, int]:
    return (value * 2 if take == 1 else value * 4), taker


def _recorded(history: Sequence[object]) -> list[object]:
    """The actions XG records: rejected resignations (and their offers) are dropped."""
    out: list[object] = []
    for action in history:
        if isinstance(action, RejectResignation):
            out.pop()  # its Resign
        elif not isinstance(action, AcceptResignation):
            out.append(action)
    return out


def _can_double(game: Game, player: int, owner: int | None, opening: bool) -> int:
    """XG's ``double`` field when the player did not double: 0 when it could have, -2 otherwise."""
    if opening or game.crawford_game or not game.rules.use_cube or owner not in (None, player):
        return -2
    return 0


def _crawford_next(game: Game) -> bool:
    """Whether the game after ``game`` is the Crawford game (as :class:`Match` decides it)."""
    rules, after = game.rules, _score_after(game)
    if rules.is_money or not rules.crawford or max(after) >= rules.match_length:
        return False
    return rules.match_length - 1 in after and rules.match_length - 1 not in game.score


def _with_dice(entry: bytes, dice: Sequence[int]) -> bytes:
    r = bytearray(entry)
    _put_pascal(r, 208, f"{dice[0]}{dice[1]}", 2)
    return bytes(r)


def _dice(dice: Sequence[int], opening: bool) -> tuple[int, int]:
    """XG writes the opening roll high die first."""
    return (max(dice), min(dice)) if opening else (dice[0], dice[1])


def _score_after(game: Game) -> tuple[int, int]:
    score = list(game.score)
    if game.result is not None:
        score[game.result.winner] += game.result.points
    return (score[0], score[1])


def _record(kind: int) -> bytearray:
    r = bytearray(RECORD)
    r[8] = kind
    return r


def _xg_player(player: int) -> int:
    return 1 if player == 0 else -1


def _cube(value: int, owner: int | None) -> int:
    log = value.bit_length() - 1
    return 0 if owner is None else log if owner == 0 else -log


def _put_pascal(buf: bytearray, offset: int, text: str, limit: int) -> None:
    raw = text.encode("cp1252", errors="replace")[:limit]
    buf[offset] = len(raw)
    buf[offset + 1:offset + 1 + len(raw)] = raw


def _put_utf16(buf: bytearray, offset: int, text: str, chars: int) -> None:
    raw = text[:chars - 1].encode("utf-16-le")
    buf[offset:offset + len(raw)] = raw
