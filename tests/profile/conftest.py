"""Profile fixtures: a store on SQLite and on PostgreSQL (the storage tests' ``store_url``), an
account, the queue, and real match files from the format tests' data (short ones: the analyses
run at 0 ply)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import sessionmaker

from gammon.accounts import Accounts
from gammon.accounts.passwords import Passwords
from gammon.profile import AnalysisQueue
from gammon.store import Store
from gammon.store.models import ProfileDecisionRow
from tests.accounts.conftest import CHEAP, Clock
from tests.store.conftest import pg_url, store, store_url  # noqa: F401  (the storage tests' fixtures)

DATA = Path(__file__).resolve().parents[1] / "data"
CHARLOT_SGF = DATA / "sgf/real/gbf-charlot1-charlot2-7pt.sgf"  # the same match as the .xg
CHARLOT_XG = DATA / "xg/real/gbf-charlot1-charlot2-7pt.xg"
LASSE_1 = DATA / "mat/real/galaxy/bglab-lasse-match1112717.mat"  # lasse vs earl
LASSE_2 = DATA / "mat/real/galaxy/bglab-lasse-match1173715.mat"  # lasse vs malibupips


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def accounts(store: Store, clock: Clock) -> Accounts:  # noqa: F811
    return Accounts(store, passwords=Passwords(CHEAP), clock=clock)


@pytest.fixture
def queue(store: Store, clock: Clock) -> AnalysisQueue:  # noqa: F811
    return AnalysisQueue(store, clock=clock)


def add(queue: AnalysisQueue, account_id: int, path: Path, seat: int) -> int:
    """Queue the file at ``path`` at 0 ply."""
    fmt = {".sgf": "sgf", ".xg": "xg"}.get(path.suffix, "mat")
    return queue.add_file(account_id, seat, path.read_bytes(), path.name, fmt, plies=0)


def marked_decisions(db: Store, account_id: int) -> int:
    """How many of the account's decisions its analyses marked (a drill makes a card of each)."""
    with sessionmaker(db.engine)() as s:
        mine = ProfileDecisionRow.account_id == account_id
        return s.scalar(select(func.count()).select_from(ProfileDecisionRow).where(mine)) or 0
