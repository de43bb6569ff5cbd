"""``gammon account reset-password NAME``: the new password from a prompt or from stdin."""

from __future__ import annotations

import io

import pytest

from gammon.accounts import Accounts, SignInError
from gammon.accounts.passwords import Passwords
from gammon.cli.main import main
from gammon.store import Store
from tests.accounts.conftest import CHEAP


@pytest.fixture
def url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'accounts.sqlite3'}"


def _with_alice(url: str) -> Accounts:
    accounts = Accounts(Store(url), passwords=Passwords(CHEAP))
    accounts.sign_up("Alice", "old password")
    return accounts


def test_the_new_password_read_from_stdin(
    url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    accounts = _with_alice(url)
    token = accounts.sign_in("Alice", "old password").token
    monkeypatch.setattr("sys.stdin", io.StringIO("new password\nignored\n"))
    assert main(["account", "reset-password", "alice", "--database-url", url]) == 0
    assert "password of Alice is reset" in capsys.readouterr().out
    assert accounts.account_of(token) is None
    accounts.sign_in("Alice", "new password")
    with pytest.raises(SignInError):
        accounts.sign_in("Alice", "old password")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_new_password_asked_twice_without_echo(
    url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    accounts = _with_alice(url)
    monkeypatch.setattr("sys.stdin", Terminal())
    answers = iter(["typed password", "typed password", "one", "another"])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    assert main(["account", "reset-password", "Alice", "--database-url", url]) == 0
    accounts.sign_in("Alice", "typed password")
    assert main(["account", "reset-password", "Alice", "--database-url", url]) == 2
    assert "the two passwords differ" in capsys.readouterr().err


def test_the_input_ending_at_the_prompt(
    url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-D at a prompt: a one-line refusal, the password unchanged (it was a traceback of
    getpass's EOFError)."""
    accounts = _with_alice(url)
    monkeypatch.setattr("sys.stdin", Terminal())

    def ended(prompt: str) -> str:
        raise EOFError

    monkeypatch.setattr("getpass.getpass", ended)
    assert main(["account", "reset-password", "Alice", "--database-url", url]) == 2
    assert capsys.readouterr().err == "gammon account: no password given: the input ended\n"
    accounts.sign_in("Alice", "old password")


@pytest.mark.parametrize(
    ("name", "password", "message"),
    [
        ("Bob", "new password", "no account is named 'Bob'"),
        ("Alice", "short", "at least 8 characters"),
    ],
)
def test_what_the_command_refuses(
    url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    password: str,
    message: str,
) -> None:
    accounts = _with_alice(url)
    monkeypatch.setattr("sys.stdin", io.StringIO(password + "\n"))
    assert main(["account", "reset-password", name, "--database-url", url]) == 2
    assert message in capsys.readouterr().err
    accounts.sign_in("Alice", "old password")


def test_an_unknown_name_is_quoted_cut_short(
    url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # a name pasted by mistake (a page of text) was printed back whole in the refusal
    _with_alice(url)
    monkeypatch.setattr("sys.stdin", io.StringIO("new password\n"))
    assert main(["account", "reset-password", "x" * 5000, "--database-url", url]) == 2
    err = capsys.readouterr().err
    assert "no account is named 'xxx" in err and "..." in err and len(err) < 150
