"""THE KEY TEST: .mat files exchanged with the real GNU Backgammon program.

Our exports are imported by ``gnubg -t`` and stepped through record by record: every position and
every game's result must be ours. .mat files that gnubg writes of its own games must read back
with every play legal in our rules and the same scores."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.gnubg_harness import run_gnubg
from gammon import Position
from gammon.formats.convert import convert
from gammon.formats.mat import read_mat, to_match, write_mat
from gammon.formats.matchid import MatchState
from gammon.formats.sgf import format_sgf
from gammon.match import Match
from gammon.rules import Rules
from tests.formats.random_play import play_match
from tests.formats.test_mat import _left_after_the_roll
from tests.helpers import needs_gnubg

pytestmark = needs_gnubg

# For each file: open it (LOAD, a gnubg command taking the path), then walk every game record by
# record, emitting the GNU Backgammon ID (Position ID:Match ID) at the start and after each step,
# and the games' summaries; AFTER (Python, with ``path``) runs before the emit.
_WALK = """
for path in PATHS:
    gnubg.command(LOAD + ' ' + path)
    m = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
    gnubg.navigate()
    games = []
    for k in range(len(m['games'])):
        if k:
            gnubg.navigate(game=1)
        ids = [gnubg.gnubgid()]
        while gnubg.navigate(next=1) is None:
            ids.append(gnubg.gnubgid())
        games.append(ids)
    exec(AFTER)
    emit({'info': [g['info'] for g in m['games']], 'ids': games,
          'names': [m['match-info']['X']['name'], m['match-info']['O']['name']]})
"""


def walk_in_gnubg(paths: list[Path], load: str = "import mat", after: str = "") -> list[dict]:
    """The walk above over ``paths``, opened with the gnubg command ``load``."""
    return run_gnubg(f"PATHS = {[str(p) for p in paths]!r}\nLOAD = {load!r}\nAFTER = {after!r}\n" + _WALK)


def _walk(paths: list[Path]) -> list[dict]:
    return walk_in_gnubg(paths)


def _dedupe(boards: list[Position]) -> list[Position]:
    return [b for k, b in enumerate(boards) if k == 0 or b != boards[k - 1]]


def _gnubg_boards(ids: list[str]) -> list[Position]:
    """The boards gnubg went through, from player 0's view (a Position ID is seen from the
    player on roll)."""
    boards = []
    for gnubg_id in ids:
        position_id, match_id = gnubg_id.split(":")
        p = Position.from_id(position_id)
        boards.append(p if MatchState.from_id(match_id).player_on_roll == 0 else p.flip())
    return _dedupe(boards)


def _our_boards(match: Match) -> list[list[Position]]:
    from gammon.game import PlayMade

    out = []
    for game in match.games:
        boards = [Position.initial()]
        for action in game.history:
            if isinstance(action, PlayMade) and action.play is not None:
                after = action.play.after
                boards.append(after if action.player == 1 else after.flip())
        out.append(_dedupe(boards))
    return out


def _check_same_match(match: Match, walked: dict) -> None:
    ours = _our_boards(match)
    assert len(walked["ids"]) == len(ours), "gnubg imported a different number of games"
    for k, (game, theirs_ids, info) in enumerate(zip(match.games, walked["ids"], walked["info"])):
        theirs = _gnubg_boards(theirs_ids)
        assert theirs == ours[k], f"game {k + 1}: the positions differ"
        assert (info["score-X"], info["score-O"]) == game.score, f"game {k + 1}: score before it"
        result = game.result
        if result is not None:
            assert info["points-won"] == result.points, f"game {k + 1}: points"
            assert info["winner"] == "XO"[result.winner], f"game {k + 1}: winner"
            assert bool(info.get("resigned")) == (result.reason == "resign"), f"game {k + 1}: resigned"
    # the final score: gnubg's Match ID after the last record of the last game
    last = MatchState.from_id(walked["ids"][-1][-1].split(":")[1])
    if match.game.is_over:
        assert last.score == match.score


def test_our_matches_import_into_gnubg(tmp_path: Path) -> None:
    # some matches with a busy cube and early resignations, some mostly played out to the bear-off
    matches = [play_match(seed, Rules(match_length=length), double=double, resign=resign)
               for seed, length, double, resign in [(1, 5, 0.1, 0.02), (2, 7, 0.01, 0.002),
                                                    (3, 9, 0.05, 0.01), (4, 3, 0.01, 0.0),
                                                    (5, 11, 0.02, 0.005), (6, 7, 0.2, 0.01)]]
    paths = []
    for k, match in enumerate(matches):
        path = tmp_path / f"m{k}.mat"
        write_mat(match, ("Alice", "Bob"), path)
        paths.append(path)
    walked = _walk(paths)
    assert len(walked) == len(matches)
    kinds = set()
    for match, w in zip(matches, walked):
        assert w["names"] == ["Alice", "Bob"]
        _check_same_match(match, w)
        kinds.update(g.result.reason for g in match.games if g.result)
        assert match.is_over
    # the random matches did exercise every ending
    assert kinds == {"bear_off", "pass", "resign"}


def test_money_session_imports_into_gnubg(tmp_path: Path) -> None:
    match = play_match(11, Rules(match_length=0), games=6, double=0.1, resign=0.02)
    path = tmp_path / "money.mat"
    write_mat(match, ("Carol", "Dave"), path)
    (walked,) = _walk([path])
    _check_same_match(match, walked)


_GNUBG_PLAYS = """
gnubg.command('set player 0 gnubg')
gnubg.command('set player 1 gnubg')
for p in (0, 1):
    gnubg.command('set player %d chequerplay evaluation plies 0' % p)
    gnubg.command('set player %d cubedecision evaluation plies 0' % p)
gnubg.command('set rng mersenne')
gnubg.command('set beavers 0')
"""
_SELF_PLAY = _GNUBG_PLAYS + """
for seed, length, path in GAMES:
    gnubg.command('set seed %d' % seed)
    if length:
        gnubg.command('set automatic game on')
        gnubg.command('new match %d' % length)
    else:  # a money session of four games
        gnubg.command('set automatic game off')
        gnubg.command('new session')
        for _ in range(3):
            gnubg.command('new game')
    gnubg.command('export match mat ' + path)
    m = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
    emit({'info': [g['info'] for g in m['games']]})
"""


@pytest.mark.slow
def test_gnubg_exports_read_back(tmp_path: Path) -> None:
    games = [(seed, length, str(tmp_path / f"g{seed}.mat"))
             for seed, length in [(7, 5), (8, 7), (9, 3), (3, 0)]]
    summaries = run_gnubg(f"GAMES = {games!r}\n" + _SELF_PLAY)
    assert len(summaries) == len(games)
    texts = [Path(path).read_text() for _seed, _length, path in games]
    # gnubg's games did take, drop and resign
    assert all(word in "".join(texts) for word in ("Doubles", "Takes", "Drops"))
    assert any(info.get("resigned") for summary in summaries for info in summary["info"])
    for (_seed, length, path), summary, text in zip(games, summaries, texts):
        record = read_mat(text)
        assert record.errors == ()
        assert record.match_length == length
        assert len(record.games) == len(summary["info"])
        for game, info in zip(record.games, summary["info"]):
            assert game.score == (info["score-X"], info["score-O"])
            assert (game.winner, game.points) == ("XO".index(info["winner"]), info["points-won"])
        match = to_match(record)  # every roll, play and cube action legal in our rules
        assert match.is_over or not length
        last = summary["info"][-1]
        final = [last["score-X"], last["score-O"]]
        final["XO".index(last["winner"])] += last["points-won"]
        assert match.score == tuple(final)
        # and gnubg reads our copy of its match back to the same positions
        ours = tmp_path / f"ours-{Path(path).name}"
        write_mat(match, record.names, ours)
        (walked,) = _walk([ours])
        _check_same_match(match, walked)


@pytest.mark.parametrize("length", [1])
def test_one_point_match(tmp_path: Path, length: int) -> None:
    match = play_match(21, Rules(match_length=length))
    path = tmp_path / "one.mat"
    write_mat(match, ("Eve", "Frank"), path)
    (walked,) = _walk([path])
    _check_same_match(match, walked)


def test_long_names_go_both_ways(tmp_path: Path) -> None:
    """A first name that fills the score line's left column (27 characters or more): our export
    imports into gnubg with its names, and gnubg's export (no space after such a name) reads here.
    gnubg keeps 31 characters of a name."""
    match = play_match(31, Rules(match_length=5), double=0.05)
    names = [("Maximilian von Hohenberg-Schwa", "Bob"), ("Maximilian Alexander von Hohenberg", "Bob")]
    paths = [tmp_path / f"long{k}.mat" for k in range(len(names))]
    for path, pair in zip(paths, names):
        write_mat(match, pair, path)
    for walked, pair in zip(_walk(paths), names):
        assert walked["names"] == [pair[0][:31], pair[1]]
        _check_same_match(match, walked)

    theirs = tmp_path / "theirs.mat"
    long_name = "Abcdefghijklmnopqrstuvwxyz01234"
    script = (_GNUBG_PLAYS + "gnubg.command('set seed 5')\ngnubg.command('set automatic game on')\n"
              + "gnubg.command('new match 5')\n"
              + f"gnubg.command('set player 0 name {long_name}')\n"
              + f"gnubg.command('export match mat {theirs}')\n"
              + "m = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)\n"
              + "emit([[g['info']['score-X'], g['info']['score-O']] for g in m['games']])\n")
    (scores,) = run_gnubg(script)
    text = theirs.read_text()
    assert f" {long_name} : 0" in text and f"{long_name} : 0 " not in text  # nothing after the score
    record = read_mat(text)
    assert record.errors == () and record.names[0] == long_name
    assert [list(g.score) for g in record.games] == scores
    to_match(record)  # every play legal


def test_leaving_after_a_roll_imports_into_gnubg(tmp_path: Path) -> None:
    """Either player leaves after a roll, in either column: gnubg gives the game to the same
    player for the same points as our reader does, and its export of the game reads back here."""
    cases = [(rolls, who) for rolls in (1, 2) for who in ("roller", "other")]
    paths = []
    for rolls, who in cases:
        path = tmp_path / f"left-{rolls}-{who}.mat"
        write_mat(_left_after_the_roll(rolls, who), ("A", "B"), path)
        paths.append(path)
    # and gnubg's export of each (the roller's "Wins" in the roll's cell) reads back the same here
    after = "gnubg.command('export match mat ' + path + '.back')"
    for path, walked in zip(paths, walk_in_gnubg(paths, after=after)):
        result = to_match(read_mat(path.read_text())).games[0].result
        (info,) = walked["info"]
        assert (info["winner"], info["points-won"]) == ("XO"[result.winner], result.points), path.name
        theirs = read_mat(Path(f"{path}.back").read_text())
        assert theirs.errors == () and to_match(theirs).games[0].result == result, path.name


def test_converted_long_names_import_into_gnubg(tmp_path: Path) -> None:
    """gammon convert to .mat fits the names: gnubg reads them whole (it cut a name of more than 31
    bytes inside a character and failed)."""
    match = play_match(3, Rules(match_length=3))
    path = tmp_path / "names.mat"
    path.write_text(convert(format_sgf(match, ("Zoe" + "山" * 19, "Bob")).encode(), "sgf", "mat").text)
    (walked,) = _walk([path])
    assert walked["names"] == ["Zoe" + "山" * 9, "Bob"]
    _check_same_match(match, walked)
