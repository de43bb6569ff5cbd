"""The leaderboard a page at a time: every account by rating, highest first (ties by name, which
is unique, so the order is total and pages neither overlap nor skip while no rating changes)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import exists, select

from gammon.accounts.service import Accounts
from gammon.store.models import AccountRow, RatingChangeRow

PAGE = 100  # standings a page, at most
MAX_OFFSET = 1_000_000  # past any real server's accounts; a bound so that no huge integer reaches SQL


@dataclass(frozen=True)
class Standing:
    rank: int
    name: str
    rating: float
    experience: int


def leaderboard_page(
    accounts: Accounts, active_days: int | None = None, *, limit: int = PAGE, offset: int = 0
) -> list[Standing]:
    """The ``limit`` standings after the first ``offset`` (ranked from ``offset + 1``); with
    ``active_days``, only accounts with a rated match in the last so many days. A page shorter
    than ``limit`` is the last. ValueError for a limit outside 1..PAGE or an offset outside
    0..MAX_OFFSET."""
    if not 1 <= limit <= PAGE:
        raise ValueError(f"limit {limit!r} is outside 1..{PAGE}")
    if not 0 <= offset <= MAX_OFFSET:
        raise ValueError(f"offset {offset!r} is outside 0..{MAX_OFFSET}")
    query = select(AccountRow.name, AccountRow.rating, AccountRow.experience)
    if active_days is not None:
        since = accounts.clock() - timedelta(days=active_days)
        query = query.where(
            exists().where(RatingChangeRow.account_id == AccountRow.id, RatingChangeRow.played_at >= since)
        )
    query = query.order_by(AccountRow.rating.desc(), AccountRow.name_key).limit(limit).offset(offset)
    with accounts.sessions() as s:
        return [
            Standing(rank, name, rating, experience)
            for rank, (name, rating, experience) in enumerate(s.execute(query), start=offset + 1)
        ]
