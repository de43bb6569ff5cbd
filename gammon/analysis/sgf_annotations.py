"""gammon's analysis written into GNU Backgammon's SGF the way gnubg stores its own, so that gnubg
opens the match with the analysis in place (``load match``): an :class:`~gammon.formats.sgf.SgfAnnotator`.

The properties, as gnubg 1.07's ``sgf.c`` writes and reads them (every number gammon's own):

* ``A[i][play E ver 3 p1 p2 p3 p4 p5 equity nC 0 1 0.000000 1]...`` on a move node: ``i`` the index
  of the play made among the plays considered, then each play as its step letters, its cubeless
  chances for the player who makes it (win, win gammon, win backgammon, lose gammon, lose
  backgammon), its cubeful equity (EMG) and the evaluation (``n`` plies, cubeful ``C``, no
  reduction, deterministic, no noise, pruning). ``MR[]``: no play marked for a rollout.
* ``DA[E ver 3 nC 1 0.000000 1 ...]`` on the node of a cube decision (the move node after a no
  double, the double, take and drop nodes): the evaluation, then the no-double and double/take
  outputs, each seven numbers: the five chances of the player on roll, its cubeless equity and its
  cubeful equity (EMG for money, match winning chance in a match, as gnubg keeps them).
* ``LU[luck]`` (EMG, for the player who rolled) and ``GW``/``GB`` ``[1]`` lucky, ``[2]`` very lucky,
  for White (player 0) or Black; ``BM[1]`` bad, ``BM[2]`` very bad, ``DO[]`` doubtful for the
  play or cube action of the node, ``BC``/``DC`` for the cube decision before a move.

gnubg's per-game statistics (``GS``) are not written (gnubg's own save adds them from the records).
The file's own comments (``C`` on a game's root or a move) are kept, beside the analysis: gnubg keeps
its analysis in the properties above and the comments in ``C``, so neither overwrites the other.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from gammon.analysis.decisions import CheckerPlay, CubeChoice, Decision, RollLuck
from gammon.analysis.marks import Luck, Skill
from gammon.analysis.walk import MatchAnalysis, move_numbers
from gammon.engine.net.evaluator import Probabilities
from gammon.formats.sgf import Properties, SgfAnnotator, SgfMatch, play_letters, write_sgf
from gammon.game import Beaver, Double, Game, Pass, PlayMade, RejectResignation, Resign, Roll, Take
from gammon.match import Match
from gammon.words import printable

# The evaluation context after the plies: gammon's evaluations are cubeful ("C"), deterministic,
# without noise; gnubg's reduction and pruning flags do not apply and are written as gnubg does.
_MOVE_CONTEXT = "C 0 1 0.000000 1"
_CUBE_CONTEXT = "C 1 0.000000 1"

_SKILL = {Skill.DOUBTFUL: ("DO", ""), Skill.BAD: ("BM", "1"), Skill.VERY_BAD: ("BM", "2")}
_CUBE_SKILL = {Skill.DOUBTFUL: ("DC", ""), Skill.BAD: ("BC", "1"), Skill.VERY_BAD: ("BC", "2")}
_LUCK = {Luck.LUCKY: "1", Luck.VERY_LUCKY: "2", Luck.UNLUCKY: "1", Luck.VERY_UNLUCKY: "2"}


def _numbers(values: Sequence[float]) -> str:
    return " ".join(f"{v:.6f}" for v in values)


def _chances(p: Probabilities) -> str:
    return _numbers(p.as_tuple())


def move_analysis(play: CheckerPlay) -> list[str]:
    """The values of gnubg's ``A`` property for an analysed checker play (empty: nothing to say)."""
    made = next((k for k, c in enumerate(play.candidates) if c.play == play.played), None)
    if made is None:
        return []
    player = play.context.player
    return [str(made)] + [f"{play_letters(c.play, player)} E ver 3 {_chances(c.probabilities)} "
                          f"{c.equity:.6f} {c.plies}{_MOVE_CONTEXT}" for c in play.candidates]


def cube_analysis(choice: CubeChoice, plies: int) -> str:
    """The value of gnubg's ``DA`` property for a cube decision (the doubler's view)."""
    d = choice.decision
    nd, dt = (d.no_double, d.double_take) if d.match_winning_chances is None else d.match_winning_chances[:2]
    p = d.probabilities
    cubeless = p.equity
    return (f"E ver 3 {plies}{_CUBE_CONTEXT} {_chances(p)} {_numbers([cubeless, nd])} "
            f"{_chances(p)} {_numbers([cubeless, dt])}")


def _luck(roll: RollLuck) -> dict[str, list[str]]:
    props = {"LU": [f"{roll.luck:.5f}"]}
    if roll.mark in _LUCK:
        lucky = roll.mark in (Luck.LUCKY, Luck.VERY_LUCKY)
        good_for = roll.context.player if lucky else 1 - roll.context.player
        props["GW" if good_for == 0 else "GB"] = [_LUCK[roll.mark]]
    return props


def _mark(skill: Skill, marks: dict[Skill, tuple[str, str]]) -> dict[str, list[str]]:
    if skill not in marks:
        return {}
    name, value = marks[skill]
    return {name: [value]}


def _comment(properties: Properties) -> dict[str, list[str]]:
    return {"C": list(properties["C"])} if properties.get("C") else {}


class AnalysisAnnotator:
    """The SGF properties of ``analysis`` for the nodes of ``games`` (the games it analysed, in
    order), with the comments (``C``) of ``comments`` (the :class:`SgfMatch` the games were read
    from) on their nodes; any other property of it (an earlier analysis) is left out. Raises
    ValueError when the analysis is not of those games."""

    def __init__(self, games: Sequence[Game], analysis: MatchAnalysis,
                 comments: SgfAnnotator | None = None) -> None:
        if len(games) != len(analysis.games):
            raise ValueError(f"the analysis has {len(analysis.games)} games, the match {len(games)}")
        self.plies = analysis.plies
        self._comments = comments
        self._nodes = [self._game(k, game, list(a.decisions), list(a.rolls))
                       for k, (game, a) in enumerate(zip(games, analysis.games))]

    def game_properties(self, game: int) -> Properties:
        return {} if self._comments is None else _comment(self._comments.game_properties(game))

    def action_properties(self, game: int, action: int) -> Properties:
        props = self._nodes[game].get(action, {})
        if self._comments is not None:
            props = {**props, **_comment(self._comments.action_properties(game, action))}
        return props

    def _game(self, k: int, game: Game, decisions: list[Decision], rolls: list[RollLuck]
              ) -> dict[int, dict[str, list[str]]]:
        """Each node's properties by the history index the writer asks for, the analysis walked
        in the order :func:`~gammon.analysis.analyse` made it."""
        pending: deque[Decision] = deque(decisions)
        luck: deque[RollLuck] = deque(rolls)
        nodes: dict[int, dict[str, list[str]]] = {}
        history = game.history
        turn = 0

        def wrong(i: int, what: str) -> ValueError:
            return ValueError(f"game {k + 1}, action {i} ({history[i]!r}): the analysis has {what}")

        for i, action in enumerate(history):
            node = nodes.setdefault(i, {})
            if isinstance(action, Roll):
                turn += 1
                # the roll's node is the move that plays it, when one follows (as the writer does)
                following = next((j for j in range(i + 1, len(history))
                                  if not isinstance(history[j], Resign | RejectResignation)), None)
                moved = following is not None and isinstance(history[following], PlayMade)
                if following is not None and moved:
                    node = nodes.setdefault(following, {})
                first = pending[0] if pending else None
                if (isinstance(first, CubeChoice) and first.action == "no double"
                        and first.context.turn == turn):
                    pending.popleft()
                    if moved:  # gnubg reads a no-double's analysis on the move node only
                        node["DA"] = [cube_analysis(first, self.plies)]
                        node.update(_mark(first.skill, _CUBE_SKILL))
                if not luck:
                    raise wrong(i, "no luck for this roll")
                node.update(_luck(luck.popleft()))
            elif isinstance(action, PlayMade):
                play = pending.popleft() if pending else None
                if not isinstance(play, CheckerPlay) or play.played != action.play:
                    raise wrong(i, f"{play!r:.80} instead")
                if play.played is not None:
                    node["A"] = move_analysis(play)
                    node["MR"] = [""]
                    node.update(_mark(play.skill, _SKILL))
            elif isinstance(action, Double | Take | Pass | Beaver):
                first = pending[0] if pending else None
                expected = {Double: ("double",), Take: ("take",), Pass: ("pass",), Beaver: ("beaver",)}
                if isinstance(first, CubeChoice) and first.action in expected[type(action)]:
                    pending.popleft()
                    if not isinstance(action, Beaver):  # gnubg writes a beaver as a redouble
                        node["DA"] = [cube_analysis(first, self.plies)]
                    node.update(_mark(first.skill, _SKILL))
        if pending or luck:
            raise ValueError(f"game {k + 1}: the analysis has {len(pending)} decisions and {len(luck)} "
                             "rolls more than the game")
        return {i: props for i, props in nodes.items() if props}


def write_analysed_sgf(match: Match | Sequence[Game], analysis: MatchAnalysis,
                       file: str | Path | IO[str] | None = None, names: Sequence[str] | None = None,
                       info: dict[str, str] | None = None, comments: SgfAnnotator | None = None) -> str:
    """Write ``match`` as GNU Backgammon SGF with ``analysis`` (of that match) in gnubg's own
    properties, and the comments of ``comments`` (the SgfMatch it was read from); ``names``
    default to the analysis's. Returns the text."""
    games = match.games if isinstance(match, Match) else list(match)
    return write_sgf(games, analysis.names if names is None else names, file, info,
                     AnalysisAnnotator(games, analysis, comments))


@dataclass(frozen=True)
class Comment:
    """A comment of a match file: on a game (``move`` 0) or on a move of it (numbered as the
    analysis numbers them, :func:`~gammon.analysis.walk.move_numbers`), by player ``player``."""

    game: int  # from 1
    move: int
    player: int | None
    text: str


def shown_text(text: str) -> str:
    """A file's text as a report shows it: its lines kept, and each control character (a
    terminal's escape sequence, which no page may hold either) replaced, tabs by spaces."""
    return "\n".join(printable(line.replace("\t", " ")) for line in text.splitlines())


def file_comments(record: SgfAnnotator, games: Sequence[Game] | None = None) -> list[Comment]:
    """The comments (``C``) of a match file's games and moves, in the order of the games:
    ``record`` gives them by history index (an :class:`SgfMatch`, or the comments of another
    format placed on ``games``, the games read; an SgfMatch's own by default)."""
    if games is None:
        if not isinstance(record, SgfMatch):
            raise TypeError("file_comments needs the games the comments are placed on")
        games = record.match.games
    out = []
    for k, game in enumerate(games):
        out += [Comment(k + 1, 0, None, shown_text(text)) for text in record.game_properties(k).get("C", ())]
        numbers = move_numbers(game.history)
        for i, action in enumerate(game.history):
            texts = record.action_properties(k, i).get("C", ())
            out += [Comment(k + 1, numbers[i], action.player, shown_text(text)) for text in texts]
    return [c for c in out if c.text.strip()]


def comments_beside(marked: Sequence[Decision], comments: Sequence[Comment]
                    ) -> tuple[list[list[str]], list[Comment]]:
    """Each of the ``marked`` decisions' comments (those made on its move, by its player: the first
    of the decisions shown there takes them), and the comments that go with none of them (the
    games', and those on other decisions), for a report that shows those decisions."""
    beside: list[list[str]] = [[] for _ in marked]
    first: dict[tuple[int, int, int], int] = {}
    for k, d in enumerate(marked):
        first.setdefault((d.context.game, d.context.move, d.context.player), k)
    rest: list[Comment] = []
    for c in comments:
        shown = first.get((c.game, c.move, c.player)) if c.move and c.player is not None else None
        if shown is None:
            rest.append(c)
        else:
            beside[shown].append(c.text)
    return beside, rest


__all__ = ["AnalysisAnnotator", "Comment", "comments_beside", "cube_analysis", "file_comments",
           "move_analysis", "shown_text", "write_analysed_sgf"]
