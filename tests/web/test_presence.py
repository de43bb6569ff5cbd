"""Presence of online players: who is connected, how long the others have been away."""

from __future__ import annotations

import argparse

import pytest

from gammon.cli.serve import add_serve_command
from gammon.web.presence import DEFAULT_AWAY_AFTER, Presence
from tests.web.conftest import Clock


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
