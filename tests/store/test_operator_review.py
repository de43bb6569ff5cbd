"""An operator's view of the store: a database gammon cannot write, or cannot open beside its
journal files, is refused in one line that says so, never called damaged nor served from."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gammon.errors import StoreUnavailableError
from gammon.i18n import set_language
from gammon.store import Store
from tests.store.test_repository import _record


def _stored(path: Path) -> bytes:
    store = Store(f"sqlite:///{path}")
    store.create_match(_record("match-001"))
    store.close()  # folds the write-ahead log into the file
    return path.read_bytes()


def test_an_intact_file_whose_journal_cannot_be_made_is_not_called_damaged(tmp_path: Path) -> None:
    path = tmp_path / "gammon.db"
    data = _stored(path)
    # Where SQLite cannot make its shared-memory file (as in a read-only directory).
    (tmp_path / "gammon.db-shm").symlink_to(tmp_path / "no-such-directory" / "shm")
    with pytest.raises(StoreUnavailableError) as caught:
        Store(f"sqlite:///{path}", check=True)
    message = str(caught.value)
    assert message.startswith(f"cannot open the database file {str(path)!r}: unable to open database file")
    assert "check the rights on the file and its directory" in message
    assert "damaged" not in message and "restore it" not in message and "move it away" not in message
    assert path.read_bytes() == data


def test_a_database_gammon_may_only_read_is_refused_before_serving(tmp_path: Path) -> None:
    path = tmp_path / "gammon.db"
    data = _stored(path)
    url = f"sqlite:///file:{path}?mode=ro&uri=true"  # SQLite opens it read-only, as a file it may not write
    with pytest.raises(StoreUnavailableError) as caught:
        Store(url, check=True)
    message = str(caught.value)
    assert message.startswith("cannot write to the database "), message
    assert "attempt to write a readonly database" in message and "check the rights on it" in message
    assert path.read_bytes() == data
    Store(f"sqlite:///{path}", check=True).close()  # the same file, writable, is served


def test_a_new_database_passes_the_check(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'new.db'}", check=True)
    store.create_match(_record("match-001"))
    assert store.match_ids() == ["match-001"]
    store.close()
    assert sqlite3.connect(tmp_path / "new.db").execute("SELECT count(*) FROM matches").fetchone() == (1,)


def test_a_database_whose_driver_is_not_installed_is_refused_in_one_line() -> None:
    # SQLAlchemy knows MySQL, but its driver is not one of gammon's dependencies: a traceback
    # ending in ModuleNotFoundError came out of gammon serve. (Were it installed, the host does
    # not resolve: refused all the same.)
    url = "mysql+mysqldb://gammon:secret-password@no-such-host.invalid/gammon"
    with pytest.raises(StoreUnavailableError) as caught:
        Store(url)
    message = str(caught.value)
    shown = "'mysql+mysqldb://gammon:***@no-such-host.invalid/gammon'"
    assert message.startswith(f"cannot open the database {shown}: "), message
    assert "secret-password" not in message and "\n" not in message


@pytest.mark.parametrize(
    ("lang", "said"),
    [("pl", "nie można otworzyć bazy danych"), ("cs", "nelze otevřít"), ("sk", "nie je možné otvoriť")],
)
def test_a_database_that_cannot_be_opened_is_refused_in_the_terminals_language(lang: str, said: str) -> None:
    # It stayed English: 'cannot open the database ...' whatever --lang said.
    set_language(lang)
    try:
        with pytest.raises(StoreUnavailableError) as caught:
            Store("postgresql://gammon:secret-password@127.0.0.1:1/gammon")
    finally:
        set_language("en")
    message = str(caught.value)
    assert said in message and "'postgresql+psycopg://gammon:***@127.0.0.1:1/gammon'" in message, message
    assert "cannot open" not in message and "secret-password" not in message


def test_a_database_path_that_is_a_directory_or_too_long_is_refused_in_one_line(tmp_path: Path) -> None:
    # Both ended in a traceback (IsADirectoryError, OSError 'File name too long').
    with pytest.raises(StoreUnavailableError) as caught:
        Store(f"sqlite:///{tmp_path}", check=True)
    assert str(caught.value) == f"cannot read the database file {str(tmp_path)!r}: Is a directory"
    long = tmp_path / ("x" * 300) / "gammon.db"
    with pytest.raises(StoreUnavailableError) as caught:
        Store(f"sqlite:///{long}", check=True)
    message = str(caught.value)
    assert message.startswith(f"cannot read the database file '{str(tmp_path)[:20]}"), message
    assert message.endswith(": File name too long") and len(message) < 300, message
