"""Checks of an existing database before a server takes it on: a damaged or emptied file made a
server that started and answered 500 on every read, or a fresh database silently made over it.

Each check raises :class:`StoreUnavailableError` with one line that names the database and says
what is wrong with it and what to do, in the current language (``gammon serve`` prints it at the
terminal). A database that does not exist yet is no fault: the store makes it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from gammon.errors import StoreUnavailableError, cut
from gammon.i18n import ntr, tr
from gammon.store.models import Base

SQLITE_HEADER = b"SQLite format 3\x00"
MIGRATED = {("matches", "version"), ("matches", "retracted_at")}
"""Columns the store adds itself to a table made before them (see repository._add_version_columns)."""
MARK = "matches"
"""The table every gammon database has had, in every version of its schema."""
DAMAGED = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
"""SQLite's codes for a file that is damaged; any other error opening it is not the file's fault
(a directory where SQLite cannot make its journal files, a file it may not write)."""


def check_database(engine: Engine) -> None:
    """Refuse (StoreUnavailableError) an existing database that the store cannot serve from: an
    SQLite file that is empty, not SQLite's, damaged (SQLite's ``quick_check``) or another
    program's; gammon's tables without the columns gammon needs; a database gammon may not write."""
    path = _sqlite_file(engine)
    if path is not None:
        try:
            if not path.exists():
                return  # a new database: the store creates it
            _check_file(engine, path)
        except OSError as e:  # a directory, a name too long: it was a traceback
            raise StoreUnavailableError(
                tr(
                    "cannot read the database file {path}: {reason}",
                    path=_named(path),
                    reason=cut(e.strerror or str(e), 160),
                )
            ) from e
    if _check_schema(engine, path):
        _check_writable(engine, path)


def _sqlite_file(engine: Engine) -> Path | None:
    """The file of an SQLite database (None: another database, or SQLite in memory)."""
    database = engine.url.database
    if (
        engine.dialect.name != "sqlite"
        or not database
        or database == ":memory:"
        or database.startswith("file:")
    ):
        return None
    return Path(database)


def _named(path: Path) -> str:
    return cut(repr(str(path)), 200)


def _check_file(engine: Engine, path: Path) -> None:
    with path.open("rb") as f:
        header = f.read(len(SQLITE_HEADER))
    if not header:
        raise StoreUnavailableError(
            tr(
                "the database file {path} is empty (0 bytes), not a database: restore it from a backup, or "
                "delete it to start afresh with a new, empty database",
                path=_named(path),
            )
        )
    if header != SQLITE_HEADER:
        raise StoreUnavailableError(
            tr(
                "the database file {path} is not an SQLite database (it does not start with SQLite's header)",
                path=_named(path),
            )
        )
    try:
        with engine.connect() as conn:
            problems = [row[0] for row in conn.execute(text("PRAGMA quick_check"))]
    except DBAPIError as e:
        if getattr(e.orig, "sqlite_errorcode", None) not in DAMAGED:
            # An intact file in a read-only directory was called damaged, to restore or move away.
            raise StoreUnavailableError(
                tr(
                    "cannot open the database file {path}: {reason} (gammon must be able to write "
                    "the file and, beside it, its journal files: check the rights on the file and "
                    "its directory)",
                    path=_named(path),
                    reason=cut(str(e.orig), 160),
                )
            ) from e
        problems = [str(e.orig)]  # too damaged for the check to run
    if problems != ["ok"]:
        # One problem a line (the first row holds several), under a "*** in database main ***".
        lines = [
            line.strip()
            for p in problems
            for line in str(p).splitlines()
            if line.strip() and not line.startswith("***")
        ] or ["no detail"]
        n = len(lines) - 1
        more = ntr(", and {n} more", ", and {n} more", n, n=n) if n else ""
        raise StoreUnavailableError(
            tr(
                "the database file {path} is damaged (SQLite's check: {first}{more}): restore it from a "
                "backup, or move it away to start afresh with a new, empty database",
                path=_named(path),
                first=repr(cut(lines[0], 160)),
                more=more,
            )
        )


def _check_writable(engine: Engine, path: Path | None) -> None:
    """Refuse a database gammon may only read (an SQLite file it may not write, a role without
    rights on the tables): the server started, said it was serving, and failed on every write."""
    try:
        with engine.begin() as conn:  # a write that changes nothing, rolled back at once
            conn.execute(text(f"UPDATE {MARK} SET id = id WHERE 1 = 0"))
            conn.rollback()
    except DBAPIError as e:
        where = _named(path) if path is not None else cut(
            repr(engine.url.render_as_string(hide_password=True)), 200
        )
        raise StoreUnavailableError(
            tr(
                "cannot write to the database {where}: {reason} (gammon needs to write to it: check "
                "the rights on it, and for an SQLite file on its directory)",
                where=where,
                reason=cut(str(e.orig).strip().splitlines()[0] if str(e.orig).strip() else "", 160),
            )
        ) from e


def _check_schema(engine: Engine, path: Path | None) -> bool:
    """Whether the database has gammon's tables (False: none yet, the store makes them).
    (An error reaching the database is left to the store, which says it cannot open it.)"""
    inspector = inspect(engine)
    tables = set(inspector.get_table_names())
    if path is not None and tables and MARK not in tables:
        # An SQLite file is one database: tables, none of them gammon's, are another program's.
        # (A PostgreSQL database may well hold other programs' tables beside gammon's.)
        shown = ", ".join(repr(t) for t in sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
        raise StoreUnavailableError(
            tr(
                "the database file {path} is another program's database: it has "
                "no table {table} (its tables: {tables})",
                path=_named(path),
                table=repr(MARK),
                tables=cut(shown, 200),
            )
        )
    missing: list[str] = []
    for table in Base.metadata.sorted_tables:
        if table.name in tables:  # a table not there yet is made by the store
            present = {c["name"] for c in inspector.get_columns(table.name)}
            missing += [
                f"{table.name}.{c.name}"
                for c in table.columns
                if c.name not in present and (table.name, c.name) not in MIGRATED
            ]
    if not missing:
        return MARK in tables
    columns = cut(", ".join(missing), 200)
    if path is not None:
        raise StoreUnavailableError(
            tr(
                "the database file {path} has gammon's tables without columns gammon needs ({columns}): it "
                "was made by another program, or changed by hand",
                path=_named(path),
                columns=columns,
            )
        )
    url = cut(repr(engine.url.render_as_string(hide_password=True)), 200)
    raise StoreUnavailableError(
        tr(
            "the database {url} has gammon's tables without columns gammon needs ({columns}): it was made "
            "by another program, or changed by hand",
            url=url,
            columns=columns,
        )
    )
