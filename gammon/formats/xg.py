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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import IO, TYPE_CHECKING, cast

from gammon.errors import GammonError, InvalidNotationError, InvalidPositionError, cut
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
    decode_comments,
    decode_records,
)
from gammon.formats.xgid import XGID
from gammon.game import Double, Game, GamePhase, PlayMade, RejectResignation, Resign, Roll
from gammon.i18n import N_, tr
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
    # temp.xgc as stored (RTF): read into text only when asked, so that a reader that does not
    # show comments (an upload to the server) does not pay for them
    comment_file: bytes = b""

    @property
    def commented(self) -> bool:
        """Whether the file holds comments."""
        return bool(self.comment_file)

    @cached_property
    def comments(self) -> tuple[str, ...]:
        """The comments as text, in order: the records' comment indices point here."""
        return decode_comments(self.comment_file)

    @property
    def names(self) -> tuple[str, str]:
        """Player 0's and player 1's names (XG's player 1 and player 2; a blank one is "Player 1" or
        "Player 2", as in an SGF file)."""
        return _names(self.header.names)

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


@dataclass(frozen=True)
class XGComments:
    """The comments of a ``.xg`` file placed on the :class:`~gammon.match.Match` replayed from it,
    as an SGF writer's annotator (:class:`~gammon.formats.sgf.SgfAnnotator`) gives them: a game's
    own (before and after it) on its root, a play's on its move node, a double's on the double's
    node. A comment on a cube entry where the player did not double goes with the move that
    follows it (gnubg keeps a no-double's analysis on that node too), and one that finds no node
    (a cube entry after the game's end) with the game's own. ``match`` holds the match's own."""

    match: tuple[str, ...]
    games: tuple[tuple[str, ...], ...]
    actions: tuple[dict[int, tuple[str, ...]], ...]

    def game_properties(self, game: int) -> dict[str, tuple[str, ...]]:
        texts = self.games[game] if game < len(self.games) else ()
        return {"C": texts} if texts else {}

    def action_properties(self, game: int, action: int) -> dict[str, tuple[str, ...]]:
        texts = self.actions[game].get(action, ()) if game < len(self.actions) else ()
        return {"C": texts} if texts else {}


def comments_on(record: XGMatch, match: Match) -> XGComments:
    """``record``'s comments placed on ``match``, the Match replayed from it (``to_match``)."""

    def text(index: int) -> list[str]:
        found = record.comments[index] if 0 <= index < len(record.comments) else ""
        return [found] if found.strip() else []  # an index past the comments: none

    games: list[tuple[str, ...]] = []
    actions: list[dict[int, tuple[str, ...]]] = []
    for xg_game, game in zip(record.games, match.games):
        before, after = xg_game.header.comments
        own, placed = _place_comments(xg_game, game.history, text)
        games.append(tuple(text(before) + own + text(after)))
        actions.append(placed)
    first, last = record.header.comments
    return XGComments(tuple(text(first) + text(last)), tuple(games), tuple(actions))


def _place_comments(record: XGGame, history: Sequence[object], text: Callable[[int], list[str]]
                    ) -> tuple[list[str], dict[int, tuple[str, ...]]]:
    """A game's cube and move entries' comments by the history index of the node they go on,
    and those that find none. The n-th move entry is the game's n-th roll (XG records neither
    opening ties nor rejected resignations), the n-th cube entry that doubled its n-th double."""
    rolls = [i for i, a in enumerate(history) if isinstance(a, Roll)]
    doubles = [i for i, a in enumerate(history) if isinstance(a, Double)]
    placed: dict[int, list[str]] = {}
    pending: list[str] = []  # a no-double's comments, waiting for the move that follows
    moves = doubled = 0
    for action in record.actions:
        if isinstance(action, XGMove):
            node = _move_node(history, rolls[moves]) if moves < len(rolls) else None
            moves += 1
            if node is not None:
                placed.setdefault(node, []).extend(pending + text(action.comment))
                pending = []
            else:
                pending += text(action.comment)
        elif action.double == 1 and doubled < len(doubles):
            placed.setdefault(doubles[doubled], []).extend(pending + text(action.comment))
            doubled, pending = doubled + 1, []
        else:
            pending += text(action.comment)
    return pending, {i: tuple(texts) for i, texts in placed.items() if texts}


def _move_node(history: Sequence[object], roll: int) -> int:
    """The node of the roll at ``roll``: the play that follows it (the move node carries the
    roll), past resignations offered and rejected, else the roll's own."""
    following = next((j for j in range(roll + 1, len(history))
                      if not isinstance(history[j], Resign | RejectResignation)), None)
    return following if following is not None and isinstance(history[following], PlayMade) else roll


# --- reading ---------------------------------------------------------------------------------

def read_xg(source: Source) -> XGMatch:
    """Read a ``.xg`` match or session file: a path, its bytes or a binary file object.

    Raises :class:`InvalidNotationError` quoting what is wrong (not an XG file, a truncated or
    corrupt archive, a record that cannot be read, records out of order)."""
    data, what = _bytes(source)
    records, files = _records(data, what)
    header = cast(XGMatchHeader, records[0])  # decode_records makes sure of it
    games: list[XGGame] = []
    footer: XGMatchFooter | None = None
    game_header: XGGameHeader | None = None
    actions: list[XGCube | XGMove] = []
    for k, record in enumerate(records[1:], start=2):
        where = tr("{file}: temp.xg record {k}", file=what, k=k)
        if footer is not None:
            raise InvalidNotationError(tr("{where}: a record after the match footer", where=where))
        if isinstance(record, XGGameHeader):
            if game_header is not None:
                games.append(XGGame(game_header, tuple(actions), None))
            game_header, actions = record, []
        elif isinstance(record, XGCube | XGMove):
            if game_header is None:
                raise InvalidNotationError(tr("{where}: a {record} outside a game",
                                              where=where, record=_kind(record)))
            actions.append(record)
        elif isinstance(record, XGGameFooter):
            if game_header is None:
                raise InvalidNotationError(tr("{where}: a game footer outside a game", where=where))
            games.append(XGGame(game_header, tuple(actions), record))
            game_header, actions = None, []
        elif isinstance(record, XGMatchFooter):
            if game_header is not None:
                raise InvalidNotationError(tr("{where}: the match footer inside game {number}", where=where,
                                              number=game_header.number))
            footer = record
    if game_header is not None:
        games.append(XGGame(game_header, tuple(actions), None))
    unfinished = [g.number for g in games[:-1] if g.footer is None]
    if unfinished:
        raise InvalidNotationError(tr("{file}: game {number} has no footer but is not the last game",
                                      file=what,
                                      number=unfinished[0]))
    return XGMatch(header, tuple(games), footer, files["temp.xgc"] if "temp.xgc" in files else b"")


def read_xg_match(source: Source) -> Match:
    """Read a ``.xg`` file and replay it: ``read_xg(source).to_match()``, with the file named in
    the errors. The player names are ``read_xg(source).names``."""
    record = read_xg(source)
    try:
        return record.to_match()
    except InvalidNotationError as e:
        what = repr(os.fspath(source)) if isinstance(source, str | os.PathLike) else tr("the data")
        raise InvalidNotationError(f"{what}: {e}") from None


def read_xgp(source: Source) -> XGPosition:
    """Read a ``.xgp`` position file: a match header, a game header, the cube entry of the player
    on roll and, for a checker play, a move entry with the dice. Raises
    :class:`InvalidNotationError` quoting what is wrong."""
    data, what = _bytes(source)
    records, _files = _records(data, what)
    header = cast(XGMatchHeader, records[0])  # decode_records makes sure of it
    kinds = [type(r) for r in records[1:]]
    if kinds[:2] != [XGGameHeader, XGCube] or any(k not in (XGMove, XGGameFooter, XGMatchFooter)
                                                   for k in kinds[2:]):
        raise InvalidNotationError(
            tr("{file} is not an XG position file: after the match header it must hold a game header, a cube "
               "entry and optionally a move entry, found {found}", file=what,
               found=cut(", ".join(_kind(r) for r in records[1:])) or tr("nothing")))
    game, cube = cast(XGGameHeader, records[1]), cast(XGCube, records[2])
    move = next((r for r in records[3:] if isinstance(r, XGMove)), None)
    rules = rules_of(header, what)
    player = cube.player
    dice = None
    if move is not None:
        if move.player != player:
            raise InvalidNotationError(
                tr("{file}: the cube entry is for XG's player {player}, the move entry for player {other}",
                   file=what, player=player + 1, other=move.player + 1))
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
        raise InvalidNotationError(tr("{file}: the position is not valid: {problem}",
                                      file=what, problem=e)) from None
    position = seen_by_0 if player == 0 else seen_by_0.flip()
    return XGPosition(position, state, _names(header.names), rules)


def rules_of(header: XGMatchHeader, what: str | None = None) -> Rules:
    """The Rules of an XG match header (``what``: the file, as errors name it). Only standard
    backgammon is supported."""
    if header.variation:
        raise InvalidNotationError(tr("{file}: the variation {variation} is not supported, only backgammon",
                                      file=what or tr("the file"), variation=VARIATIONS[header.variation]))
    money = header.match_length == 0
    return Rules(match_length=header.match_length, crawford=header.crawford,
                 jacoby=header.jacoby if money else True, beavers=header.beavers and money,
                 cube_limit=header.cube_limit,
                 automatic_doubles=header.automatic_doubles if money else 0)


def _bytes(source: Source) -> tuple[bytes, str]:
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source), tr("the data")
    if isinstance(source, str | os.PathLike):
        return Path(source).read_bytes(), repr(os.fspath(source))
    data = source.read()
    if not isinstance(data, bytes):
        raise InvalidNotationError(tr("an XG file is binary: open it with 'rb', got {type}",
                                      type=type(data).__name__))
    name = getattr(source, "name", None)
    return data, tr("the file") if name is None else repr(name)


def _records(data: bytes, what: str) -> tuple[list[XGRecord], Mapping[str, bytes]]:
    """temp.xg's records, and the archive's inner files."""
    files = unpack(data, what).files
    if "temp.xg" not in files:
        raise InvalidNotationError(tr("{file}: the archive holds {names}, not temp.xg",
                                      file=what, names=sorted(files)))
    try:
        return decode_records(files["temp.xg"]), files
    except InvalidNotationError as e:
        raise InvalidNotationError(f"{what}: {e}") from None


def _names(names: tuple[str, str]) -> tuple[str, str]:
    """The players' names, a blank one numbered as the other formats' readers do (a report with
    blank names cannot tell its columns apart)."""
    return (names[0] if names[0].strip() else "Player 1", names[1] if names[1].strip() else "Player 2")


def _kind(record: XGRecord) -> str:
    return tr(_KINDS[type(record)])


_KINDS: dict[type, str] = {XGMatchHeader: N_("match header"), XGGameHeader: N_("game header"),
                           XGCube: N_("cube entry"), XGMove: N_("move entry"),
                           XGGameFooter: N_("game footer"), XGMatchFooter: N_("match footer")}


# --- replay ----------------------------------------------------------------------------------

def to_match(record: XGMatch) -> Match:
    """Replay every game of ``record`` into a Match. Raises :class:`InvalidNotationError` naming
    the game and move of the first record the rules refuse or that disagrees with the replay (a
    play that is not legal, a position, score or result other than the file's)."""
    rules = rules_of(record.header)
    match = replay_games(rules, record.games, lambda game, g: _Replay(game, g, record.header.names).run(),
                         _game_words)
    _check_footer(record, match, rules)
    return match


def _game_words(g: XGGame) -> str:
    return tr("game {number}", number=g.number)


def _check_footer(record: XGMatch, match: Match, rules: Rules) -> None:
    """The match footer's final score against the games replayed, when the last one is finished."""
    if record.footer is not None and record.games and record.games[-1].footer is not None:
        if record.footer.score not in _scores(match.score, rules):
            raise InvalidNotationError(tr("the match footer gives the final score {score}, the games make "
                                          "{made}",
                                          score=record.footer.score, made=match.score))


def to_match_partial(record: XGMatch) -> tuple[XGMatch, Match, tuple[str, ...]]:
    """What a damaged file keeps: ``record`` cut before the first game :func:`to_match` refuses
    (a transcription error), the games before it replayed, and that problem; the whole record,
    its match and no problem when nothing is refused. The match footer's final score is checked
    only when every game replays (a problem there keeps every game)."""
    rules = rules_of(record.header)  # a header gammon cannot play by refuses the file
    replayed = 0

    def replay(game: Game, xg_game: XGGame) -> None:
        nonlocal replayed
        _Replay(game, xg_game, record.header.names).run()
        replayed += 1

    try:
        match = replay_games(rules, record.games, replay, _game_words)
    except InvalidNotationError as e:
        kept = replace(record, games=record.games[:replayed], footer=None)
        return kept, to_match(kept), (str(e),)
    try:
        _check_footer(record, match, rules)
    except InvalidNotationError as e:
        return replace(record, footer=None), match, (str(e),)
    return record, match, ()


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
            return tr("nobody")
        name = self.names[player].strip()
        return name[:40] if name else tr("XG's player {player}", player=player + 1)

    def where(self) -> str:
        n = self.record.number
        if self.moves:
            return tr("game {number}, move {move}", number=n, move=self.moves)
        return tr("game {number}, before the first move", number=n)

    def fail(self, message: str) -> InvalidNotationError:
        return InvalidNotationError(f"{self.where()}: {message}")

    def run(self) -> None:
        game, header = self.game, self.record.header
        if header.score != game.score:
            raise self.fail(tr("the game header gives the score {score}, the games before make {made}",
                               score=header.score, made=game.score))
        if header.crawford != game.crawford_game:
            raise self.fail(tr("the game header says this is the Crawford game, the score says otherwise")
                            if header.crawford else
                            tr("the game header says this is not the Crawford game, the score says "
                               "otherwise"))
        if any(header.board) and header.board != Position.initial().board:
            raise self.fail(tr("the game starts from a position other than the standard one, which gammon "
                               "cannot replay"))
        if header.automatic_doubles:
            raise self.fail(tr("the game began with {n} automatic double(s): XG does not record the tied "
                               "opening "
                               "rolls, so gammon cannot replay it", n=header.automatic_doubles))
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
        """``what``: the record, "cube entry" or "move entry" (a message of the catalogue)."""
        if board != self.game.position_for(0).board:
            raise self.fail(tr("the {record} records the position {id} (seen by {name}), the plays before "
                               "lead "
                               "to {other}", record=tr(what), id=_id(board), name=self.who(0),
                               other=self.game.position_for(0).id))

    def cube(self, cube: XGCube) -> None:
        game = self.game
        if game.is_over:
            if cube.double == 1:
                raise self.fail(tr("a double after the end of the game"))
            return
        self.check_board(cube.board, N_("cube entry"))
        if game.turn is not None and cube.player != game.turn:
            raise self.fail(tr("the cube entry is {name}'s but it is {other}'s turn",
                               name=self.who(cube.player),
                               other=self.who(game.turn)))
        if (game.cube_value, game.cube_owner) != (cube.cube_value, cube.cube_owner):
            raise self.fail(tr("the cube entry has the cube at {cube} owned by {owner}, the replay at "
                               "{value} "
                               "owned by {other}", cube=cube.cube_value, owner=self.who(cube.cube_owner),
                               value=game.cube_value, other=self.who(game.cube_owner)))
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
                raise self.fail(tr("a raccoon (redouble of a beaver), which gammon does not play"))
            if cube.beaver_answer != 1:
                raise self.fail(tr("the doubler refused the beaver, which gammon's rules do not allow"))
            game.beaver(player=taker)
        else:
            raise self.fail(tr("a double with no answer (take = {take})", take=cube.take))

    def move(self, move: XGMove, last: bool) -> None:
        game = self.game
        self.moves += 1
        p = move.player
        self.check_board(move.board, N_("move entry"))
        game.apply(Roll.opening_won(p, move.dice) if game.phase is GamePhase.OPENING else Roll(p, move.dice))
        roll = f"{move.dice[0]}{move.dice[1]}"
        if move.steps is None:  # rolled, then resigned
            if not last or self.record.footer is None or self.record.footer.termination < 100:
                raise self.fail(tr("{name} rolled {roll} and did not play, but did not resign",
                                   name=self.who(p),
                                   roll=roll))
            return
        if not move.steps:
            if game.phase is GamePhase.MOVE:
                plays = game.legal_plays()
                raise self.fail(tr("the file has {name} not play {roll}, but {id} has {n} legal plays, e.g. "
                                   "{play}",
                                   name=self.who(p), roll=roll, id=game.position.id, n=len(plays),
                                   play=plays[0]))
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
            raise self.fail(tr("{name}'s play of {roll}, {play}, moves checkers that are not there in {id}",
                               name=self.who(move.player), roll=roll, play=text, id=position.id))
        plays = [x for x in self.game.legal_plays() if _mover_side(x.after.flip().board) == target]
        if not plays:
            if not _dice_make(move.dice, steps):
                raise self.fail(tr("{name}'s play of {roll}, {play}, is not legal from {id}: its checkers "
                                   "move {pips}, which the dice {roll} do not make (an error in the file)",
                                   name=self.who(move.player), roll=roll, play=text, id=position.id,
                                   pips=" + ".join(str(src - dst) for src, dst in steps)))
            raise self.fail(tr("{name}'s play of {roll}, {play}, is not legal from {id}",
                               name=self.who(move.player),
                               roll=roll, play=text, id=position.id))
        if any(move.end):
            plays = [x for x in plays if x.after.flip().board == move.end]
            if not plays:
                raise self.fail(tr("the move entry's end position {end} is not what {play} leaves from {id}",
                                   end=_id(move.end), play=text, id=position.id))
        elif len(plays) > 1:  # no end position: take the pairs as steps, hitting only where they land
            try:
                after = position.after_gnubg_move([n for step in steps for n in step])
            except GammonError:
                after = None
            plays = [x for x in plays if x.after == after] or plays
        if len(plays) > 1:
            raise self.fail(tr("{name}'s play of {roll}, {play}, fits {plays}",
                               name=self.who(move.player), roll=roll,
                               play=text, plays=", ".join(str(x) for x in plays)))
        return plays[0]

    def finish(self, footer: XGGameFooter) -> None:
        game, rules = self.game, self.game.rules
        if not game.is_over:
            if footer.termination < 100:
                raise self.fail(_ending(footer.termination))
            loser, owner = 1 - footer.winner, game.cube_owner
            kinds = [k for k in WinKind if rules.points(k, game.cube_value, owner) == footer.points]
            asked = footer.termination % 100
            kind = WinKind(asked) if asked in kinds else (kinds[0] if kinds else None)
            if kind is None:
                raise self.fail(tr("{name} resigned {points} points, which no resignation makes with the "
                                   "cube at "
                                   "{cube}",
                                   name=self.who(loser), points=footer.points, cube=game.cube_value))
            try:
                game.resign(kind, player=loser)
                game.accept_resignation(player=footer.winner)
            except GammonError as e:
                raise self.fail(tr("the resignation in the footer cannot be replayed: {problem}",
                                   problem=e)) from None
        result = cast(GameResult, game.result)  # the game is over by now
        if (result.winner, result.points) != (footer.winner, footer.points):
            raise self.fail(tr("the footer says {name} won {points} points, the replay gives {winner} {won} "
                               "points",
                               name=self.who(footer.winner), points=footer.points,
                               winner=self.who(result.winner), won=result.points))
        score = list(game.score)
        score[result.winner] += result.points
        if footer.score not in _scores((score[0], score[1]), rules):
            raise self.fail(tr("the footer gives the score after the game as {score}, the replay {made}",
                               score=footer.score, made=tuple(score)))


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


def _dice_make(dice: tuple[int, int], steps: Sequence[Step]) -> bool:
    """Whether the steps' lengths can be the dice's (a step may use both dice, or more of a double).
    A step that bears off may use a larger die than its length, so it always fits."""
    lengths = [src - dst for src, dst in steps if dst != 0]
    if len(lengths) < len(steps):
        return True
    if dice[0] == dice[1]:
        return all(n % dice[0] == 0 for n in lengths) and sum(lengths) <= 4 * dice[0]
    return sorted(lengths) in ([dice[0]], [dice[1]], sorted(dice), [sum(dice)])


def _steps_text(steps: Sequence[Step]) -> str:
    return " ".join(f"{'bar' if a == 25 else a}/{'off' if b == 0 else b}" for a, b in steps)


def _id(board: Board) -> str:
    try:
        return Position(board).id
    except InvalidPositionError:
        return repr(board)


def _ending(termination: int) -> str:
    """Why a footer whose game the plays do not end is wrong, by how it says the game ended."""
    if termination == 0:
        return tr("the footer says the game was a dropped double, but the plays do not end it")
    if termination == 1:
        return tr("the footer says the game was won single, but the plays do not end it")
    if termination == 2:
        return tr("the footer says the game was won gammon, but the plays do not end it")
    if termination == 3:
        return tr("the footer says the game was won backgammon, but the plays do not end it")
    return tr("the footer says the game was ended (termination {termination}), but the plays do not end it",
              termination=termination)
