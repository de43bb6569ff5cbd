"""``gammon import DIR --player NAME``: a folder of match files into an account's profile."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gammon.accounts import Accounts
from gammon.accounts.passwords import Passwords
from gammon.cli.main import main
from gammon.profile import profile_summary
from gammon.store import Store
from tests.accounts.conftest import CHEAP
from tests.profile.conftest import CHARLOT_SGF, CHARLOT_XG, LASSE_1


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'profile.sqlite3'}"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The same match as .sgf and .xg, another one of other players, a file that does not read."""
    d = tmp_path / "matches"
    (d / "more").mkdir(parents=True)
    shutil.copy(CHARLOT_SGF, d)
    shutil.copy(CHARLOT_XG, d / "more")
    shutil.copy(LASSE_1, d)
    (d / "broken.txt").write_text("not a match\n")
    (d / "notes.md").write_text("not a match file either: left alone\n")
    return d


def _account(url: str, name: str) -> int:
    store = Store(url)
    try:
        return Accounts(store, passwords=Passwords(CHEAP)).sign_up(name, "password1").id
    finally:
        store.close()


def test_import_a_folder(url: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    account = _account(url, "Charlie")
    args = ["import", str(folder), "--player", "CHARLOT1", "--account", "charlie", "--database-url", url]
    assert main([*args, "--plies", "0", "--workers", "1"]) == 1  # two files failed
    out = capsys.readouterr().out
    assert "Charlie: 1 imported, 1 duplicates, 2 failed" in out
    assert "broken.txt" in out and "'CHARLOT1' is neither of its players (lasse, earl)" in out
    store = Store(url)
    try:
        [match] = profile_summary(store, account).matches
        assert (match.opponent, match.source) == ("charlot2", "file")
    finally:
        store.close()
    # again: nothing new
    assert main([*args, "--plies", "0", "--workers", "1"]) == 1
    assert "Charlie: 0 imported, 2 duplicates, 2 failed" in capsys.readouterr().out


def test_the_account_must_exist(url: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _account(url, "someone")
    assert main(["import", str(folder), "--player", "charlot1", "--database-url", url, "--plies", "0"]) == 2
    assert "no account is named 'charlot1'" in capsys.readouterr().err


def test_a_name_in_no_file_lists_the_names_found(
    url: str, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _account(url, "bob")
    assert main(["import", str(folder), "--player", "bob", "--database-url", url, "--plies", "0"]) == 2
    err = capsys.readouterr().err
    assert "'bob' plays in none of the 4 files" in err
    assert "charlot1, charlot2, earl, lasse" in err


def test_an_empty_folder(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", str(tmp_path), "--player", "bob", "--database-url", url]) == 2
    assert "no match files" in capsys.readouterr().err


@pytest.mark.slow
def test_import_over_two_processes(url: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _account(url, "lasse")
    shutil.copy(Path(str(LASSE_1).replace("1112717", "1173715")), folder)
    args = [
        "import",
        str(folder),
        "--player",
        "lasse",
        "--database-url",
        url,
        "--plies",
        "0",
        "--workers",
        "2",
    ]
    assert main(args) == 1
    assert "lasse: 2 imported, 0 duplicates, 3 failed" in capsys.readouterr().out


def test_why_a_file_is_left_out_is_said_in_the_terminals_language(
    url: str, folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _account(url, "charlie")
    monkeypatch.setenv("LANGUAGE", "pl")
    args = ["import", str(folder), "--player", "charlot1", "--account", "charlie", "--database-url", url]
    assert main([*args, "--plies", "0", "--workers", "1"]) == 1
    out = capsys.readouterr().out
    assert "'charlot1' nie jest żadnym z graczy tego meczu (lasse, earl)" in out
    assert "neither" not in out


def test_a_long_player_name_is_quoted_cut_short(
    url: str, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _account(url, "charlie")
    player = "charlot1" + "x" * 5000
    args = ["import", str(folder), "--player", player, "--account", "charlie", "--database-url", url]
    assert main([*args, "--plies", "0"]) == 2  # in no file
    err = capsys.readouterr().err
    assert "is neither of its players" in err and len(err) < 2000


def test_the_names_found_are_listed_a_few_and_cut_short(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a folder of 300 matches against as many opponents, one named at length: the player in none
    _account(url, "bob")
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(300):
        name = f"opponent{i:03d}" + ("y" * 200 if i == 7 else "")
        (folder / f"m{i:03d}.mat").write_bytes(LASSE_1.read_bytes().replace(b"earl", name.encode()))
    assert main(["import", str(folder), "--player", "bob", "--database-url", url]) == 2
    first = capsys.readouterr().err.splitlines()[0]
    assert "'bob' plays in none of the 300 files" in first and len(first) < 500
    assert (
        "lasse, opponent000" in first
        and "opponent007yyyyyyyyyyyyyyyyyyyyyyyyyy..." in first
        and first.endswith(", and 289 more")
    )


def test_a_name_is_found_however_the_file_writes_its_accents(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file writes "é" as "e" and a combining accent (as some programs do), the player types
    "é": it said "'José' is neither of its players (José, earl)"."""
    account = _account(url, "jose")
    folder = tmp_path / "matches"
    folder.mkdir()
    (folder / "m.mat").write_bytes(LASSE_1.read_bytes().replace(b"lasse", "Jose\u0301".encode()))
    args = ["import", str(folder), "--player", "Jos\u00e9", "--account", "jose", "--database-url", url]
    assert main([*args, "--plies", "0", "--workers", "1"]) == 0
    assert "jose: 1 imported, 0 duplicates, 0 failed" in capsys.readouterr().out
    store = Store(url)
    try:
        assert [m.opponent for m in profile_summary(store, account).matches] == ["earl"]
    finally:
        store.close()
