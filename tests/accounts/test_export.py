"""Export: an account's finished matches as one zip of .mat and .sgf files that read back."""

from __future__ import annotations

import io
import zipfile

from gammon.accounts import Accounts
from gammon.accounts.export import export_matches
from gammon.accounts.games import claim_seats, delete_account
from gammon.formats.mat import read_mat
from gammon.formats.sgf import read_sgf
from gammon.store import LogChange
from gammon.store.repository import MatchSummary
from tests.accounts.conftest import finish_match, new_match


def _files(data: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name).decode() for name in archive.namelist()}


def test_the_finished_matches_as_mat_and_sgf(accounts: Accounts) -> None:
    for name in ("Alice", "Bob"):
        accounts.sign_up(name, "password1")
    alice, bob = (accounts.sign_in(n, "password1").token for n in ("Alice", "Bob"))
    online = new_match(accounts.store, "m1", length=3)
    claim_seats(accounts, alice, [online[0]])
    claim_seats(accounts, bob, [online[1]])
    finish_match(accounts.store, "m1", winner=1, length=3)
    guest = new_match(accounts.store, "m2", length=1, names=["me", "Carol: the  best"])
    claim_seats(accounts, alice, [guest[0]])
    finish_match(accounts.store, "m2", winner=0, length=1)
    claim_seats(accounts, alice, [new_match(accounts.store, "m3")[0]])  # not over: left out
    computer = new_match(accounts.store, "m4", mode="computer", length=1)
    claim_seats(accounts, alice, [computer[0]])
    finish_match(accounts.store, "m4", winner=1, length=1)

    files = _files(export_matches(accounts, accounts.signed_in(alice).id))
    assert sorted(files) == [f"2026-01-01-{m}.{ext}" for m in ("m1", "m2", "m4") for ext in ("mat", "sgf")]
    mat = read_mat(files["2026-01-01-m1.mat"])
    assert mat.names == ("Alice", "Bob") and not mat.errors and mat.match_length == 3
    assert mat.games[-1].winner == 1
    assert read_mat(files["2026-01-01-m2.mat"]).names == ("Alice", "Carol the best")
    assert read_mat(files["2026-01-01-m4.mat"]).names == ("Alice", "engine")
    sgf = read_sgf(files["2026-01-01-m1.sgf"])
    assert sgf.names == ("Alice", "Bob")

    # Bob's export, once Alice's account is gone: her seat is anonymous
    delete_account(accounts, alice, "password1")
    files = _files(export_matches(accounts, accounts.signed_in(bob).id))
    assert sorted(files) == ["2026-01-01-m1.mat", "2026-01-01-m1.sgf"]
    assert read_mat(files["2026-01-01-m1.mat"]).names == ("Anonymous", "Bob")


def test_an_account_without_finished_matches_gets_an_empty_zip(accounts: Accounts) -> None:
    account = accounts.sign_up("Alice", "password1")
    assert _files(export_matches(accounts, account.id)) == {}
    # a match still in the old format (its requests not yet stored as actions) is left out
    old = new_match(accounts.store, "old")
    accounts.store.append(
        "old",
        LogChange(
            base=0, version=1, first=0, actions=[], summary=MatchSummary("over", "4HPwATDgc/ABMA", (5, 0))
        ),
    )
    claim_seats(accounts, accounts.sign_in("Alice", "password1").token, [old[0]])
    assert _files(export_matches(accounts, account.id)) == {}
