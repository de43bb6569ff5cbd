"""Export: everything kept about an account as one zip: its matches as .mat and .sgf files that
read back, the rest in account.json, its uploads; nothing private of another account."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import UTC, datetime

from sqlalchemy import event, select
from sqlalchemy.orm import sessionmaker

from gammon.accounts import Accounts
from gammon.accounts.export import export_account
from gammon.accounts.games import RATED_KEY, claim_seats, delete_account
from gammon.accounts.lobby import Invitations, Terms
from gammon.accounts.rated import mark_unrated, rate_match
from gammon.dice import RandomDice
from gammon.formats.mat import mat_names, read_mat
from gammon.formats.sgf import read_sgf
from gammon.match import Match
from gammon.records import match_actions
from gammon.rules import Rules, WinKind
from gammon.store import LogChange, Store
from gammon.store.models import (
    AccountRow,
    AccountSessionRow,
    AnalysisJobRow,
    DrillCardRow,
    DrillReviewRow,
    MatchRow,
    ProfileDecisionRow,
    ProfileMatchRow,
)
from gammon.store.repository import MatchSummary
from tests.accounts.conftest import finish_match, new_match


def _files(data: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name).decode() for name in archive.namelist()}


def test_the_matches_as_mat_and_sgf(accounts: Accounts) -> None:
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
    claim_seats(accounts, alice, [new_match(accounts.store, "m3")[0]])  # no moves: listed, no files
    computer = new_match(accounts.store, "m4", mode="computer", length=1)
    claim_seats(accounts, alice, [computer[0]])
    finish_match(accounts.store, "m4", winner=1, length=1)

    files = _files(export_account(accounts, accounts.signed_in(alice).id))
    matches = [f"2026-01-01-{m}.{ext}" for m in ("m1", "m2", "m4") for ext in ("mat", "sgf")]
    assert sorted(files) == [*matches, "account.json"]
    listed = json.loads(files["account.json"])["matches"]
    assert [(m["id"], m["status"], m.get("note")) for m in listed] == [
        ("m1", "over", None),
        ("m2", "over", None),
        ("m3", "active", "no moves yet"),
        ("m4", "over", None),
    ]
    mat = read_mat(files["2026-01-01-m1.mat"])
    assert mat.names == ("Alice", "Bob") and not mat.errors and mat.match_length == 3
    assert mat.games[-1].winner == 1
    assert read_mat(files["2026-01-01-m2.mat"]).names == ("Alice", "Carol the best")
    assert read_mat(files["2026-01-01-m4.mat"]).names == ("Alice", "engine")
    sgf = read_sgf(files["2026-01-01-m1.sgf"])
    assert sgf.names == ("Alice", "Bob")

    # Bob's export, once Alice's account is gone: her seat is anonymous
    delete_account(accounts, alice, "password1")
    files = _files(export_account(accounts, accounts.signed_in(bob).id))
    assert sorted(files) == ["2026-01-01-m1.mat", "2026-01-01-m1.sgf", "account.json"]
    assert read_mat(files["2026-01-01-m1.mat"]).names == ("Anonymous", "Bob")


def test_a_long_name_of_many_bytes_is_fitted_to_what_gnu_backgammon_keeps(accounts: Accounts) -> None:
    # 'Zoë' and 19 CJK characters: 24 characters, 61 bytes; GNU Backgammon keeps a name's first 31
    # bytes and crashed on a cut inside a character, so the .mat file holds the name fitted
    long = "Zoë" + "山" * 19
    alice = accounts.sign_up("Alice", "password1")
    token = accounts.sign_in("Alice", "password1").token
    guest = new_match(accounts.store, "m5", length=1, names=["me", long])
    claim_seats(accounts, token, [guest[0]])
    finish_match(accounts.store, "m5", winner=0, length=1)
    files = _files(export_account(accounts, alice.id))
    names = read_mat(files["2026-01-01-m5.mat"]).names
    assert names == mat_names(("Alice", long)) and len(names[1].encode()) <= 31
    assert names[1].startswith("Zoë山")
    assert read_sgf(files["2026-01-01-m5.sgf"]).names == ("Alice", long)  # SGF keeps it whole


def test_an_account_without_matches_gets_its_account_alone(accounts: Accounts) -> None:
    account = accounts.sign_up("Alice", "password1")
    assert list(_files(export_account(accounts, account.id))) == ["account.json"]
    # a match still in the old format (its requests not yet stored as actions) is left out
    old = new_match(accounts.store, "old")
    accounts.store.append(
        "old",
        LogChange(
            base=0, version=1, first=0, actions=[], summary=MatchSummary("over", "4HPwATDgc/ABMA", (5, 0))
        ),
    )
    claim_seats(accounts, accounts.sign_in("Alice", "password1").token, [old[0]])
    files = _files(export_account(accounts, account.id))
    assert list(files) == ["account.json"]
    [listed] = json.loads(files["account.json"])["matches"]
    assert listed["id"] == "old" and listed["files"] == [] and "no moves" in listed["note"]


def _play(db: Store, match_id: str, length: int, games: int) -> None:
    """Store ``games`` games won by seat 0 (a single game each) and a game under way."""
    match = Match(Rules(match_length=length), RandomDice(5))
    for _ in range(games):
        match.game.roll()
        match.game.resign(WinKind.SINGLE, match.game.turn)
        match.game.accept_resignation()
        match.new_game()
    match.game.roll()
    match.game.play(match.game.legal_plays()[0])
    actions = match_actions(match)
    summary = MatchSummary("active", match.game.position_for(0).id, match.score)
    db.append(match_id, LogChange(base=0, version=len(actions), first=0, actions=actions, summary=summary))


def test_the_game_in_progress_is_left_out_and_the_finished_ones_kept(accounts: Accounts) -> None:
    """An online match under way, and a money session (never over): the export held the moves of
    the game being played; it holds the finished games, and says which game it left out."""
    alice = accounts.sign_up("Alice", "password1")
    token = accounts.sign_in("Alice", "password1").token
    first = new_match(accounts.store, "first", length=5, names=["me", "Carol"])
    _play(accounts.store, "first", length=5, games=0)  # its first game under way
    money = new_match(accounts.store, "money", length=0, names=["me", "Carol"])
    _play(accounts.store, "money", length=0, games=3)
    claim_seats(accounts, token, [first[0], money[0]])
    files = _files(export_account(accounts, alice.id))
    assert sorted(files) == ["2026-01-01-money.mat", "2026-01-01-money.sgf", "account.json"]
    listed = {m["id"]: m for m in json.loads(files["account.json"])["matches"]}
    assert (listed["first"]["files"], listed["first"]["game_in_progress"]) == ([], 1)
    assert listed["first"]["note"] == "no finished game yet: the game in progress is left out"
    assert listed["money"]["game_in_progress"] == 4 and "note" not in listed["money"]
    games = read_mat(files["2026-01-01-money.mat"]).games
    assert len(games) == 3 and all(g.winner is not None for g in games)  # each finished
    sgf = read_sgf(files["2026-01-01-money.sgf"]).match
    assert len(sgf.games) == 3 and sgf.game.result is not None


def _profile_rows(db: Store, account_id: int, tag: str) -> None:
    """A profile match of the account with one marked decision, a drill card of it and an answer."""
    at = datetime(2026, 1, 2, tzinfo=UTC)
    with sessionmaker(db.engine).begin() as s:
        m = ProfileMatchRow(
            account_id=account_id,
            seat=0,
            fingerprint=f"fp-{tag}",
            source="file",
            source_format="mat",
            source_name=f"{tag}.mat",
            played_at=at,
            analysed_at=at,
            plies=0,
            player_name=tag,
            opponent_name="x",
            match_length=3,
            player_score=3,
            opponent_score=1,
            result="won",
            decisions=9,
            error_total=0.5,
            pr=27.8,
            checker_error_rate=0.05,
            cube_error_rate=0.0,
            luck_total=0.1,
            luck_rate=0.01,
        )
        s.add(m)
        s.flush()
        d = ProfileDecisionRow(
            profile_match_id=m.id,
            account_id=account_id,
            game=1,
            turn=3,
            kind="move",
            position_id="4HPwATDgc/ABMA",
            gnubg_id="4HPwATDgc/ABMA:cAkAAAAAAAAA",
            xgid=f"XGID-{tag}",
            dice="31",
            played="8/5 6/5",
            best="24/23 13/10",
            error=0.2,
            mark="bad",
            ranking=[["24/23 13/10", 0.1], ["8/5 6/5", -0.1]],
        )
        s.add(d)
        s.flush()
        card = DrillCardRow(
            account_id=account_id,
            decision_id=d.id,
            due=at,
            state="review",
            scheduler_card={"tag": tag},
            reviews=1,
            correct=0,
            last_review=at,
        )
        s.add(card)
        s.flush()
        s.add(
            DrillReviewRow(
                card_id=card.id, account_id=account_id, reviewed_at=at, answer=tag, error=0.2, grade=1
            )
        )
        s.add(
            AnalysisJobRow(
                account_id=account_id,
                seat=0,
                file_name=f"../{tag}\t.mat",
                file_format="mat",
                file_data=f"the file of {tag}".encode(),
                plies=0,
                status="queued",
                attempts=0,
                created_at=at,
            )
        )


def test_the_export_holds_everything_kept_about_the_account_and_nothing_private_of_another(
    accounts: Accounts,
) -> None:
    """Money sessions (never over), unfinished matches, the rating history, the profile, drills,
    uploads and invitations were all missing: only finished matches were exported."""
    alice, bob = (accounts.sign_up(n, "password1") for n in ("Alice", "Bob"))
    alice_token, bob_token = (accounts.sign_in(n, "password1").token for n in ("Alice", "Bob"))
    rated = new_match(accounts.store, "rated", length=3)
    claim_seats(accounts, alice_token, [rated[0]])
    claim_seats(accounts, bob_token, [rated[1]])
    finish_match(accounts.store, "rated", winner=0, length=3)
    rate_match(accounts, "rated")
    money = new_match(accounts.store, "money", length=0, names=["me", "Carol"])
    _play(accounts.store, "money", length=0, games=2)
    unfinished = new_match(accounts.store, "unfinished", length=7)
    _play(accounts.store, "unfinished", length=7, games=1)
    claim_seats(accounts, alice_token, [money[0], unfinished[0]])
    bobs_own = new_match(accounts.store, "bobs-own", length=1)
    claim_seats(accounts, bob_token, [bobs_own[0]])
    _profile_rows(accounts.store, alice.id, "alice-analysis")
    _profile_rows(accounts.store, bob.id, "bobs-secret")
    Invitations(accounts).post(alice.id, Terms(match_length=5), to="Bob")

    data = export_account(accounts, alice.id)
    files = _files(data)
    assert sorted(files) == [
        "2026-01-01-money.mat",
        "2026-01-01-money.sgf",
        "2026-01-01-rated.mat",
        "2026-01-01-rated.sgf",
        "2026-01-01-unfinished.mat",
        "2026-01-01-unfinished.sgf",
        "account.json",
        f"uploads/{_job_id(accounts, alice.id)}-_alice-analysis_.mat",
    ]
    # their finished games: the game in progress is left out
    money_mat = read_mat(files["2026-01-01-money.mat"])
    assert money_mat.match_length == 0 and len(money_mat.games) == 2 and not money_mat.errors
    assert money_mat.names == ("Alice", "Carol")
    assert read_sgf(files["2026-01-01-money.sgf"]).names == ("Alice", "Carol")
    unfinished_mat = read_mat(files["2026-01-01-unfinished.mat"])
    assert unfinished_mat.match_length == 7 and len(unfinished_mat.games) == 1 and not unfinished_mat.errors
    assert (
        files[f"uploads/{_job_id(accounts, alice.id)}-_alice-analysis_.mat"] == "the file of alice-analysis"
    )

    kept = json.loads(files["account.json"])
    assert (kept["format"], kept["version"]) == ("gammon account export", 1)
    assert kept["account"]["name"] == "Alice" and kept["account"]["experience"] == 3
    assert kept["account"]["rating"] == accounts.signed_in(alice_token).rating
    assert len(kept["sessions"]) == 1 and set(kept["sessions"][0]) == {"created_at", "expires_at"}
    assert [
        (m["id"], m["status"], m["seat"], m["rules"]["match_length"], m["game_in_progress"])
        for m in kept["matches"]
    ] == [
        ("money", "active", 0, 0, 3),  # made at one time: by id
        ("rated", "over", 0, 3, None),
        ("unfinished", "active", 0, 7, 2),
    ]
    [change] = kept["rating_history"]
    assert (change["match_id"], change["opponent"], change["won"], change["rating_before"]) == (
        "rated",
        "Bob",
        True,
        1500,
    )
    assert change["rating_after"] == kept["account"]["rating"]
    [analysed] = kept["profile"]
    assert (analysed["source_name"], analysed["pr"]) == ("alice-analysis.mat", 27.8)
    assert [d["xgid"] for d in analysed["marked_decisions"]] == ["XGID-alice-analysis"]
    [card] = kept["drills"]
    assert card["decision_id"] == analysed["marked_decisions"][0]["id"]
    assert (
        card["scheduler_card"] == {"tag": "alice-analysis"}
        and card["answers"][0]["answer"] == "alice-analysis"
    )
    [job] = kept["analysis_requests"]
    assert job["status"] == "queued" and job["file"].startswith("uploads/")
    [invitation] = kept["lobby_invitations"]
    assert (invitation["poster"], invitation["to"], invitation["terms"]["match_length"]) == (
        "Alice",
        "Bob",
        5,
    )

    # nothing of Bob's own, nor any secret: hashes, tokens
    raw = b"".join(
        zipfile.ZipFile(io.BytesIO(data)).read(n) for n in zipfile.ZipFile(io.BytesIO(data)).namelist()
    )
    assert b"bobs-secret" not in raw and b"bobs-own" not in raw
    with accounts.sessions() as s:
        secrets = [r.password_hash for r in s.scalars(select(AccountRow))]
        secrets += [r.token_hash for r in s.scalars(select(AccountSessionRow))]
        secrets += [h for r in s.scalars(select(MatchRow)) for h in (r.seat0_hash, r.seat1_hash)]
    assert secrets and not [h for h in secrets if h.encode() in raw]
    assert alice_token.encode() not in raw and "argon2" not in raw.decode(errors="replace")


def _job_id(accounts: Accounts, account_id: int) -> int:
    with accounts.sessions() as s:
        return s.scalars(select(AnalysisJobRow.id).where(AnalysisJobRow.account_id == account_id)).one()


def test_a_match_made_rated_and_judged_unrated_is_exported_unrated(accounts: Accounts) -> None:
    """A match made to be rated that ended with a guest's seat is marked unrated (and never rated):
    the export said ``"rated": true`` for it, as for one that was."""
    alice = accounts.sign_up("Alice", "password1")
    token = accounts.sign_in("Alice", "password1").token
    for match_id in ("judged", "to-be-rated"):
        seats = new_match(accounts.store, match_id, length=1)
        claim_seats(accounts, token, [seats[0]])
        with accounts.sessions.begin() as s:
            row = s.get(MatchRow, match_id)
            assert row is not None
            row.rules = {**row.rules, RATED_KEY: True}
    finish_match(accounts.store, "judged", winner=0, length=1)
    assert mark_unrated(accounts, "judged", "a seat had no account at the end")

    kept = json.loads(_files(export_account(accounts, alice.id))["account.json"])
    shown = {m["id"]: (m["rated"], m["unrated_reason"]) for m in kept["matches"]}
    assert shown == {
        "judged": (False, "a seat had no account at the end"),
        "to-be-rated": (True, None),  # not over yet: rated when it ends between two accounts
    }


def test_the_matches_are_read_with_parameters_that_do_not_grow_with_them(accounts: Accounts) -> None:
    """The match IDs went to the database as one IN list, a parameter each: PostgreSQL's driver
    takes at most 65,535 in a statement, so an account with more matches could not be exported.
    (Seen here without so many matches: the most parameters a statement takes stays the same.)"""
    alice = accounts.sign_up("Alice", "password1")
    token = accounts.sign_in("Alice", "password1").token
    most: list[int] = []  # the most parameters of a statement, per counted export
    counting = False

    def count(conn, cursor, statement, parameters, context, executemany) -> None:  # noqa: ANN001
        if counting:
            most[-1] = max(most[-1], len(parameters or ()))

    event.listen(accounts.store.engine, "before_cursor_execute", count)
    made = 0
    try:
        for n in (2, 12):
            while made < n:
                claim_seats(accounts, token, [new_match(accounts.store, f"m{made}")[0]])
                made += 1
            most.append(0)
            counting = True
            kept = json.loads(_files(export_account(accounts, alice.id))["account.json"])
            counting = False
            assert len(kept["matches"]) == n
    finally:
        event.remove(accounts.store.engine, "before_cursor_execute", count)
    assert most[0] == most[1], most
