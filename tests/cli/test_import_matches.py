"""``gammon import``: what it says of a folder that is not there, and one match file given instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from gammon.accounts import Accounts
from gammon.accounts.passwords import Passwords
from gammon.cli.main import main
from gammon.store import Store
from tests.accounts.conftest import CHEAP
from tests.profile.conftest import CHARLOT_SGF


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'profile.sqlite3'}"


def test_a_missing_folder_is_said_to_be_missing(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no-such-folder"
    assert main(["import", str(missing), "--player", "bob", "--database-url", url]) == 2
    err = capsys.readouterr().err
    assert f"there is no folder {str(missing)!r}" in err and "no match files" not in err


def test_one_match_file_is_imported_as_a_folder_of_one(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    store = Store(url)
    try:
        Accounts(store, passwords=Passwords(CHEAP)).sign_up("bob", "password1")
    finally:
        store.close()
    # read, not refused as an empty folder: bob is not among its players (nothing is analysed)
    assert main(["import", str(CHARLOT_SGF), "--player", "bob", "--database-url", url, "--plies", "0"]) == 2
    err = capsys.readouterr().err
    assert "'bob' plays in none of the 1 files; the players found are: charlot1, charlot2" in err
