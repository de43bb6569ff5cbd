"""The club load benchmark's lobby wiring (benchmarks/server/rated_load.py, ``--lobby``) at a tiny
scale: a few players sit in the lobby, meet by invitation and play their rated matches to the end
against a real server; the lobby's events are timed, nothing is lost and each match is rated once."""

from __future__ import annotations

import subprocess
from pathlib import Path

from benchmarks.server import rated_load
from tests.web.test_e2e import Server


def test_players_in_the_lobby_meet_by_invitation_and_play_their_rated_matches(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    # Every player comes from 127.0.0.1: the per-address caps raised, as the benchmark does.
    server = Server(database, "--rate-limit", "100000", "--ws-per-address", "1000")
    server.start()
    try:
        players = rated_load.make_players(database, 6, prefix="t")
        pairs = [(players[k], players[k + 1]) for k in range(0, len(players), 2)]
        played = rated_load.client_process((server.url, pairs, 1, 1, True, None))
    finally:  # a loaded machine may take its time to stop the server: waited for, then killed
        assert server.proc is not None
        server.proc.terminate()
        try:
            server.proc.wait(60)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            server.proc.wait(10)
    assert played.errors == []
    assert len(played.finals) == 3 and all(final["match_over"] for final in played.finals.values())
    assert len(set(played.posted)) == 3 and len(played.invited) == len(played.started) == 3
    assert all(0 < seconds < 60 for seconds in played.invited + played.started)
    assert played.left == []  # every socket's lobby emptied of the invitations
    assert rated_load.check_ratings(database, list(played.finals)) == []
