"""``analyse()``: walk every game of a match, a ``.mat`` record or a list of games, action by
action, and analyse every decision and roll on the way."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from gammon.analysis.decisions import (
    Analyser,
    AnalysisSettings,
    CheckerPlay,
    CubeActionName,
    CubeChoice,
    Decision,
    MatchMoment,
    RollLuck,
)
from gammon.analysis.stats import PlayerStatistics, player_statistics
from gammon.engine.cube.decision import CubeAction, CubeDecision
from gammon.engine.cube.stakes import Stakes
from gammon.engine.engine import Engine
from gammon.errors import InvalidArgumentError, cut
from gammon.formats.mat import MatMatch, to_match
from gammon.formats.matchid import gnubg_id
from gammon.formats.sgf import SgfMatch
from gammon.formats.xg import XGMatch
from gammon.game import (
    Action,
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
from gammon.i18n import tr
from gammon.match import Match
from gammon.position import Position
from gammon.rules import HIGHEST_CUBE

DEFAULT_PLIES = 2
"""The depth of an analysis unless one is asked for: the terminal's and the browser's, so that the
same match gets the same figures from both."""

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` with the number of game actions analysed so far."""


@dataclass(frozen=True)
class GameAnalysis:
    """One game: its number (from 1), the score before it, whether it was the Crawford game, its
    winner and points (None and 0 if unfinished), its decisions in order and the luck of its rolls."""

    number: int
    score: tuple[int, int]
    crawford: bool
    winner: int | None
    points: int
    decisions: tuple[Decision, ...]
    rolls: tuple[RollLuck, ...]

    @property
    def checker_plays(self) -> tuple[CheckerPlay, ...]:
        return tuple(d for d in self.decisions if isinstance(d, CheckerPlay))

    @property
    def cube_choices(self) -> tuple[CubeChoice, ...]:
        return tuple(d for d in self.decisions if isinstance(d, CubeChoice))


@dataclass(frozen=True)
class MatchAnalysis:
    """The analysis of a match or money session: the players' names (player 0's first), the match
    length (0 money), the plies of the analysis, every game, and whether the match plays the
    Crawford rule (without it, a game at one away is never the Crawford game)."""

    names: tuple[str, str]
    match_length: int
    plies: int
    games: tuple[GameAnalysis, ...]
    crawford: bool = True

    @property
    def decisions(self) -> tuple[Decision, ...]:
        return tuple(d for g in self.games for d in g.decisions)

    @property
    def rolls(self) -> tuple[RollLuck, ...]:
        return tuple(r for g in self.games for r in g.rolls)

    def marked(self) -> tuple[Decision, ...]:
        """The decisions marked doubtful, bad or very bad, in order."""
        return tuple(d for d in self.decisions if d.skill.value != "none")

    def statistics(self, seed: int = 0, resamples: int = 2000) -> tuple[PlayerStatistics, PlayerStatistics]:
        """Each player's statistics (see :mod:`gammon.analysis.stats`); ``seed`` and ``resamples``
        for the bootstrap confidence intervals."""
        return (player_statistics(self, 0, seed, resamples), player_statistics(self, 1, seed, resamples))


def analyse(
    source: Match | MatMatch | SgfMatch | XGMatch | Sequence[Game],
    engine: Engine | None = None,
    progress: Progress | None = None,
    *,
    names: Sequence[str] | None = None,
    settings: AnalysisSettings | None = None,
) -> MatchAnalysis:
    """Analyse every decision of every game of ``source``: a :class:`Match` (or money session),
    a record of a match file (:func:`gammon.formats.read_mat`, :func:`~gammon.formats.read_sgf`,
    :func:`~gammon.formats.read_xg`) or Games played one after another.

    ``engine`` defaults to an engine of :data:`DEFAULT_PLIES`; ``names`` to the record's names, else
    "Player 1" and "Player 2". A record that does not replay raises :class:`InvalidNotationError`;
    one whose cube passed the highest cube (recorded before it stopped there), InvalidArgumentError."""
    games, found_names = _games_of(source)
    for number, game in enumerate(games, 1):
        if game.cube_value > HIGHEST_CUBE:  # its decisions from there have no Match ID
            raise InvalidArgumentError(
                tr("game {number} cannot be analysed: its cube reached {value}, past {highest}, the highest "
                   "cube of any game", number=number, value=game.cube_value, highest=HIGHEST_CUBE))
    if names is None:
        names = found_names
    # a string is a sequence of strings too: names='Al' is no pair of names
    if isinstance(names, str) or len(names) != 2 or not all(isinstance(n, str) for n in names):
        raise ValueError(f"names must be two strings, got {cut(repr(names))}")
    length = games[0].rules.match_length
    engine = Engine(plies=DEFAULT_PLIES) if engine is None else engine
    analyser = Analyser(engine, settings)
    histories = [g.history for g in games]
    total = sum(len(h) for h in histories)
    done = 0
    out = []
    for number, (game, history) in enumerate(zip(games, histories), 1):
        decisions: list[Decision] = []
        rolls: list[RollLuck] = []
        for _ in _walk(analyser, number, game, history, decisions, rolls):
            done += 1
            if progress is not None:
                progress(done, total)
        result = game.result
        out.append(
            GameAnalysis(
                number,
                game.score,
                game.crawford_game,
                result.winner if result else None,
                result.points if result else 0,
                tuple(decisions),
                tuple(rolls),
            )
        )
    return MatchAnalysis((names[0], names[1]), length, engine.plies, tuple(out), games[0].rules.crawford)


def _games_of(
    source: Match | MatMatch | SgfMatch | XGMatch | Sequence[Game],
) -> tuple[list[Game], tuple[str, str]]:
    default = ("Player 1", "Player 2")
    if isinstance(source, MatMatch):
        return to_match(source).games, source.names
    if isinstance(source, SgfMatch):  # read_sgf has replayed its games
        return source.match.games, source.names
    if isinstance(source, XGMatch):
        return source.to_match().games, source.names
    if isinstance(source, Match):
        return source.games, default
    if isinstance(source, Game):
        return [source], default
    games = list(source) if isinstance(source, Iterable) else []
    if not games or not all(isinstance(g, Game) for g in games):
        raise ValueError(
            f"expected a Match, a match file's record or a list of Games, got {cut(repr(source))}"
        )
    return games, default


def move_numbers(history: Sequence[Action]) -> list[int]:
    """The move number of each action of a game's ``history`` as ``.mat`` files and GNU Backgammon
    number moves: the numbered line of the game that shows it. Each line has player 0's half on
    the left and player 1's on the right; a roll shows with the play that follows it, a double,
    take, pass or beaver as a half of its own. Laid out as :func:`gammon.formats.mat.format_mat`
    writes a game (and gnubg exports one): a half goes on the current line when its column is
    free and to the right of what is there, else it starts the next line."""
    numbers = [0] * len(history)
    row: list[bool] | None = None  # the halves of the current line that are filled
    number = 0
    rolls: list[int] = []  # rolls waiting for the play that shows them
    for k, action in enumerate(history):
        if isinstance(action, Roll):
            following = next(
                (a for a in history[k + 1 :] if not isinstance(a, Resign | RejectResignation)), None
            )
            if isinstance(following, PlayMade):
                rolls.append(k)
                continue
        elif not isinstance(action, PlayMade | Double | Beaver | Take | Pass):
            numbers[k] = number  # offers to resign and their answers show on no line of their own
            continue
        p = action.player
        if row is None or row[p] or (p == 0 and row[1]):
            row = [False, False]
            number += 1
        row[p] = True
        for j in (*rolls, k):
            numbers[j] = number
        rolls = []
    return numbers


def _context(
    game: Game,
    number: int,
    turn: int,
    player: int,
    position: Position,
    dice: tuple[int, int] | None,
    move: int,
) -> MatchMoment:
    cube = game.cube
    return MatchMoment(
        number,
        turn,
        player,
        position,
        dice,
        cube.value,
        cube.owner,
        game.score,
        game.rules.match_length,
        game.crawford_game,
        gnubg_id(game),
        move,
    )


def _walk(
    analyser: Analyser,
    number: int,
    game: Game,
    history: list[Action],
    decisions: list[Decision],
    rolls: list[RollLuck],
) -> Iterator[None]:
    """Replay ``history`` into a fresh game, analysing before each action; yields once per action."""
    replay = Game(game.rules, None, game.score, game.crawford_game)  # apply rolls the recorded dice
    engine = analyser.engine
    turn = 0
    moves = move_numbers(history)
    doubled: tuple[CubeDecision, Stakes] | None = None  # the double awaiting its answer
    for k, action in enumerate(history):
        p, move = action.player, moves[k]
        views = (Stakes.of(replay, p), Stakes.of(replay, 1 - p))  # the actor's, its opponent's
        if isinstance(action, Roll):
            turn += 1
            if not action.opening and replay.can_double():
                decision = engine.cube_decision(replay)
                if decision.action is not CubeAction.NO_CUBE:
                    context = _context(replay, number, turn, p, replay.position, None, move)
                    decisions.append(analyser.double_choice(context, decision, False, views[0]))
            position = replay.position_for(p)
            replay.apply(action)
            context = _context(replay, number, turn, p, position, action.dice, move)
            rolls.append(analyser.luck(context, action.dice, *views, opening=action.opening))
        elif isinstance(action, PlayMade):
            if action.play is None:  # no legal play: the roll already passed the turn
                context = _context(replay, number, turn, p, replay.position_for(p), action.dice, move)
                decisions.append(analyser.checker_play(context, None, 0, *views))
            else:
                context = _context(replay, number, turn, p, replay.position, action.dice, move)
                legal = len(replay.legal_plays())
                decisions.append(analyser.checker_play(context, action.play, legal, *views))
                replay.apply(action)
        elif isinstance(action, Double):
            decision = engine.cube_decision(replay)
            context = _context(replay, number, turn + 1, p, replay.position, None, move)
            decisions.append(analyser.double_choice(context, decision, True, views[0]))
            doubled = (decision, views[0])
            replay.apply(action)
        elif isinstance(action, Take | Pass | Beaver):
            if doubled is not None:
                decision, doubler = doubled
                name: CubeActionName = (
                    "take" if isinstance(action, Take) else "pass" if isinstance(action, Pass) else "beaver"
                )
                context = _context(replay, number, turn + 1, p, replay.position, None, move)
                decisions.append(analyser.answer_choice(context, decision, name, doubler))
            doubled = None
            replay.apply(action)
        else:
            replay.apply(action)
        yield
