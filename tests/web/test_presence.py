"""Presence of online players: who is connected, how long the others have been away."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from gammon.cli.serve import add_serve_command
from gammon.store import Store
from gammon.store.notify import PRESENCE_CHANNEL, Publisher
from gammon.web import create_app
from gammon.web.presence import (
    DEFAULT_AWAY_AFTER,
    DEFAULT_IDLE_AFTER,
    Presence,
    PresenceRelay,
    decode,
    encode,
)
from gammon.web.settings import ServerSettings
from tests.web.conftest import Clock, auth, new_match, seeded_dice


def test_a_seat_never_seen_cannot_be_claimed_against() -> None:
    p = Presence(60, Clock())
    assert p.away("m", 1) is None and p.claim_in("m", 1) is None


def test_away_time_runs_from_the_last_socket_closing() -> None:
    clock = Clock()
    p = Presence(60, clock)
    p.opened("m", 1)
    p.opened("m", 1)  # two tabs
    clock.now += 500
    assert p.away("m", 1) == 0 and p.claim_in("m", 1) is None
    p.closed("m", 1)
    clock.now += 500
    assert p.away("m", 1) == 0  # the other tab is still open
    p.closed("m", 1)
    clock.now += 20
    assert p.away("m", 1) == 20 and p.claim_in("m", 1) == 40
    clock.now += 45
    assert p.claim_in("m", 1) == 0
    p.seen("m", 1)  # an API call brings the clock back
    clock.now += 1
    assert p.claim_in("m", 1) == 59
    assert p.away("m", 0) is None and p.away("other", 1) is None


def test_a_reloaded_match_starts_the_clock_once() -> None:
    clock = Clock()
    p = Presence(60, clock)
    p.seen_if_new("m", 0)
    clock.now += 30
    p.seen_if_new("m", 0)  # loading again does not reset it
    assert p.away("m", 0) == 30


def test_the_away_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="-1"):
        Presence(-1)


def test_gammon_serve_takes_the_away_limit() -> None:
    parser = argparse.ArgumentParser()
    serve = add_serve_command(parser.add_subparsers())
    assert f"(default {DEFAULT_AWAY_AFTER:.0f})" in " ".join(serve.format_help().split())
    assert parser.parse_args(["serve", "--away-after", "2.5"]).away_after == 2.5
    assert parser.parse_args(["serve"]).away_after is None  # create_app's default
    for bad in ("0", "-3", "soon"):
        with pytest.raises(SystemExit):
            parser.parse_args(["serve", "--away-after", bad])


def test_a_connected_seat_may_be_claimed_against_once_its_decision_passes_idle_after() -> None:
    clock = Clock()
    p = Presence(60, clock, idle_after=100)
    p.opened("m", 1)
    assert p.deciding("m", 5) == 0  # version 5 first seen now
    clock.now += 70
    assert p.claim_in("m", 1) is None  # connected: not for being away
    assert p.claim_in("m", 1, 5) == 30 and p.deciding("m", 5) == 70
    clock.now += 30
    assert p.claim_in("m", 1, 5) == 0
    assert p.claim_in("m", 1, 6) == 100  # an action: the next decision has its full time
    p.closed("m", 1)
    clock.now += 50
    assert p.claim_in("m", 1, 6) == 10  # away 50 of 60, deciding 50 of 100: the nearer limit
    p.forget("m")
    assert p.decisions() == 0 and p.claim_in("m", 1, 6) is None  # let go: its clocks start again


def test_the_idle_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="-2"):
        Presence(60, idle_after=-2)
    with pytest.raises(ValueError, match="idle_after"):
        ServerSettings(idle_after=0)


def test_gammon_serve_takes_the_idle_limit() -> None:
    parser = argparse.ArgumentParser()
    serve = add_serve_command(parser.add_subparsers())
    assert f"(default {DEFAULT_IDLE_AFTER:.0f})" in " ".join(serve.format_help().split())
    assert parser.parse_args(["serve", "--idle-after", "90"]).idle_after == 90
    assert parser.parse_args(["serve"]).idle_after is None  # create_app's default
    for bad in ("0", "-3", "later"):
        with pytest.raises(SystemExit):
            parser.parse_args(["serve", "--idle-after", bad])


# ---- across server processes (see PresenceRelay) -----------------------------------------------

def test_a_seat_held_open_by_another_process_is_present_until_that_process_closes_it() -> None:
    clock = Clock()
    p = Presence(60, clock, held_for=30)
    p.opened("m", 1)
    p.closed("m", 1)  # left this process, and reconnected to another one
    assert p.held_elsewhere("B", [("m", 1)]) == [("m", 1)]  # it comes back
    clock.now += 500
    p.held_elsewhere("B", [("m", 1)])  # B's heartbeat
    clock.now += 20
    assert p.away("m", 1) == 0 and p.claim_in("m", 1) is None
    assert p.released_elsewhere("B", [("m", 1)]) == [("m", 1)]
    clock.now += 20
    assert p.away("m", 1) == 20 and p.claim_in("m", 1) == 40


def test_a_seat_is_present_while_any_process_holds_it() -> None:
    clock = Clock()
    p = Presence(60, clock, held_for=30)
    assert p.held_elsewhere("B", [("m", 1)]) == [("m", 1)]  # it comes
    p.held_elsewhere("C", [("m", 1)])
    p.opened("m", 1)
    assert p.released_elsewhere("B", [("m", 1)]) == []
    p.closed("m", 1)
    clock.now += 10
    assert p.away("m", 1) == 0  # C still holds it
    assert p.released_elsewhere("C") == [("m", 1)]  # C stopped ("bye")
    clock.now += 5
    assert p.away("m", 1) == 5
    assert p.released_elsewhere("C", [("m", 1)]) == []  # nothing more to release


def test_a_process_gone_silent_stops_holding_its_seats_after_held_for() -> None:
    clock = Clock()
    p = Presence(60, clock, held_for=30)
    p.held_elsewhere("B", [("m", 1), ("n", 0)])
    clock.now += 25
    p.held_elsewhere("B", [("n", 0)])  # a heartbeat that no longer lists ("m", 1)
    assert p.expire() == []
    clock.now += 10  # 35 s since ("m", 1) was last heard of
    assert p.expire() == [("m", 1)]
    assert p.away("m", 1) == 35 and p.claim_in("m", 1) == 25  # away since its last word
    assert p.away("n", 0) == 0
    clock.now += 30  # B died: no heartbeat since
    assert p.away("n", 0) == 40 and p.claim_in("n", 0) == 20  # its last heartbeat, 40 s ago
    assert p.expire() == []


def test_this_processes_seats_are_published_as_they_come_and_go() -> None:
    told: list[tuple[str, tuple[str, int]]] = []
    p = Presence(60, Clock())
    p.publish = lambda op, key: told.append((op, key))
    p.opened("m", 0)
    p.opened("m", 0)  # a second tab: nothing new for the others
    p.opened("m", None)  # a local game's shared seat: not an online seat
    p.closed("m", 0)
    assert told == [("open", ("m", 0))] and p.open_here() == [("m", 0)]
    p.closed("m", 0)
    assert told == [("open", ("m", 0)), ("close", ("m", 0))] and p.open_here() == []


def test_presence_messages_read_back_and_fit_in_a_notification() -> None:
    keys = [(f"match{i:07d}xyz", i % 2) for i in range(900)]
    messages = encode("p1", "beat", keys)
    assert len(messages) > 1 and all(len(m) < 8000 for m in messages)
    read = [decode(m) for m in messages]
    assert all(r is not None and r[:2] == ("p1", "beat") for r in read)
    assert [k for r in read if r is not None for k in r[2]] == keys
    assert encode("p1", "ask", []) == ["p1 ask "] and decode("p1 ask ") == ("p1", "ask", [])
    assert decode("p1 steal m:0") is None and decode("") is None
    assert decode("p1 open m:7,:1,m:x,ok:1") == ("p1", "open", [("ok", 1)])


async def _until(done: Callable[[], bool], what: str) -> None:
    """Wait (a notification's round trip, not a clock) until ``done()``."""
    for _ in range(500):
        if done():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"never happened: {what}")


def test_processes_share_their_seats_through_postgresql(pg_url: str) -> None:  # noqa: F811
    """Relays on one database stand for server processes, each with its own Presence on one injected
    clock; their heartbeats are the test's to send (``beat_now``)."""

    async def scenario() -> None:
        clock = Clock()
        pa, pb, pc = (Presence(60, clock, held_for=30) for _ in range(3))
        came_or_went: list[tuple[str, int]] = []
        a = PresenceRelay(pg_url, pa, lambda m, s: came_or_went.append((m, s)), beat=3600)
        b = PresenceRelay(pg_url, pb, lambda m, s: None, beat=3600)
        c = PresenceRelay(pg_url, pc, lambda m, s: None, beat=3600)
        await a.start()
        await b.start()
        pb.opened("m", 1)  # a socket on B
        await _until(lambda: pa.away("m", 1) == 0, "A sees the seat B holds")
        assert came_or_went == [("m", 1)] and pa.claim_in("m", 1) is None
        pb.closed("m", 1)
        await _until(lambda: pa.claim_in("m", 1) == 60, "A sees it leave B")
        assert came_or_went == [("m", 1)] * 2

        # A process that dies says nothing more: its seats expire held_for after its last word,
        # while those of a process that keeps beating stay.
        dead = Publisher(pg_url, PRESENCE_CHANNEL)
        dead.start()
        dead.send(encode("dead", "open", [("n", 0)])[0])
        dead.close()
        pb.opened("k", 0)
        await _until(lambda: pa.away("n", 0) == 0 and pa.away("k", 0) == 0, "A sees both")
        clock.now += 20
        b.beat_now()
        pb.opened("z", 1)  # after the beat, on the same connection: here once the beat is
        await _until(lambda: pa.away("z", 1) == 0, "B's beat")
        a.beat_now()
        assert pa.claim_in("n", 0) is None  # 20 s: within held_for
        clock.now += 15
        a.beat_now()
        assert came_or_went[-1] == ("n", 0)
        assert pa.away("n", 0) == 35 and pa.claim_in("n", 0) == 25  # away since its last word
        assert pa.away("k", 0) == 0 and pa.claim_in("k", 0) is None

        await c.start()  # a process (re)starting asks, and hears B's seats at once
        await _until(lambda: pc.away("k", 0) == 0, "C hears B's seats")
        await b.stop()  # a process that stops says so: its seats leave at once
        await _until(lambda: pa.claim_in("k", 0) == 60 and pc.claim_in("k", 0) == 60, "B's bye")
        await a.stop()
        await c.stop()

    asyncio.run(scenario())


def test_a_match_forgotten_keeps_only_its_seats_held_open() -> None:
    clock = Clock()
    p = Presence(60, clock, held_for=30)
    p.seen("m", 0)
    p.opened("m", 1)
    p.held_elsewhere("B", [("n", 0)])
    p.seen("n", 1)
    p.forget("m")
    p.forget("n")
    assert p.known() == 2 and p.away("m", 1) == 0 and p.away("n", 0) == 0  # both held open
    assert p.away("m", 0) is None and p.away("n", 1) is None
    p.closed("m", 1)
    p.released_elsewhere("B")
    p.forget("m")
    p.forget("n")
    assert p.known() == 0


def test_presence_keeps_no_more_than_the_matches_the_server_holds(store: Store) -> None:  # noqa: F811
    """Each online match's seats were kept seen for as long as the server ran: memory grew with
    every match ever made, however many the server let go (max_live)."""
    options = ServerSettings(rate=1000, burst=1000, max_live=3)
    app = create_app(store, seeded_dice(), settings=options, clock=Clock())
    hub = app.state.hub
    with TestClient(app) as c:
        made = [new_match(c, mode="online") for _ in range(12)]
        assert len(hub.live) == 3 and hub.presence.known() == 3  # the creator's seat of each held
        assert hub.presence.decisions() == 3  # and the clock of each one's decision
        assert hub.presence.away(made[-1]["match_id"], 0) == 0
        # a seat another process held goes: nothing is kept of a match not held here
        hub.presence.held_elsewhere("B", [("elsewhere", 1)])
        hub.presence.released_elsewhere("B")
        hub._presence_changed("elsewhere", 1)
        assert hub.presence.known() == 3
        # a match let go comes back from the store with its clock started again
        token = made[0]["token"]
        r = c.get(f"/api/matches/{made[0]['match_id']}", headers=auth(token))
        assert r.status_code == 200 and hub.presence.away(made[0]["match_id"], 0) == 0


def test_an_action_stored_by_another_process_starts_the_decisions_clock_here(pg_url: str) -> None:  # noqa: F811
    """Two apps on one PostgreSQL database stand for two server processes: a player acting on A
    after 590 s of a 600 s decision gives the opponent's next decision its full time on B too."""
    clock = Clock()
    options = ServerSettings(rate=1000, burst=1000, away_after=10_000, idle_after=600)  # idle only
    a_app = create_app(Store(pg_url), seeded_dice(3), settings=options, clock=clock)
    b_app = create_app(Store(pg_url), seeded_dice(3), settings=options, clock=clock)
    with TestClient(a_app) as a, TestClient(b_app) as b:
        m = new_match(a, mode="online")
        tokens = (m["token"], m["invite_url"].split("#token=")[1])
        mid = m["match_id"]
        first = b.get(f"/api/matches/{mid}", headers=auth(tokens[1])).json()
        acting = first["turn"]
        b.get(f"/api/matches/{mid}", headers=auth(tokens[acting]))  # B has seen the player to act
        with b.websocket_connect(f"/ws/matches/{mid}?token={tokens[1 - acting]}") as waiting:
            assert waiting.receive_json()["state"]["claim_in"] == 600
            clock.now += 590
            s = a.get(f"/api/matches/{mid}", headers=auth(tokens[acting])).json()
            body: dict[str, object] = {"action": "roll"} if "roll" in s["actions"] else {
                "action": "play", "play": s["plays"][0]}
            r = a.post(f"/api/matches/{mid}/actions", headers=auth(tokens[acting]),
                       json=body | {"version": s["version"]})
            assert r.status_code == 200, r.text
            pushed = waiting.receive_json()["state"]  # B heard A's commit and caught up
            assert pushed["version"] == r.json()["version"]
            if pushed["turn"] == 1 - acting:
                assert pushed["claim_in"] is None  # now B's seat decides: nothing to claim
            else:  # the same player's next decision (a move after the roll): its full time again
                assert pushed["claim_in"] == 600 and pushed["opponent_idle"] == 0
