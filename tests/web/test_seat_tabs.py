"""Which browser tabs hold seats in the other server processes (gammon.web.seat_tabs), message by
message: no database, the messages handed in as the subscriber would."""

from __future__ import annotations

from gammon.web.presence import Presence
from gammon.web.seat_tabs import Holder, SeatTabs, strangers, tab_hash
from tests.web.conftest import Clock


def _tabs(clock: Clock) -> tuple[SeatTabs, Presence, list[tuple[str, int, str, int | None]], list[str]]:
    presence = Presence(60, clock, held_for=30)
    taken: list[tuple[str, int, str, int | None]] = []
    tabs = SeatTabs("postgresql://nowhere/none", "here", presence, lambda *a: taken.append(a))
    sent: list[str] = []
    tabs.publish = sent.append
    return tabs, presence, taken, sent


def test_another_tab_through_another_process_is_another_browser() -> None:
    tabs, presence, _, _ = _tabs(Clock())
    presence.held_elsewhere("there", [("m", 0)])
    tabs.apply(f"there open m:0 {tab_hash('first')} -")
    assert tabs.elsewhere(("m", 0), "second", None)
    assert not tabs.elsewhere(("m", 0), "first", None)  # the same tab coming back
    assert not tabs.elsewhere(("m", 1), "second", None)  # the other seat
    tabs.apply(f"there close m:0 {tab_hash('first')} -")
    assert not tabs.elsewhere(("m", 0), "second", None)


def test_an_accounts_own_devices_are_not_strangers() -> None:
    holders: set[Holder] = {(tab_hash("phone"), 7)}
    assert not strangers(holders, "laptop", 7)
    assert strangers(holders, "laptop", None) and strangers(holders, "laptop", 8)
    assert strangers({(tab_hash("phone"), None)}, "laptop", 7)  # a tab not signed in


def test_a_process_gone_silent_holds_nothing() -> None:
    clock = Clock()
    tabs, presence, _, _ = _tabs(clock)
    presence.held_elsewhere("there", [("m", 0)])
    tabs.apply(f"there open m:0 {tab_hash('first')} -")
    clock.now += 31  # past held_for without a heartbeat
    assert not tabs.elsewhere(("m", 0), "second", None)


def test_this_processes_tabs_are_told_once_each_and_a_takeover_reaches_the_hub() -> None:
    tabs, _, taken, sent = _tabs(Clock())
    tabs.opened(("m", 0), "first", 7)
    tabs.opened(("m", 0), "first", 7)  # a second socket of the tab: nothing new
    tabs.closed(("m", 0), "first", 7)
    assert sent == [f"here open m:0 {tab_hash('first')} 7"]
    tabs.apply("there ask :0 - -")  # a process started: it is told what is open here
    assert sent[-1] == f"here open m:0 {tab_hash('first')} 7"
    tabs.closed(("m", 0), "first", 7)
    assert sent[-1] == f"here close m:0 {tab_hash('first')} 7"
    tabs.take(("m", 1), "second", None)
    assert sent[-1] == f"here take m:1 {tab_hash('second')} -"
    tabs.apply(f"there take m:1 {tab_hash('second')} -")
    tabs.apply(f"here take m:1 {tab_hash('second')} -")  # its own: ignored
    tabs.apply("there take m:x h -")  # not a seat: ignored
    assert taken == [("m", 1, tab_hash("second"), None)]
