"""SGF files exchanged with the real GNU Backgammon program (Debian's gnubg, ``gnubg -t``).

Ours: gnubg ``load match``es our SGF of random and engine-played matches; stepping through it
record by record, every position, cube, score and result must be ours, and the .mat gnubg
exports of it must read back to our games. Theirs: matches gnubg plays itself (with its analysis
in the file) and games driven command by command (a beaver, a roll then a resignation, a game left
unfinished) are saved with ``save match``; we read them to gnubg's positions and results, and
gnubg reads our copy back with the same positions and the same analysis."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks.gnubg_harness import run_gnubg
from gammon.cube import Cube
from gammon.formats.mat import read_mat, to_match
from gammon.formats.matchid import MatchState
from gammon.formats.sgf import SgfMatch, read_sgf, write_sgf
from gammon.game import (
    Abandon,
    AcceptResignation,
    ActionKind,
    Beaver,
    Game,
    RejectResignation,
    Request,
    Resign,
    Roll,
    Take,
)
from gammon.match import Match
from gammon.rules import Rules
from tests.formats.random_play import play_match
from tests.formats.test_mat_gnubg import _check_same_match, _gnubg_boards, _our_boards, walk_in_gnubg
from tests.helpers import needs_gnubg

pytestmark = needs_gnubg

def _walk(paths: list[Path]) -> list[dict[str, Any]]:
    # load our SGF, walk it, and have gnubg export it as .mat beside it
    walked = walk_in_gnubg(paths, "load match", "gnubg.command('export match mat ' + path + '.mat')")
    assert len(walked) == len(paths), "gnubg did not load every file"
    return walked


def _our_cubes(game: Game) -> list[tuple[int, int | None]]:
    """The cube (value, owner) after each action, repeats removed."""
    history = game.history
    ties = len(history[0].ties) if history and isinstance(history[0], Roll) else 0
    cube = Cube().after_opening_ties(ties, game.rules)
    states = [(cube.value, cube.owner)]
    for action in history:
        if isinstance(action, Take):
            cube = cube.taken(action.player)
        elif isinstance(action, Beaver):
            cube = cube.beavered(action.player)
        if (cube.value, cube.owner) != states[-1]:
            states.append((cube.value, cube.owner))
    return states


def _gnubg_cubes(ids: list[str]) -> list[tuple[int, int | None]]:
    """The cube gnubg shows at each record, left out while a double waits for its answer (gnubg
    shows a beaver half-way there)."""
    states: list[tuple[int, int | None]] = []
    for gnubg_id in ids:
        state = MatchState.from_id(gnubg_id.split(":")[1])
        if not state.double_offered and (not states or states[-1] != (state.cube_value, state.cube_owner)):
            states.append((state.cube_value, state.cube_owner))
    return states


def _check_cubes(match: Match, walked: dict[str, Any]) -> None:
    for k, (game, ids) in enumerate(zip(match.games, walked["ids"])):
        theirs = _gnubg_cubes(ids)
        ours = _our_cubes(game)
        # before its opening roll gnubg shows a game's cube at 1, automatic doubles come after
        if theirs[0] != ours[0] and theirs[0] == (1, None):
            theirs = theirs[1:]
        assert theirs == ours, f"game {k + 1}: the cube went {theirs} in gnubg, {ours} in gammon"


def _core(game: Game) -> list[object]:
    """What a .mat file keeps of a game: the plays and cube actions with their dice."""
    return [Roll(a.player, a.dice, a.opening) if isinstance(a, Roll) else a for a in game.history
            if not isinstance(a, Resign | AcceptResignation | RejectResignation | Abandon)]


def _check_mat_export(match: Match, path: Path) -> None:
    """gnubg's .mat export of our SGF reads back to our games."""
    record = read_mat(Path(str(path) + ".mat").read_text())
    assert record.errors == ()
    theirs = to_match(record, match.rules)
    assert len(theirs.games) == len(match.games)
    for k, (a, b) in enumerate(zip(match.games, theirs.games)):
        assert _core(a) == _core(b), f"game {k + 1}: gnubg's .mat export differs"
        assert (a.result.winner, a.result.points) == (b.result.winner, b.result.points)
    assert theirs.score == match.score


def _engine_match(rules: Rules, seed: int, games: int = 3) -> Match:
    """Both sides played by gammon's engine at 0 ply, with its own cube decisions."""
    from gammon import RandomDice
    from gammon.engine.players import computer_player, engine_available

    if not engine_available():
        pytest.fail("the engine's trained net is part of the package and must load")
    players = [computer_player("engine-0ply"), computer_player("engine-0ply")]
    match = Match(rules, RandomDice(seed))
    while True:
        game = match.game
        while not game.is_over:
            actions = game.legal_actions()
            me = players[game.turn] if game.turn is not None else None
            if me is None:
                game.roll()
            elif "accept_resignation" in actions:
                (game.accept_resignation if me.accepts_resignation(game) else game.reject_resignation)()
            elif "take" in actions:
                game.apply(Request(ActionKind(me.answer_double(game))))
            elif "play" in actions:
                game.play(me.choose_play(game))
            elif "double" in actions and me.wants_to_double(game):
                game.double()
            else:
                game.roll()
        if match.is_over or len(match.games) >= games:
            return match
        match.new_game()


def test_our_sgf_loads_into_gnubg(tmp_path: Path) -> None:
    cases = [(1, Rules(match_length=5), 0.1, 0.02), (2, Rules(match_length=7), 0.02, 0.005),
             (3, Rules(match_length=9, crawford=False), 0.05, 0.01), (4, Rules(match_length=1), 0.0, 0.0),
             (5, Rules(beavers=True), 0.2, 0.01), (6, Rules(automatic_doubles=3, jacoby=False), 0.1, 0.01),
             (7, Rules(use_cube=False, jacoby=False), 0.0, 0.01)]
    matches = [play_match(seed, rules, games=8, double=double, resign=resign)
               for seed, rules, double, resign in cases]
    matches.append(_engine_match(Rules(match_length=3), seed=5))
    paths = []
    for k, match in enumerate(matches):
        paths.append(tmp_path / f"m{k}.sgf")
        write_sgf(match, ("Alice", "Bob"), paths[-1])
    texts = [p.read_text() for p in paths]
    for match, walked, path in zip(matches, _walk(paths), paths):
        assert walked["names"] == ["Alice", "Bob"]
        _check_same_match(match, walked)  # every position, score and result
        _check_cubes(match, walked)
        if not match.rules.automatic_doubles:  # .mat cannot say the cube started at 2
            _check_mat_export(match, path)
    # the matches did exercise every ending and the cube's oddities
    reasons = {g.result.reason for m in matches for g in m.games}
    assert reasons == {"bear_off", "pass", "resign"}
    assert any(isinstance(a, Beaver) for g in matches[4].games for a in g.history)
    assert "CV[" in texts[5] and "RU[Crawford:CrawfordGame]" in "".join(texts[:3])
    assert "RU[NoCube]" in texts[6] and "[double]" not in texts[6]


# gnubg plays matches and a money session against itself at 0 ply, keeping its analysis of every
# move and cube decision in the file, and saves each.
_SELF_PLAY = """
gnubg.command('set player 0 gnubg')
gnubg.command('set player 1 gnubg')
for p in (0, 1):
    gnubg.command('set player %d chequerplay evaluation plies 0' % p)
    gnubg.command('set player %d cubedecision evaluation plies 0' % p)
gnubg.command('set rng mersenne')
for seed, length, path in GAMES:
    gnubg.command('set seed %d' % seed)
    if length:
        gnubg.command('set automatic game on')
        gnubg.command('new match %d' % length)
    else:  # a money session with beavers (no automatic doubles: gnubg 1.07's files of those
        # disagree with themselves, test_gnubg_automatic_doubles_file)
        gnubg.command('set beavers 1')
        gnubg.command('set automatic game off')
        gnubg.command('new session')
        for _ in range(GAMES_IN_SESSION - 1):
            gnubg.command('new game')
    gnubg.command('save match ' + path)
"""

# A session driven command by command: a double is beavered, a player rolls then resigns, and the
# next game stops after its opening roll.
_SCRIPTED = """
gnubg.command('set player 0 human')
gnubg.command('set player 1 human')
gnubg.command('set rng mersenne')
gnubg.command('set seed 3')
gnubg.command('set beavers 1')
gnubg.command('set jacoby on')
gnubg.command('set automatic game off')
gnubg.command('new session')
gnubg.command('move 8/4 6/5')
gnubg.command('double')
gnubg.command('beaver')
gnubg.command('take')
gnubg.command('roll')
gnubg.command('resign normal')
gnubg.command('accept')
gnubg.command('new game')
gnubg.command('save match ' + PATH)
"""

_ANALYSIS = """
for path in PATHS:
    gnubg.command('load match ' + path)
    emit(gnubg.match(analysis=1, boards=0, statistics=0, verbose=0)['games'])
"""

GAMES_IN_SESSION = 12


@pytest.mark.slow
def test_gnubg_saved_matches_read_back(tmp_path: Path) -> None:
    games = [(seed, length, str(tmp_path / f"g{seed}.sgf"))
             for seed, length in [(7, 5), (8, 7), (9, 3), (3, 0)]]
    run_gnubg(f"GAMES = {games!r}\nGAMES_IN_SESSION = {GAMES_IN_SESSION}\n" + _SELF_PLAY)
    scripted = tmp_path / "scripted.sgf"
    run_gnubg(f"PATH = {str(scripted)!r}\n" + _SCRIPTED)
    theirs = [Path(path) for _seed, _length, path in games] + [scripted]
    texts = [p.read_text() for p in theirs]
    # the files hold what this test is about: gnubg's analysis, cube actions, resignations, an
    # automatic double, a beaver, an unplayed roll
    joined = "".join(texts)
    for what in ("]A[0]", "]DA[", "[take]", "[drop]", "R]", "PL[W]DI[", "RU[Crawford:CrawfordGame]"):
        assert what in joined, f"gnubg's files have no {what}"
    assert "W[double]\n;B[double]" in texts[-1] or "B[double]\n;W[double]" in texts[-1]

    walked = _walk(theirs)
    ours = []
    for (_seed, length, _path), path, text, walk in zip(games + [(0, 0, "")], theirs, texts, walked):
        record = read_sgf(path.read_bytes())
        match = record.match
        assert match.rules.match_length == length
        assert record.names == ("gnubg", "root") and record.application.startswith("GNU Backgammon")
        _check_same_match(match, walk)  # positions, scores, results (resignations too)
        _check_cubes(match, walk)
        if length:
            assert match.is_over
        else:
            assert len(match.games) == (GAMES_IN_SESSION if path != scripted else 2)
        if "]A[0]" in text:
            assert {"A", "DA"} <= record.note_names()
        ours.append(tmp_path / f"ours-{path.name}")
        write_sgf(record, file=ours[-1])  # with gnubg's analysis, names and match information

    # gnubg reads our copies to the same positions, and to the same analysis of every move
    for record_path, walk in zip(theirs, _walk(ours)):
        _check_same_match(read_sgf(record_path.read_bytes()).match, walk)
    original, copied = (run_gnubg(f"PATHS = {[str(p) for p in paths]!r}\n" + _ANALYSIS)
                        for paths in (theirs, ours))
    assert len(original) == len(copied) == len(theirs)
    for k, (a, b) in enumerate(zip(original, copied)):
        assert _without_steps(a) == _without_steps(b), f"{theirs[k].name}: the analysis differs in our copy"
    assert any("analysis" in str(a) for a in original), "gnubg's match dicts show no analysis"


def _without_steps(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """gnubg's match records without the steps of the plays made: we write a play's steps in an
    order of our own (13/10/9 may come back as 13/9/...), the same play to gnubg, whose positions
    the walk compares."""
    return [{**g, "game": [{k: v for k, v in r.items() if k != "move"} for r in g["game"]]}
            for g in games]


def test_gnubg_scripted_game_details(tmp_path: Path) -> None:
    """The scripted session, action by action: what gnubg did is what we read."""
    path = tmp_path / "scripted.sgf"
    run_gnubg(f"PATH = {str(path)!r}\n" + _SCRIPTED)
    record: SgfMatch = read_sgf(path.read_bytes())
    match = record.match
    assert match.rules == Rules(beavers=True)
    first, second = match.games
    # game 1: player 0 plays the opening 41, player 1 doubles, player 0 beavers; player 1 rolls 65
    # and resigns: player 0 wins a single game with the cube at 4
    kinds = [type(a).__name__ for a in first.history]
    assert kinds == ["Roll", "PlayMade", "Double", "Beaver", "Roll", "Resign", "AcceptResignation"]
    assert str(first.history[1].play) == "8/4 6/5" and first.history[4].dice == (6, 5)
    assert first.history[3] == Beaver(0, 4)
    result = first.result
    assert (result.winner, result.points, result.kind, result.reason) == (0, 4, 1, "resign")
    # game 2: player 0 won the opening roll 2-1 and has not played it
    assert [type(a).__name__ for a in second.history] == ["Roll"]
    assert (second.turn, second.dice, second.phase.name) == (0, (2, 1), "MOVE")
    assert match.score == (4, 0)


def test_gnubg_automatic_doubles_file(tmp_path: Path) -> None:
    """gnubg 1.07 plays automatic doubles with the cube left at 1 but saves CV[2] and a result
    (RE) that counts it, and the next game's score (MI) the points it played for. We read the file
    as gnubg loads it (the cube at 2, RE's points) and warn where the scores part."""
    path = tmp_path / "auto.sgf"
    script = _SELF_PLAY.replace("gnubg.command('set beavers 1')", "gnubg.command('set automatic doubles 2')")
    run_gnubg(f"GAMES = {[(3, 0, str(path))]!r}\nGAMES_IN_SESSION = {GAMES_IN_SESSION}\n" + script)
    text = path.read_text()
    assert "CV[2]" in text
    record = read_sgf(path.read_bytes())
    assert record.match.rules.automatic_doubles >= 1
    (walk,) = _walk([path])
    doubled = [k for k, game in enumerate(record.match.games) if game.history[0].ties]
    assert doubled and record.warnings
    # a warning names the game after each automatically doubled game that was not the last
    named = sorted(int(w.split(",")[0].split()[1]) - 1 for w in record.warnings)
    assert named == [k + 1 for k in doubled if k + 1 < len(record.match.games)][:len(named)]
    for k, (game, ids, info) in enumerate(zip(record.match.games, walk["ids"], walk["info"])):
        assert _gnubg_boards(ids) == _our_boards(record.match)[k], f"game {k + 1}: the positions differ"
        assert info["points-won"] == game.result.points and info["winner"] == "XO"[game.result.winner]
        assert info.get("initial-cube", 1) == Cube().after_opening_ties(len(game.history[0].ties),
                                                                         game.rules).value
    _check_cubes(record.match, walk)
