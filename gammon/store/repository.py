"""The repository: create matches, store the actions of their games, load them back. No game logic
here: an action is :class:`gammon.records.MatchAction`, stored in its JSON form.

Every change is committed before :meth:`Store.append` returns, so the caller can acknowledge it
knowing a restart loses nothing. The log only grows, but for an undo, which takes its last action
back: each change names the match's version it follows, so a second writer that raced for the same
match fails instead of overwriting, and the unique (match, seq) constraint guards the same place.
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import (
    Update,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import SingletonThreadPool

from gammon.datadir import data_dir
from gammon.errors import StoreConflictError, StoreUnavailableError, UnknownMatchError, cut
from gammon.i18n import tr
from gammon.records import MatchAction
from gammon.store.check import check_database
from gammon.store.models import ActionRow, Base, MatchActionRow, MatchRow
from gammon.store.notify import SEATS


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
class MatchSummary:
    """What listings show without a replay; written with each change."""

    status: str
    position_id: str
    score: tuple[int, int]


@dataclass(frozen=True)
class LogChange:
    """One change to a match's stored actions, from version ``base`` to ``version``: the actions
    from seq ``retract_from`` on taken back (an undo; None: nothing is), then ``actions`` stored
    from seq ``first`` on."""

    base: int
    version: int
    first: int
    actions: list[MatchAction]
    retract_from: int | None = None
    summary: MatchSummary | None = None


@dataclass(frozen=True)
class StoredLog:
    """A match's actions from seq ``first`` on, read at its ``version`` in one statement; the last
    change that took actions back made version ``retracted_at``."""

    version: int
    retracted_at: int
    first: int
    actions: list[MatchAction]


@dataclass(frozen=True)
class RequestRecord:
    """A row of the old format (:class:`gammon.store.models.ActionRow`): a request, ``kind`` a
    method of Game/Match, ``rolls`` the dice it consumed."""

    seq: int
    kind: str
    player: int | None = None
    args: dict[str, Any] = field(default_factory=dict)
    rolls: tuple[tuple[int, int], ...] = ()


def hash_token(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


def lock_for_writing(s: Session) -> None:
    """Make the transaction of ``s`` a writer from its start, before it reads what it will change.
    On SQLite the driver begins a transaction only at the first write, so the reads before it run
    outside one: two read-modify-writes at once both read the old values and the later write loses
    the earlier one's change. ``BEGIN IMMEDIATE`` takes the database's write lock first (a second
    writer waits for the first to commit). PostgreSQL needs nothing: those reads lock their rows
    (``FOR UPDATE``)."""
    conn = s.connection()
    if conn.dialect.name == "sqlite" and not conn.connection.dbapi_connection.in_transaction:  # type: ignore[union-attr]
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def default_database_url() -> str:
    """An SQLite file in the user's data directory (created on first use)."""
    return f"sqlite:///{data_dir() / 'gammon.sqlite3'}"


def _shown(url: str) -> str:
    """A database URL to quote in a message: cut short, its password hidden."""
    try:
        return cut(repr(make_url(url).render_as_string(hide_password=True)))
    except (SQLAlchemyError, ValueError):  # not a URL SQLAlchemy reads: what follows any '@' only
        return cut(repr(url.split("@")[-1]))


def _reason(error: Exception) -> str:
    """What went wrong, in the driver's first line (without SQLAlchemy's links and the SQL)."""
    inner = getattr(error, "orig", None) or error
    return cut(str(inner).strip().splitlines()[0] if str(inner).strip() else type(inner).__name__, 200)


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


def sqlite_in_memory(url: str | URL) -> bool:
    """Whether ``url`` names an SQLite database in memory (``sqlite://``, ``sqlite:///:memory:`` or
    an SQLite URI with ``mode=memory``): one that is lost when the process ends. False for a URL
    SQLAlchemy cannot read (create_engine says what is wrong with it)."""
    try:
        u = make_url(url)
    except (ValueError, SQLAlchemyError):
        return False
    if u.get_backend_name() != "sqlite":
        return False
    return not u.database or u.database == ":memory:" or u.query.get("mode") == "memory"


class Store:
    """Matches and their games' actions in one database (``url`` as SQLAlchemy reads it)."""

    def __init__(self, url: str | None = None, *, check: bool = False) -> None:
        """``check``: first refuse (StoreUnavailableError) an existing database that is empty,
        damaged or not gammon's (see gammon.store.check), rather than make tables in it."""
        url = url or default_database_url()
        for scheme in ("postgresql://", "postgres://"):  # postgres://: the form hosts hand out
            if url.startswith(scheme):
                url = "postgresql+psycopg://" + url.removeprefix(scheme)
        self.url = url
        self.notifies = url.startswith("postgresql")  # live updates cross server processes (LISTEN)
        self.in_memory = sqlite_in_memory(url)
        self.sender = secrets.token_hex(8)  # names this store in its notifications (notify_seats)
        # a failed statement's error message and log leave out its parameters: session and
        # account rows hold hashes of secrets, and a hostile input may be huge
        kwargs: dict[str, Any] = {"hide_parameters": True}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            if self.in_memory:
                # the pool SQLAlchemy picks for a database in memory, named: from 'mode=memory' it
                # warns that it will stop picking it (a connection a thread, each on the shared database)
                kwargs["poolclass"] = SingletonThreadPool
        else:
            kwargs["pool_pre_ping"] = True
        try:
            self.engine: Engine = create_engine(url, **kwargs)
            if url.startswith("sqlite"):
                event.listen(self.engine, "connect", _sqlite_pragmas)
            if check:
                check_database(self.engine)
            Base.metadata.create_all(self.engine)
            _add_version_columns(self.engine)
        except (SQLAlchemyError, ValueError, ImportError) as e:
            # ImportError: a database whose driver is not installed (mysql://: No module named 'MySQLdb')
            # Read at the terminal (gammon serve, account, import, drill): in its language.
            raise StoreUnavailableError(
                tr("cannot open the database {url}: {reason}", url=_shown(url), reason=_reason(e))
            ) from e
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        self.engine.dispose()

    def create_match(self, record: MatchRecord, session: Session | None = None) -> None:
        """Store a new match; with ``session``, in that open transaction (which commits it, with
        whatever else it writes, or nothing)."""
        with self._sessions.begin() if session is None else contextlib.nullcontext(session) as s:
            s.add(MatchRow(id=record.id, created_at=record.created_at, mode=record.mode, level=record.level,
                           rules=dict(record.rules), seat0_hash=record.seat_hashes[0],
                           seat1_hash=record.seat_hashes[1], version=0, retracted_at=0, action_count=0,
                           status="active"))

    def append(self, match_id: str, change: LogChange) -> None:
        """Commit ``change`` to the match's actions (and its summary), in one transaction."""
        error = self.append_batch([(match_id, change)])[0]
        if error is not None:
            raise error

    def append_batch(self, entries: list[tuple[str, LogChange]]) -> list[Exception | None]:
        """Make several matches' changes in one transaction (a group commit): for each entry, its
        error (StoreConflictError, UnknownMatchError) or None once stored. An entry that conflicts
        stores nothing and leaves the others be. On PostgreSQL each stored entry also notifies
        channel ``gammon`` with ``"<match id> <version>"`` (comma-separated, several to a
        notification; delivered on commit)."""
        if not entries:
            return []
        try:
            return self._append_batch(entries)
        except IntegrityError:
            if len(entries) == 1:
                match_id, change = entries[0]
                return [StoreConflictError(f"match {match_id!r}: action {change.first} is already stored")]
            # One entry raced another writer past the version check: store them one by one.
            return [self.append_batch([entry])[0] for entry in entries]

    def _append_batch(self, entries: list[tuple[str, LogChange]]) -> list[Exception | None]:
        errors: list[Exception | None] = []
        rows: list[dict[str, Any]] = []
        changed: list[str] = []  # "<match id> <version>" of each entry stored
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            for match_id, change in entries:
                why = _why_not_valid(change)
                error = (StoreConflictError(f"match {match_id!r}: {why}") if why else
                         _unknown(match_id) if _never_stored(match_id) else
                         _change(conn, match_id, change, rows, now))
                errors.append(error)
                if error is None:
                    changed.append(f"{match_id} {change.version}")
            if rows:
                conn.execute(insert(MatchActionRow), rows)
            if self.notifies:
                # One notification per few hundred matches (a payload holds up to 8000 bytes).
                for start in range(0, len(changed), 200):
                    conn.execute(text("SELECT pg_notify('gammon', :payload)"),
                                 {"payload": ",".join(changed[start:start + 200])})
        return errors

    def notify_seats(self, match_ids: list[str], echo: bool = False) -> None:
        """Tell the server processes (PostgreSQL; nothing on SQLite) that the seats of these matches
        changed: an account claimed one or was deleted, or a match's end was judged (rated, the
        accounts' ratings changed, or marked unrated in its record). Those holding one read its
        record and seats again (:class:`gammon.store.notify.Listener`); but the process of this
        store, which did that itself, unless ``echo``."""
        if self.notifies and match_ids:
            sender = "" if echo else f" {self.sender}"
            with self.engine.begin() as conn:
                for start in range(0, len(match_ids), 200):  # a payload holds up to 8000 bytes
                    payload = ",".join(f"{m} {SEATS}{sender}" for m in match_ids[start:start + 200])
                    conn.execute(text("SELECT pg_notify('gammon', :payload)"), {"payload": payload})

    def load_match(self, match_id: str) -> MatchRecord:
        with self._sessions() as s:
            row = self._match_row(s, match_id)
            return MatchRecord(id=row.id, mode=row.mode, rules=dict(row.rules), level=row.level,
                               seat_hashes=(row.seat0_hash, row.seat1_hash), created_at=row.created_at)

    def load_log(self, match_id: str, first: int = 0) -> StoredLog:
        """The match's actions from seq ``first`` on, with its version. One statement reads both,
        so they agree even while other processes write (each statement sees one snapshot)."""
        if _never_stored(match_id):
            raise _unknown(match_id)
        query = (select(MatchRow.version, MatchRow.retracted_at, MatchActionRow.seq, MatchActionRow.action)
                 .outerjoin(MatchActionRow, (MatchActionRow.match_id == MatchRow.id)
                            & (MatchActionRow.seq >= first))
                 .where(MatchRow.id == match_id).order_by(MatchActionRow.seq))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        if not rows:
            raise _unknown(match_id)
        stored = [(seq, action) for _, _, seq, action in rows if seq is not None]
        if [seq for seq, _ in stored] != list(range(first, first + len(stored))):
            raise StoreConflictError(f"match {match_id!r}: the stored actions from {first} are not "
                                     f"consecutive ({[seq for seq, _ in stored][:10]})")
        return StoredLog(version=rows[0][0], retracted_at=rows[0][1], first=first,
                         actions=[MatchAction.from_dict(a) for _, a in stored])

    def load_requests(self, match_id: str) -> list[RequestRecord]:
        """The match's rows in the old format (one per request), if it was stored so."""
        if _never_stored(match_id):
            return []
        with self._sessions() as s:
            rows = s.scalars(select(ActionRow).where(ActionRow.match_id == match_id).order_by(ActionRow.seq))
            return [RequestRecord(seq=r.seq, kind=r.kind, player=r.player, args=dict(r.args),
                                  rolls=tuple((int(a), int(b)) for a, b in r.rolls)) for r in rows]

    def convert_requests(self, match_id: str, change: LogChange) -> None:
        """Store a match kept in the old format as its actions (``change``: every action from seq 0,
        to a version no lower than the stored one, since the state is the same) and drop its old
        rows, in one transaction. StoreConflictError if another process converted it first."""
        if change.first != 0 or change.retract_from is not None or change.version < change.base:
            raise StoreConflictError(f"match {match_id!r}: a conversion stores every action from 0")
        if _never_stored(match_id):
            raise _unknown(match_id)
        rows: list[dict[str, Any]] = []
        try:
            with self.engine.begin() as conn:
                error = _change(conn, match_id, change, rows, datetime.now(UTC))
                if error is not None:
                    raise error
                if rows:
                    conn.execute(insert(MatchActionRow), rows)
                conn.execute(delete(ActionRow).where(ActionRow.match_id == match_id))
        except IntegrityError:
            raise StoreConflictError(f"match {match_id!r} is already stored as its actions") from None

    def summary(self, match_id: str) -> MatchSummary:
        with self._sessions() as s:
            row = self._match_row(s, match_id)
            return MatchSummary(status=row.status, position_id=row.position_id or "",
                                score=(row.score0, row.score1))

    def match_ids(self) -> list[str]:
        with self._sessions() as s:
            return list(s.scalars(select(MatchRow.id).order_by(MatchRow.created_at, MatchRow.id)))

    def version(self, match_id: str) -> int:
        """The match's version: one more with every action stored or taken back."""
        with self._sessions() as s:
            return self._match_row(s, match_id).version

    def versions(self, match_ids: list[str]) -> dict[str, int]:
        """The versions of the stored matches among ``match_ids``."""
        found: dict[str, int] = {}
        ids = [m for m in match_ids if not _never_stored(m)]
        with self.engine.connect() as conn:
            for start in range(0, len(ids), 500):  # the database's limit on a statement's values
                query = select(MatchRow.id, MatchRow.version).where(MatchRow.id.in_(ids[start:start + 500]))
                found.update((match_id, version) for match_id, version in conn.execute(query))
        return found

    def action_count(self, match_id: str) -> int:
        """How many actions of the match are stored."""
        with self._sessions() as s:
            return self._match_row(s, match_id).action_count

    def count_actions(self) -> int:
        """How many actions of all matches are stored."""
        with self._sessions() as s:
            return int(s.scalar(select(func.count()).select_from(MatchActionRow)) or 0)

    @staticmethod
    def _match_row(s: Session, match_id: str) -> MatchRow:
        row = None if _never_stored(match_id) else s.get(MatchRow, match_id)
        if row is None:
            raise _unknown(match_id)
        return row


def _never_stored(match_id: str) -> bool:
    """Whether no match can have the id ``match_id`` (one from a client's URL): PostgreSQL refuses
    text holding NUL (DataError, where an unknown id is UnknownMatchError), and the store makes
    none."""
    return not isinstance(match_id, str) or "\x00" in match_id


def _unknown(match_id: str) -> UnknownMatchError:
    return UnknownMatchError(tr("no match {id}", id=cut(repr(match_id), 40)))


def _change(conn: Connection, match_id: str, change: LogChange, rows: list[dict[str, Any]],
            now: datetime) -> Exception | None:
    """Make ``change`` on ``conn`` but for inserting its actions, which it adds to ``rows``; the
    error that refuses it (nothing done), or None."""
    values: dict[str, Any] = {"version": change.version, "action_count": change.first + len(change.actions)}
    if change.retract_from is not None:
        values["retracted_at"] = change.version
    if change.summary is not None:
        summary = change.summary
        values.update(status=summary.status, position_id=summary.position_id,
                      score0=summary.score[0], score1=summary.score[1])
    # The WHERE on the version makes a second writer of the match fail, not overwrite.
    if _update_match(conn, match_id, "version", change.base, values) != 1:
        stored = conn.scalar(select(MatchRow.version).where(MatchRow.id == match_id))
        return (UnknownMatchError(tr("no match {id}", id=cut(repr(match_id), 40))) if stored is None else
                StoreConflictError(f"match {match_id!r}: a change to version {change.base} made "
                                   f"where it is {stored}"))
    if change.retract_from is not None:
        if rows:  # an earlier change of the same batch may have stored what this one takes back
            conn.execute(insert(MatchActionRow), rows)
            rows.clear()
        conn.execute(delete(MatchActionRow).where(MatchActionRow.match_id == match_id,
                                                  MatchActionRow.seq >= change.retract_from))
    rows.extend({"match_id": match_id, "seq": change.first + i, "action": a.to_dict(), "created_at": now}
                for i, a in enumerate(change.actions))
    return None


def _why_not_valid(change: LogChange) -> str | None:
    if change.version <= change.base:
        return f"a change from version {change.base} to {change.version} does not advance it"
    if change.retract_from is not None and not 0 <= change.retract_from <= change.first:
        return f"actions taken back from {change.retract_from} but stored from {change.first}"
    return None


def _add_version_columns(engine: Engine) -> None:
    """Give a ``matches`` table made before versions were stored its ``version`` (the number of
    rows it had: its version then) and ``retracted_at`` columns."""
    columns = {c["name"] for c in inspect(engine).get_columns("matches")}
    missing = [c for c in ("version", "retracted_at") if c not in columns]
    if not missing:
        return
    try:
        with engine.begin() as conn:
            for column in missing:
                conn.execute(text(f"ALTER TABLE matches ADD COLUMN {column} INTEGER NOT NULL DEFAULT 0"))
            if "version" in missing:
                conn.execute(text("UPDATE matches SET version = action_count"))
    except DBAPIError:
        # Another process added them meanwhile; anything else is still missing, and says so here.
        columns = {c["name"] for c in inspect(engine).get_columns("matches")}
        if any(c not in columns for c in missing):
            raise
