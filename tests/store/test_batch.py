"""Group commits: many matches' changes in one transaction, each caller told of its own outcome."""

from __future__ import annotations

import asyncio

import pytest

from gammon.errors import StoreConflictError, UnknownMatchError
from gammon.game import Roll
from gammon.records import MatchAction
from gammon.store import LogChange, MatchRecord, Store
from gammon.store.batch import BatchWriter
from gammon.store.repository import MatchSummary

SUMMARY = MatchSummary(status="active", position_id="4HPwATDgc/ABMA", score=(0, 0))


def _match(store: Store, match_id: str) -> None:
    store.create_match(MatchRecord(id=match_id, mode="local", rules={"match_length": 0},
                                   seat_hashes=("a" * 64, "a" * 64)))


def _change(base: int, count: int, summary: MatchSummary | None = None) -> LogChange:
    actions = [MatchAction(0, Roll(0, (3, 1))) for _ in range(count)]
    return LogChange(base=base, version=base + count, first=base, actions=actions, summary=summary)


def test_a_conflicting_entry_stores_nothing_and_leaves_the_others_stored(store: Store) -> None:
    for m in ("m1", "m2", "m3"):
        _match(store, m)
    store.append("m2", _change(0, 1))
    errors = store.append_batch([("m1", _change(0, 2, SUMMARY)), ("m2", _change(0, 1)),
                                 ("m3", _change(0, 3)), ("nope", _change(0, 1))])
    assert errors[0] is None and errors[2] is None
    assert isinstance(errors[1], StoreConflictError) and "m2" in str(errors[1])
    assert isinstance(errors[3], UnknownMatchError) and "nope" in str(errors[3])
    assert len(store.load_log("m1").actions) == 2 and len(store.load_log("m2").actions) == 1
    assert store.version("m3") == 3 and store.summary("m1").position_id == SUMMARY.position_id


def test_the_writer_answers_each_caller_once_its_actions_are_committed(store: Store) -> None:
    ids = [f"g{i}" for i in range(40)]
    for m in ids:
        _match(store, m)
    writer = BatchWriter(store)

    async def play() -> None:
        await asyncio.gather(*(writer.append(m, _change(0, 2, SUMMARY)) for m in ids))
        with pytest.raises(StoreConflictError):
            await writer.append(ids[0], _change(0, 1))  # that version is gone

    asyncio.run(play())
    writer.close()
    assert all(store.version(m) == 2 and store.action_count(m) == 2 for m in ids)
    assert writer.commits < len(ids) + 1  # some commits carried several matches


def test_a_batch_may_take_back_what_an_earlier_entry_of_it_stored(store: Store) -> None:
    _match(store, "m1")
    undo = LogChange(base=2, version=3, first=1, actions=[], retract_from=1)
    assert store.append_batch([("m1", _change(0, 2)), ("m1", undo)]) == [None, None]
    log = store.load_log("m1")
    assert len(log.actions) == 1 and (log.version, log.retracted_at) == (3, 3)
    assert store.action_count("m1") == 1
