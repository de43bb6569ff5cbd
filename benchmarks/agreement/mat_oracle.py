"""GNU Backgammon as the judge of how a ``.mat`` file reads: import each file with the real
program (``import mat``) and compare, game by game and play by play, with gammon's
``read_mat`` + ``to_match``.

What is compared, for every file: the number of games; the score before each game; each game's
winner and points; and for every play, in order, who played it, the dice, the position before it
and the position after it (GNU Backgammon Position IDs, each from the view of the player on roll).

Used by ``tests/formats/test_mat_real.py`` and ``benchmarks/agreement/mat_vs_gnubg.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks import ROOT
from benchmarks.gnubg_harness import run_gnubg
from gammon import Position
from gammon.errors import GammonError
from gammon.formats.mat import read_mat, to_match

# For each file: import it, keeping what gnubg prints (its warnings: "Invalid move", "Unrecognised
# move"), then emit every game's records.
_IMPORT_ALL = r"""
for path in PATHS:
    printed = capture('import mat ' + path)
    try:
        m = gnubg.match(analysis=0, boards=1, statistics=0, verbose=0)
    except Exception as e:
        m = None
    keep = ('action', 'player', 'dice', 'move', 'board', 'points')
    games = [] if not m else [
        {'info': g['info'], 'records': [{k: r[k] for k in keep if k in r} for r in g['game']]}
        for g in m['games']]
    emit({'path': path, 'printed': printed, 'games': games,
          'names': [m['match-info']['X']['name'], m['match-info']['O']['name']] if m else None})
"""


def gnubg_import(paths: Sequence[Path], timeout: float = 600) -> dict[str, dict]:
    """What GNU Backgammon's ``import mat`` makes of each file, by path: its games, each with
    ``info`` (score before, winner, points) and ``records`` (action, player X/O, dice, move,
    board), and the text it printed while importing. One gnubg process reads them all; if it
    dies on a file, a new one goes on after it (that file is left out of the answer)."""
    todo = [str(Path(p).resolve()) for p in paths]
    done: dict[str, dict] = {}
    while todo:
        values = run_gnubg(f"PATHS = {todo!r}\n" + _IMPORT_ALL, timeout=timeout)
        for value in values:
            done[value["path"]] = value
        if len(values) == len(todo):
            break
        todo = todo[len(values) + 1:]  # skip the file it died on
    return done


@dataclass(frozen=True)
class PlayRecord:
    """One play (or a roll with no legal play) as a reader understood it."""

    player: int
    dice: tuple[int, int]
    before: str  # Position ID, mover's view
    after: str  # Position ID, opponent's view

    def __str__(self) -> str:
        return f"player {self.player} {self.dice[0]}{self.dice[1]}: {self.before} -> {self.after}"


@dataclass
class GameRecord:
    score: tuple[int, int]
    winner: int | None
    points: int
    plays: list[PlayRecord] = field(default_factory=list)


def from_gnubg(value: dict) -> list[GameRecord]:
    """gnubg's games as GameRecords. A play's position after is gnubg's move applied to gnubg's
    position before; it is checked against gnubg's own next position where there is one."""
    games = []
    for g in value["games"]:
        info = g["info"]
        winner = "XO".index(info["winner"]) if info.get("winner") in ("X", "O") else None
        game = GameRecord((info["score-X"], info["score-O"]), winner, info.get("points-won", 0))
        boards = [(k, r) for k, r in enumerate(g["records"]) if r.get("board")]
        for n, (k, r) in enumerate(boards):
            if r["action"] != "move":
                continue
            before = Position.from_id(r["board"])
            steps = [point for pair in r["move"] for point in pair]
            after = before.after_gnubg_move(steps) if steps else before.flip()
            if n + 1 < len(boards):
                nxt = boards[n + 1][1]
                if nxt["player"] != r["player"] and nxt["board"] != after.id:
                    raise AssertionError(f"record {k}: gnubg's move {r['move']} from {r['board']} "
                                         f"gives {after.id}, gnubg's next board is {nxt['board']}")
            player = "XO".index(r["player"])
            game.plays.append(PlayRecord(player, _dice(r["dice"]), before.id, after.id))
        games.append(game)
    return games


def from_gammon(text: str) -> list[GameRecord]:
    """gammon's games: ``read_mat`` then ``to_match`` (which raises on any error)."""
    from gammon.game import PlayMade

    match = to_match(read_mat(text))
    games = []
    for game in match.games:
        result = game.result
        record = GameRecord(game.score, result.winner if result else None, result.points if result else 0)
        position = Position.initial()  # from the view of the player on roll
        for action in game.history:
            if not isinstance(action, PlayMade):
                continue
            if action.play is not None:
                position = action.play.position
                after = action.play.after
            else:
                after = position.flip()
            record.plays.append(PlayRecord(action.player, _dice(action.dice), position.id, after.id))
            position = after
        games.append(record)
    return games


def _dice(dice: Iterable[int]) -> tuple[int, int]:
    a, b = sorted(dice, reverse=True)
    return (a, b)


def differences(theirs: list[GameRecord], ours: list[GameRecord], limit: int = 3) -> list[str]:
    """Where the two readings differ (at most ``limit`` items, the first ones)."""
    out: list[str] = []
    if len(theirs) != len(ours):
        out.append(f"{len(theirs)} games in gnubg, {len(ours)} in gammon")
    for k, (t, o) in enumerate(zip(theirs, ours)):
        where = f"game {k + 1}"
        if t.score != o.score:
            out.append(f"{where}: score before {t.score} in gnubg, {o.score} in gammon")
        for n, (tp, op) in enumerate(zip(t.plays, o.plays)):
            if tp != op:
                out.append(f"{where}, play {n + 1}: gnubg {tp}; gammon {op}")
                break
        else:
            if len(t.plays) != len(o.plays):
                out.append(f"{where}: {len(t.plays)} plays in gnubg, {len(o.plays)} in gammon")
            elif (t.winner, t.points) != (o.winner, o.points):
                out.append(f"{where}: gnubg gives player {t.winner} {t.points} points, "
                           f"gammon player {o.winner} {o.points}")
        if len(out) >= limit:
            break
    return out[:limit]


@dataclass
class FileResult:
    path: Path
    agrees: bool
    problems: list[str]
    gnubg_printed: str = ""


def compare_files(paths: Sequence[Path]) -> list[FileResult]:
    """Import every file with gnubg and with gammon and compare."""
    imported = gnubg_import(paths)
    results = []
    for path in paths:
        value = imported.get(str(path.resolve()))
        if value is None:
            results.append(FileResult(path, False, ["gnubg died importing it"]))
            continue
        printed = _warnings(value["printed"])
        try:
            ours = from_gammon(path.read_text(encoding="utf-8"))
        except GammonError as e:
            results.append(FileResult(path, False, [f"gammon: {e}"], printed))
            continue
        problems = differences(from_gnubg(value), ours)
        results.append(FileResult(path, not problems, problems, printed))
    return results


def _warnings(printed: str) -> str:
    """gnubg's import messages worth showing (not its board drawings)."""
    keep = [line.strip() for line in printed.splitlines()
            if any(word in line for word in ("WARNING", "Unrecognised", "invalid", "Invalid", "failed",
                                             "not a valid", "doesn't follow"))]
    return "\n".join(keep)


# --- the corpus and what is known about it ------------------------------------------------------

CORPUS = ROOT / "tests" / "data" / "mat" / "real"


def corpus_manifest() -> dict[str, dict[str, str]]:
    """The corpus's MANIFEST.tsv: file (relative to the corpus) -> its row."""
    import csv

    with open(CORPUS / "MANIFEST.tsv", newline="", encoding="utf-8") as f:
        return {row["file"]: row for row in csv.DictReader(f, delimiter="\t")}


@dataclass(frozen=True)
class KnownDifference:
    """A corpus file on which the two readings differ for a reason found and written down.

    ``fault`` says whose the difference is ("gnubg", or "gammon" for a limit of gammon outside
    the .mat reader); ``problem`` is text that the first reported problem contains."""

    fault: str
    problem: str
    reason: str


_OUT_OF_TURN_RESIGNATION = (
    "Backgammon Galaxy lets a player resign while the opponent is about to roll: after the loser's "
    "dance the file writes an unnumbered ' Losses 1 point' line, then the winner's 'Wins 1 point "
    "and the match'. gammon's Game takes that resignation (Game.resign by the player not on turn "
    "while the opponent is to roll). GNU Backgammon imports the resignation too, but it also "
    "reads the unnumbered line as a second copy of the loser's dance (an extra play record; it "
    "prints 'Unrecognised move \"Losses 1 point\"'), so it has one play more in that game."
)

KNOWN_DIFFERENCES: dict[str, KnownDifference] = {
    "other/gammonview-5nqfGw9bWG3deTaU-7pt.mat": KnownDifference(
        "gnubg", "'14/10 13/12' is not a legal play",
        "the file's game 1, move 11 is '13: 14/10 13/12', which plays the 1 twice and is not legal "
        "(the repository's README says the sample holds an illegal play). GNU Backgammon's import "
        "checks only that each step is 1 to 6 pips onto a point not blocked (IsValidMove), never "
        "the dice, so it takes the play; its board then is no longer the players' and it drops "
        "later plays as invalid ('WARNING: Invalid move'). gammon refuses the line and names it."),
    "galaxy/bglab-lasse-match11926267.mat": KnownDifference(
        "gnubg", "game 4: 35 plays in gnubg, 34 in gammon", _OUT_OF_TURN_RESIGNATION),
    "galaxy/bglab-lasse-match12168993.mat": KnownDifference(
        "gnubg", "game 4: 48 plays in gnubg, 47 in gammon", _OUT_OF_TURN_RESIGNATION),
}
