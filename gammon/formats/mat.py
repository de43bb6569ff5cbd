"""Jellyfish / GNU Backgammon ``.mat`` match files: the plain-text match record players exchange.

A file is an optional header of ``; [Tag "value"]`` comment lines, a ``N point match`` line (0 for
a money session), then for every game a ``Game k`` line, a score line (``Alice : 0   Bob : 2``)
and numbered rows with two columns, the left for player 0 (the first name) and the right for
player 1::

     5 point match

     Game 1
     Alice : 0                      Bob : 0
      1)                             21: 13/11 24/23
      2) 52: 13/8 24/22               Doubles => 2
      3)  Takes                      63: 8/5 11/5
      ...
                                      Wins 2 points

A cell is a roll and its play (``52: 13/8 24/22``, just ``66:`` when no play is possible), a cube
action (``Doubles => 2``, ``Takes``, ``Drops``, ``Beavers => 4``) or ``Wins N points``; a win
that follows neither a bear-off nor a drop is a resignation the winner accepted.

:func:`read_mat` reads a file into records (:class:`MatMatch`): it drives a
:class:`~gammon.game.Game` cell by cell, so every game's actions are the game's own history records
(rolls with their dice, plays, cube actions), every play checked against the rules; a bad game is
recorded in ``errors`` (an :class:`InvalidNotationError` quoting the line and its number) and
reading goes on with the next game. :func:`to_match` replays the records into a
:class:`~gammon.match.Match` under the match's rules (the reader allows every cube action).
:func:`format_mat` / :func:`write_mat` write a Match, a list of Games or records, laid out as GNU
Backgammon's ``export match mat`` does, so that gnubg's importer (which splits the columns by the
dice colons and by runs of two spaces) reads it back.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from gammon.cube import Cube
from gammon.errors import GammonError, IllegalActionError, InvalidArgumentError, InvalidNotationError, cut
from gammon.formats.matchid import MAX_SCORE
from gammon.formats.numbers import read_count
from gammon.formats.replay import replay_games
from gammon.formats.text import decode_wide
from gammon.game import (
    Action,
    ActionKind,
    Beaver,
    Double,
    Game,
    GamePhase,
    Pass,
    PlayMade,
    RejectResignation,
    Request,
    Resign,
    Roll,
    Take,
)
from gammon.i18n import N_, tr
from gammon.match import Match
from gammon.play import Play
from gammon.rules import Rules, WinKind
from gammon.words import printable

# --- records ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatGame:
    """One game: its number, the score before it, its actions as the game's own history records
    (:mod:`gammon.game`: rolls with their dice, plays, cube actions; ``lines[k]`` is the line
    ``actions[k]`` was read from, 0 for a game not read from a file), and its end as the file
    writes it: ``winner`` wins ``points`` ("Wins N points"; after neither a bear-off nor a drop,
    the loser's resignation). ``winner`` is None for a game the file leaves unfinished."""

    number: int
    score: tuple[int, int]
    actions: tuple[Action, ...]
    lines: tuple[int, ...] = ()
    winner: int | None = None
    points: int = 0
    line: int = 0  # the "Game N" line
    win_line: int = 0

    def line_of(self, k: int) -> int:
        return self.lines[k] if k < len(self.lines) else 0


@dataclass(frozen=True)
class MatMatch:
    """A whole file: match length (0 money), the two names, header tags, the games read and the
    errors met (one per game that could not be read to its end)."""

    match_length: int
    names: tuple[str, str]
    games: tuple[MatGame, ...]
    tags: dict[str, str] = field(default_factory=dict)
    errors: tuple[InvalidNotationError, ...] = ()

    @property
    def score(self) -> tuple[int, int]:
        """The score after the last complete game."""
        if not self.games:
            return (0, 0)
        last = self.games[-1]
        score = list(last.score)
        if last.winner is not None:
            score[last.winner] += last.points
        return (score[0], score[1])


# --- reading ---------------------------------------------------------------------------------

# No lazy group before a run of spaces in these patterns: the engine tried each run again from
# every character before it, quadratic on a long line. The tag's name (up to the first quote) and
# the names of the score lines are cut out in code instead (_tag, _score_line, _names_line).
_TAG = re.compile(r'^[;#]\s*\[([^"\]]*)"(.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*(\d{1,5})\s+point\s+match\s*$", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d{1,6})\s*$", re.IGNORECASE)
_TWO_SPACES = re.compile(r"\s{2,}")
_NUMBER = re.compile(r"^\s*\d{1,4}\)")
_CELL_START = re.compile(
    r"(?<!\S)(?:[1-6][1-6]:|(?:doubles|beavers|raccoons|takes|accepts|drops|passes|rejects|wins|losses)(?!\S))",
    re.IGNORECASE)
_CUBE = re.compile(r"^(doubles|beavers|raccoons)\s*(?:=>\s*(\d{1,6}))?$", re.IGNORECASE)
_WIN = re.compile(r"^wins\s+(\d{1,6})\s+points?(?:\s+and\s+the\s+match)?\.?$", re.IGNORECASE)
_UNPLAYED = re.compile(r"^[1-6][1-6]:$")
_LOSS = re.compile(r"^losses\s+\d{1,6}\s+points?$", re.IGNORECASE)
_RIGHT_COLUMN = 20  # a lone cell starting at or after this column is player 1's


class _GameError(Exception):
    """A problem that ends the reading of one game."""


class _UnreadGameError(InvalidNotationError):
    """A game :func:`read_mat` could not read: ``game`` is its number (the message is worded in the
    reader's language, so the number is kept apart)."""

    def __init__(self, message: str, game: int) -> None:
        super().__init__(message)
        self.game = game


def decode_mat(data: bytes) -> str:
    """The text of a ``.mat`` file's bytes: the encoding its byte-order mark names (UTF-16, as
    Windows Notepad saves "Unicode", UTF-32 or UTF-8), else UTF-8, or else Latin-1, as older
    Windows programs wrote them (names with accents). Bytes that are no text at all (a NUL, or
    control characters other than tabs, line and page breaks: an archive, a program, an image)
    are refused, rather than quoted back as a first line that is not a header."""
    text = decode_wide(data)
    if text is not None:
        _check_text([ord(c) for c in text[:4096]], data)
        return text
    _check_text(list(data[:4096]), data)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.removeprefix(codecs.BOM_UTF8).decode("latin-1")


def _check_text(head: list[int], data: bytes) -> None:
    """Refuses a file whose first characters (``head``, as numbers) hold a NUL or many controls."""
    controls = sum(1 for c in head if c < 32 and c not in (9, 10, 12, 13))
    if 0 in head or controls > len(head) // 20:
        raise InvalidNotationError(
            tr("not a text file ({kind}): a .mat match file is text, starting with a line such as "
               "'7 point match'", kind=tr(_kind_of(data))))


_MAGIC = ((b"\x7fELF", N_("a program")), (b"PK\x03\x04", N_("a zip archive")),
          (b"RGMH", N_("an eXtreme Gammon file")), (b"\x1f\x8b", N_("a gzip archive")),
          (b"%PDF", N_("a PDF document")), (b"\x89PNG", N_("a PNG image")), (b"\xff\xd8\xff", N_("a JPEG "
                                                                                                 "image")))


def _kind_of(data: bytes) -> str:
    return next((kind for magic, kind in _MAGIC if data.startswith(magic)), N_("binary data"))


def read_mat(source: str | bytes | Iterable[str]) -> MatMatch:
    """Read a ``.mat`` file (its text, its bytes, decoded as :func:`decode_mat` does, or its lines,
    e.g. an open file).

    Raises :class:`InvalidNotationError` only when there is no ``N point match`` line; every
    other problem ends the game it is in, is added to ``errors`` and reading goes on."""
    if isinstance(source, bytes | bytearray):  # (iterated, bytes are numbers: '59' for a ';')
        source = decode_mat(bytes(source))
    if isinstance(source, str):
        lines = source.splitlines()
    elif isinstance(source, Iterable):
        lines = [str(x).rstrip("\r\n") for x in source]
    else:
        raise InvalidArgumentError(tr("expected a .mat file's text, bytes or lines, got {value}",
                                      value=cut(repr(source))))
    tags: dict[str, str] = {}
    length: int | None = None
    i = 0
    while i < len(lines):
        text = lines[i].lstrip("\ufeff")
        i += 1
        if text.lstrip().startswith((";", "#")):
            tag = _tag(text.strip())
            if tag:
                tags[printable(tag[0])] = printable(tag[1])  # shown in the terminal, as names are
            continue
        m = _LENGTH.match(text)
        if m:
            length = int(m.group(1))
            if length > MAX_SCORE:  # a Match ID holds the length in 15 bits: analysis could not go on
                raise InvalidNotationError(
                    tr("line {line}: {text}: a match of {length} points is longer than gammon can hold "
                       "(at most {most})", line=i, text=repr(cut(text.strip())), length=length,
                       most=MAX_SCORE))
            break
        if text.strip():
            raise InvalidNotationError(
                tr("line {line}: {text}: expected the header '; [Tag \"value\"]' or 'N point match'",
                   line=i, text=repr(cut(text))))
    if length is None:
        raise InvalidNotationError(tr("not a .mat file: no 'N point match' line"))

    names = (tags.get("Player 1", "Player 1"), tags.get("Player 2", "Player 2"))
    games: list[MatGame] = []
    errors: list[InvalidNotationError] = []
    while i < len(lines):
        text = lines[i]
        i += 1
        if not text.strip() or text.lstrip().startswith((";", "#")):
            continue
        m = _GAME.match(text)
        if not m:
            errors.append(InvalidNotationError(tr("line {line}: {text}: expected 'Game N'", line=i,
                                                  text=repr(cut(text)))))
            while i < len(lines) and not _GAME.match(lines[i]):
                i += 1
            continue
        start = i
        end = i
        while end < len(lines) and not _GAME.match(lines[end]):
            end += 1
        try:
            game, game_names = _read_game(int(m.group(1)), lines, start, end, length)
        except _GameError as e:
            number = int(m.group(1))
            errors.append(_UnreadGameError(tr("game {number} (line {line}): {problem}", number=number,
                                              line=start, problem=e), number))
        else:
            games.append(game)
            if game_names:
                names = game_names
        i = end
    return MatMatch(length, names, tuple(games), tags, tuple(errors))


def _read_game(number: int, lines: list[str], start: int, end: int, length: int
               ) -> tuple[MatGame, tuple[str, str] | None]:
    i = start
    while i < end and not lines[i].strip():
        i += 1
    if i >= end:
        raise _GameError(tr("the game has no score line"))
    head = lines[i]
    scored = _score_line(head)
    if scored:
        names, score = (printable(scored[0]), printable(scored[2])), (scored[1], scored[3])
    else:
        named = _names_line(head)
        if not named or _NUMBER.match(head):
            raise _GameError(tr("line {line}: {text}: expected the score line 'Name : 0   Name : 0'",
                                line=i + 1, text=repr(cut(head))))
        names, score = (printable(named[0]), printable(named[1])), (0, 0)
    reader = _GameReader(names)
    for j in range(i + 1, end):
        text = lines[j]
        if not text.strip() or text.lstrip().startswith((";", "#")):
            continue
        try:
            for player, cell in _cells(text):
                reader.add(player, cell, j + 1)
        except (_GameError, GammonError) as e:
            raise _GameError(tr("line {line}: {text}: {problem}", line=j + 1, text=repr(cut(text.strip())),
                                problem=e)) from None
    history = reader.game.history
    return MatGame(number, score, tuple(history), tuple(reader.lines), reader.winner, reader.points,
                   start, reader.win_line), names


def _tag(text: str) -> tuple[str, str] | None:
    """A header line ``; [Name "value"]`` as (name, value): a space between them, none required
    inside the brackets' ends."""
    m = _TAG.match(text)
    if not m or not m.group(1).strip() or m.group(1) == m.group(1).rstrip():
        return None
    return m.group(1).strip(), m.group(2)


def _score_line(text: str) -> tuple[str, int, str, int] | None:
    """``Alice : 0   Bob : 2`` as (name, score, name, score): the first name runs to the first colon
    followed by a score and more, the second name to the last colon. GNU Backgammon pads
    "Name : 0" to 31 characters and writes no space after a longer one
    ("Abcdefghijklmnopqrstuvwxyz01234 : 0Bob : 0"); the score takes every digit there, up to six."""
    head, colon, last = text.rpartition(":")
    head = head.rstrip()
    if not colon or not _is_score(last.strip()):
        return None
    start = len(head) - len(head.lstrip())
    first = head.find(":", start + 1)
    while first >= 0:
        j = first + 1
        while j < len(head) and head[j].isspace():
            j += 1
        k = j
        while k < len(head) and k - j < 6 and head[k] in "0123456789":
            k += 1
        other = head[k:].strip() if k > j else ""
        if other:
            return head[start:first].strip(), int(head[j:k]), other, int(last)
        first = head.find(":", first + 1)
    return None


def _is_score(text: str) -> bool:
    return 0 < len(text) <= 6 and text.isascii() and text.isdigit()


def _names_line(text: str) -> tuple[str, str] | None:
    """``Alice      Bob`` (names without scores, as some programs write them): the two names, apart by
    two spaces or more."""
    body = text.strip()
    gap = _TWO_SPACES.search(body)
    return (body[:gap.start()], body[gap.end():]) if gap else None


def _cells(text: str) -> list[tuple[int, str]]:
    """Split a row into (player, cell text) pairs by where each cell starts."""
    body = text
    number = _NUMBER.match(text)
    if number:
        body = " " * number.end() + text[number.end():]
    if not body.strip():
        return []  # a numbered row with nothing in it (Backgammon Studio ends every game so)
    starts = [m.start() for m in _CELL_START.finditer(body)]
    if not starts:
        raise _GameError(tr("expected a roll ('52: 13/8 24/22'), a cube action or 'Wins N points'"))
    if body[:starts[0]].strip():
        raise _GameError(tr("cannot read {text}", text=repr(cut(body[:starts[0]].strip()))))
    cells = [body[a:b].strip() for a, b in zip(starts, starts[1:] + [len(body)])]
    # GNU Backgammon's export writes the "Wins" of a player whose opponent left after the roll in
    # the roll's own cell ("42:       Wins 3 points", "65:  Wins 3 points" in the right column;
    # its own importer then leaves the game unfinished, so the writer puts the "Wins" on a row of its own)
    attached = [k for k in range(1, len(cells)) if _UNPLAYED.match(cells[k - 1]) and _WIN.match(cells[k])
                and (k == 2 or starts[k - 1] >= _RIGHT_COLUMN or starts[k] < _RIGHT_COLUMN)]
    own = [k for k in range(len(cells)) if k not in attached]
    if len(own) > 2:
        raise _GameError(tr("a row holds at most two cells, one for each player"))
    players = {k: p for k, p in zip(own, [0, 1] if len(own) == 2 else
                                      [0 if starts[own[0]] < _RIGHT_COLUMN else 1])}
    for k in attached:
        players[k] = players[k - 1]
    return [(players[k], cell) for k, cell in enumerate(cells)]


# The reader follows the board with a Game under rules that allow every cube action a file may
# hold (doubles, beavers); to_match replays the records under the match's own rules.
_READING_RULES = Rules(match_length=0, beavers=True)


class _GameReader:
    """Drives a Game cell by cell: the cells become the game's history records."""

    def __init__(self, names: tuple[str, str]) -> None:
        self.names = names
        self.game = Game(_READING_RULES)
        self.lines: list[int] = []  # the line of each history record
        self.winner: int | None = None
        self.points = 0
        self.win_line = 0

    def add(self, player: int, cell: str, line: int) -> None:
        if _LOSS.match(cell):
            return  # Backgammon Galaxy's "Losses N points": the loser's side of the "Wins" after it
        if self.winner is not None:
            raise _GameError(tr("the game is already over"))
        game = self.game
        is_win = cell.lower().startswith("wins")
        # A roll left unplayed: its player resigned, or either player left (gnubg writes the roll
        # before the roller's "Wins" when the other player left, and reads it so)
        if game.phase is GamePhase.MOVE and not is_win:
            raise _GameError(
                tr("a roll left unplayed must be followed by 'Wins' (a resignation or an abandon)"))
        if not is_win and game.turn is not None and player != game.turn:
            turn, other = self.names[game.turn], self.names[player]
            raise _GameError(tr("it is {name}'s turn (left column), not {other}'s", name=turn, other=other)
                             if game.turn == 0 else
                             tr("it is {name}'s turn (right column), not {other}'s", name=turn, other=other))
        if cell[0].isdigit():
            self._roll(player, (int(cell[0]), int(cell[1])), cell[3:].strip())
        elif cube := _CUBE.match(cell):
            word = cube.group(1).lower()
            times = 2 if word == "doubles" else 4
            value = int(cube.group(2)) if cube.group(2) else game.cube_value * times
            game.apply(Double(player, value) if word == "doubles" else Beaver(player, value))
        elif cell.lower() in ("takes", "accepts"):
            self._answer(Take(player))
        elif cell.lower() in ("drops", "passes", "rejects"):
            self._answer(Pass(player))
        elif win := _WIN.match(cell):
            points = int(win.group(1))
            if points < 1:
                raise _GameError(tr("a win of {points} points", points=points))
            self.winner, self.points, self.win_line = player, points, line
        else:
            raise _GameError(tr("cannot read the cell {text}", text=repr(cut(cell))))
        self.lines += [line] * (len(game.history) - len(self.lines))

    def _answer(self, action: Take | Pass) -> None:
        if self.game.phase is not GamePhase.DOUBLED:
            raise _GameError(tr("a take must answer the opponent's double") if isinstance(action, Take)
                             else tr("a drop must answer the opponent's double"))
        self.game.apply(action)

    def _roll(self, player: int, dice: tuple[int, int], text: str) -> None:
        game = self.game
        if text.startswith("???") or text.lower() in ("cannot move", "can't move"):
            text = ""  # XG's marks for a resignation after the roll and for a dance
        game.apply(Roll.opening_won(player, dice) if game.phase is GamePhase.OPENING else Roll(player, dice))
        if game.phase is not GamePhase.MOVE:
            return  # no legal play: the turn passed
        if text:
            game.play(text, player=player)
        elif len(plays := game.legal_plays()) == 1:
            game.play(plays[0], player=player)  # GNU Backgammon reads a forced play left unwritten as played
        # else: rolled and not played; the opponent's "Wins" must follow


# --- to a Match ------------------------------------------------------------------------------


def rules_of(record: MatMatch) -> Rules:
    """The Rules a record was played under: its length, and the header's Crawford, Jacoby,
    Beaver and CubeLimit tags where present (gnubg's defaults otherwise; beavers where a game has
    one)."""
    tags = {k.lower(): v.strip().lower() for k, v in record.tags.items()}

    def on(name: str, default: bool) -> bool:
        value = tags.get(name)
        return default if value is None else value in ("on", "yes", "true", "1")

    limit = tags.get("cubelimit")
    cube_limit = None
    if limit is not None:
        value = read_count(limit)
        if value is None:
            raise InvalidNotationError(tr("the header's CubeLimit {value} is not a number",
                                          value=repr(cut(limit))))
        if value >= 2 and not value & (value - 1):
            cube_limit = value  # a limit that is no cube value (0, 3) sets none
    money = record.match_length == 0
    # gnubg's export writes no Beaver tag: a beaver in the games says they were allowed
    beavered = any(isinstance(a, Beaver) for g in record.games for a in g.actions)
    return Rules(match_length=record.match_length, crawford=on("crawford", True),
                 jacoby=on("jacoby", True) if money else True,
                 beavers=on("beaver", beavered) if money else False, cube_limit=cube_limit)


def to_match(record: MatMatch, rules: Rules | None = None, *, partial: bool = False) -> Match:
    """Replay every game of ``record`` into a Match (under ``rules``, by default
    :func:`rules_of`).

    Raises :class:`InvalidNotationError` for the first problem: the first of ``record.errors``
    (a game :func:`read_mat` could not read), an action the rules refuse (naming its line), or
    a score line that disagrees with the games before it. A match is never silently cut short:
    with ``partial=True`` the games before the first game read with an error are replayed and
    returned instead (rules and scores are still checked)."""
    if record.errors:
        if not partial:
            raise record.errors[0]
        first_bad = _first_unread_game(record)
        record = MatMatch(record.match_length, record.names,
                          tuple(g for g in record.games if g.number < first_bad), record.tags)
    return replay_games(rules_of(record) if rules is None else rules, record.games,
                        lambda game, r: _replay(game, r, record.names),
                        lambda r: tr("game {number} (line {line})", number=r.number, line=r.line))


def _first_unread_game(record: MatMatch) -> int:
    """The number of the first game that ``read_mat`` could not read (its errors name it)."""
    numbers = [e.game for e in record.errors if isinstance(e, _UnreadGameError)]
    unnumbered = len(numbers) < len(record.errors)  # a stray line between games: stop at the start
    return min(numbers) if numbers and not unnumbered else (0 if unnumbered else 1 << 30)


def _replay(game: Game, record: MatGame, names: tuple[str, str]) -> None:
    """Apply the record's actions to ``game``, then its "Wins" line."""
    if game.score != record.score:
        raise InvalidNotationError(
            tr("game {number} (line {line}): the score line says {score}, the games before it make {made}",
               number=record.number, line=record.line, score=record.score, made=game.score))
    line = record.line
    try:
        for k, action in enumerate(record.actions):
            line = record.line_of(k)
            game.apply(action)
        if record.winner is not None:
            line = record.win_line
            _win(game, record.winner, record.points, names)
    except GammonError as e:
        raise InvalidNotationError(
            tr("game {number}, line {line}: {problem}", number=record.number, line=line,
               problem=f"{type(e).__name__}: {e}")) from None


def _win(game: Game, winner: int, points: int, names: tuple[str, str]) -> None:
    """The file's "Wins": the end of the game, or else the loser's resignation of the smallest
    kind worth ``points``, or, where no resignation can be (under the Jacoby rule a centred cube
    counts no gammon; nobody resigns before the opening roll, nor after the opponent's roll), an
    abandon, worth a backgammon times the cube: how the writer writes one."""
    if not game.is_over:
        kinds = [k for k in WinKind if game.rules.points(k, game.cube_value, game.cube_owner) >= points]
        if kinds and game.why_not(Request(ActionKind.RESIGN, 1 - winner, win_kind=kinds[0])) is None:
            game.resign(kinds[0], player=1 - winner)
            game.accept_resignation(player=winner)
        elif points == WinKind.BACKGAMMON * game.cube_value:
            game.abandon(1 - winner)
        elif not kinds and not game.rules.gammons_count(game.cube_owner):
            # gnubg's export of a money session writes no Jacoby tag, and the default is on
            raise IllegalActionError(
                tr("a resignation cannot win {points} points with the cube at {cube}: under the Jacoby rule "
                   "gammons count only once the cube has turned (GNU Backgammon counts a resigned gammon in "
                   "full)", points=points, cube=game.cube_value))
        elif not kinds:
            raise IllegalActionError(
                tr("a resignation cannot win {points} points with the cube at {cube}", points=points,
                   cube=game.cube_value))
        else:
            game.resign(kinds[0], player=1 - winner)  # refused, saying why
    result = game.result
    if result is None:
        raise IllegalActionError(tr("the file says {name} wins, but the game goes on", name=names[winner]))
    # Backgammon Galaxy may write fewer points for the game that wins the match than it is worth,
    # but never fewer than it needed ("Wins 2 point and the match" for 4)
    needed = game.rules.match_length - game.score[winner]
    capped = game.rules.match_length and needed <= points <= result.points
    if result.winner != winner or (points != result.points and not capped):
        raise IllegalActionError(
            tr("the file says {name} wins {points} points, the game gives {winner} {won} points",
               name=names[winner], points=points, winner=names[result.winner], won=result.points))


# --- writing ---------------------------------------------------------------------------------


def format_mat(source: Match | Game | Sequence[Game] | MatMatch,
               names: Sequence[str] = ("Player 1", "Player 2"), tags: dict[str, str] | None = None) -> str:
    """The ``.mat`` text of a Match, a Game, a list of Games (one match or session, in order) or
    records.

    ``names`` are player 0's and player 1's (a record's own when it is given the default), written
    as :func:`mat_names` fits them, so that GNU Backgammon reads them back as the file holds them;
    ``tags`` extra header lines (``{"Event": "..."}``)."""
    if isinstance(names, str) or len(names) != 2 or not all(isinstance(n, str) for n in names):
        raise InvalidArgumentError(tr("names must be two strings, got {value}", value=cut(repr(names))))
    record = source if isinstance(source, MatMatch) else to_record(source, names)
    if isinstance(source, MatMatch) and tuple(names) != ("Player 1", "Player 2"):
        record = MatMatch(record.match_length, (names[0], names[1]), record.games, record.tags)
    # the one fitting, here where every writer passes: gnubg cuts a longer name inside a character
    record = MatMatch(record.match_length, mat_names(record.names), record.games, record.tags)
    header = dict(record.tags)
    header.update({"Player 1": record.names[0], "Player 2": record.names[1]})
    header.update(tags or {})
    out = []
    for key, value in header.items():
        # one line each: the reader splits the file into lines before it reads a tag
        line = f'; [{key} "{" ".join(str(value).splitlines())}"]'
        read = _tag(line)
        if read is None or read[0] != key or len(line.splitlines()) != 1:
            raise InvalidArgumentError(tr("a header tag's name must be on one line, without '\"', ']' or "
                                          "spaces at its ends, got {name}", name=cut(repr(key))))
        out.append(line)
    out += ["", f" {record.match_length} point match", ""]
    for game in record.games:
        out.append(f" Game {game.number}")
        # gnubg's columns (the right one at 32), and a space after a left one longer than that,
        # where gnubg writes none (and cannot read its own file back).
        left = f"{record.names[0]} : {game.score[0]}"
        out.append(f" {left:<30} {record.names[1]} : {game.score[1]}")
        out.extend(_rows(game))
        out.append("")
    return "\n".join(out) + "\n"


def mat_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name in a ``.mat`` file as it is (:func:`mat_names` fits
    it), or None when it can: a name the readers would not read back as it is (they strip a name's
    ends and split the file at every line break ``str.splitlines`` knows, U+2028 too)."""
    if (not name.strip() or name != name.strip() or ":" in name or printable(name) != name
            or len(name.splitlines()) != 1 or "  " in name):
        return tr("a player name must be non-empty, on one line, without ':', double spaces, spaces at "
                  "its ends or control characters, got {name}", name=cut(repr(name)))
    return None


GNUBG_NAME_BYTES = 31
"""The most bytes (UTF-8) of a name GNU Backgammon keeps from a ``.mat`` file's score line. It
cuts a longer name there, inside a character if one spans the cut, and then crashes."""


def mat_names(names: Sequence[str]) -> tuple[str, str]:
    """``names`` (player 0's, player 1's) as a ``.mat`` file holds them and GNU Backgammon reads
    them back: a name :func:`format_mat` refuses has its ':' and runs of blanks written as one
    space and its control characters replaced; one longer than gnubg keeps is cut at a character
    (the score line is all gnubg reads); one left empty is "Player 1" or "Player 2". Two names
    that only fitting made the same get a number, so that the file still tells them apart."""
    fitted = [_fit_name(name) or f"Player {k + 1}" for k, name in enumerate(names)]
    number = 2
    base = fitted[1]
    while fitted[0] == fitted[1] and names[0] != names[1]:
        tail = f" ({number})"
        fitted[1] = _cut_utf8(base, GNUBG_NAME_BYTES - len(tail)).rstrip() + tail
        number += 1
    return fitted[0], fitted[1]


def _fit_name(name: str) -> str:
    if mat_name_problem(name) is not None:
        name = printable(" ".join(name.replace(":", " ").split()))
    return _cut_utf8(name, GNUBG_NAME_BYTES).strip()


def _cut_utf8(text: str, most: int) -> str:
    """The longest start of ``text`` whose UTF-8 takes at most ``most`` bytes."""
    return text.encode("utf-8")[:most].decode("utf-8", "ignore")


def write_mat(source: Match | Game | Sequence[Game] | MatMatch,
              names: Sequence[str] = ("Player 1", "Player 2"), file: str | Path | IO[str] | None = None,
              tags: dict[str, str] | None = None) -> str:
    """Write :func:`format_mat`'s text to ``file`` (a path or a text file); returns the text."""
    text = format_mat(source, names, tags)
    if isinstance(file, str | Path):
        Path(file).write_text(text, encoding="utf-8")
    elif file is not None:
        file.write(text)
    return text


def to_record(source: Match | Game | Sequence[Game],
              names: Sequence[str] = ("Player 1", "Player 2")) -> MatMatch:
    """Records of a Match, a Game or Games played one after another."""
    if isinstance(source, Match):
        games = source.games
    else:
        games = [source] if isinstance(source, Game) else list(source)
    if not games:
        raise InvalidArgumentError(tr("there are no games to write"))
    rules = games[0].rules
    for k, game in enumerate(games):
        opening = game.history[0] if game.history else None
        # A cube turned by tied opening throws has no cell: the file's first double would read as
        # doubling a cube of 1 (nor does gnubg's export write automatic doubles).
        if isinstance(opening, Roll) and Cube().after_opening_ties(len(opening.ties), rules).value > 1:
            raise ValueError(tr("game {number}: a .mat file cannot hold automatic doubles (the cube turned "
                                "by tied opening throws); SGF can", number=k + 1))
    tags = {"Variation": "Backgammon"}
    if rules.is_money:
        tags.update({"Jacoby": "On" if rules.jacoby else "Off", "Beaver": "On" if rules.beavers else "Off"})
    else:
        tags["Crawford"] = "On" if rules.crawford else "Off"
    if rules.cube_limit:
        tags["CubeLimit"] = str(rules.cube_limit)
    return MatMatch(rules.match_length, (names[0], names[1]),
                    tuple(_game_record(k + 1, g) for k, g in enumerate(games)), tags)


def _game_record(number: int, game: Game) -> MatGame:
    result = game.result
    return MatGame(number, game.score, tuple(game.history), winner=result.winner if result else None,
                   points=result.points if result else 0)


def format_steps(play: Play) -> str:
    """A play as GNU Backgammon writes it in ``.mat`` files: every step, in playing order, the
    bar as 25 and off as 0, a ``*`` on each hit (``25/21* 13/8``)."""
    board = list(play.position.board)
    parts = []
    for src, dst in play.steps:
        hit = dst != 0 and board[dst] == -1
        board[src] -= 1
        if dst:
            board[dst] = 1 if hit else board[dst] + 1
        parts.append(f"{src}/{dst}{'*' if hit else ''}")
    return " ".join(parts)


def _cells_of(game: MatGame) -> list[tuple[int, str]]:
    """The game's cells, (player, text), in order: a roll shows with its play (or alone when its
    player resigned or left instead of playing it), the cube actions, and the "Wins"; offers to
    resign show only through the "Wins" that accepts them."""
    actions = game.actions
    cells: list[tuple[int, str]] = []
    for k, action in enumerate(actions):
        p = action.player
        if isinstance(action, Roll):
            # what the roll led to, past resignations offered and rejected
            following = next((a for a in actions[k + 1:] if not isinstance(a, Resign | RejectResignation)),
                             None)
            if not isinstance(following, PlayMade) and (following is not None or game.winner is not None):
                cells.append((p, _roll_cell(action.dice, action.opening)))
        elif isinstance(action, PlayMade):
            before = actions[k - 1] if k else None
            text = _roll_cell(action.dice, isinstance(before, Roll) and before.opening)
            cells.append((p, text + (" " + format_steps(action.play) if action.play is not None else "")))
        elif isinstance(action, Double):
            cells.append((p, f" Doubles => {action.cube_value}"))
        elif isinstance(action, Beaver):
            cells.append((p, f" Beavers => {action.cube_value}"))
        elif isinstance(action, Take):
            cells.append((p, " Takes"))
        elif isinstance(action, Pass):
            cells.append((p, " Drops"))
    if game.winner is not None:
        cells.append((game.winner, f" Wins {game.points} point{'s' if game.points != 1 else ''}"))
    return cells


def _roll_cell(dice: tuple[int, int], opening: bool) -> str:
    """A roll as its cell starts: the opening roll (player 0's die first) as the winner's, high first."""
    return f"{max(dice)}{min(dice)}:" if opening else f"{dice[0]}{dice[1]}:"


def _rows(game: MatGame) -> list[str]:
    """Lay the cells out in two columns the way gnubg does: a cell goes on the current row when
    its column is free and to the right of what is there, else it starts a new row; rows that
    start with a win are not numbered."""
    rows: list[list[str | None]] = []
    for p, cell in _cells_of(game):
        row = rows[-1] if rows else None
        if row is None or row[p] is not None or (p == 0 and row[1] is not None):
            row = [None, None]
            rows.append(row)
        row[p] = cell
    out = []
    number = 0
    for left, right in rows:
        starts_with_win = (left or right or "").lstrip().startswith("Wins")
        if starts_with_win:
            prefix = " " * 5
        else:
            number += 1
            prefix = f"{number:3d}) "
        text = prefix + (f"{left or '':<27} " + right if right is not None else left or "")
        out.append(text.rstrip())
    return out
