from __future__ import annotations

import pytest

from gammon.errors import StoreConflictError, UnknownMatchError
from gammon.store import ActionRecord, MatchRecord, Store
from gammon.store.repository import MatchSummary, hash_token


def _record(match_id: str = "m1") -> MatchRecord:
    return MatchRecord(id=match_id, mode="online", rules={"match_length": 3},
                       seat_hashes=(hash_token("a"), hash_token("b")), level=None)


def test_match_and_actions_round_trip(store: Store) -> None:
    store.create_match(_record())
    store.append_action("m1", ActionRecord(seq=0, kind="roll", player=None, rolls=((3, 3), (5, 2))))
    store.append_action("m1", ActionRecord(seq=1, kind="play", player=0, args={"play": "13/8 6/4"}),
                        MatchSummary(status="active", position_id="4HPwATDgc/ABMA", score=(0, 1)))
    rec = store.load_match("m1")
    assert rec.mode == "online" and rec.rules == {"match_length": 3}
    assert rec.seat_hashes == (hash_token("a"), hash_token("b"))
    actions = store.load_actions("m1")
    assert [a.kind for a in actions] == ["roll", "play"]
    assert actions[0].rolls == ((3, 3), (5, 2)) and actions[0].player is None
    assert actions[1].args == {"play": "13/8 6/4"} and actions[1].player == 0
    assert store.summary("m1") == MatchSummary(status="active", position_id="4HPwATDgc/ABMA", score=(0, 1))


def test_log_is_append_only(store: Store) -> None:
    store.create_match(_record())
    store.append_action("m1", ActionRecord(seq=0, kind="roll"))
    with pytest.raises(StoreConflictError, match="action 0"):
        store.append_action("m1", ActionRecord(seq=0, kind="double", player=1))
    with pytest.raises(StoreConflictError, match="action 5"):
        store.append_action("m1", ActionRecord(seq=5, kind="double", player=1))
    assert [a.kind for a in store.load_actions("m1")] == ["roll"]


def test_unknown_match_is_a_clear_error(store: Store) -> None:
    with pytest.raises(UnknownMatchError, match="'nope'"):
        store.load_match("nope")
    with pytest.raises(UnknownMatchError, match="'nope'"):
        store.append_action("nope", ActionRecord(seq=0, kind="roll"))


def test_data_survives_a_new_store_on_the_same_database(store_url: str) -> None:
    first = Store(store_url)
    first.create_match(_record("a"))
    first.create_match(_record("b"))
    first.append_action("b", ActionRecord(seq=0, kind="roll", rolls=((6, 1),)))
    first.close()
    second = Store(store_url)
    assert second.match_ids() == ["a", "b"]
    assert second.load_actions("b")[0].rolls == ((6, 1),)
    assert second.count_actions() == 1
    second.close()


def test_default_url_is_a_file_in_the_user_data_dir(monkeypatch, tmp_path) -> None:
    from gammon.store import default_database_url

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = default_database_url()
    assert url == f"sqlite:///{tmp_path / 'gammon' / 'gammon.sqlite3'}"
    assert (tmp_path / "gammon").is_dir()
