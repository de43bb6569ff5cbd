"""What a profile shows: the matches, PR over time with a moving average, the record against
each opponent, luck, and the worst decisions with their positions."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import sessionmaker

from gammon.accounts.clock import as_utc
from gammon.profile.source import name_key
from gammon.store import Store
from gammon.store.models import AccountRow, ProfileDecisionRow, ProfileMatchRow

MOVING_AVERAGE = 10  # matches


@dataclass(frozen=True)
class ProfileMatch:
    id: int
    played_at: datetime
    opponent: str
    match_length: int
    player_score: int
    opponent_score: int
    result: str
    pr: float
    checker_error_rate: float
    cube_error_rate: float
    luck_rate: float
    source: str
    source_name: str


@dataclass(frozen=True)
class PrPoint:
    """A match's PR and the moving average up to it: PR over the decisions of the last
    ``MOVING_AVERAGE`` matches, each match weighing as many decisions as it has. Only matches with
    decisions have a point (one stopped before the player's first has none)."""

    played_at: datetime
    pr: float
    average: float


@dataclass(frozen=True)
class OpponentRecord:
    name: str
    played: int
    won: int
    lost: int


@dataclass(frozen=True)
class MarkedDecision:
    id: int
    profile_match_id: int
    game: int
    turn: int
    kind: str
    position_id: str
    gnubg_id: str
    xgid: str
    dice: str | None
    played: str
    best: str
    error: float
    mark: str


@dataclass(frozen=True)
class ProfileSummary:
    """``pr`` is over all the decisions of all the matches (500 x mean error), ``luck_total`` the
    player's luck summed (EMG), ``luck_rate`` its mean per move (mEMG, per match averaged, over the
    matches where the player moved)."""

    matches: tuple[ProfileMatch, ...]
    pr: float
    pr_trend: tuple[PrPoint, ...]
    opponents: tuple[OpponentRecord, ...]
    luck_total: float
    luck_rate: float
    worst: tuple[MarkedDecision, ...]


def profile_summary(
    store: Store, account_id: int, *, window: int = MOVING_AVERAGE, worst: int = 10
) -> ProfileSummary:
    """The account's profile: its matches oldest first, and the ``worst`` decisions by error."""
    sessions = sessionmaker(store.engine, expire_on_commit=False)
    with sessions() as s:
        rows = list(
            s.scalars(
                select(ProfileMatchRow)
                .where(ProfileMatchRow.account_id == account_id)
                .order_by(ProfileMatchRow.played_at, ProfileMatchRow.id)
            )
        )
        worst_rows = list(
            s.scalars(
                select(ProfileDecisionRow)
                .where(ProfileDecisionRow.account_id == account_id)
                .order_by(ProfileDecisionRow.error.desc(), ProfileDecisionRow.id)
                .limit(worst)
            )
        )
    matches = tuple(
        ProfileMatch(
            r.id,
            as_utc(r.played_at),
            r.opponent_name,
            r.match_length,
            r.player_score,
            r.opponent_score,
            r.result,
            r.pr,
            r.checker_error_rate,
            r.cube_error_rate,
            r.luck_rate,
            r.source,
            r.source_name,
        )
        for r in rows
    )
    trend = []
    rated = [r for r in rows if r.decisions]  # a match without a decision has no PR (not a PR of 0)
    for i, r in enumerate(rated):
        recent = rated[max(0, i + 1 - window) : i + 1]
        trend.append(PrPoint(as_utc(r.played_at), r.pr, _pr(recent)))
    # one record per opponent, whatever the case and spaces of the name in each file (the files
    # of one site and another spell it differently), shown as the latest match spells it
    opponents: dict[str, list[int]] = {}
    shown: dict[str, str] = {}
    for r in rows:
        key = name_key(r.opponent_name)
        shown[key] = r.opponent_name.strip() or r.opponent_name
        record = opponents.setdefault(key, [0, 0, 0])
        record[0] += 1
        record[1] += r.result == "won"
        record[2] += r.result == "lost"
    # a luck rate is per move: a match stopped before the player's first roll has none (not a rate
    # of 0, which took the mean down); it has no decision and a luck total of 0 then
    moved = [r for r in rows if r.decisions or r.luck_total]
    return ProfileSummary(
        matches=matches,
        pr=_pr(rows),
        pr_trend=tuple(trend),
        opponents=tuple(
            OpponentRecord(shown[key], *counts)
            for key, counts in sorted(opponents.items(), key=lambda item: (-item[1][0], item[0]))
        ),
        luck_total=sum(r.luck_total for r in rows),
        luck_rate=sum(r.luck_rate for r in moved) / len(moved) if moved else 0.0,
        worst=tuple(marked_decision(d) for d in worst_rows),
    )


def marked_decision(d: ProfileDecisionRow) -> MarkedDecision:
    return MarkedDecision(
        d.id,
        d.profile_match_id,
        d.game,
        d.turn,
        d.kind,
        d.position_id,
        d.gnubg_id,
        d.xgid,
        d.dice,
        d.played,
        d.best,
        d.error,
        d.mark,
    )


def _pr(rows: list[ProfileMatchRow]) -> float:
    decisions = sum(r.decisions for r in rows)
    return 500.0 * sum(r.error_total for r in rows) / decisions if decisions else 0.0


def profile_accounts(store: Store) -> list[tuple[int, str]]:
    """The accounts that have a profile match, as (id, name), by name."""
    with sessionmaker(store.engine)() as s:
        rows = s.execute(
            select(AccountRow.id, AccountRow.name)
            .where(AccountRow.id.in_(select(ProfileMatchRow.account_id)))
            .order_by(AccountRow.name_key)
        ).all()
    return [(int(i), str(n)) for i, n in rows]
