"""The sign-in throttle on its own: a window of failures per name and per address, on a clock the
test moves."""

from __future__ import annotations

import pytest

from gammon.accounts import SignInThrottle, ThrottledError
from gammon.accounts.errors import TooManySignUpsError
from gammon.accounts.throttle import SignUpLimit


class Seconds:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_name_is_refused_after_its_failures_until_the_oldest_leaves_the_window() -> None:
    clock = Seconds()
    throttle = SignInThrottle(per_name=3, per_address=100, window=60.0, clock=clock)
    for t in (0.0, 10.0, 20.0):
        clock.now = t
        throttle.check("alice", "a1")
        throttle.failed("alice", "a1")
    with pytest.raises(ThrottledError) as refused:
        throttle.check("alice", "a2")  # from another address too
    assert refused.value.retry_after == pytest.approx(40.0)
    throttle.check("bob", "a1")  # another name is not held back
    clock.now = 60.0
    throttle.check("alice", "a1")  # the first failure has left the window


def test_an_address_is_refused_after_its_failures_over_many_names() -> None:
    clock = Seconds()
    throttle = SignInThrottle(per_name=3, per_address=5, window=60.0, clock=clock)
    for i in range(5):
        throttle.failed(f"name{i}", "a1")
    with pytest.raises(ThrottledError):
        throttle.check("name9", "a1")
    throttle.check("name9", "a2")
    throttle.check("name9", None)  # no address known: only the name counts


def test_a_success_clears_its_names_failures_not_its_addresses() -> None:
    throttle = SignInThrottle(per_name=2, per_address=3, window=60.0, clock=Seconds())
    throttle.failed("alice", "a1")
    throttle.failed("alice", "a1")
    throttle.succeeded("alice")
    throttle.check("alice", "a2")
    throttle.failed("bob", "a1")
    with pytest.raises(ThrottledError, match="try again in 60 s"):
        throttle.check("carol", "a1")


def test_an_attempt_counts_from_its_start_until_forgiven() -> None:
    throttle = SignInThrottle(per_name=2, per_address=2, window=60.0, clock=Seconds())
    first = throttle.attempt("alice", "a1")
    throttle.attempt("alice", "a2")  # while the first is checked: both count
    with pytest.raises(ThrottledError):
        throttle.attempt("alice", "a3")
    throttle.forgive(first)  # the first was right: neither alice nor a1 counts it
    throttle.attempt("alice", "a1")
    throttle.attempt("bob", "a1")
    with pytest.raises(ThrottledError):
        throttle.attempt("carol", "a1")


def test_right_passwords_leave_no_keys_behind() -> None:
    throttle = SignInThrottle(per_name=2, per_address=2, window=60.0, clock=Seconds())
    for i in range(100):
        throttle.forgive(throttle.attempt(f"name{i}", f"address{i}"))
    assert throttle._failures == {}


def test_the_wait_told_is_never_shorter_than_the_wait() -> None:
    # 59.4 s to wait was told as "59 s" (and Retry-After: 59): a client that waited as told was
    # refused again; the seconds are rounded up
    clock = Seconds()
    throttle = SignInThrottle(per_name=1, per_address=100, window=60.0, clock=clock)
    throttle.failed("alice", None)
    clock.now = 0.6
    with pytest.raises(ThrottledError, match="try again in 60 s") as refused:
        throttle.check("alice", None)
    assert refused.value.retry_after == 60
    clock.now += refused.value.retry_after
    throttle.check("alice", None)  # waited as told: let through
    signups = SignUpLimit(per_address=1, window=60.0, clock=clock)
    signups.attempt("a1")
    clock.now += 0.6
    with pytest.raises(TooManySignUpsError, match="try again in 60 s") as too_many:
        signups.attempt("a1")
    assert too_many.value.retry_after == 60
    clock.now += too_many.value.retry_after
    signups.attempt("a1")


def test_a_full_throttle_is_not_scanned_at_every_failure() -> None:
    # past max_keys, every failure scanned all the keys for ones to forget, even when every key had
    # a failure in the window (addresses by the thousand, as an IPv6 block gives): 22 ms a failure,
    # with the lock held, at 100,000 keys
    clock = Seconds()
    throttle = SignInThrottle(window=60.0, clock=clock, max_keys=100)
    scans: list[int] = []
    forget = throttle._forget

    def counted(now: float) -> None:
        scans.append(len(throttle._failures))
        forget(now)

    throttle._forget = counted  # type: ignore[method-assign]
    for i in range(1000):  # 2,000 keys, each with a failure in the window
        throttle.failed(f"name{i}", f"address{i}")
    assert scans == [100, 200, 400, 800, 1600]  # once the keys double, not at each of 950 failures
    clock.now = 61.0  # all out of the window: the next scan forgets them
    for i in range(1201):
        throttle.failed(f"later{i}", None)
    assert scans[-1] == 3200
    assert len(throttle._failures) == 1201 and ("name", "name0") not in throttle._failures
