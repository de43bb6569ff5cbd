"""GNU Backgammon (``set player 0 external``) playing 5-point matches and a money session against
``gammon external``: every board line the server read means the score, and the Crawford game or
not, of the game GNU Backgammon was playing, as the match it saves records them; a Crawford game and
a game after it are among them. The Debian ``gnubg`` program at 0 ply is the judge."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from gammon.formats.mat import read_mat, to_match
from gammon.game import PlayMade
from gammon.position import Position
from gammon.protocols.external import ExternalServer
from gammon.protocols.fibs_board import fibs_board, parse_fibs_board
from gammon.protocols.gnubg_external import gnubg_steps
from gammon.rules import Rules
from gammon.situation import Situation
from tests.helpers import needs_gnubg
from tests.protocols.test_gnubg_external import ENGINE, _connected, free_port, gnubg

Game = tuple[tuple[int, int], bool]
"""A game as (gammon's score, gnubg's score), and whether it is the Crawford game."""


def _match(
    seed: int, saved: Path, start: tuple[str, ...] = ("new match 5",)
) -> tuple[list[Game], list[Game], list[str]]:
    """The games of the match gnubg saved, the games the server's lines describe (one entry a run of
    lines), and the server's answers; ``start`` starts the match or session. Each play gnubg saved
    for gammon is the one the server answered, read as gnubg reads it."""
    entries: list[str] = []
    with ExternalServer(ENGINE, log=entries.append) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        commands = [
            "set rng mersenne",
            f"set seed {seed}",
            "set display off",
            f"set player 0 external localhost:{server.port}",
            "set player 0 name gammon",
            "set player 1 gnubg",
            "set player 1 name gnubg",
            "set player 1 chequerplay evaluation plies 0",
            "set player 1 cubedecision evaluation plies 0",
            *start,
            f"export match mat {saved}",
            "quit",
            "y",
            "",
        ]
        try:
            with gnubg("\n".join(commands)) as proc:
                output, _ = proc.communicate(timeout=600)
        finally:
            server.shutdown()
    assert saved.exists(), output[-2000:]
    games = to_match(read_mat(saved.read_text())).games
    recorded = [(g.score, g.crawford_game) for g in games]
    saved_plays = [
        a.play and a.play.after for g in games for a in g.history if isinstance(a, PlayMade) and a.player == 0
    ]
    seen: list[Game] = []
    answers = []
    plays = []
    for entry in entries:
        line, _, reply = entry.partition(" -> ")
        s = parse_fibs_board(line).situation()
        # the situation is seen by the player on roll: gnubg, when it doubled gammon
        mine, theirs = s.score[::-1] if s.double_offered else s.score
        game = ((mine, theirs), s.crawford_game)
        if not seen or seen[-1] != game:
            seen.append(game)
        answers.append(reply)
        if s.dice is not None:  # an empty answer: no checker can move
            plays.append(s.position.after_gnubg_move(gnubg_steps(reply)) if reply else None)
    assert plays == saved_plays
    return recorded, seen, answers


@pytest.mark.slow
@needs_gnubg
def test_gnubg_lines_carry_the_match_score_and_the_crawford_game(tmp_path: Path) -> None:
    crawford = post_crawford = False
    answers: list[str] = []
    for seed in range(5, 15):  # matches until one has had a Crawford game and a game after it
        recorded, seen, replies = _match(seed, tmp_path / f"match{seed}.mat")
        assert seen == recorded, seed
        answers += replies
        crawford = crawford or any(c for _, c in seen)
        post_crawford = post_crawford or any(4 in score and not c for score, c in seen)
        if crawford and post_crawford:
            break
    assert crawford and post_crawford
    assert {"roll", "double"} <= set(answers) and {"take", "drop"} & set(answers)


@pytest.mark.slow
@needs_gnubg
def test_gnubg_lines_carry_the_score_of_a_money_session(tmp_path: Path) -> None:
    """Four games of a money session: the lines' scores are the session's, games won so far."""
    start = ("set automatic game off", "new session", "new game", "new game", "new game")
    recorded, seen, answers = _match(3, tmp_path / "session.mat", start)
    assert seen == recorded and len(recorded) == 4 and max(recorded[-1][0]) > 0
    assert {"roll", "double"} <= set(answers) and {"take", "drop"} & set(answers)


@needs_gnubg
def test_gnubg_reads_the_crawford_game_of_gammons_lines() -> None:
    """The lines gammon writes (GnubgExternalPlayer) say the Crawford game and the games after it
    apart: at 2-4 in a 5-point match the trailer's match winning chance, by GNU Backgammon's
    ``evaluation fibsboard``, is the lower in the Crawford game, where the leader's cube is dead."""
    port = free_port()
    chances = {}
    with gnubg(f"external localhost:{port}\n"), _connected(port) as sock, sock.makefile("rb") as reader:
        for crawford in (True, False):
            s = Situation(
                Position.initial(), score=(2, 4), crawford_game=crawford, rules=Rules(match_length=5)
            )
            sock.sendall(f"evaluation fibsboard {fibs_board(s)} plies 0 cubeful\n".encode())
            chances[crawford] = float(reader.readline().split()[-1])
    assert chances[True] < chances[False] - 0.02, chances
