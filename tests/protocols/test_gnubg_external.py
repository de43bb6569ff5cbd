"""GNU Backgammon's external player interface, both ways: gammon answering GNU Backgammon's board
lines (``gammon external``), and GNU Backgammon answering gammon's (``--level gnubg-external:...``).
The whole-match tests run the Debian ``gnubg`` program at 0 ply."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import pytest

from gammon.dice import RandomDice
from gammon.engine.engine import Engine
from gammon.engine.players import computer_player
from gammon.formats.mat import read_mat, to_match
from gammon.game import ActionKind, Double
from gammon.match import Match, NewGame
from gammon.position import Position
from gammon.protocols import external
from gammon.protocols.external import MAX_CONNECTIONS, ExternalServer, answer
from gammon.protocols.fibs_board import FibsBoard, fibs_board, parse_fibs_board
from gammon.protocols.gnubg_external import GnubgError, GnubgExternalPlayer, gnubg_steps, parse_level
from gammon.rules import Rules
from gammon.situation import Situation
from tests.helpers import GNUBG, needs_gnubg
from tests.protocols.test_fibs_board import OPENING, TAKE

ENGINE = Engine(plies=0)


def test_answer_plays_a_legal_play() -> None:
    reply = answer(ENGINE, OPENING + "\0")
    s = parse_fibs_board(OPENING).situation()
    after = s.position.after_gnubg_move(gnubg_steps(reply))
    assert after in {p.after for p in Position.initial().legal_plays((5, 2))}


def test_answer_cube() -> None:
    assert answer(ENGINE, TAKE) in ("take", "drop")
    before_roll = OPENING.replace(":5:2:5:2:", ":0:0:0:0:")
    assert answer(ENGINE, before_roll) == "roll"  # no double at the start
    assert answer(ENGINE, "board:nonsense").startswith("Error: ")


def test_server_answers_lines_with_nul_bytes() -> None:
    with ExternalServer(ENGINE) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
                reader = sock.makefile("rb")
                sock.sendall(OPENING.encode() + b"\n\0")  # as GNU Backgammon sends a line
                assert gnubg_steps(reader.readline().decode())
                sock.sendall(b"\0" + TAKE.encode() + b"\r\n")
                assert reader.readline().decode().strip() in ("take", "drop")
                sock.sendall(b"exit\n")
                assert reader.readline() == b""
        finally:
            server.shutdown()


@contextlib.contextmanager
def running() -> Iterator[ExternalServer]:
    with ExternalServer(ENGINE) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield server
        finally:
            server.shutdown()


@contextlib.contextmanager
def connected(server: ExternalServer) -> Iterator[tuple[socket.socket, BinaryIO]]:
    # the reader closed too: the socket stays open while a file made from it is
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        with sock.makefile("rb") as reader:
            yield sock, reader


@contextlib.contextmanager
def served() -> Iterator[tuple[socket.socket, BinaryIO]]:
    """A connection to a running ExternalServer, and its reader."""
    with running() as server, connected(server) as connection:
        yield connection


def test_server_is_not_held_up_by_a_peer_with_half_a_line() -> None:
    with running() as server, connected(server) as (idle, _), connected(server) as (sock, reader):
        idle.sendall(b"board:a:b:1")  # and nothing more
        sock.sendall(OPENING.encode() + b"\n")
        assert gnubg_steps(reader.readline().decode())


def test_server_closes_a_line_left_unfinished(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(external, "LINE_WAIT", 0.2)
    with served() as (sock, reader):
        sock.sendall(b"version\n")
        assert reader.readline().startswith(b"Interface: ")
        threading.Event().wait(0.5)  # no limit between lines
        sock.sendall(b"version\n")
        assert reader.readline().startswith(b"Interface: ")
        sock.sendall(b"board:a:b:1")  # and nothing more
        assert reader.readline() == b"Error: a line stopped for 0.2 seconds before its end\n"
        assert reader.readline() == b""


def test_server_refuses_connections_beyond_its_limit() -> None:
    with running() as server, contextlib.ExitStack() as stack:
        for _ in range(MAX_CONNECTIONS):
            sock, reader = stack.enter_context(connected(server))
            sock.sendall(b"version\n")
            assert reader.readline().startswith(b"Interface: ")  # served
        sock, reader = stack.enter_context(connected(server))
        assert reader.readline() == b"Error: more than 8 connections at once\n"
        assert reader.readline() == b""


def test_server_quotes_bytes_other_than_ascii() -> None:
    with served() as (sock, reader):
        sock.sendall(b"board:\xff\xfe:b:1\n" + OPENING.encode() + b"\n")
        error = reader.readline()
        assert error.startswith(b"Error: ") and error.isascii() and b"board:" in error
        assert gnubg_steps(reader.readline().decode())  # the connection goes on


def test_server_answers_an_overlong_line_once() -> None:
    with served() as (sock, reader):
        sock.sendall(b"board:" + b"7:" * 50_000 + b"\n" + OPENING.encode() + b"\n")
        error = reader.readline().decode()
        assert error.startswith("Error: a line has at most 4096 characters: 'board:7:7:") and len(error) < 200
        assert gnubg_steps(reader.readline().decode())  # the next line's answer, not the rest's


def test_server_prints_no_traceback_for_a_peer_gone(capsys: pytest.CaptureFixture[str]) -> None:
    with ExternalServer(ENGINE) as server:
        try:
            raise ConnectionResetError(104, "Connection reset by peer")  # as a reset peer's write raises
        except OSError:
            server.handle_error(None, ("127.0.0.1", 1))
        assert capsys.readouterr().err == ""
        try:
            raise ValueError("a bug")
        except ValueError:
            server.handle_error(None, ("127.0.0.1", 1))
        assert "ValueError: a bug" in capsys.readouterr().err


def test_levels_and_steps() -> None:
    assert parse_level("gnubg-external:localhost:4321") == ("localhost", 4321)
    for bad in (
        "gnubg-external:localhost",
        "gnubg-external::12",
        "gnubg:localhost:1",
        "gnubg-external:h:99999",
    ):
        with pytest.raises(ValueError, match="HOST:PORT"):
            parse_level(bad)
    assert gnubg_steps("25/20* 13/11") == [25, 20, 13, 11]
    with pytest.raises(GnubgError):
        gnubg_steps("double")


def test_a_flood_for_an_answer_is_refused() -> None:
    """A peer answering megabytes with no newline: an error quoting their start, cut short."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)

        def flood() -> None:
            peer, _ = listener.accept()
            with peer:
                peer.recv(1000)
                with contextlib.suppress(OSError):  # the player hangs up before the end
                    peer.sendall(b"x" * 1_000_000 + b"\n")

        thread = threading.Thread(target=flood, daemon=True)
        thread.start()
        player = GnubgExternalPlayer("127.0.0.1", listener.getsockname()[1], timeout=30)
        with pytest.raises(GnubgError, match="no end in 4096 bytes: 'xxx") as error:
            player.ask(parse_fibs_board(OPENING).situation())
        assert len(str(error.value)) < 200 and player._socket is None
        thread.join(timeout=30)


# --- whole matches against the gnubg program --------------------------------------------------


@contextlib.contextmanager
def gnubg(commands: str) -> Iterator[subprocess.Popen[str]]:
    """``gnubg -t`` reading ``commands``, stopped at the end."""
    assert GNUBG is not None
    proc = subprocess.Popen(
        [GNUBG, "-t", "-q"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdin is not None
    proc.stdin.write(commands)
    proc.stdin.flush()
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.mark.slow
@needs_gnubg
def test_gnubg_plays_a_match_against_gammon_external(tmp_path: Path) -> None:
    """gnubg's ``set player 0 external``: gnubg plays a 7-point match against gammon's server; the
    match gnubg saves replays in gammon, every play and cube action legal."""
    saved = tmp_path / "match.mat"
    with ExternalServer(ENGINE) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        commands = "\n".join(
            [
                "set rng mersenne",
                "set seed 11",
                "set display off",
                f"set player 0 external localhost:{server.port}",
                "set player 0 name gammon",
                "set player 1 gnubg",
                "set player 1 name gnubg",
                "set player 1 chequerplay evaluation plies 0",
                "set player 1 cubedecision evaluation plies 0",
                "new match 7",
                f"export match mat {saved}",
                "quit",
                "y",
                "",
            ]
        )
        try:
            with gnubg(commands) as proc:
                output, _ = proc.communicate(timeout=600)
        finally:
            server.shutdown()
    assert saved.exists(), output[-2000:]
    match = to_match(read_mat(saved.read_text()))
    assert match.is_over and max(match.score) >= 7
    assert any(isinstance(a, Double) for g in match.games for a in g.history), "no cube action"


def play_out(match: Match, players: tuple[GnubgExternalPlayer | object, ...]) -> list[str]:
    """Play ``match`` to its end, each side's actions from its player; the kinds of the actions."""
    kinds = []
    while not match.is_over:
        game = match.game
        if game.is_over:
            match.apply(NewGame())
            continue
        if game.turn is None:
            game.roll()  # the opening roll
            continue
        action = players[game.turn].next_action(game)  # type: ignore[attr-defined]
        match.apply(action.request(game.turn))
        kinds.append(action.kind)
    return kinds


@pytest.mark.slow
@needs_gnubg
def test_gammon_plays_a_match_against_gnubg_external() -> None:
    """gnubg's ``external`` command: gammon plays a 7-point match against GNU Backgammon, every one
    of its plays read back as a legal play."""
    port = free_port()
    commands = "\n".join(
        [
            "set evaluation chequerplay evaluation plies 0",
            "set evaluation cubedecision evaluation plies 0",
            f"external localhost:{port}",
            "",
        ]
    )
    with gnubg(commands):
        gnubg_player = GnubgExternalPlayer("localhost", port, timeout=60)  # connects once gnubg listens
        match = Match(Rules(match_length=7), RandomDice(2))
        kinds = play_out(match, (computer_player("engine-0ply"), gnubg_player))
        gnubg_player.close()
    assert match.is_over
    assert ActionKind.PLAY in kinds and ActionKind.DOUBLE in kinds


def test_play_level_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    from gammon.cli.main import main

    with pytest.raises(SystemExit):
        main(["play", "--level", "gnubg-external:nowhere"])
    assert "HOST:PORT" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "--level", "grandmaster"])
    assert "gnubg-external:HOST:PORT" in capsys.readouterr().err


def test_play_level_seats_gnubg() -> None:
    from gammon.cli.main import _seats, build_parser

    args = build_parser().parse_args(["play", "--level", "gnubg-external:localhost:5556", "--match", "7"])
    me, computer = _seats(args, None)
    assert computer.name == "gnubg" and isinstance(computer.computer, GnubgExternalPlayer)
    assert computer.computer.address == ("localhost", 5556) and me.computer is None


def _connected(port: int) -> socket.socket:
    """A connection to GNU Backgammon's ``external`` command, once it listens."""
    for _ in range(300):
        try:
            return socket.create_connection(("localhost", port), timeout=60)
        except ConnectionRefusedError:
            threading.Event().wait(0.1)
    raise AssertionError(f"GNU Backgammon does not listen on {port}")


def _start(mover: int, opponent: int) -> Situation:
    """The starting position before the roll, in a 7-point match at ``mover``-``opponent``."""
    return Situation(Position.initial(), score=(mover, opponent), rules=Rules(match_length=7))


@needs_gnubg
def test_gnubg_reads_the_scores_as_gammon_does() -> None:
    """GNU Backgammon's ``evaluation fibsboard`` gives the match winning chance of the player on roll
    of a line: at the starting position it is over one half exactly when that player leads. Lines
    gammon writes, and lines in each orientation gammon reads, mean the same score to both."""
    written = [fibs_board(_start(a, b)) for a, b in ((6, 0), (0, 6), (5, 2), (2, 5))]
    board = list(fibs_board(_start(0, 0)).numbers)
    read = []
    for turn, colour, direction in ((1, 1, -1), (-1, 1, -1), (1, -1, 1), (-1, -1, 1)):
        for scores in ((6, 0), (0, 6)):
            n = list(board)
            n[1:3] = scores
            # the player on roll's checkers carry the sign of turn and move the way of its direction
            ahead = board[3:29] if direction * turn * colour == -1 else board[28:2:-1]
            n[3:29] = [turn * v for v in ahead]
            n[29], n[38], n[39] = turn, colour, direction
            read.append(FibsBoard("a", "b", tuple(n)))
    port = free_port()
    with gnubg(f"external localhost:{port}\n"), _connected(port) as sock:
        reader = sock.makefile("rb")
        for line in written + read:
            sock.sendall(f"evaluation fibsboard {line} plies 0\n".encode())
            reply = reader.readline().decode()
            mover_chance = float(reply.split()[-1])
            s = line.situation()
            assert s.position == Position.initial()
            assert (mover_chance > 0.5) == (s.score[0] > s.score[1]), (str(line), reply, s.score)
