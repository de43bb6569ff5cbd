"""Export ("download my data"): everything the server keeps about an account, as one zip.

- ``<date>-<match id>.mat`` and ``.sgf``: every match the account holds a seat of, finished or
  not, to a length or for money, rebuilt from its stored actions (the writers of
  :mod:`gammon.formats`; GNU Backgammon and gammon read them back): its finished games. A game
  still being played is left out (its entry's ``game_in_progress`` says which), so a money
  session, which never ends, gives the games it has finished.
- ``account.json``: the account (name, when made, rating, experience), its sessions (when made,
  when they expire), its matches (id, mode, rules, rated or why not, status, seat, names, score,
  its files), its rating history, its lobby invitations, its analysis requests, its profile (each
  analysed match with its marked decisions) and its drill cards with their answers. Times are ISO 8601 in UTC.
- ``uploads/<request id>-<file name>``: the match files it uploaded for analysis that the server
  still keeps (until their analysis is done).

Left out, as secrets rather than data: the password's hash, the sessions' and seats' token hashes,
a lobby invitation's seat token. Another player appears by name only (as in the match files and
the leaderboard), never with their own history, profile or sessions.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
import zipfile
from datetime import datetime
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session, aliased

from gammon.accounts.clock import as_utc
from gammon.accounts.games import ANONYMOUS, NAMES_KEY, RATED_KEY, UNRATED_KEY, stored_rules
from gammon.accounts.service import Accounts
from gammon.errors import GammonError
from gammon.formats.mat import format_mat, mat_names
from gammon.formats.sgf import format_sgf
from gammon.records import replay_match
from gammon.store.models import (
    AccountRow,
    AccountSessionRow,
    ActionRow,
    AnalysisJobRow,
    DrillCardRow,
    DrillReviewRow,
    LobbyInvitationRow,
    MatchRow,
    ProfileDecisionRow,
    ProfileMatchRow,
    RatingChangeRow,
    SeatAccountRow,
)

GUEST = "Guest"
FORMAT = "gammon account export"
VERSION = 1


def export_account(accounts: Accounts, account_id: int) -> bytes:
    """The zip of everything kept about the account ``account_id`` (see the module's doc)."""
    buffer = io.BytesIO()
    with accounts.sessions() as s, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        account = s.get(AccountRow, account_id)
        if account is None:
            raise ValueError(f"no account has the id {account_id!r}")
        matches = []
        for row, seat, names in _matches(s, account_id):
            entry, files = _match_files(accounts, s, row, seat, names)
            matches.append(entry)
            for name, text in files.items():
                archive.writestr(name, text)
        uploads = []
        for job in s.scalars(
            select(AnalysisJobRow)
            .where(AnalysisJobRow.account_id == account_id, AnalysisJobRow.file_data.is_not(None))
            .order_by(AnalysisJobRow.id)
        ):
            name = f"uploads/{job.id}-{_safe_file_name(job.file_name or 'upload')}"
            archive.writestr(name, job.file_data or b"")
            uploads.append((job.id, name))
        data = {
            "format": FORMAT,
            "version": VERSION,
            "exported_at": _time(accounts.clock()),
            "account": {
                "name": account.name,
                "created_at": _time(account.created_at),
                "rating": account.rating,
                "experience": account.experience,
            },
            "sessions": [
                {"created_at": _time(r.created_at), "expires_at": _time(r.expires_at)}
                for r in s.scalars(
                    select(AccountSessionRow)
                    .where(AccountSessionRow.account_id == account_id)
                    .order_by(AccountSessionRow.created_at)
                )
            ],
            "matches": matches,
            "rating_history": _rating_history(s, account_id),
            "lobby_invitations": _invitations(s, account_id),
            "analysis_requests": _analysis_requests(s, account_id, dict(uploads)),
            "profile": _profile(s, account_id),
            "drills": _drills(s, account_id),
        }
        archive.writestr("account.json", json.dumps(data, ensure_ascii=False, indent=1))
    return buffer.getvalue()


def _time(t: datetime | None) -> str | None:
    return None if t is None else as_utc(t).isoformat()


def _matches(s: Session, account_id: int) -> list[tuple[MatchRow, int, tuple[str, str]]]:
    """The matches the account holds a seat of, oldest first: each with its seat and its names."""
    # The account's matches as a subquery, not a list of their IDs: one bound parameter however
    # many (PostgreSQL's driver takes at most 65,535 in a statement).
    mine = select(SeatAccountRow.match_id).where(SeatAccountRow.account_id == account_id)
    held = s.execute(
        select(MatchRow, SeatAccountRow.seat)
        .join(SeatAccountRow, SeatAccountRow.match_id == MatchRow.id)
        .where(SeatAccountRow.account_id == account_id)
        .order_by(MatchRow.created_at, MatchRow.id)
    ).all()
    seats = s.execute(
        select(SeatAccountRow.match_id, SeatAccountRow.seat, AccountRow.name)
        .outerjoin(AccountRow, AccountRow.id == SeatAccountRow.account_id)
        .where(SeatAccountRow.match_id.in_(mine))
    ).all()
    named: dict[tuple[str, int], str] = {(m, seat): name or ANONYMOUS for m, seat, name in seats}
    return [(row, seat, (_name(row, 0, named), _name(row, 1, named))) for row, seat in held]


def _match_files(
    accounts: Accounts, s: Session, row: MatchRow, seat: int, names: tuple[str, str]
) -> tuple[dict[str, Any], dict[str, str]]:
    """A match's entry in account.json and its files (none when it cannot be rebuilt: the entry
    says why)."""
    stem = f"{as_utc(row.created_at):%Y-%m-%d}-{row.id}"
    rules = stored_rules(row.rules)
    stored = row.rules if isinstance(row.rules, dict) else {}
    # a match made to be rated is marked unrated, with why, when it ended without two accounts
    unrated = stored.get(UNRATED_KEY)
    entry: dict[str, Any] = {
        "id": row.id,
        "created_at": _time(row.created_at),
        "mode": row.mode,
        "level": row.level,
        "rules": dataclasses.asdict(rules),
        "rated": bool(stored.get(RATED_KEY)) and unrated is None,
        "unrated_reason": None if unrated is None else str(unrated),
        "status": row.status,
        "seat": seat,
        "names": list(names),
        "score": [row.score0, row.score1],
        "files": [],
        "game_in_progress": None,  # its number (from 1): left out of the files
    }
    files: dict[str, str] = {}
    actions = accounts.store.load_log(row.id).actions
    if not actions:
        old = s.scalar(select(func.count()).select_from(ActionRow).where(ActionRow.match_id == row.id))
        # The old format (one row per request) is converted when the server next opens the match.
        entry["note"] = "stored in the old format: open it once to convert it" if old else "no moves yet"
        return entry, files
    try:
        match = replay_match(rules, actions)
        if match.game.result is None:
            # The game being played is left out: a money session never ends, and its finished games
            # are what a player keeps; a game half played is no record yet (and, online, the
            # opponent's board still at play).
            entry["game_in_progress"] = len(match.games)
            match = replay_match(rules, [a for a in actions if a.game < len(match.games) - 1])
            if match.game.result is None:
                entry["note"] = "no finished game yet: the game in progress is left out"
                return entry, files
        # a .mat name is cut to what GNU Backgammon keeps (31 bytes, at a character); SGF keeps it whole
        files[f"{stem}.mat"] = format_mat(match, mat_names(names))
        files[f"{stem}.sgf"] = format_sgf(match, names, {"DT": f"{as_utc(row.created_at):%Y-%m-%d}"})
    except (GammonError, ValueError) as e:  # one match that cannot be rebuilt keeps no other out
        entry["note"] = f"could not be rebuilt: {str(e)[:200]}"
        return entry, {}
    entry["files"] = sorted(files)
    return entry, files


def _name(row: MatchRow, seat: int, seats: dict[tuple[str, int], str]) -> str:
    """The seat's account name; else the name the match was made with, the computer's level, or
    Guest."""
    if (row.id, seat) in seats:
        return seats[row.id, seat]
    if row.mode == "computer" and seat == 1 and row.level:
        return _file_name(row.level) or GUEST
    given = row.rules.get(NAMES_KEY) if isinstance(row.rules, dict) else None
    if isinstance(given, list) and len(given) == 2 and isinstance(given[seat], str):
        return _file_name(given[seat]) or GUEST
    return GUEST


def _file_name(name: str) -> str:
    """A guest's name as a match file can hold it: one line, no ':' nor runs of spaces."""
    return re.sub(r"\s+", " ", re.sub(r"[\x00-\x1f\x7f:]", "", name)).strip()[:40]


def _safe_file_name(name: str) -> str:
    """An uploaded file's name as a zip entry: no folders, no control characters."""
    return re.sub(r"[\x00-\x1f\x7f/\\:]", "_", name).strip(". ")[:100] or "upload"


def _rating_history(s: Session, account_id: int) -> list[dict[str, Any]]:
    opponent = aliased(AccountRow)
    rows = s.execute(
        select(RatingChangeRow, opponent.name)
        .outerjoin(opponent, opponent.id == RatingChangeRow.opponent_id)
        .where(RatingChangeRow.account_id == account_id)
        .order_by(RatingChangeRow.played_at, RatingChangeRow.id)
    ).all()
    return [
        {
            "match_id": r.match_id,
            "opponent": name or ANONYMOUS,
            "match_length": r.match_length,
            "won": r.won,
            "rating_before": r.rating_before,
            "rating_after": r.rating_after,
            "experience_before": r.experience_before,
            "played_at": _time(r.played_at),
        }
        for r, name in rows
    ]


def _invitations(s: Session, account_id: int) -> list[dict[str, Any]]:
    poster, to, acceptor = aliased(AccountRow), aliased(AccountRow), aliased(AccountRow)
    invitation = LobbyInvitationRow
    rows = s.execute(
        select(invitation, poster.name, to.name, acceptor.name)
        .join(poster, poster.id == invitation.poster_id)
        .outerjoin(to, to.id == invitation.to_id)
        .outerjoin(acceptor, acceptor.id == invitation.acceptor_id)
        .where(
            or_(
                invitation.poster_id == account_id,
                invitation.to_id == account_id,
                invitation.acceptor_id == account_id,
            )
        )
        .order_by(invitation.created_at, invitation.id)
    ).all()
    return [
        {
            "id": r.id,
            "poster": poster_name,
            "to": to_name,
            "terms": r.terms,
            "status": r.status,
            "created_at": _time(r.created_at),
            "acceptor": acceptor_name,
            "match_id": r.match_id,
            "accepted_at": _time(r.accepted_at),
        }
        for r, poster_name, to_name, acceptor_name in rows
    ]


def _analysis_requests(s: Session, account_id: int, uploads: dict[int, str]) -> list[dict[str, Any]]:
    rows = s.scalars(
        select(AnalysisJobRow).where(AnalysisJobRow.account_id == account_id).order_by(AnalysisJobRow.id)
    )
    return [
        {
            "id": j.id,
            "seat": j.seat,
            "match_id": j.match_id,
            "file_name": j.file_name,
            "file_format": j.file_format,
            "file": uploads.get(j.id),
            "plies": j.plies,
            "status": j.status,
            "reason": j.reason,
            "attempts": j.attempts,
            "created_at": _time(j.created_at),
            "started_at": _time(j.started_at),
            "finished_at": _time(j.finished_at),
            "profile_match_id": j.profile_match_id,
        }
        for j in rows
    ]


def _profile(s: Session, account_id: int) -> list[dict[str, Any]]:
    decisions: dict[int, list[dict[str, Any]]] = {}
    for d in s.scalars(
        select(ProfileDecisionRow)
        .where(ProfileDecisionRow.account_id == account_id)
        .order_by(ProfileDecisionRow.id)
    ):
        decisions.setdefault(d.profile_match_id, []).append(
            {
                "id": d.id,
                "game": d.game,
                "turn": d.turn,
                "kind": d.kind,
                "position_id": d.position_id,
                "gnubg_id": d.gnubg_id,
                "xgid": d.xgid,
                "dice": d.dice,
                "played": d.played,
                "best": d.best,
                "error": d.error,
                "mark": d.mark,
                "ranking": d.ranking,
            }
        )
    return [
        {
            "id": m.id,
            "seat": m.seat,
            "fingerprint": m.fingerprint,
            "source": m.source,
            "source_format": m.source_format,
            "source_name": m.source_name,
            "played_at": _time(m.played_at),
            "analysed_at": _time(m.analysed_at),
            "plies": m.plies,
            "player_name": m.player_name,
            "opponent_name": m.opponent_name,
            "match_length": m.match_length,
            "player_score": m.player_score,
            "opponent_score": m.opponent_score,
            "result": m.result,
            "decisions": m.decisions,
            "error_total": m.error_total,
            "pr": m.pr,
            "checker_error_rate": m.checker_error_rate,
            "cube_error_rate": m.cube_error_rate,
            "luck_total": m.luck_total,
            "luck_rate": m.luck_rate,
            "marked_decisions": decisions.get(m.id, []),
        }
        for m in s.scalars(
            select(ProfileMatchRow)
            .where(ProfileMatchRow.account_id == account_id)
            .order_by(ProfileMatchRow.played_at, ProfileMatchRow.id)
        )
    ]


def _drills(s: Session, account_id: int) -> list[dict[str, Any]]:
    reviews: dict[int, list[dict[str, Any]]] = {}
    for r in s.scalars(
        select(DrillReviewRow).where(DrillReviewRow.account_id == account_id).order_by(DrillReviewRow.id)
    ):
        reviews.setdefault(r.card_id, []).append(
            {
                "reviewed_at": _time(r.reviewed_at),
                "answer": r.answer,
                "error": r.error,
                "grade": r.grade,
            }
        )
    return [
        {
            "id": c.id,
            "decision_id": c.decision_id,
            "due": _time(c.due),
            "state": c.state,
            "scheduler_card": c.scheduler_card,
            "reviews": c.reviews,
            "correct": c.correct,
            "last_review": _time(c.last_review),
            "answers": reviews.get(c.id, []),
        }
        for c in s.scalars(
            select(DrillCardRow).where(DrillCardRow.account_id == account_id).order_by(DrillCardRow.id)
        )
    ]
