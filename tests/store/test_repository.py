from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from gammon.errors import StoreConflictError, UnknownMatchError
from gammon.game import Double, PlayMade, Resign, Roll, Take
from gammon.position import Position
from gammon.records import MatchAction
from gammon.rules import WinKind
from gammon.store import LogChange, MatchRecord, Store
from gammon.store.repository import MatchSummary, hash_token

OPENING = MatchAction(0, Roll(0, (3, 1), opening=True, ties=((2, 2),)))
PLAY = MatchAction(0, PlayMade(0, (3, 1), Position.initial().parse_play("8/5 6/5", (3, 1))))
ACTIONS = [OPENING, PLAY, MatchAction(0, Double(1, 2)), MatchAction(0, Take(0)),
           MatchAction(1, Resign(1, WinKind.GAMMON))]
SUMMARY = MatchSummary(status="active", position_id="4HPwATDgc/ABMA", score=(0, 1))


def _record(match_id: str = "m1") -> MatchRecord:
    return MatchRecord(id=match_id, mode="online", rules={"match_length": 3},
                       seat_hashes=(hash_token("a"), hash_token("b")), level=None)


def test_match_and_actions_round_trip(store: Store) -> None:
    store.create_match(_record())
    store.append("m1", LogChange(base=0, version=2, first=0, actions=ACTIONS[:2]))
    store.append("m1", LogChange(base=2, version=5, first=2, actions=ACTIONS[2:], summary=SUMMARY))
    rec = store.load_match("m1")
    assert rec.mode == "online" and rec.rules == {"match_length": 3}
    assert rec.seat_hashes == (hash_token("a"), hash_token("b"))
    log = store.load_log("m1")
    assert log.actions == ACTIONS and (log.version, log.retracted_at, log.first) == (5, 0, 0)
    assert str(log.actions[1].action.play) == "8/5 6/5"  # type: ignore[union-attr]
    assert store.load_log("m1", 3).actions == ACTIONS[3:]
    assert store.summary("m1") == SUMMARY
    assert store.version("m1") == 5 and store.action_count("m1") == 5


def test_a_change_follows_the_version_it_was_made_on(store: Store) -> None:
    store.create_match(_record())
    store.append("m1", LogChange(base=0, version=1, first=0, actions=[OPENING]))
    with pytest.raises(StoreConflictError, match="version 0 made where it is 1"):
        store.append("m1", LogChange(base=0, version=1, first=0, actions=[OPENING]))
    with pytest.raises(StoreConflictError, match="action 0 is already stored"):  # the unique (match, seq)
        store.append("m1", LogChange(base=1, version=3, first=0, actions=[OPENING, PLAY]))
    with pytest.raises(StoreConflictError, match="does not advance"):
        store.append("m1", LogChange(base=1, version=1, first=1, actions=[]))
    assert store.load_log("m1").actions == [OPENING] and store.version("m1") == 1


def test_an_undo_takes_the_last_action_back_and_marks_the_version(store: Store) -> None:
    store.create_match(_record())
    store.append("m1", LogChange(base=0, version=2, first=0, actions=ACTIONS[:2]))
    store.append("m1", LogChange(base=2, version=3, first=1, actions=[], retract_from=1))
    log = store.load_log("m1")
    assert log.actions == [OPENING] and (log.version, log.retracted_at) == (3, 3)
    store.append("m1", LogChange(base=3, version=4, first=1, actions=[PLAY]))  # played again
    log = store.load_log("m1")
    assert log.actions == ACTIONS[:2] and (log.version, log.retracted_at) == (4, 3)
    assert store.action_count("m1") == 2


def test_unknown_match_is_a_clear_error(store: Store) -> None:
    with pytest.raises(UnknownMatchError, match="'nope'"):
        store.load_match("nope")
    with pytest.raises(UnknownMatchError, match="'nope'"):
        store.load_log("nope")
    with pytest.raises(UnknownMatchError, match="'nope'"):
        store.append("nope", LogChange(base=0, version=1, first=0, actions=[OPENING]))


def test_an_id_holding_nul_is_no_match(store: Store) -> None:
    """A match id from a client's URL (GET /api/matches/a%00b): PostgreSQL refuses text holding NUL,
    and every read raised DataError (a 500) where an unknown id is UnknownMatchError (a 404). In a
    group commit, such an entry would have failed the others' changes too."""
    for read in (store.load_match, store.load_log, store.summary, store.version, store.action_count):
        with pytest.raises(UnknownMatchError, match=r"no match 'a\\x00b'"):
            read("a\x00b")
    assert store.load_requests("a\x00b") == []
    store.create_match(_record())
    errors = store.append_batch(
        [
            ("a\x00b", LogChange(base=0, version=1, first=0, actions=[OPENING])),
            ("m1", LogChange(base=0, version=1, first=0, actions=[OPENING])),
        ]
    )
    assert [type(e).__name__ for e in errors] == ["UnknownMatchError", "NoneType"]
    assert store.load_log("m1").actions == [OPENING]


def test_data_survives_a_new_store_on_the_same_database(store_url: str) -> None:
    first = Store(store_url)
    first.create_match(_record("a"))
    first.create_match(_record("b"))
    first.append("b", LogChange(base=0, version=1, first=0, actions=[OPENING]))
    first.close()
    second = Store(store_url)
    assert second.match_ids() == ["a", "b"]
    assert second.load_log("b").actions == [OPENING]
    assert second.count_actions() == 1
    second.close()


def test_a_database_made_before_versions_gets_them(store_url: str) -> None:
    engine = create_engine(store_url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as conn:  # the matches table as gammon made it before
        conn.execute(text("CREATE TABLE matches (id VARCHAR(32) PRIMARY KEY, created_at TIMESTAMP, "
                          "mode VARCHAR(16), level VARCHAR(32), rules JSON, seat0_hash VARCHAR(64), "
                          "seat1_hash VARCHAR(64), action_count INTEGER, status VARCHAR(16), "
                          "position_id VARCHAR(32), score0 INTEGER, score1 INTEGER)"))
        conn.execute(text("INSERT INTO matches VALUES ('old', '2026-01-01 00:00:00', 'local', NULL, "
                          "'{}', 'h', 'h', 7, 'active', NULL, 0, 0)"))
    engine.dispose()
    store = Store(store_url, check=True)  # the columns it lacks are no fault: the store adds them
    try:
        assert store.version("old") == 7  # its rows were its version
        assert store.load_log("old").retracted_at == 0
    finally:
        store.close()


def test_default_url_is_a_file_in_the_user_data_dir(monkeypatch, tmp_path) -> None:
    from gammon.store import default_database_url

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = default_database_url()
    assert url == f"sqlite:///{tmp_path / 'gammon' / 'gammon.sqlite3'}"
    assert (tmp_path / "gammon").is_dir()
