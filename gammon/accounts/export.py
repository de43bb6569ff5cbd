"""Export: all of an account's finished matches as one zip, each match as a ``.mat`` and an
``.sgf`` file (the writers of :mod:`gammon.formats`), rebuilt from its stored actions."""

from __future__ import annotations

import io
import re
import zipfile

from sqlalchemy import select

from gammon.accounts.clock import as_utc
from gammon.accounts.games import ANONYMOUS, NAMES_KEY, stored_rules
from gammon.accounts.service import Accounts
from gammon.formats.mat import format_mat
from gammon.formats.sgf import format_sgf
from gammon.records import replay_match
from gammon.store.models import AccountRow, MatchRow, SeatAccountRow

GUEST = "Guest"


def export_matches(accounts: Accounts, account_id: int) -> bytes:
    """The zip of the account's finished matches: ``<date>-<match id>.mat`` and ``.sgf`` for each,
    oldest first (an empty zip for an account without any)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for row, names in _finished_matches(accounts, account_id):
            actions = accounts.store.load_log(row.id).actions
            if not actions:  # still in the old format (one row per request): the server converts it
                continue
            match = replay_match(stored_rules(row.rules), actions)
            stem = f"{as_utc(row.created_at):%Y-%m-%d}-{row.id}"
            archive.writestr(f"{stem}.mat", format_mat(match, names))
            info = {"DT": f"{as_utc(row.created_at):%Y-%m-%d}"}
            archive.writestr(f"{stem}.sgf", format_sgf(match, names, info))
    return buffer.getvalue()


def _finished_matches(accounts: Accounts, account_id: int) -> list[tuple[MatchRow, tuple[str, str]]]:
    mine = select(SeatAccountRow.match_id).where(SeatAccountRow.account_id == account_id)
    with accounts.sessions() as s:
        rows = list(
            s.scalars(
                select(MatchRow)
                .where(MatchRow.id.in_(mine), MatchRow.status == "over")
                .order_by(MatchRow.created_at, MatchRow.id)
            )
        )
        held = s.execute(
            select(SeatAccountRow.match_id, SeatAccountRow.seat, AccountRow.name)
            .outerjoin(AccountRow, AccountRow.id == SeatAccountRow.account_id)
            .where(SeatAccountRow.match_id.in_([r.id for r in rows]))
        ).all()
    seats: dict[tuple[str, int], str] = {(m, seat): name or ANONYMOUS for m, seat, name in held}
    return [(row, (_name(row, 0, seats), _name(row, 1, seats))) for row in rows]


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
