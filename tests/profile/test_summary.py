"""The profile summary: matches, PR with its moving average, opponents, luck, worst decisions."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session

from benchmarks.gnubg_harness import GNUBG
from gammon.accounts import Accounts
from gammon.dice import RandomDice
from gammon.formats.mat import format_mat
from gammon.formats.matchid import parse_gnubg_id
from gammon.formats.sgf import format_sgf
from gammon.formats.xgid import parse_xgid
from gammon.match import Match
from gammon.profile import AnalysisQueue, profile_summary
from gammon.records import match_actions
from gammon.rules import Rules, WinKind
from gammon.store import LogChange, Store
from gammon.store.models import ProfileMatchRow
from gammon.store.repository import MatchSummary
from tests.accounts.conftest import new_match
from tests.helpers import needs_gnubg
from tests.profile.conftest import LASSE_1, LASSE_2, add


def test_summary_of_two_matches(store: Store, accounts: Accounts, queue: AnalysisQueue) -> None:
    me = accounts.sign_up("lasse", "password1")
    other = accounts.sign_up("earl", "password1")
    empty = profile_summary(store, me.id)
    assert (empty.matches, empty.pr, empty.worst) == ((), 0.0, ())
    add(queue, me.id, LASSE_1, seat=0)
    add(queue, me.id, LASSE_2, seat=0)
    add(queue, other.id, LASSE_1, seat=1)
    assert [o.status for o in queue.work_all()] == ["done"] * 3

    summary = profile_summary(store, me.id, window=1, worst=3)
    assert sorted(m.opponent for m in summary.matches) == ["earl", "malibupips"]
    assert all(m.played_at.tzinfo is not None for m in summary.matches)
    # a window of one match: the moving average is each match's own PR
    assert [(p.pr, p.average) for p in summary.pr_trend] == [(m.pr, m.pr) for m in summary.matches]
    wide = profile_summary(store, me.id)
    assert wide.pr_trend[0].average == wide.matches[0].pr
    lo, hi = sorted(m.pr for m in wide.matches)
    assert lo <= wide.pr == wide.pr_trend[-1].average <= hi
    # lasse won the 3-point match against earl; the 8-point one against malibupips stops at 2-0
    assert {(r.name, r.played, r.won, r.lost) for r in wide.opponents} == {
        ("earl", 1, 1, 0),
        ("malibupips", 1, 0, 0),
    }
    assert {m.result for m in wide.matches} == {"won", "unfinished"}
    assert len(summary.worst) <= 3
    errors = [d.error for d in summary.worst]
    assert errors == sorted(errors, reverse=True) and errors
    for d in summary.worst:
        parse_gnubg_id(d.gnubg_id)
        parse_xgid(d.xgid)
    # another account's profile is its own
    assert [m.opponent for m in profile_summary(store, other.id).matches] == ["lasse"]


def test_matches_are_in_the_order_they_were_played(
    store: Store, accounts: Accounts, queue: AnalysisQueue
) -> None:
    me = accounts.sign_up("lasse", "password1")
    add(queue, me.id, LASSE_1, seat=0)
    add(queue, me.id, LASSE_2, seat=0)
    queue.work_all()
    dates = [m.played_at for m in profile_summary(store, me.id).matches]
    assert dates == sorted(dates) and all(d <= datetime.now(UTC) for d in dates)


def test_an_opponent_is_one_record_whatever_the_case_and_spaces_of_the_name(
    store: Store, accounts: Accounts, queue: AnalysisQueue, tmp_path: Path
) -> None:
    me = accounts.sign_up("lasse", "password1")
    add(queue, me.id, LASSE_1, seat=0)  # against earl, won
    shouted = tmp_path / "shouted.mat"  # the other match, its opponent renamed EARL
    shouted.write_bytes(LASSE_2.read_bytes().replace(b"malibupips", b"EARL"))
    add(queue, me.id, shouted, seat=0)
    assert [o.status for o in queue.work_all()] == ["done"] * 2
    summary = profile_summary(store, me.id)
    [earl] = summary.opponents
    assert (earl.played, earl.won, earl.lost) == (2, 1, 0)
    assert earl.name == summary.matches[-1].opponent  # as the latest match spells it
    with Session(store.engine) as s, s.begin():  # a name with spaces around it, as some files write it
        s.execute(update(ProfileMatchRow).values(opponent_name=" Earl "))
    assert [(o.name, o.played) for o in profile_summary(store, me.id).opponents] == [("Earl", 2)]


def test_an_opponent_is_one_record_however_the_files_write_the_accents_of_the_name(
    store: Store, accounts: Accounts, queue: AnalysisQueue, tmp_path: Path
) -> None:
    """"José" with its "é" as one letter, and as "e" and a combining accent (as some programs
    write it), look the same: they were two records."""
    me = accounts.sign_up("lasse", "password1")
    for path, spelt in ((LASSE_1, "Jos\u00e9"), (LASSE_2, "Jose\u0301")):
        renamed = tmp_path / path.name
        data = path.read_bytes().replace(b"earl", spelt.encode())  # LASSE_1's opponent
        renamed.write_bytes(data.replace(b"malibupips", spelt.encode()))  # LASSE_2's
        add(queue, me.id, renamed, seat=0)
    assert [o.status for o in queue.work_all()] == ["done"] * 2
    [jose] = profile_summary(store, me.id).opponents
    assert jose.played == 2


def test_a_match_without_a_decision_has_no_pr_point(
    store: Store, accounts: Accounts, queue: AnalysisQueue, tmp_path: Path
) -> None:
    # a match stopped before its first move: listed, but its PR is no 0 (a perfect match) in the
    # trend, nor does it take a place in the moving average's window
    me = accounts.sign_up("lasse", "password1")
    add(queue, me.id, LASSE_1, seat=0)
    empty = tmp_path / "empty.mat"
    empty.write_text("5 point match\n\n Game 1\n lasse : 0                       earl : 0\n")
    add(queue, me.id, empty, seat=0)
    add(queue, me.id, LASSE_2, seat=0)
    assert [o.status for o in queue.work_all()] == ["done"] * 3
    summary = profile_summary(store, me.id, window=2)
    assert len(summary.matches) == 3 and [m.pr for m in summary.matches].count(0.0) == 1
    played = [m for m in summary.matches if m.source_name != "empty.mat"]
    assert [p.pr for p in summary.pr_trend] == [m.pr for m in played] and 0.0 not in [
        p.pr for p in summary.pr_trend
    ]
    assert summary.pr_trend[-1].average == summary.pr  # the window of two holds both played matches


def test_a_match_without_a_move_has_no_luck_rate_in_the_mean(
    store: Store, accounts: Accounts, queue: AnalysisQueue, tmp_path: Path
) -> None:
    # luck rates are per move: a match stopped before the player's first roll has none, and its 0
    # took the mean of 22.1 and 13.9 mEMG a move down to 12.0
    me = accounts.sign_up("lasse", "password1")
    add(queue, me.id, LASSE_1, seat=0)
    empty = tmp_path / "empty.mat"
    empty.write_text("5 point match\n\n Game 1\n lasse : 0                       earl : 0\n")
    add(queue, me.id, empty, seat=0)
    add(queue, me.id, LASSE_2, seat=0)
    assert [o.status for o in queue.work_all()] == ["done"] * 3
    summary = profile_summary(store, me.id)
    played = [m for m in summary.matches if m.source_name != "empty.mat"]
    assert len(played) == 2 and all(m.luck_rate for m in played)
    assert summary.luck_rate == pytest.approx(sum(m.luck_rate for m in played) / 2)


@needs_gnubg
def test_a_match_won_by_more_points_than_it_needed_shows_them_as_the_file_and_gnubg_do(
    store: Store, accounts: Accounts, queue: AnalysisQueue, tmp_path: Path
) -> None:
    """A 3-point match won at once by a gammon at cube 2: 4-0. The match file says "Wins 4 points",
    the SGF RE[W+4R], and GNU Backgammon's score after importing the file is 4 to 0: the profile
    shows what they show (capping it at 3 would make it disagree with the player's own files)."""
    match = Match(Rules(match_length=3), RandomDice(3))
    game = match.game
    game.roll()
    game.play(game.legal_plays()[0])
    game.double()
    game.take()
    game.roll()
    game.play(game.legal_plays()[0])
    game.resign(WinKind.GAMMON, game.turn)
    game.accept_resignation()
    assert match.score == (4, 0) and match.winner == 0
    actions = match_actions(match)
    summary = MatchSummary("over", game.position_for(0).id, match.score)
    alice = accounts.sign_up("alice", "password1")
    new_match(store, "m1", mode="local", length=3, names=["alice", "bob"])
    store.append("m1", LogChange(base=0, version=len(actions), first=0, actions=actions, summary=summary))
    queue.add_match("m1", alice.id, 0, plies=0)
    [outcome] = queue.work_all()
    assert outcome.status == "done", outcome.reason
    [shown] = profile_summary(store, alice.id).matches
    assert (shown.match_length, shown.player_score, shown.opponent_score, shown.result) == (3, 4, 0, "won")

    mat = tmp_path / "m.mat"
    mat.write_text(format_mat(match, ("alice", "bob")))
    assert "Wins 4 points" in mat.read_text()
    assert "RE[W+4R]" in format_sgf(match, ("alice", "bob"), {})
    commands = tmp_path / "commands"
    commands.write_text(f"import mat {mat}\nshow score\n")
    said = subprocess.run(
        [str(GNUBG), "-t", "-q", "-c", str(commands)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    ).stdout
    assert "alice 4, bob 0 (match to 3 points)" in said, said[-500:]
