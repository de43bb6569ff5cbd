"""The repository: create matches, append actions, load them back. No game logic here.

Every action is committed before :meth:`Store.append_action` returns, so the caller can acknowledge it
knowing a restart loses nothing. The log is append-only: ``seq`` must be the next number, and the
unique (match, seq) constraint refuses a second writer that raced for the same slot.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import Update, bindparam, create_engine, event, func, insert, select, text, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from gammon.errors import StoreConflictError, UnknownMatchError
from gammon.store.models import ActionRow, Base, MatchRow


@dataclass(frozen=True)
class MatchRecord:
    """A match as stored: ``rules`` is a plain dict of :class:`gammon.rules.Rules` fields."""

    id: str
    mode: str
    rules: dict[str, Any]
    seat_hashes: tuple[str, str]
    level: str | None = None
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))


@dataclass(frozen=True)
class ActionRecord:
    """One logged action: ``kind`` is a method of Game/Match, ``rolls`` the dice it consumed."""

    seq: int
    kind: str
    player: int | None = None
    args: dict[str, Any] = field(default_factory=dict)
    rolls: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class MatchSummary:
    """What listings show without a replay; written with each action."""

    status: str
    position_id: str
    score: tuple[int, int]


def hash_token(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


def default_database_url() -> str:
    """An SQLite file in the user's data directory (created on first use)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("gammon", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'gammon.sqlite3'}"


@lru_cache(maxsize=64)
def _guarded_update(guard: str, columns: tuple[str, ...]) -> Update:
    """``UPDATE matches SET <columns> WHERE id = :p_id AND <guard> = :p_guard``, built once for each
    shape: building and keying a statement for every entry of a group commit cost more than running
    it. (The parameters are named apart from the columns: SQLAlchemy keeps those names for itself.)"""
    return update(MatchRow).where(MatchRow.id == bindparam("p_id"),
                                  getattr(MatchRow, guard) == bindparam("p_guard")
                                  ).values({c: bindparam(f"p_{c}") for c in columns})


def _update_match(conn: Connection, match_id: str, guard: str, expected: Any, values: dict[str, Any]) -> int:
    """Set ``values`` on the match's row if its ``guard`` column still holds ``expected``; the rows
    changed (1, or 0 when another writer got there first or there is no such match)."""
    params = {f"p_{c}": v for c, v in values.items()}
    params.update(p_id=match_id, p_guard=expected)
    return conn.execute(_guarded_update(guard, tuple(values)), params).rowcount


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets readers run beside the one writer; NORMAL still survives a process crash.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Store:
    """Matches and their action logs in one database (``url`` as SQLAlchemy reads it)."""

    def __init__(self, url: str | None = None) -> None:
        url = url or default_database_url()
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
        self.url = url
        self.notifies = url.startswith("postgresql")  # live updates cross server processes (LISTEN)
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        Base.metadata.create_all(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        self.engine.dispose()

    def create_match(self, record: MatchRecord) -> None:
        with self._sessions.begin() as s:
            s.add(MatchRow(id=record.id, created_at=record.created_at, mode=record.mode, level=record.level,
                           rules=dict(record.rules), seat0_hash=record.seat_hashes[0],
                           seat1_hash=record.seat_hashes[1], action_count=0, status="active"))

    def append_action(self, match_id: str, action: ActionRecord, summary: MatchSummary | None = None) -> None:
        """Commit ``action`` as the next entry of the match's log (and its summary, in one transaction)."""
        self.append_actions(match_id, [action], summary)

    def append_actions(self, match_id: str, actions: list[ActionRecord],
                       summary: MatchSummary | None = None) -> None:
        """Commit ``actions`` (consecutive) as the next entries of the match's log, in one transaction."""
        error = self.append_batch([(match_id, actions, summary)])[0]
        if error is not None:
            raise error

    def append_batch(self, entries: list[tuple[str, list[ActionRecord], MatchSummary | None]]
                     ) -> list[Exception | None]:
        """Append to several matches' logs in one transaction (a group commit): for each entry, its
        error (StoreConflictError, UnknownMatchError) or None once stored. An entry that conflicts
        stores nothing and leaves the others be. On PostgreSQL each stored entry also notifies
        channel ``gammon`` with ``"<match id> <action count>"`` (comma-separated, several to a
        notification; delivered on commit)."""
        if not entries:
            return []
        try:
            return self._append_batch(entries)
        except IntegrityError:
            if len(entries) == 1:
                match_id, actions, _ = entries[0]
                return [StoreConflictError(f"match {match_id!r}: action {actions[0].seq} is already stored")]
            # One entry raced another writer past the count check: store them one by one.
            return [self.append_batch([entry])[0] for entry in entries]

    def _append_batch(self, entries: list[tuple[str, list[ActionRecord], MatchSummary | None]]
                      ) -> list[Exception | None]:
        errors: list[Exception | None] = []
        rows: list[dict[str, Any]] = []
        changed: list[str] = []  # "<match id> <action count>" of each entry stored
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            for match_id, actions, summary in entries:
                first, count = actions[0].seq, actions[-1].seq + 1
                if [a.seq for a in actions] != list(range(first, count)):
                    errors.append(StoreConflictError(f"match {match_id!r}: actions to append are not "
                                                     f"consecutive ({[a.seq for a in actions][:10]})"))
                    continue
                values: dict[str, Any] = {"action_count": count}
                if summary is not None:
                    values.update(status=summary.status, position_id=summary.position_id,
                                  score0=summary.score[0], score1=summary.score[1])
                # The WHERE on the count makes a second writer for the same place fail, not overwrite.
                if _update_match(conn, match_id, "action_count", first, values) != 1:
                    stored = conn.scalar(select(MatchRow.action_count).where(MatchRow.id == match_id))
                    errors.append(UnknownMatchError(f"no match {match_id!r}") if stored is None else
                                  StoreConflictError(f"match {match_id!r}: action {first} appended "
                                                     f"where {stored} was due"))
                    continue
                errors.append(None)
                rows.extend({"match_id": match_id, "seq": a.seq, "player": a.player, "kind": a.kind,
                             "args": dict(a.args), "rolls": [list(r) for r in a.rolls], "created_at": now}
                            for a in actions)
                changed.append(f"{match_id} {count}")
            if rows:
                conn.execute(insert(ActionRow), rows)
            if self.notifies:
                # One notification per few hundred matches (a payload holds up to 8000 bytes).
                for start in range(0, len(changed), 200):
                    conn.execute(text("SELECT pg_notify('gammon', :payload)"),
                                 {"payload": ",".join(changed[start:start + 200])})
        return errors

    def load_match(self, match_id: str) -> MatchRecord:
        with self._sessions() as s:
            row = self._match_row(s, match_id)
            return MatchRecord(id=row.id, mode=row.mode, rules=dict(row.rules), level=row.level,
                               seat_hashes=(row.seat0_hash, row.seat1_hash), created_at=row.created_at)

    def load_actions(self, match_id: str) -> list[ActionRecord]:
        with self._sessions() as s:
            self._match_row(s, match_id)
            rows = s.scalars(select(ActionRow).where(ActionRow.match_id == match_id).order_by(ActionRow.seq))
            return [ActionRecord(seq=r.seq, kind=r.kind, player=r.player, args=dict(r.args),
                                 rolls=tuple((int(a), int(b)) for a, b in r.rolls)) for r in rows]

    def summary(self, match_id: str) -> MatchSummary:
        with self._sessions() as s:
            row = self._match_row(s, match_id)
            return MatchSummary(status=row.status, position_id=row.position_id or "",
                                score=(row.score0, row.score1))

    def match_ids(self) -> list[str]:
        with self._sessions() as s:
            return list(s.scalars(select(MatchRow.id).order_by(MatchRow.created_at, MatchRow.id)))

    def action_count(self, match_id: str) -> int:
        """How many actions of the match are stored."""
        with self._sessions() as s:
            return self._match_row(s, match_id).action_count

    def count_actions(self) -> int:
        with self._sessions() as s:
            return int(s.scalar(select(func.count()).select_from(ActionRow)) or 0)

    @staticmethod
    def _match_row(s: Session, match_id: str) -> MatchRow:
        row = s.get(MatchRow, match_id)
        if row is None:
            raise UnknownMatchError(f"no match {match_id!r}")
        return row
