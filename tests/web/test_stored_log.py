"""A match stored by an earlier version of gammon still loads: the rows below are written as that
version wrote them (one row per request: the kind as the method name, the play's notation, the
resignation's kind, every die thrown), straight into the tables, and replayed by today's code, which
stores the match as its games' actions instead, once."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, insert, select

from gammon.dice import ScriptedDice
from gammon.game import AcceptResignation, Double, PlayMade, Resign, Roll, Take
from gammon.records import match_actions
from gammon.rules import WinKind
from gammon.store import MatchRecord, Store
from gammon.store.models import ActionRow
from gammon.store.repository import hash_token
from gammon.web.session import LiveMatch
from gammon.web.views import match_view

# (player, kind, args, rolls) as stored by the web server before action kinds were an enum
OLD_LOG = [
    (None, "roll", {}, [[2, 2], [3, 1]]),  # the opening roll: a tie, then 3-1 for player 0
    (0, "play", {"play": "8/5 6/5"}, []),
    (1, "roll", {}, [[6, 4]]),
    (1, "play", {"play": "24/14"}, []),
    (None, "undo", {}, []),  # the shared seat of a local game takes it back
    (1, "play", {"play": "24/18 13/9"}, []),
    (0, "double", {}, []),
    (1, "take", {}, []),
    (0, "roll", {}, [[6, 6]]),
    (0, "play", {"play": "24/18(2) 13/7(2)"}, []),
    (1, "resign", {"kind": 1}, []),
    (0, "accept_resignation", {}, []),
    (None, "new_game", {}, []),
    (None, "roll", {}, [[5, 6]]),
]
OLD_RULES = {"match_length": 3, "crawford": True, "jacoby": True, "beavers": False, "cube_limit": None,
             "automatic_doubles": 0, "use_cube": True}


def test_an_action_log_in_the_old_format_still_loads(store: Store) -> None:
    store.create_match(MatchRecord(id="old", mode="local", rules=OLD_RULES,
                                   seat_hashes=(hash_token("t"), hash_token("t"))))
    with store.engine.begin() as conn:
        for seq, (player, kind, args, rolls) in enumerate(OLD_LOG):
            conn.execute(insert(ActionRow).values(match_id="old", seq=seq, player=player, kind=kind,
                                                  args=args, rolls=rolls, created_at=datetime.now(UTC)))
    live = LiveMatch.load(store, "old", ScriptedDice([(4, 2)]))
    assert live.version == len(OLD_LOG)
    first, second = live.match.games
    history = first.history
    assert history[0] == Roll(0, (3, 1), opening=True, ties=((2, 2),))
    assert [str(a.play) for a in history if isinstance(a, PlayMade)] == [
        "8/5 6/5", "24/18 13/9", "24/18(2) 13/7 13/7*"]  # the undone 24/14 is gone; 7 was a blot
    assert history[4:6] == [Double(0, 2), Take(1)]
    assert history[-2:] == [Resign(1, WinKind.SINGLE), AcceptResignation(0)]
    assert first.result is not None and (first.result.winner, first.result.points) == (0, 2)
    assert live.match.score == (2, 0)
    assert second.history == [Roll(1, (5, 6), opening=True)] and second.turn == 1
    view = match_view(live, None)
    assert view.log[:3] == ["Game 1",
                            "White throws 3, Black throws 1 (after the tie 2-2): White plays first",
                            "White plays 3-1: 8/5 6/5"]
    # Stored as the games' actions now, the request rows gone; the same match loads from them.
    assert store.load_log("old").actions == match_actions(live.match)
    with store.engine.connect() as conn:
        assert conn.scalar(select(func.count()).select_from(ActionRow)) == 0
    again = LiveMatch.load(Store(store.url), "old", ScriptedDice([(4, 2)]))
    assert [g.history for g in again.match.games] == [g.history for g in live.match.games]
    assert again.version == live.version and again.match.score == (2, 0)
