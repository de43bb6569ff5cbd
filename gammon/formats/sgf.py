"""GNU Backgammon's SGF match files: what gnubg's ``save match`` writes and ``load match`` reads.

SGF (Smart Game Format, FF[4]) is a tree of nodes, each a list of properties ``ID[value][value]``.
GNU Backgammon (game GM[6]) writes one game tree per game of a match or money session::

    (;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07]MI[length:5][game:0][ws:0][bs:0]
      PW[Alice]PB[Bob]RU[Crawford]RE[B+2R]
    ;B[21lnab]
    ;W[52mhxv]DA[...]A[...]
    ;B[double]
    ;W[take]
    ...)

Player 0 is White (``W``, ``PW``), player 1 Black (``B``, ``PB``). The root node holds the match
information: ``MI`` (match length, 0 for money; the game's number from 0; White's and Black's
score before it), ``RU`` (rules: ``Crawford``, ``CrawfordGame`` in the Crawford game itself,
``Jacoby``, ``NoCube``), ``CV`` (the cube after automatic doubles), ``RE`` (the result: winner,
points, ``R`` when the loser resigned) and, in the first game, ``DT`` ``EV`` ``RO`` ``PC`` ``AN``
``GC`` ``WR`` ``BR`` (date, event, round, place, annotator, comment, ratings).

A move node is the roll and its play: ``W[52mhxv]`` is 5-2 played by White, each step two letters
(from, to) naming the points of one fixed numbering: ``a`` is White's 1-point (Black's 24), ``x``
White's 24-point, ``y`` the bar and ``z`` off. No letters: no legal play. ``B[double]``,
``W[take]``, ``W[drop]`` are the cube; a beaver is written as gnubg does, a ``double`` by the
player doubled followed by the doubler's ``take``. A roll not played (the player resigned, or the
game stops there) is ``PL[W]DI[41]``. Resignations have no node: the root's ``RE[..R]`` says so.

gnubg also stores its analysis in the move nodes (``A`` the plays considered and their
evaluations, ``DA`` the cube decision, ``LU``/``GB``/``GW`` luck, ``BM``/``DO``/``BC``/``DC``
marks) and in the root (``GS`` statistics); ``C`` is a comment. :func:`read_sgf` keeps every such
property, untouched, next to the action it belongs to (:attr:`SgfMatch.action_notes`), and the
writer takes them back through an :class:`SgfAnnotator`: that protocol is the hook by which
gammon's analysis attaches its own evaluations (:mod:`gammon.analysis.sgf_annotations`).

:func:`read_sgf` replays every game into a :class:`~gammon.match.Match`, so every roll, play and
cube action is checked against the rules; the first problem raises
:class:`InvalidNotationError` naming the game, the line and quoting the node. A result that no
bear-off or drop explains is the loser's resignation of the smallest kind worth those points
(gnubg counts a resigned gammon or backgammon in full under the Jacoby rule; gammon does not, and
says so), or, when no resignation can be worth them, an abandon (3 times the cube).
:func:`format_sgf` / :func:`write_sgf` write a Match (or Games, or a read :class:`SgfMatch`).

SGF does not hold the beaver rule (a beaver in the games implies it), the cube limit, the most
automatic doubles allowed (the largest ``CV`` read is taken), the dice of tied opening throws,
rejected resignation offers, or an abandon as such (it is written as a resignation).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Protocol

from gammon import __version__
from gammon.cube import Cube
from gammon.dice import Dice
from gammon.errors import GammonError, InvalidNotationError, cut
from gammon.formats.matchid import MAX_SCORE
from gammon.formats.numbers import read_count
from gammon.formats.replay import replay_games
from gammon.formats.text import decode_wide
from gammon.game import (
    Abandon,
    AcceptResignation,
    Action,
    ActionKind,
    Beaver,
    Double,
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
from gammon.position import BAR, Position
from gammon.rules import Rules, WinKind
from gammon.words import printable

if TYPE_CHECKING:
    from gammon.game import Game
    from gammon.play import Play

Properties = Mapping[str, Sequence[str]]
"""SGF properties: identifier (``"A"``, ``"DA"``) to its values, in order."""

def _cut(text: str) -> str:
    return cut(" ".join(text.split()))  # a node's lines quoted as one


# --- SGF syntax ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SgfNode:
    """One node: its properties in the order read, the line it starts on and its text (cut, for
    error messages)."""

    properties: dict[str, tuple[str, ...]]
    line: int
    text: str

    def value(self, ident: str) -> str | None:
        """The first value of ``ident``, or None when the node does not have it."""
        values = self.properties.get(ident)
        return values[0] if values else None


@dataclass(frozen=True)
class SgfTree:
    """One game tree: the nodes of its main line (the first variation at every branch, as gnubg
    reads it) and how many other variations were passed over."""

    nodes: tuple[SgfNode, ...]
    variations: int
    line: int


_WS = re.compile(r"\s*")
_IDENT = re.compile(r"[A-Za-z]+")
_VALUE = re.compile(r"\[((?:[^\\\]]|\\.)*)\]", re.DOTALL)
_SOFT_BREAK = re.compile(r"\\(?:\r\n|\n\r|\r|\n)")
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_MAX_DEPTH = 100  # variations nested deeper than this are refused (gnubg writes none)


def parse_sgf(text: str) -> list[SgfTree]:
    """Read the SGF syntax of a collection: every game tree's main line. Raises
    :class:`InvalidNotationError` with the line and column of the first syntax error."""
    if not isinstance(text, str):
        raise InvalidNotationError(tr("SGF text must be a str, not {type}", type=type(text).__name__))
    return _Parser(text.lstrip("\ufeff")).collection()


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.counted = (0, 1)  # a position and its line: lines are counted on from there, not from 0

    def line_at(self, pos: int) -> int:
        at, line = self.counted
        if pos < at:
            at, line = 0, 1
        line += self.text.count("\n", at, pos)
        self.counted = (pos, line)
        return line

    def error(self, what: str, pos: int | None = None) -> InvalidNotationError:
        pos = self.pos if pos is None else pos
        line = self.line_at(pos)
        column = pos - (self.text.rfind("\n", 0, pos) + 1) + 1
        near = self.text[pos:pos + 40]
        if near.strip():
            return InvalidNotationError(tr("SGF line {line}, column {column}: {problem}, at {text}",
                                           line=line,
                                           column=column, problem=what, text=repr(_cut(near))))
        return InvalidNotationError(tr("SGF line {line}, column {column}: {problem} (end of file)", line=line,
                                       column=column, problem=what))

    def skip(self) -> str:
        space = _WS.match(self.text, self.pos)
        self.pos = space.end() if space else self.pos
        return self.text[self.pos:self.pos + 1]

    def collection(self) -> list[SgfTree]:
        trees = []
        while self.skip():
            if self.text[self.pos] != "(":
                raise self.error(tr("expected '(' to start a game tree"))
            trees.append(self.tree(0))
        if not trees:
            raise InvalidNotationError(tr("not an SGF file: it is empty"))
        return trees

    def tree(self, depth: int) -> SgfTree:
        if depth > _MAX_DEPTH:
            raise self.error(tr("game trees nested more than {depth} deep", depth=_MAX_DEPTH))
        line = self.line_at(self.pos)
        self.pos += 1  # '('
        nodes: list[SgfNode] = []
        while self.skip() == ";":
            nodes.append(self.node())
        if not nodes:
            raise self.error(tr("a game tree must start with a node ';'"))
        variations = 0
        first = True
        while self.skip() == "(":
            child = self.tree(depth + 1)
            if first:
                nodes.extend(child.nodes)
                variations += child.variations
                first = False
            else:
                variations += 1
        if self.skip() != ")":
            raise self.error(tr("expected ')' to close the game tree opened on line {line}", line=line))
        self.pos += 1
        return SgfTree(tuple(nodes), variations, line)

    def node(self) -> SgfNode:
        start = self.pos
        line = self.line_at(start)
        self.pos += 1  # ';'
        properties: dict[str, list[str]] = {}
        while True:
            self.skip()
            ident = _IDENT.match(self.text, self.pos)
            if not ident:
                break
            # FF[4] property identifiers are upper case; FF[3] allowed lower-case letters, ignored.
            name = "".join(c for c in ident.group() if c.isupper())
            self.pos = ident.end()
            values = []
            while self.skip() == "[":
                value = _VALUE.match(self.text, self.pos)
                if not value:
                    raise self.error(tr("the value of {name} has no closing ']'",
                                        name=repr(cut(ident.group()))))
                values.append(_ESCAPE.sub(r"\1", _SOFT_BREAK.sub("", value.group(1))))
                self.pos = value.end()
            if not values:
                raise self.error(tr("property {name} has no value '[...]'", name=repr(cut(ident.group()))))
            if not name:
                raise self.error(tr("property identifier {name} has no capital letter",
                                    name=repr(cut(ident.group()))), ident.start())
            properties.setdefault(name, []).extend(values)
        return SgfNode({name: tuple(values) for name, values in properties.items()}, line,
                       _cut(self.text[start:self.pos]))


# --- records ---------------------------------------------------------------------------------

INFO = ("DT", "EV", "RO", "PC", "AN", "GC", "WR", "BR")
"""The match information gnubg writes in the first game's root: date (YYYY-MM-DD), event, round,
place, annotator, comment, White's and Black's rating."""

# Properties the reader interprets; every other one is kept as a note.
_ROOT = frozenset({"FF", "GM", "CA", "AP", "MI", "PW", "PB", "RU", "RE", "CV"})
_MOVE = frozenset({"B", "W", "PL", "DI"})
_SETUP = ("AE", "AB", "AW", "CV", "CP")  # position edits inside a game


class SgfAnnotator(Protocol):
    """Extra properties for the nodes :func:`format_sgf` writes: the hook for per-move analysis.

    ``game`` counts games from 0; ``action`` is the index in that game's ``history`` of the action
    the node records (the PlayMade of a move node, the Roll of a ``PL``/``DI`` node, the Double, Take,
    Pass or Beaver of a cube node). Return ``{}`` for none. :class:`SgfMatch` is one (it gives
    back what was read); ``gammon.analysis.sgf_annotations.AnalysisAnnotator`` is another, turning
    gammon's evaluations into gnubg's ``A`` (plays considered), ``DA`` (cube decision), ``LU``
    (luck) and ``BM``/``DO`` (marks) so that GNU Backgammon shows them."""

    def game_properties(self, game: int) -> Properties: ...

    def action_properties(self, game: int, action: int) -> Properties: ...


@dataclass(frozen=True)
class SgfMatch:
    """A match or money session read from SGF: the replayed :class:`~gammon.match.Match`, the
    names (player 0 = White, player 1 = Black), the match information (:data:`INFO` keys) and
    every property gammon does not interpret, kept to be written back: per game, its root's
    (``GS`` statistics, ...) and, by history index, its actions' (``A``, ``DA``, ``C``, ...)."""

    match: Match
    names: tuple[str, str]
    info: dict[str, str] = field(default_factory=dict)
    game_notes: tuple[dict[str, tuple[str, ...]], ...] = ()
    action_notes: tuple[dict[int, dict[str, tuple[str, ...]]], ...] = ()
    application: str = ""
    variations: int = 0  # side variations passed over (gnubg reads the main line only)
    warnings: tuple[str, ...] = ()  # what was read though it does not add up (see read_sgf)

    def game_properties(self, game: int) -> Properties:
        return self.game_notes[game] if game < len(self.game_notes) else {}

    def action_properties(self, game: int, action: int) -> Properties:
        notes = self.action_notes[game] if game < len(self.action_notes) else {}
        return notes.get(action, {})

    def note_names(self) -> set[str]:
        """The identifiers of every property kept as a note."""
        names = {name for notes in self.game_notes for name in notes}
        names.update(name for notes in self.action_notes for node in notes.values() for name in node)
        return names


# --- reading ---------------------------------------------------------------------------------


def read_sgf(source: str | bytes) -> SgfMatch:
    """Read GNU Backgammon SGF (text, or bytes decoded by the file's ``CA`` charset) and replay it.

    Raises :class:`InvalidNotationError` quoting the first node that cannot be read or that the
    rules refuse, or a root whose rules, or (in a match) score, disagree with the games before it.
    In a money session a score that disagrees is only a warning (``SgfMatch.warnings``): gnubg
    1.07 writes such files after automatic doubles (its ``RE`` and next ``MI`` differ), and the
    games themselves decide the score, as when gnubg loads the file."""
    return _MatchReader(_game_trees(source)).read()


def read_sgf_partial(source: str | bytes) -> tuple[SgfMatch, tuple[str, ...]]:
    """What a damaged file keeps: the games before the first one :func:`read_sgf` refuses (its
    root, or a node the rules refuse), read, and that problem; the whole file and no problem when
    nothing is refused. A file that cannot be parsed, or whose first game is refused, raises as
    :func:`read_sgf` does."""
    trees = _game_trees(source)
    reader = _MatchReader(trees)
    try:
        return reader.read(), ()
    except InvalidNotationError as e:
        if not reader.good:
            raise
        return _MatchReader(trees[:reader.good]).read(), (str(e),)


def _game_trees(source: str | bytes) -> list[SgfTree]:
    text = _decode(source) if isinstance(source, bytes | bytearray) else source
    trees = parse_sgf(text)
    for tree in trees:
        gm = tree.nodes[0].value("GM")
        if gm is None or gm.strip() != "6":
            raise InvalidNotationError(
                tr("SGF line {line}: {text}: not a backgammon game (GM[6]), GM[{gm}]", line=tree.line,
                   text=repr(cut(tree.nodes[0].text)), gm=gm or ""))
    return trees


def _decode(data: bytes | bytearray) -> str:
    wide = decode_wide(bytes(data))  # the mark names the encoding: a CA property could not be read
    if wide is not None:
        return wide
    charset = re.search(rb"CA\s*\[([A-Za-z0-9_.:-]{1,40})\]", bytes(data[:4096]))
    if charset:
        name = charset.group(1).decode("ascii")
        try:
            return bytes(data).decode(name)
        except LookupError:  # no such codec, or one that is no character set (rot13, hex, zlib, ...)
            raise InvalidNotationError(tr("unknown character set CA[{name}]", name=name)) from None
        except UnicodeError as e:  # not only UnicodeDecodeError: punycode and idna raise the base class
            raise InvalidNotationError(tr("the file is not valid {name} (CA[{name}]): {problem}", name=name,
                                          problem=cut(str(e)))) from None
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        return bytes(data).decode("latin-1")  # SGF's default character set


_COLOURS = (N_("White"), N_("Black"))  # player 0 and player 1, as SGF's W and B


def _colour(player: int) -> str:
    return tr(_COLOURS[player])


class _NodeError(Exception):
    """A problem with one node (or the root): the message, without the where."""


@dataclass(frozen=True)
class _Root:
    length: int
    score: tuple[int, int] | None
    rules: frozenset[str]
    auto_doubles: int
    result: tuple[int, int, bool] | None  # winner, points, resigned


_VARIATIONS = {"Nackgammon", "Hypergammon1", "Hypergammon2", "Hypergammon3"}


def _read_root(node: SgfNode) -> _Root:
    score = None
    fields: dict[str, int] = {}
    for item in node.properties.get("MI", ()):
        key, sep, value = item.partition(":")
        number = read_count(value) if sep else None
        if number is None:
            raise _NodeError(tr("MI[{value}]: expected 'key:number' (length, game, ws, bs)",
                                value=_cut(item)))
        fields[key.strip()] = number
    length = fields.get("length", 0)  # MI's game number is not read: the trees' order is the games'
    if length > MAX_SCORE:  # a Match ID holds the length in 15 bits: analysis could not go on
        raise _NodeError(tr("MI[length:{length}]: a match of {length} points is longer than gammon can hold "
                            "(at most {most})", length=length, most=MAX_SCORE))
    if "ws" in fields or "bs" in fields:
        score = (fields.get("ws", 0), fields.get("bs", 0))
    rules = frozenset(word.strip() for value in node.properties.get("RU", ())
                      for word in value.split(":") if word.strip())
    bad = rules & _VARIATIONS
    if bad:
        raise _NodeError(tr("RU[{value}]: the variation {variation} is not supported (gammon plays standard "
                            "backgammon)", value=":".join(sorted(rules)), variation=sorted(bad)[0]))
    auto = 0
    cv = node.value("CV")
    if cv is not None:
        cube = read_count(cv) or 0
        if cube < 1 or cube & (cube - 1):
            raise _NodeError(tr("CV[{value}]: the cube value must be a power of two", value=_cut(cv)))
        auto = cube.bit_length() - 1
    result = None
    re_value = node.value("RE")
    if re_value is not None and re_value.strip() not in ("", "?", "0", "Void"):
        m = re.fullmatch(r"\s*([BW])\+(\d{1,6})(R?)\s*", re_value, re.IGNORECASE)
        if not m or int(m.group(2)) < 1:
            raise _NodeError(tr("RE[{value}]: expected the winner and points, like 'W+2' or 'B+1R'",
                                value=_cut(re_value)))
        result = (1 if m.group(1).upper() == "B" else 0, int(m.group(2)), bool(m.group(3)))
    return _Root(length, score, rules, auto, result)


class _MatchReader:
    def __init__(self, trees: list[SgfTree]) -> None:
        self.trees = trees
        self.warnings: list[str] = []
        self.offset = (0, 0)  # how far the money score read runs from the file's MI, once it does
        self.good = 0  # the games before the one refused (read_sgf_partial keeps them)

    def read(self) -> SgfMatch:
        roots = []
        for k, tree in enumerate(self.trees):
            try:
                roots.append(_read_root(tree.nodes[0]))
            except _NodeError as e:
                self.good = k
                raise self._where(k, tree.nodes[0], str(e)) from None
        first = roots[0]
        root0 = self.trees[0].nodes[0]
        # gammon's default names where the file has none (as the .mat writer's)
        pw, pb = root0.value("PW") or "", root0.value("PB") or ""
        names = (printable(pw) if pw.strip() else "Player 1", printable(pb) if pb.strip() else "Player 2")
        info = {key: root0.value(key) or "" for key in INFO if root0.value(key) is not None}
        game_notes = []
        for k, (tree, root) in enumerate(zip(self.trees, roots)):
            rules_k = root.rules - {"CrawfordGame"}
            if root.length != first.length or rules_k != first.rules - {"CrawfordGame"}:
                self.good = k
                raise self._where(k, tree.nodes[0], tr("the match length and rules (MI, RU) differ from "
                                                       "game 1's"))
            skip = _ROOT | (set(INFO) if k == 0 else set())
            game_notes.append({n: v for n, v in tree.nodes[0].properties.items() if n not in skip})
        action_notes: list[_Notes] = []
        self.good = len(self.trees)  # unless a game is refused: then those replayed before it
        try:
            match = replay_games(
                self._rules(roots), list(enumerate(zip(self.trees, roots))),
                lambda game, record: action_notes.append(self._game(record[0], *record[1], game)),
                lambda record: self._place(record[0], record[1][0].nodes[0]))
        except InvalidNotationError:
            self.good = len(action_notes)
            raise
        return SgfMatch(match, names, info, tuple(game_notes), tuple(action_notes),
                        root0.value("AP") or "", sum(t.variations for t in self.trees), tuple(self.warnings))

    def _rules(self, roots: list[_Root]) -> Rules:
        first = roots[0]
        money = first.length == 0
        # gnubg keeps no beaver setting in the file: a double answered by a double is a beaver.
        beavers = money and any(
            _cube_word(a) == _cube_word(b) == "double" and _mover(a) != _mover(b)
            for tree in self.trees for a, b in zip(tree.nodes[1:], tree.nodes[2:]))
        try:
            return Rules(match_length=first.length,
                         crawford=("Crawford" in first.rules) if not money else True,
                         jacoby=("Jacoby" in first.rules) if money else True,
                         beavers=beavers,
                         automatic_doubles=max(r.auto_doubles for r in roots) if money else 0,
                         use_cube="NoCube" not in first.rules)
        except ValueError as e:
            raise self._where(0, self.trees[0].nodes[0], str(e)) from None

    def _where(self, k: int, node: SgfNode, what: str) -> InvalidNotationError:
        return InvalidNotationError(f"{self._place(k, node)}: {what}")

    @staticmethod
    def _place(k: int, node: SgfNode) -> str:
        return tr("game {number}, SGF line {line}: {text}",
                  number=k + 1, line=node.line, text=repr(cut(node.text)))

    def _game(self, k: int, tree: SgfTree, root: _Root, game: Game) -> _Notes:
        if root.score is not None and root.score != game.score:
            problem = self._where(k, tree.nodes[0], tr(
                "the score MI[ws:{white}][bs:{black}] disagrees with the games before it, which make {score}",
                white=root.score[0], black=root.score[1], score=game.score))
            if not game.rules.is_money:
                raise problem
            offset = (game.score[0] - root.score[0], game.score[1] - root.score[1])
            if offset != self.offset:  # once per departure, not for every game after it
                self.warnings.append(str(problem))
            self.offset = offset
        if ("CrawfordGame" in root.rules) != game.crawford_game:
            says = (tr("RU says CrawfordGame, but by the rules this game is not the Crawford game")
                    if "CrawfordGame" in root.rules else
                    tr("RU says not CrawfordGame, but by the rules this game is the Crawford game"))
            raise self._where(k, tree.nodes[0], says)
        reader = _GameReader(game, root.auto_doubles)
        nodes = tree.nodes[1:]
        for i, node in enumerate(nodes):
            try:
                reader.node(node, last=i == len(nodes) - 1)
            except _NodeError as e:
                raise self._where(k, node, str(e)) from None
            except GammonError as e:
                raise self._where(k, node, str(e)) from None
        try:
            reader.finish(root.result, last_game=k == len(self.trees) - 1)
        except (_NodeError, GammonError) as e:
            raise self._where(k, tree.nodes[0], str(e)) from None
        return reader.notes


def _cube_word(node: SgfNode) -> str | None:
    value = node.value("B") if "B" in node.properties else node.value("W")
    return value.strip().lower() if value is not None and value.strip().isalpha() else None


def _mover(node: SgfNode) -> int | None:
    return 1 if "B" in node.properties else 0 if "W" in node.properties else None


_MOVE_VALUE = re.compile(r"([1-6])([1-6])([a-z]*)")


_Notes = dict[int, dict[str, tuple[str, ...]]]  # history index -> the node's properties kept as notes


class _GameReader:
    """Follows one game node by node, making each action on the Game (which checks it)."""

    def __init__(self, game: Game, auto_doubles: int) -> None:
        self.game = game
        self.auto_doubles = auto_doubles
        self.notes: _Notes = {}
        self.beaver_by: int | None = None  # who beavered, until the doubler's 'take' is read

    def node(self, node: SgfNode, last: bool) -> None:
        props = node.properties
        setup = [p for p in _SETUP if p in props]
        if setup:
            raise _NodeError(tr("{property}: position set-up inside a game is not supported (a game must be "
                                "played from the initial position)", property=setup[0]))
        movers = [p for p in ("B", "W") if p in props]
        if len(movers) > 1:
            raise _NodeError(tr("a node holds one move, B or W, not both"))
        game = self.game
        before = len(game.history)
        beaver_pending = self.beaver_by
        self.beaver_by = None
        if movers:
            player = 1 if movers[0] == "B" else 0
            value = props[movers[0]][0].strip()
            word = value.lower()
            if word == "double":
                if game.phase is GamePhase.DOUBLED and game.turn == player:
                    game.beaver(player=player)
                    self.beaver_by = player
                else:
                    game.double(player=player)
            elif word == "take" and beaver_pending is not None and player == 1 - beaver_pending:
                # gnubg's doubler accepts the beaver; gammon's beaver needs no answer. Its notes are
                # gnubg's analysis of the same cube decision, kept on the beaver's node.
                pass
            elif word == "take":
                game.take(player=player)
            elif word in ("drop", "pass"):
                if beaver_pending is not None:
                    raise _NodeError(tr("the doubler drops a beaver, which gammon's rules make binding"))
                game.pass_(player=player)
            else:
                self._move(player, value, last)
        elif "DI" in props:
            side = (node.value("PL") or "").strip().upper()
            turn = {"B": 1, "W": 0}.get(side, game.turn)
            if turn is None:
                raise _NodeError(tr("DI without PL[B] or PL[W] before the opening roll"))
            player = turn
            dice = node.value("DI") or ""
            if not re.fullmatch(r"\s*[1-6][1-6]\s*", dice):
                raise _NodeError(tr("DI[{value}]: expected two dice, like DI[41]", value=_cut(dice)))
            self._roll(player, (int(dice.strip()[0]), int(dice.strip()[1])))
        else:
            return  # a node with no action (gnubg ignores those too)
        notes = {n: v for n, v in props.items() if n not in _MOVE}
        if notes and len(game.history) > before:
            self.notes.setdefault(len(game.history) - 1, {}).update(notes)

    def _roll(self, player: int | None, dice: Dice) -> None:
        game = self.game
        if game.phase is GamePhase.MOVE and game.turn == player and game.dice is not None \
                and sorted(game.dice) == sorted(dice):
            return  # rolled already, by the PL/DI node before this one
        if game.phase is GamePhase.OPENING:
            if player is None:
                raise _NodeError(tr("the opening roll does not say who won it (B, W or PL)"))
            ties = ((1, 1),) * self.auto_doubles  # the tied throws that turned the cube
            game.apply(replace(Roll.opening_won(player, dice), ties=ties))
            if game.cube_value != 1 << self.auto_doubles:
                raise _NodeError(tr("the root's CV[{value}] (automatic doubles) does not fit the rules "
                                    "{rules}",
                                    value=1 << self.auto_doubles, rules=game.rules))
        else:
            if player is None:
                raise _NodeError(tr("the roll does not say whose it is (B, W or PL)"))
            game.apply(Roll(player, dice))

    def _move(self, player: int, value: str, last: bool) -> None:
        m = _MOVE_VALUE.fullmatch(value)
        if not m or len(m.group(3)) % 2 or len(m.group(3)) > 8:
            raise _NodeError(tr("{property}[{value}]: expected the dice and up to four steps of two letters "
                                "(a-x "
                                "points, y bar, z off), or double, take, drop", property="WB"[player],
                                value=_cut(value)))
        dice = (int(m.group(1)), int(m.group(2)))
        letters = m.group(3)
        steps = [(_point(letters[i], player, True), _point(letters[i + 1], player, False))
                 for i in range(0, len(letters), 2)]
        game = self.game
        self._roll(player, dice)
        if game.phase is not GamePhase.MOVE or game.turn != player:
            if steps:
                raise _NodeError(tr("{name} has no legal play of {dice}, but the file plays {play}",
                                    name=_colour(player), dice=f"{dice[0]}{dice[1]}",
                                                 play=_steps_text(steps)))
            return
        if not steps:
            if last:
                return  # rolled, not played: the game stops here (gnubg's last node for a hint)
            plays = game.legal_plays()
            raise _NodeError(tr("no play written, but {name} can play {dice}, e.g. {plays}",
                                name=_colour(player),
                                dice=f"{dice[0]}{dice[1]}", plays=", ".join(str(p) for p in plays[:3])))
        game.play(_find_play(game.position, dice, steps), player=player)

    def finish(self, result: tuple[int, int, bool] | None, last_game: bool) -> None:
        game = self.game
        got = game.result
        if got is not None:
            if result is not None and (result[0], result[1]) != (got.winner, got.points):
                raise _NodeError(tr("RE says {name} wins {points} points, the game gives {winner} {won} "
                                    "points "
                                    "({reason})", name=_colour(result[0]), points=result[1],
                                    winner=_colour(got.winner), won=got.points, reason=got.reason))
            if result is not None and result[2]:
                raise _NodeError(tr("RE says the loser resigned, but the game ended by {reason}",
                                    reason=got.reason))
            return
        if result is None:
            if not last_game:
                raise _NodeError(tr("the game has no result (RE) and does not end, but more games follow"))
            return
        # A win that neither a bear-off nor a drop explains: the loser resigned, as the R says.
        winner, points, _resigned = result
        rules = game.rules
        kinds = [k for k in WinKind if rules.points(k, game.cube_value, game.cube_owner) == points]
        # Game decides who may resign: the player to act, or either player before the roll
        # (Backgammon Galaxy's resignation during the opponent's turn).
        if kinds and game.why_not(Request(ActionKind.RESIGN, 1 - winner, win_kind=kinds[0])) is None:
            game.resign(kinds[0], player=1 - winner)
            game.accept_resignation(player=winner)
        elif points == WinKind.BACKGAMMON * game.cube_value:
            game.abandon(1 - winner)  # how gammon writes an abandoned game: a backgammon, Jacoby or not
        elif not kinds and not rules.gammons_count(game.cube_owner):
            raise _NodeError(tr("RE: a resignation cannot win {points} points with the cube at {cube}: "
                                "under the "
                                "Jacoby rule gammons count only once the cube has turned (GNU Backgammon "
                                "counts "
                                "a resigned gammon in full)", points=points, cube=game.cube_value))
        elif not kinds:
            raise _NodeError(
                tr("RE: a resignation cannot win {points} points with the cube at {cube} under {rules}",
                   points=points, cube=game.cube_value, rules=rules) if game.cube_owner is None else
                tr("RE: a resignation cannot win {points} points with the cube at {cube} owned under {rules}",
                   points=points, cube=game.cube_value, rules=rules))
        elif game.turn is None:
            raise _NodeError(tr("RE says {name} resigned, but gammon lets only the player to act resign and "
                                "it "
                                "is nobody's turn", name=_colour(1 - winner)))
        else:
            raise _NodeError(tr("RE says {name} resigned, but gammon lets only the player to act resign and "
                                "it "
                                "is {other}'s turn", name=_colour(1 - winner), other=_colour(game.turn)))


def _point(letter: str, player: int, source: bool) -> int:
    """A step letter as a point in ``player``'s own numbering (25 the bar, 0 off)."""
    if letter == "y":
        if not source:
            raise _NodeError(tr("a step cannot end on the bar (y)"))
        return BAR
    if letter == "z":
        if source:
            raise _NodeError(tr("a step cannot start from off (z)"))
        return 0
    index = ord(letter) - ord("a")  # White's point index - 1
    return index + 1 if player == 0 else 24 - index


def _steps_text(steps: Sequence[tuple[int, int]]) -> str:
    return " ".join(f"{'bar' if a == BAR else a}/{'off' if b == 0 else b}" for a, b in steps)


def _find_play(position: Position, dice: Dice, steps: Sequence[tuple[int, int]]) -> Play:
    """The legal play that the steps make from ``position`` (the mover's view)."""
    board = list(position.board)
    for src, dst in steps:
        if board[src] <= 0:
            raise _NodeError(
                tr("{play}: no checker to move on the bar in position {id}",
                   play=_steps_text(steps), id=position.id)
                if src == BAR else
                tr("{play}: no checker to move on {point} in position {id}",
                   play=_steps_text(steps), point=src,
                   id=position.id))
        board[src] -= 1
        if dst:
            if board[dst] < -1:
                raise _NodeError(tr("{play}: point {point} is held by the opponent in position {id}",
                                    play=_steps_text(steps), point=dst, id=position.id))
            if board[dst] == -1:  # a hit: the blot goes to the opponent's bar
                board[dst] = 0
                board[0] -= 1
            board[dst] += 1
    after = Position(board).flip()
    for play in position.legal_plays(dice):
        if play.after == after:
            return play
    raise _NodeError(tr("{play} is not a legal play of {dice} in position {id}", play=_steps_text(steps),
                        dice=f"{dice[0]}{dice[1]}", id=position.id))


# --- writing ---------------------------------------------------------------------------------

# Properties the writer makes itself, which an annotator may not add: in the first game's root,
# in another game's root, in an action's node.
_OWN_FIRST = _ROOT | _MOVE | set(INFO)
_OWN_ROOT = _ROOT | _MOVE
_OWN_NODE = _MOVE


def format_sgf(source: Match | Sequence[Game] | SgfMatch, names: Sequence[str] | None = None,
               info: Mapping[str, str] | None = None, annotator: SgfAnnotator | None = None) -> str:
    """The SGF text of a Match, of Games played one after another, or of a read SgfMatch.

    ``names`` are player 0's (White) and player 1's (Black); ``info`` the match information
    (:data:`INFO` keys: ``{"EV": "Open", "DT": "2024-05-01"}``), written in the first game;
    ``annotator`` the extra properties of each node (:class:`SgfAnnotator`). An SgfMatch brings its
    own names, information and notes, each replaced by the argument when one is given."""
    if isinstance(source, SgfMatch):
        games = source.match.games
        names = source.names if names is None else names
        info = source.info if info is None else info
        annotator = source if annotator is None else annotator
    else:
        games = source.games if isinstance(source, Match) else list(source)
    if not games:
        raise ValueError("there are no games to write")
    names = ("Player 1", "Player 2") if names is None else tuple(names)
    if len(names) != 2 or not all(isinstance(n, str) for n in names):
        raise ValueError(f"names must be two strings, got {names!r}")
    info = dict(info or {})
    unknown = sorted(set(info) - set(INFO))
    if unknown:
        raise ValueError(f"unknown match information {unknown[0]!r}; the keys are {', '.join(INFO)}")
    return "".join(_format_game(k, game, names, info if k == 0 else {}, annotator)
                   for k, game in enumerate(games))


def write_sgf(source: Match | Sequence[Game] | SgfMatch, names: Sequence[str] | None = None,
              file: str | Path | IO[str] | None = None, info: Mapping[str, str] | None = None,
              annotator: SgfAnnotator | None = None) -> str:
    """Write :func:`format_sgf`'s text to ``file`` (a path or a text file); returns the text."""
    text = format_sgf(source, names, info, annotator)
    if isinstance(file, str | Path):
        Path(file).write_text(text, encoding="utf-8")
    elif file is not None:
        file.write(text)
    return text


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _props(properties: Properties, where: str, own: frozenset[str]) -> str:
    out = []
    for name, values in properties.items():
        if not re.fullmatch(r"[A-Z]{1,8}", name) or name in own:
            raise ValueError(f"{where}: cannot add the property {cut(repr(name))} (upper-case letters, "
                             "not one the writer makes itself)")
        if isinstance(values, str) or not values:
            raise ValueError(f"{where}: property {name} needs a sequence of values, got {cut(repr(values))}")
        out.append(name + "".join(f"[{_escape(str(v))}]" for v in values))
    return "".join(out)


def _format_game(k: int, game: Game, names: tuple[str, str], info: Mapping[str, str],
                 annotator: SgfAnnotator | None) -> str:
    rules = game.rules
    head = [f"(;FF[4]GM[6]CA[UTF-8]AP[gammon:{__version__}]",
            f"MI[length:{rules.match_length}][game:{k}][ws:{game.score[0]}][bs:{game.score[1]}]",
            f"PW[{_escape(names[0])}]PB[{_escape(names[1])}]"]
    head += [f"{key}[{_escape(info[key])}]" for key in INFO if info.get(key)]
    words = []
    if not rules.use_cube:
        words.append("NoCube")
    if not rules.is_money and rules.crawford:
        words.append("Crawford")
    if game.crawford_game:
        words.append("CrawfordGame")
    if rules.is_money and rules.jacoby:
        words.append("Jacoby")
    if words:
        head.append(f"RU[{':'.join(words)}]")
    history = game.history
    if history and isinstance(history[0], Roll) and history[0].ties:
        cube = Cube().after_opening_ties(len(history[0].ties), rules).value
        if cube > 1:
            head.append(f"CV[{cube}]")
    result = game.result
    if result is not None:
        resigned = "R" if result.reason in ("resign", "abandon") else ""
        head.append(f"RE[{'WB'[result.winner]}+{result.points}{resigned}]")
    if annotator is not None:
        head.append(_props(annotator.game_properties(k), f"game {k + 1}", _OWN_ROOT if k else _OWN_FIRST))
    lines = ["".join(head)]
    for i, action in enumerate(history):
        nodes = _nodes(action, history, i)
        if nodes:
            extra = "" if annotator is None else _props(annotator.action_properties(k, i),
                                                        f"game {k + 1}, action {i}", _OWN_NODE)
            lines.append(";" + nodes[0] + extra)
            lines.extend(";" + node for node in nodes[1:])
    return "\n".join(lines) + ")\n"


def _nodes(action: Action, history: Sequence[Action], i: int) -> list[str]:
    """The nodes of one history action (none when it has no node of its own)."""
    side = "WB"[action.player]
    if isinstance(action, Roll):
        # what the roll led to, past resignations offered and rejected
        following = next((a for a in history[i + 1:] if not isinstance(a, Resign | RejectResignation)), None)
        if isinstance(following, PlayMade):
            return []  # the move node carries the roll
        return [f"PL[{side}]DI[{_dice(action.dice, action.opening)}]"]
    if isinstance(action, PlayMade):
        before = history[i - 1] if i > 0 else None
        opening = isinstance(before, Roll) and before.opening
        steps = "" if action.play is None else play_letters(action.play, action.player)
        return [f"{side}[{_dice(action.dice, opening)}{steps}]"]
    if isinstance(action, Double):
        return [f"{side}[double]"]
    if isinstance(action, Take):
        return [f"{side}[take]"]
    if isinstance(action, Pass):
        return [f"{side}[drop]"]
    if isinstance(action, Beaver):
        # gnubg's beaver: the player doubled redoubles, and the doubler takes
        return [f"{side}[double]", f"{'WB'[1 - action.player]}[take]"]
    if isinstance(action, Resign | AcceptResignation | RejectResignation | Abandon):
        return []  # the root's RE holds how the game ended
    raise TypeError(f"not a game action: {action!r}")


def _dice(dice: Dice, opening: bool) -> str:
    # gnubg writes the opening roll high die first
    a, b = (max(dice), min(dice)) if opening else dice
    return f"{a}{b}"


def play_letters(play: Play, player: int) -> str:
    """``player``'s play as SGF step letters, two a step (``mkxw``: 13/11 24/23 for White), as in a
    move node and in gnubg's ``A`` analysis of the plays considered."""
    return "".join(_letter(a, player) + _letter(b, player) for a, b in play.steps)


def _letter(point: int, player: int) -> str:
    if point == BAR:
        return "y"
    if point == 0:
        return "z"
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("x") - point + 1)
