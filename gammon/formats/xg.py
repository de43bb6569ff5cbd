"""eXtreme Gammon's binary files: ``.xg`` matches and sessions, ``.xgp`` positions.

:func:`read_xg` reads a ``.xg`` file into an :class:`XGMatch`: the match header (names, length,
Crawford / Jacoby / beaver rules, event...) and every game's records: a cube entry before each roll
(did the player on roll double, and the answer), a move entry for each roll (the dice and the play)
and the game's footer (winner, points, how it ended). :meth:`XGMatch.to_match` replays them into a
:class:`~gammon.match.Match`: every roll with its recorded dice, every play matched against the
legal plays by its resulting position, every cube action and resignation through
:class:`~gammon.game.Game`, so whatever the rules refuse is an :class:`InvalidNotationError` naming
the game and move. :func:`read_xg_match` does both.

:func:`read_xgp` reads a ``.xgp`` position file into an :class:`XGPosition`: the position seen
from the player on roll, with its :class:`~gammon.formats.matchid.MatchState` (dice, cube, score,
match length), hence its GNU Backgammon ID and XGID.

The container is unpacked by :mod:`gammon.formats.xg_container` and the records decoded by
:mod:`gammon.formats.xg_records` (which documents XG's numbering). XG's player 1 is gammon's
player 0.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, cast

from gammon.errors import GammonError, InvalidNotationError, InvalidPositionError
from gammon.formats.matchid import GameState, MatchState, format_gnubg_id
from gammon.formats.replay import replay_games
from gammon.formats.xg_container import unpack
from gammon.formats.xg_records import (
    VARIATIONS,
    Board,
    Step,
    XGCube,
    XGGameFooter,
    XGGameHeader,
    XGMatchFooter,
    XGMatchHeader,
    XGMove,
    XGRecord,
    decode_records,
)
from gammon.formats.xgid import XGID
from gammon.game import Game, GamePhase, Roll
from gammon.play import Play
from gammon.position import Position
from gammon.rules import GameResult, Rules, WinKind
from gammon.situation import Situation

if TYPE_CHECKING:
    from gammon.match import Match

Source = str | os.PathLike[str] | bytes | bytearray | memoryview | IO[bytes]


@dataclass(frozen=True)
class XGGame:
    """One game's records: its header, the cube and move entries in order, and its footer (None
    for a game still being played when the file was saved)."""

    header: XGGameHeader
    actions: tuple[XGCube | XGMove, ...]
    footer: XGGameFooter | None

    @property
    def number(self) -> int:
        return self.header.number

    @property
    def score(self) -> tuple[int, int]:
        """The score before the game."""
        return self.header.score


@dataclass(frozen=True)
class XGMatch:
    """A whole ``.xg`` file: the match header, the games and the match footer (None while the
    match was unfinished)."""

    header: XGMatchHeader
    games: tuple[XGGame, ...]
    footer: XGMatchFooter | None

    @property
    def names(self) -> tuple[str, str]:
        """Player 0's and player 1's names (XG's player 1 and player 2)."""
        return self.header.names

    @property
    def match_length(self) -> int:
        """0 for a money session."""
        return self.header.match_length

    @property
    def rules(self) -> Rules:
        return rules_of(self.header)

    def to_match(self) -> Match:
        """Replay every game into a Match (see :func:`to_match`)."""
        return to_match(self)


@dataclass(frozen=True)
class XGPosition:
    """A ``.xgp`` position: ``position`` is seen from ``state.player_on_roll``, who is to roll (or
    double) or, with ``state.dice`` set, to play that roll."""

    position: Position
    state: MatchState
    names: tuple[str, str]
    rules: Rules

    @property
    def situation(self) -> Situation:
        """The Situation of the position, under the file's rules."""
        return replace(self.state.to_situation(self.position), rules=self.rules)

    @property
    def gnubg_id(self) -> str:
        """GNU Backgammon's ``PositionID:MatchID``."""
        return format_gnubg_id(self.position, self.state)

    @property
    def xgid(self) -> XGID:
        """The XGID (players numbered as in gammon: the XGID's bottom player is player 1)."""
        xgid = XGID.from_match_state(self.position, self.state, max_cube=self.rules.cube_limit or 1024)
        return xgid.replace(beavers=True) if self.rules.is_money and self.rules.beavers else xgid


# --- reading ---------------------------------------------------------------------------------

def read_xg(source: Source) -> XGMatch:
    """Read a ``.xg`` match or session file: a path, its bytes or a binary file object.

    Raises :class:`InvalidNotationError` quoting what is wrong (not an XG file, a truncated or
    corrupt archive, a record that cannot be read, records out of order)."""
    data, what = _bytes(source)
    records = _records(data, what)
    header = cast(XGMatchHeader, records[0])  # decode_records makes sure of it
    games: list[XGGame] = []
    footer: XGMatchFooter | None = None
    game_header: XGGameHeader | None = None
    actions: list[XGCube | XGMove] = []
    for k, record in enumerate(records[1:], start=2):
        where = f"{what}: temp.xg record {k}"
        if footer is not None:
            raise InvalidNotationError(f"{where}: a record after the match footer")
        if isinstance(record, XGGameHeader):
            if game_header is not None:
                games.append(XGGame(game_header, tuple(actions), None))
            game_header, actions = record, []
        elif isinstance(record, XGCube | XGMove):
            if game_header is None:
                raise InvalidNotationError(f"{where}: a {_kind(record)} outside a game")
            actions.append(record)
        elif isinstance(record, XGGameFooter):
            if game_header is None:
                raise InvalidNotationError(f"{where}: a game footer outside a game")
            games.append(XGGame(game_header, tuple(actions), record))
            game_header, actions = None, []
        elif isinstance(record, XGMatchFooter):
            if game_header is not None:
                raise InvalidNotationError(f"{where}: the match footer inside game {game_header.number}")
            footer = record
    if game_header is not None:
        games.append(XGGame(game_header, tuple(actions), None))
    unfinished = [g.number for g in games[:-1] if g.footer is None]
    if unfinished:
        raise InvalidNotationError(f"{what}: game {unfinished[0]} has no footer but is not the last game")
    return XGMatch(header, tuple(games), footer)


def read_xg_match(source: Source) -> Match:
    """Read a ``.xg`` file and replay it: ``read_xg(source).to_match()``, with the file named in
    the errors. The player names are ``read_xg(source).names``."""
    record = read_xg(source)
    try:
        return record.to_match()
    except InvalidNotationError as e:
        what = repr(os.fspath(source)) if isinstance(source, str | os.PathLike) else "the data"
        raise InvalidNotationError(f"{what}: {e}") from None


def read_xgp(source: Source) -> XGPosition:
    """Read a ``.xgp`` position file: a match header, a game header, the cube entry of the player
    on roll and, for a checker play, a move entry with the dice. Raises
    :class:`InvalidNotationError` quoting what is wrong."""
    data, what = _bytes(source)
    records = _records(data, what)
    header = cast(XGMatchHeader, records[0])  # decode_records makes sure of it
    kinds = [type(r) for r in records[1:]]
    if kinds[:2] != [XGGameHeader, XGCube] or any(k not in (XGMove, XGGameFooter, XGMatchFooter)
                                                   for k in kinds[2:]):
        raise InvalidNotationError(
            f"{what} is not an XG position file: after the match header it must hold a game "
            f"header, a cube entry and optionally a move entry, found "
            f"{', '.join(_kind(r) for r in records[1:]) or 'nothing'}")
    game, cube = cast(XGGameHeader, records[1]), cast(XGCube, records[2])
    move = next((r for r in records[3:] if isinstance(r, XGMove)), None)
    rules = rules_of(header, what)
    player = cube.player
    dice = None
    if move is not None:
        if move.player != player:
            raise InvalidNotationError(f"{what}: the cube entry is for XG's player {player + 1}, the "
                                       f"move entry for player {move.player + 1}")
        dice = move.dice
    board = move.board if move is not None else cube.board
    try:
        seen_by_0 = Position(board)
        state = MatchState(
            match_length=rules.match_length, score=game.score, cube_value=cube.cube_value,
            cube_owner=cube.cube_owner, player_on_roll=player, turn=player,
            crawford=game.crawford and not rules.is_money, game_state=GameState.PLAYING,
            dice=dice, jacoby=rules.jacoby if rules.is_money else False)
    except (InvalidPositionError, ValueError) as e:
        raise InvalidNotationError(f"{what}: the position is not valid: {e}") from None
    position = seen_by_0 if player == 0 else seen_by_0.flip()
    return XGPosition(position, state, header.names, rules)


def rules_of(header: XGMatchHeader, what: str = "the file") -> Rules:
    """The Rules of an XG match header. Only standard backgammon is supported."""
    if header.variation:
        raise InvalidNotationError(f"{what}: the variation {VARIATIONS[header.variation]} is not "
                                   "supported, only backgammon")
    money = header.match_length == 0
    return Rules(match_length=header.match_length, crawford=header.crawford,
                 jacoby=header.jacoby if money else True, beavers=header.beavers and money,
                 cube_limit=header.cube_limit,
                 automatic_doubles=header.automatic_doubles if money else 0)


def _bytes(source: Source) -> tuple[bytes, str]:
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source), "the data"
    if isinstance(source, str | os.PathLike):
        return Path(source).read_bytes(), repr(os.fspath(source))
    data = source.read()
    if not isinstance(data, bytes):
        raise InvalidNotationError(f"an XG file is binary: open it with 'rb', got {type(data).__name__}")
    return data, repr(getattr(source, "name", "the file"))


def _records(data: bytes, what: str) -> list[XGRecord]:
    files = unpack(data, what).files
    if "temp.xg" not in files:
        raise InvalidNotationError(f"{what}: the archive holds {sorted(files)}, not temp.xg")
    try:
        return decode_records(files["temp.xg"])
    except InvalidNotationError as e:
        raise InvalidNotationError(f"{what}: {e}") from None


def _kind(record: XGRecord) -> str:
    return {XGMatchHeader: "match header", XGGameHeader: "game header", XGCube: "cube entry",
            XGMove: "move entry", XGGameFooter: "game footer",
            XGMatchFooter: "match footer"}[type(record)]


# --- replay ----------------------------------------------------------------------------------

def to_match(record: XGMatch) -> Match:
    """Replay every game of ``record`` into a Match. Raises :class:`InvalidNotationError` naming
    the game and move of the first record the rules refuse or that disagrees with the replay (a
    play that is not legal, a position, score or result other than the file's)."""
    rules = rules_of(record.header)
    match = replay_games(rules, record.games, lambda game, g: _Replay(game, g, record.names).run(),
                         lambda g: f"game {g.number}")
    if record.footer is not None and record.games and record.games[-1].footer is not None:
        if record.footer.score not in _scores(match.score, rules):
            raise InvalidNotationError(f"the match footer gives the final score {record.footer.score}, "
                                       f"the games make {match.score}")
    return match


class _Replay:
    """Drives one Game through one XGGame's records."""

    def __init__(self, game: Game, record: XGGame, names: tuple[str, str]) -> None:
        self.game = game
        self.record = record
        self.names = names
        self.moves = 0

    def who(self, player: int | None) -> str:
        """A player as XG users know it: by name, else as XG numbers it (1 and 2)."""
        if player is None:
            return "nobody"
        name = self.names[player].strip()
        return name[:40] if name else f"XG's player {player + 1}"

    def where(self) -> str:
        n = self.record.number
        return f"game {n}, move {self.moves}" if self.moves else f"game {n}, before the first move"

    def fail(self, message: str) -> InvalidNotationError:
        return InvalidNotationError(f"{self.where()}: {message}")

    def run(self) -> None:
        game, header = self.game, self.record.header
        if header.score != game.score:
            raise self.fail(f"the game header gives the score {header.score}, the games before "
                            f"make {game.score}")
        if header.crawford != game.crawford_game:
            raise self.fail(f"the game header says this is {'' if header.crawford else 'not '}the "
                            "Crawford game, the score says otherwise")
        if any(header.board) and header.board != Position.initial().board:
            raise self.fail("the game starts from a position other than the standard one, which "
                            "gammon cannot replay")
        if header.automatic_doubles:
            raise self.fail(f"the game began with {header.automatic_doubles} automatic double(s): XG "
                            "does not record the tied opening rolls, so gammon cannot replay it")
        actions = self.record.actions
        for k, action in enumerate(actions):
            try:
                if isinstance(action, XGCube):
                    self.cube(action)
                else:
                    self.move(action, last=k == len(actions) - 1)
            except InvalidNotationError:
                raise
            except GammonError as e:
                raise self.fail(f"{type(e).__name__}: {e}") from None
        if self.record.footer is not None:
            self.finish(self.record.footer)

    def check_board(self, board: Board, what: str) -> None:
        if board != self.game.position_for(0).board:
            raise self.fail(f"the {what} records the position {_id(board)} (seen by {self.who(0)}), "
                            f"the plays before lead to {self.game.position_for(0).id}")

    def cube(self, cube: XGCube) -> None:
        game = self.game
        if game.is_over:
            if cube.double == 1:
                raise self.fail("a double after the end of the game")
            return
        self.check_board(cube.board, "cube entry")
        if game.turn is not None and cube.player != game.turn:
            raise self.fail(f"the cube entry is {self.who(cube.player)}'s but it is "
                            f"{self.who(game.turn)}'s turn")
        if (game.cube_value, game.cube_owner) != (cube.cube_value, cube.cube_owner):
            raise self.fail(f"the cube entry has the cube at {cube.cube_value} owned by "
                            f"{self.who(cube.cube_owner)}, the replay at {game.cube_value} owned by "
                            f"{self.who(game.cube_owner)}")
        if cube.double != 1:
            return
        game.double(player=cube.player)
        taker = 1 - cube.player
        if cube.take == 1:
            game.take(player=taker)
        elif cube.take == 0:
            game.pass_(player=taker)
        elif cube.take == 2:
            if cube.beaver_answer == 2:
                raise self.fail("a raccoon (redouble of a beaver), which gammon does not play")
            if cube.beaver_answer != 1:
                raise self.fail("the doubler refused the beaver, which gammon's rules do not allow")
            game.beaver(player=taker)
        else:
            raise self.fail(f"a double with no answer (take = {cube.take})")

    def move(self, move: XGMove, last: bool) -> None:
        game = self.game
        self.moves += 1
        p = move.player
        self.check_board(move.board, "move entry")
        game.apply(Roll.opening_won(p, move.dice) if game.phase is GamePhase.OPENING else Roll(p, move.dice))
        roll = f"{move.dice[0]}{move.dice[1]}"
        if move.steps is None:  # rolled, then resigned
            if not last or self.record.footer is None or self.record.footer.termination < 100:
                raise self.fail(f"{self.who(p)} rolled {roll} and did not play, but did not resign")
            return
        if not move.steps:
            if game.phase is GamePhase.MOVE:
                plays = game.legal_plays()
                raise self.fail(f"the file has {self.who(p)} not play {roll}, but {game.position.id} "
                                f"has {len(plays)} legal plays, e.g. {plays[0]}")
            return
        position = game.position
        text = _steps_text(move.steps)
        play = self.find_play(position, move, move.steps, text)
        game.play(play, player=p)

    def find_play(self, position: Position, move: XGMove, steps: Sequence[Step], text: str) -> Play:
        """The legal play whose checkers of the mover's end where ``move.steps`` take them and,
        when the file has it, whose end position is the recorded one (a pair that moves a checker
        by both dice does not say whether it hit on the way)."""
        roll = f"{move.dice[0]}{move.dice[1]}"
        target = _mover_after(position, steps)
        if target is None:
            raise self.fail(f"{self.who(move.player)}'s play of {roll}, {text}, moves checkers "
                            f"that are not there in {position.id}")
        plays = [x for x in self.game.legal_plays() if _mover_side(x.after.flip().board) == target]
        if not plays:
            raise self.fail(f"{self.who(move.player)}'s play of {roll}, {text}, is not legal from "
                            f"{position.id}")
        if any(move.end):
            plays = [x for x in plays if x.after.flip().board == move.end]
            if not plays:
                raise self.fail(f"the move entry's end position {_id(move.end)} is not what "
                                f"{text} leaves from {position.id}")
        elif len(plays) > 1:  # no end position: take the pairs as steps, hitting only where they land
            try:
                after = position.after_gnubg_move([n for step in steps for n in step])
            except GammonError:
                after = None
            plays = [x for x in plays if x.after == after] or plays
        if len(plays) > 1:
            raise self.fail(f"{self.who(move.player)}'s play of {roll}, {text}, fits "
                            f"{', '.join(str(x) for x in plays)}")
        return plays[0]

    def finish(self, footer: XGGameFooter) -> None:
        game, rules = self.game, self.game.rules
        if not game.is_over:
            if footer.termination < 100:
                raise self.fail(f"the footer says the game was {_ending(footer.termination)}, but "
                                "the plays do not end it")
            loser, owner = 1 - footer.winner, game.cube_owner
            kinds = [k for k in WinKind if rules.points(k, game.cube_value, owner) == footer.points]
            asked = footer.termination % 100
            kind = WinKind(asked) if asked in kinds else (kinds[0] if kinds else None)
            if kind is None:
                raise self.fail(f"{self.who(loser)} resigned {footer.points} points, which no "
                                f"resignation makes with the cube at {game.cube_value}")
            try:
                game.resign(kind, player=loser)
                game.accept_resignation(player=footer.winner)
            except GammonError as e:
                raise self.fail(f"the resignation in the footer cannot be replayed: {e}") from None
        result = cast(GameResult, game.result)  # the game is over by now
        if (result.winner, result.points) != (footer.winner, footer.points):
            raise self.fail(f"the footer says {self.who(footer.winner)} won {footer.points} points, "
                            f"the replay gives {self.who(result.winner)} {result.points} points")
        score = list(game.score)
        score[result.winner] += result.points
        if footer.score not in _scores((score[0], score[1]), rules):
            raise self.fail(f"the footer gives the score after the game as {footer.score}, the "
                            f"replay {tuple(score)}")


def _scores(score: tuple[int, int], rules: Rules) -> tuple[tuple[int, int], ...]:
    """A score as XG may write it in a footer: as it is, or capped at the match length."""
    length = rules.match_length
    return (score, (min(score[0], length), min(score[1], length))) if length else (score,)


def _mover_side(board: Board) -> tuple[int, ...]:
    """The mover's checkers on points 1-24 and the bar."""
    return tuple(max(n, 0) for n in board[1:26])


def _mover_after(position: Position, steps: Sequence[Step]) -> tuple[int, ...] | None:
    """Where ``steps`` leave the mover's checkers (None if they move checkers it does not have):
    taken together, so the pairs' order does not matter."""
    counts = list(_mover_side(position.board))
    for src, dst in steps:
        counts[src - 1] -= 1
        if dst:
            counts[dst - 1] += 1
    return tuple(counts) if min(counts) >= 0 else None


def _steps_text(steps: Sequence[Step]) -> str:
    return " ".join(f"{'bar' if a == 25 else a}/{'off' if b == 0 else b}" for a, b in steps)


def _id(board: Board) -> str:
    try:
        return Position(board).id
    except InvalidPositionError:
        return repr(board)


def _ending(termination: int) -> str:
    kind = {0: "a dropped double", 1: "won single", 2: "won gammon", 3: "won backgammon"}
    return kind.get(termination, f"ended (termination {termination})")
