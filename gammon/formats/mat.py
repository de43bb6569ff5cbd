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

:func:`read_mat` reads a file into plain records (:class:`MatMatch`), checking every play against
the rules; a bad game is recorded in ``errors`` (an :class:`InvalidNotationError` quoting the line
and its number) and reading goes on with the next game. :func:`to_match` replays the records
into a :class:`~gammon.match.Match`. :func:`format_mat` / :func:`write_mat` write a Match, a list
of Games or records, laid out as GNU Backgammon's ``export match mat`` does, so that gnubg's
importer (which splits the columns by the dice colons and by runs of two spaces) reads it back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING

from gammon.dice import ScriptedDice
from gammon.errors import GammonError, InvalidNotationError
from gammon.play import Play
from gammon.position import Position

if TYPE_CHECKING:
    from gammon.game import Game
    from gammon.match import Match
    from gammon.rules import Rules

# --- records ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatMove:
    """``player`` rolled ``dice`` and made ``play`` (None: no legal play, the turn passed)."""

    player: int
    dice: tuple[int, int]
    play: Play | None
    line: int = 0


@dataclass(frozen=True)
class MatRolled:
    """``player`` rolled ``dice`` and resigned instead of playing them."""

    player: int
    dice: tuple[int, int]
    line: int = 0


@dataclass(frozen=True)
class MatDouble:
    player: int
    cube_value: int  # the value offered
    line: int = 0


@dataclass(frozen=True)
class MatBeaver:
    player: int
    cube_value: int  # the value after the beaver
    line: int = 0


@dataclass(frozen=True)
class MatTake:
    player: int
    line: int = 0


@dataclass(frozen=True)
class MatDrop:
    player: int
    line: int = 0


@dataclass(frozen=True)
class MatWin:
    """``player`` wins ``points``: after a bear-off, a drop, or else the opponent's resignation."""

    player: int
    points: int
    line: int = 0


MatAction = MatMove | MatRolled | MatDouble | MatBeaver | MatTake | MatDrop | MatWin


@dataclass(frozen=True)
class MatGame:
    """One game: its number, the score before it, and every action in order."""

    number: int
    score: tuple[int, int]
    actions: tuple[MatAction, ...]
    line: int = 0

    @property
    def winner(self) -> int | None:
        last = self.actions[-1] if self.actions else None
        return last.player if isinstance(last, MatWin) else None

    @property
    def points(self) -> int:
        last = self.actions[-1] if self.actions else None
        return last.points if isinstance(last, MatWin) else 0


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

_TAG = re.compile(r'^[;#]\s*\[\s*([^"\]]+?)\s+"(.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*(\d{1,5})\s+point\s+match\s*$", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d{1,6})\s*$", re.IGNORECASE)
_SCORE = re.compile(r"^\s*(\S.*?)\s*:\s*(\d{1,6})\s+(\S.*?)\s*:\s*(\d{1,6})\s*$")
_NAMES = re.compile(r"^\s*(\S.*?)\s{2,}(\S.*?)\s*$")
_NUMBER = re.compile(r"^\s*\d{1,4}\)")
_CELL_START = re.compile(
    r"(?<!\S)(?:[1-6][1-6]:|(?:doubles|beavers|raccoons|takes|accepts|drops|passes|rejects|wins|losses)(?!\S))",
    re.IGNORECASE)
_CUBE = re.compile(r"^(doubles|beavers|raccoons)\s*(?:=>\s*(\d{1,6}))?$", re.IGNORECASE)
_WIN = re.compile(r"^wins\s+(\d{1,6})\s+points?(?:\s+and\s+the\s+match)?\.?$", re.IGNORECASE)
_LOSS = re.compile(r"^losses\s+\d{1,6}\s+points?$", re.IGNORECASE)
_RIGHT_COLUMN = 20  # a lone cell starting at or after this column is player 1's


class _GameError(Exception):
    """A problem that ends the reading of one game."""


def read_mat(source: str | Iterable[str]) -> MatMatch:
    """Read a ``.mat`` file (its text, or its lines, e.g. an open file).

    Raises :class:`InvalidNotationError` only when there is no ``N point match`` line; every
    other problem ends the game it is in, is added to ``errors`` and reading goes on."""
    lines = source.splitlines() if isinstance(source, str) else [str(x).rstrip("\r\n") for x in source]
    tags: dict[str, str] = {}
    length: int | None = None
    i = 0
    while i < len(lines):
        text = lines[i].lstrip("\ufeff")
        i += 1
        if text.lstrip().startswith((";", "#")):
            tag = _TAG.match(text.strip())
            if tag:
                tags[tag.group(1)] = tag.group(2)
            continue
        m = _LENGTH.match(text)
        if m:
            length = int(m.group(1))
            break
        if text.strip():
            raise InvalidNotationError(
                f"line {i}: {text!r}: expected the header '; [Tag \"value\"]' or 'N point match'")
    if length is None:
        raise InvalidNotationError("not a .mat file: no 'N point match' line")

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
            errors.append(InvalidNotationError(f"line {i}: {text!r}: expected 'Game N'"))
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
            errors.append(InvalidNotationError(f"game {m.group(1)} (line {start}): {e}"))
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
        raise _GameError("the game has no score line")
    head = lines[i]
    m = _SCORE.match(head)
    if m:
        names = (m.group(1), m.group(3))
        score = (int(m.group(2)), int(m.group(4)))
    else:
        n = _NAMES.match(head)
        if not n or _NUMBER.match(head):
            raise _GameError(f"line {i + 1}: {head!r}: expected the score line 'Name : 0   Name : 0'")
        names, score = (n.group(1), n.group(2)), (0, 0)
    reader = _GameReader()
    for j in range(i + 1, end):
        text = lines[j]
        if not text.strip() or text.lstrip().startswith((";", "#")):
            continue
        try:
            for player, cell in _cells(text):
                reader.add(player, cell, j + 1)
        except (_GameError, GammonError) as e:
            raise _GameError(f"line {j + 1}: {text.strip()!r}: {e}") from None
    return MatGame(number, score, tuple(reader.actions), start), names


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
        raise _GameError("expected a roll ('52: 13/8 24/22'), a cube action or 'Wins N points'")
    if body[:starts[0]].strip():
        raise _GameError(f"cannot read {body[:starts[0]].strip()!r}")
    if len(starts) > 2:
        raise _GameError("a row holds at most two cells, one for each player")
    cells = [body[a:b].strip() for a, b in zip(starts, starts[1:] + [len(body)])]
    if len(cells) == 2:
        return [(0, cells[0]), (1, cells[1])]
    return [(0 if starts[0] < _RIGHT_COLUMN else 1, cells[0])]


class _GameReader:
    """Follows one game cell by cell, checking plays against the rules."""

    def __init__(self) -> None:
        self.actions: list[MatAction] = []
        self.board0 = Position.initial()  # from player 0's view
        self.over = False
        self.cube = 1
        self.next: int | None = None  # who acts next; None before the opening roll

    def add(self, player: int, cell: str, line: int) -> None:
        if _LOSS.match(cell):
            return  # Backgammon Galaxy's "Losses N points": the loser's side of the "Wins" after it
        if self.over:
            raise _GameError("the game is already over")
        is_win = cell.lower().startswith("wins")
        if self.actions and isinstance(self.actions[-1], MatRolled) and (
                not is_win or player == self.actions[-1].player):
            raise _GameError("a roll left unplayed must be followed by the opponent's 'Wins'")
        if not is_win and self.next is not None and player != self.next:
            raise _GameError(f"it is player {self.next}'s turn ({'left' if self.next == 0 else 'right'} "
                             "column), not the other player's")
        self.next = 1 - player
        if cell[0].isdigit():
            self._move(player, (int(cell[0]), int(cell[1])), cell[3:].strip(), line)
            return
        word = cell.split()[0].lower()
        cube = _CUBE.match(cell)
        if cube:
            offered = int(cube.group(2)) if cube.group(2) else self.cube * (2 if word == "doubles" else 4)
            if word == "doubles":
                self.actions.append(MatDouble(player, offered, line))
            else:
                self.actions.append(MatBeaver(player, offered, line))
                self.cube = offered
        elif word in ("takes", "accepts") and cell.lower() == word:
            self._after_double(player, "take")
            self.actions.append(MatTake(player, line))
        elif word in ("drops", "passes", "rejects") and cell.lower() == word:
            self._after_double(player, "drop")
            self.actions.append(MatDrop(player, line))
        elif win := _WIN.match(cell):
            points = int(win.group(1))
            if points < 1:
                raise _GameError(f"a win of {points} points")
            self.actions.append(MatWin(player, points, line))
            self.over = True
        else:
            raise _GameError(f"cannot read the cell {cell!r}")

    def _after_double(self, player: int, what: str) -> None:
        last = self.actions[-1] if self.actions else None
        if not isinstance(last, MatDouble | MatBeaver) or last.player == player:
            raise _GameError(f"a {what} must answer the opponent's double")
        if isinstance(last, MatDouble) and what == "take":
            self.cube = last.cube_value

    def _move(self, player: int, dice: tuple[int, int], text: str, line: int) -> None:
        if text.startswith("???") or text.lower() in ("cannot move", "can't move"):
            text = ""  # XG's marks for a resignation after the roll and for a dance
        position = self.board0 if player == 0 else self.board0.flip()
        plays = position.legal_plays(dice)
        if not text:
            if not plays:
                self.actions.append(MatMove(player, dice, None, line))
                self.next = 1 - player
            elif len(plays) == 1:
                # GNU Backgammon reads a forced play left unwritten as played
                self._played(player, dice, plays[0], line)
            else:
                self.actions.append(MatRolled(player, dice, line))
            return
        self._played(player, dice, position.parse_play(text, dice), line)

    def _played(self, player: int, dice: tuple[int, int], play: Play, line: int) -> None:
        self.actions.append(MatMove(player, dice, play, line))
        self.board0 = play.after if player == 1 else play.after.flip()


# --- to a Match ------------------------------------------------------------------------------


def rules_of(record: MatMatch) -> Rules:
    """The Rules a record was played under: its length, and the header's Crawford, Jacoby,
    Beaver and CubeLimit tags where present (gnubg's defaults otherwise; beavers where a game has
    one)."""
    from gammon.rules import Rules

    tags = {k.lower(): v.strip().lower() for k, v in record.tags.items()}

    def on(name: str, default: bool) -> bool:
        value = tags.get(name)
        return default if value is None else value in ("on", "yes", "true", "1")

    limit = tags.get("cubelimit", "")
    cube_limit = int(limit) if limit.isdigit() and int(limit) >= 2 and not int(limit) & (int(limit) - 1) \
        else None
    money = record.match_length == 0
    # gnubg's export writes no Beaver tag: a beaver in the games says they were allowed
    beavered = any(isinstance(a, MatBeaver) for g in record.games for a in g.actions)
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
    from gammon.match import Match

    if record.errors:
        if not partial:
            raise record.errors[0]
        first_bad = _first_unread_game(record)
        record = MatMatch(record.match_length, record.names,
                          tuple(g for g in record.games if g.number < first_bad), record.tags)
    rules = rules_of(record) if rules is None else rules
    rolls: list[tuple[int, int]] = []
    for game in record.games:
        rolls.extend(_rolls(game))
    match = Match(rules, ScriptedDice(rolls))
    for k, game in enumerate(record.games):
        if k:
            try:
                match.new_game()
            except GammonError as e:
                raise InvalidNotationError(f"game {game.number} (line {game.line}): {e}") from None
        if match.game.score != game.score:
            raise InvalidNotationError(
                f"game {game.number} (line {game.line}): the score line says {game.score}, "
                f"the games before it make {match.game.score}")
        _replay(match.game, game)
    return match


def _first_unread_game(record: MatMatch) -> int:
    """The number of the first game that ``read_mat`` could not read (its errors name it)."""
    numbers = [int(m.group(1)) for e in record.errors if (m := re.match(r"game (\d+) ", str(e)))]
    unnumbered = len(numbers) < len(record.errors)  # a stray line between games: stop at the start
    return min(numbers) if numbers and not unnumbered else (0 if unnumbered else 1 << 30)


def _rolls(game: MatGame) -> list[tuple[int, int]]:
    rolls = []
    for n, action in enumerate(a for a in game.actions if isinstance(a, MatMove | MatRolled)):
        d = action.dice
        if n == 0:
            if d[0] == d[1]:
                raise InvalidNotationError(
                    f"line {action.line}: the opening roll {d[0]}{d[1]} cannot be a double: "
                    "each player throws one die and the higher plays both")
            hi, lo = max(d), min(d)
            rolls.append((hi, lo) if action.player == 0 else (lo, hi))  # (player 0's, player 1's)
        else:
            rolls.append(d)
    return rolls


def _replay(game: Game, record: MatGame) -> None:
    from gammon.rules import WinKind

    for action in record.actions:
        p = action.player
        try:
            if isinstance(action, MatMove | MatRolled):
                if game.phase.name != "OPENING" and game.turn != p:
                    raise InvalidNotationError(f"it is player {game.turn}'s turn, not player {p}'s")
                game.roll()
                if isinstance(action, MatMove):
                    if action.play is None:
                        if game.turn == p:
                            raise InvalidNotationError(f"player {p} has a legal play of "
                                                       f"{action.dice[0]}{action.dice[1]}")
                    else:
                        game.play(action.play, player=p)
            elif isinstance(action, MatDouble):
                game.double(player=p)
                if game.cube_value * 2 != action.cube_value:
                    raise InvalidNotationError(
                        f"doubles to {action.cube_value} but the cube is at {game.cube_value}")
            elif isinstance(action, MatBeaver):
                game.beaver(player=p)
            elif isinstance(action, MatTake):
                game.take(player=p)
            elif isinstance(action, MatDrop):
                game.drop(player=p)
            elif isinstance(action, MatWin):
                if not game.is_over:
                    kinds = [k for k in WinKind
                             if game.rules.points(k, game.cube_value, game.cube_owner) >= action.points]
                    if not kinds:
                        raise InvalidNotationError(
                            f"a resignation cannot win {action.points} points with the cube at "
                            f"{game.cube_value}")
                    game.resign(kinds[0], player=1 - p)
                    game.accept_resignation(player=p)
                result = game.result
                if result is None:
                    raise InvalidNotationError(f"the file says player {p} wins, but the game goes on")
                # Backgammon Galaxy may write fewer points for the game that wins the match than it
                # is worth, but never fewer than it needed ("Wins 2 point and the match" for 4)
                needed = game.rules.match_length - game.score[p]
                capped = game.rules.match_length and needed <= action.points <= result.points
                if result.winner != p or (action.points != result.points and not capped):
                    raise InvalidNotationError(
                        f"the file says player {p} wins {action.points} points, the game gives "
                        f"player {result.winner} {result.points} points")
        except GammonError as e:
            raise InvalidNotationError(
                f"game {record.number}, line {action.line}: {type(e).__name__}: {e}") from None


# --- writing ---------------------------------------------------------------------------------


def format_mat(source: Match | Sequence[Game] | MatMatch, names: Sequence[str] = ("Player 1", "Player 2"),
               tags: dict[str, str] | None = None) -> str:
    """The ``.mat`` text of a Match, a list of Games (one match or session, in order) or records.

    ``names`` are player 0's and player 1's; ``tags`` extra header lines (``{"Event": "..."}``)."""
    record = source if isinstance(source, MatMatch) else to_record(source, names)
    if isinstance(source, MatMatch) and tuple(names) != ("Player 1", "Player 2"):
        record = MatMatch(record.match_length, (names[0], names[1]), record.games, record.tags)
    for name in record.names:
        if not name.strip() or ":" in name or "\n" in name or "  " in name.strip():
            raise ValueError(f"a player name must be non-empty, on one line, without ':' or double "
                             f"spaces, got {name!r}")
    header = dict(record.tags)
    header.update({"Player 1": record.names[0], "Player 2": record.names[1]})
    header.update(tags or {})
    out = [f'; [{key} "{value}"]' for key, value in header.items()]
    out += ["", f" {record.match_length} point match", ""]
    for game in record.games:
        out.append(f" Game {game.number}")
        left = f"{record.names[0]} : {game.score[0]}"
        out.append(f" {left:<31}{record.names[1]} : {game.score[1]}")
        out.extend(_rows(game))
        out.append("")
    return "\n".join(out) + "\n"


def write_mat(source: Match | Sequence[Game] | MatMatch, names: Sequence[str] = ("Player 1", "Player 2"),
              file: str | Path | IO[str] | None = None, tags: dict[str, str] | None = None) -> str:
    """Write :func:`format_mat`'s text to ``file`` (a path or a text file); returns the text."""
    text = format_mat(source, names, tags)
    if isinstance(file, str | Path):
        Path(file).write_text(text, encoding="utf-8")
    elif file is not None:
        file.write(text)
    return text


def to_record(source: Match | Sequence[Game], names: Sequence[str] = ("Player 1", "Player 2")) -> MatMatch:
    """Records of a Match or of Games played one after another."""
    from gammon.match import Match

    games = source.games if isinstance(source, Match) else list(source)
    if not games:
        raise ValueError("there are no games to write")
    rules = games[0].rules
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
    from gammon.game import (
        Abandon,
        AcceptResignation,
        Beaver,
        Double,
        Drop,
        PlayMade,
        RejectResignation,
        Resign,
        Roll,
        Take,
    )

    history = game.history
    actions: list[MatAction] = []
    for k, action in enumerate(history):
        p = action.player
        # what the roll led to, past resignations offered and rejected
        following = next((a for a in history[k + 1:] if not isinstance(a, Resign | RejectResignation)),
                         None)
        if isinstance(action, Roll) and not isinstance(following, PlayMade):
            if following is not None:  # rolled, then resigned or left
                dice = action.dice
                if action.opening:
                    dice = (max(dice), min(dice))
                actions.append(MatRolled(p, dice))
        elif isinstance(action, PlayMade):
            dice = action.dice
            before = history[k - 1] if k else None
            if isinstance(before, Roll) and before.opening:
                dice = (max(dice), min(dice))
            actions.append(MatMove(p, dice, action.play))
        elif isinstance(action, Double):
            actions.append(MatDouble(p, action.cube_value))
        elif isinstance(action, Beaver):
            actions.append(MatBeaver(p, action.cube_value))
        elif isinstance(action, Take):
            actions.append(MatTake(p))
        elif isinstance(action, Drop):
            actions.append(MatDrop(p))
        elif isinstance(action, Resign | RejectResignation | AcceptResignation | Abandon | Roll):
            pass  # an accepted resignation or abandon shows as the winner's "Wins"; a rejected one not at all
    if game.result is not None:
        actions.append(MatWin(game.result.winner, game.result.points))
    return MatGame(number, game.score, tuple(actions))


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


def _cell_text(action: MatAction) -> str:
    if isinstance(action, MatMove | MatRolled):
        text = f"{action.dice[0]}{action.dice[1]}:"
        if isinstance(action, MatMove) and action.play is not None:
            text += " " + format_steps(action.play)
        return text
    if isinstance(action, MatDouble):
        return f" Doubles => {action.cube_value}"
    if isinstance(action, MatBeaver):
        return f" Beavers => {action.cube_value}"
    if isinstance(action, MatTake):
        return " Takes"
    if isinstance(action, MatDrop):
        return " Drops"
    return f" Wins {action.points} point{'s' if action.points != 1 else ''}"


def _rows(game: MatGame) -> list[str]:
    """Lay the cells out in two columns the way gnubg does: a cell goes on the current row when
    its column is free and to the right of what is there, else it starts a new row; rows that
    start with a win are not numbered."""
    rows: list[list[str | None]] = []
    for action in game.actions:
        p = action.player
        cell = _cell_text(action)
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
