"""``gammon account``: operators' commands on player accounts (``reset-password NAME``)."""

from __future__ import annotations

import argparse
import getpass
import sys

from gammon.errors import GammonError
from gammon.i18n import tr


def add_account(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "account",
        help=tr("manage player accounts (operators)"),
        description=tr("Manage the player accounts of a server's database."),
    )
    commands = p.add_subparsers(dest="account_command", metavar="ACTION", required=True)
    reset = commands.add_parser(
        "reset-password",
        help=tr("set a new password for an account and sign it out everywhere"),
        description=tr(
            "Set a new password for the account NAME and end all its sessions. The password "
            "is asked twice without echo, or read as the first line of standard input when "
            "that is not a terminal."
        ),
    )
    reset.add_argument("name", metavar="NAME", help=tr("the account's name (in any case)"))
    reset.add_argument(
        "--database-url",
        default=None,
        help=tr(
            "SQLAlchemy URL, e.g. postgresql://user@host/db (default: the SQLite file "
            "in the user's data directory)"
        ),
    )
    reset.set_defaults(func=run_reset_password)


def _new_password() -> str:
    """The new password: from a prompt without echo, typed twice; or the first line of stdin."""
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\r\n")
    try:
        password = getpass.getpass(tr("New password: "))
        again = getpass.getpass(tr("Once more: "))
    except EOFError:  # Ctrl-D at a prompt
        raise ValueError(tr("no password given: the input ended")) from None
    if again != password:
        raise ValueError(tr("the two passwords differ"))
    return password


def run_reset_password(args: argparse.Namespace) -> int:
    from gammon.accounts import Accounts
    from gammon.store import Store

    try:
        password = _new_password()
        store = Store(args.database_url, check=True)
        try:
            account = Accounts(store).reset_password(args.name, password)
        finally:
            store.close()
    except (GammonError, ValueError) as e:
        print(f"gammon account: {e}", file=sys.stderr)
        return 2
    print(
        "gammon account: " + tr("the password of {name} is reset and its sessions ended", name=account.name)
    )
    return 0
