"""``gammon import DIR --player NAME``: import every match file in DIR into an account's profile,
analysing the new ones over the local cores or a Ray cluster, and print what became of each."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from gammon.cli.args import add_plies, positive_int, user_path
from gammon.cli.console import Console
from gammon.errors import GammonError, cut, quoted_path
from gammon.i18n import ntr, tr
from gammon.words import printable

if TYPE_CHECKING:
    from gammon.profile.importer import ImportPlan
    from gammon.profile.queue import Outcome

NAMES_SHOWN = 12  # the players' names listed when the player is found in no file


def _workers(text: str) -> int:
    from gammon.engine.rollout.parallel import MAX_WORKERS

    value = positive_int(text)
    if value > MAX_WORKERS:  # a pool forks as many as asked, up to one a match
        raise argparse.ArgumentTypeError(
            tr("{text} processes is more than {limit}", text=cut(repr(text)), limit=MAX_WORKERS)
        )
    return value


def add_import(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "import",
        help=tr("import a folder of match files into a player's profile"),
        description=tr(
            "Read every match file in DIR and its folders (.mat, .txt, .sgf, .xg), find the "
            "player NAME in each, analyse the matches the profile does not have yet (the same "
            "match in another file or format counts once) and store the player's statistics "
            "and marked decisions in the account's profile."
        ),
    )
    p.add_argument(
        "directory", metavar="DIR", type=user_path, help=tr("the folder of match files, or one match file")
    )
    p.add_argument("--player", required=True, metavar="NAME", help=tr("the player's name in the files"))
    p.add_argument(
        "--account",
        default=None,
        metavar="ACCOUNT",
        help=tr("the account whose profile gets the matches (default: NAME); it must exist"),
    )
    p.add_argument(
        "--database-url",
        default=None,
        help=tr(
            "SQLAlchemy URL, e.g. postgresql://user@host/db (default: the SQLite file "
            "in the user's data directory)"
        ),
    )
    add_plies(p, tr("search depth of the analysis (default: the engine's default, 2)"))
    p.add_argument(
        "--workers",
        type=_workers,
        default=None,
        metavar="N",
        help=tr("local processes analysing at once (default: every core)"),
    )
    p.add_argument(
        "--ray",
        default=None,
        metavar="ADDRESS",
        help=tr("analyse on a Ray cluster ('local' starts one on this machine)"),
    )
    p.set_defaults(func=run_import)


def run_import(args: argparse.Namespace) -> int:
    from gammon.accounts import Accounts
    from gammon.engine.engine import DEFAULT_PLIES
    from gammon.engine.rollout.parallel import check_ray_address, check_workers
    from gammon.profile import AnalysisQueue
    from gammon.profile.importer import match_files, plan_import, run_jobs
    from gammon.store import Store

    err = Console(stderr=True, highlight=False)
    out = Console(highlight=False)
    account_name = args.account or args.player
    unreadable: list[tuple[str, str]] = []  # folders that could not be listed
    try:
        if args.ray is not None:  # before any file is read or queued: Ray retries a dead address for minutes
            check_ray_address(args.ray)
        given = Path(args.directory)
        if given.is_file():  # one match file: a folder of one, whatever its name
            files = [given]
        elif not given.is_dir():
            raise ValueError(tr("there is no folder {directory}", directory=quoted_path(args.directory)))
        else:
            files = match_files(given, unreadable)
        if not files:
            raise ValueError(
                tr(
                    "no match files (.mat, .txt, .sgf, .xg) in {directory}",
                    directory=quoted_path(args.directory),
                )
            )
        store = Store(args.database_url, check=True)
    except (GammonError, ValueError, OSError) as e:
        print(f"gammon import: {e}", file=sys.stderr)
        _failures(unreadable, err)
        return 2
    try:
        account = Accounts(store).by_name(account_name)
        if account is None:
            print(
                "gammon import: " + tr("no account is named {name}", name=cut(repr(account_name))),
                file=sys.stderr,
            )
            return 2
        queue = AnalysisQueue(store)
        plies = DEFAULT_PLIES if args.plies is None else args.plies
        with _bar(tr("reading"), tr("files"), err) as reading:  # thousands of files take minutes
            task = reading.add_task("read", total=len(files))
            plan = plan_import(queue, account.id, files, args.player, plies, lambda: reading.advance(task))
        if not plan.matched:
            print("gammon import: " + _not_found(args.player, len(files), plan.names_seen), file=sys.stderr)
            _failures(unreadable + plan.failed, err)
            return 2
        job_ids = [job_id for job_id, _ in plan.queued]
        with _bar(tr("analysing"), tr("matches"), err) as bar:
            task = bar.add_task("import", total=len(job_ids))
            outcomes = run_jobs(
                queue,
                store.url,
                job_ids,
                workers=check_workers(args.workers),
                ray_address=args.ray,
                done=lambda _: bar.advance(task),
            )
    except (GammonError, ValueError, ImportError, ConnectionError) as e:  # ConnectionError: Ray's own
        print(f"gammon import: {e}", file=sys.stderr)
        return 2
    finally:
        store.close()
    return _summary(account.name, plan, outcomes, unreadable, out)


def _bar(doing: str, unit: str, err: Console) -> Progress:
    """A progress bar on the terminal ("analysing 3/10 matches"), none in a log file."""
    return Progress(
        TextColumn(doing),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,  # a bar in a log file is one blank line
    )


def _summary(account: str, plan: ImportPlan, outcomes: list[Outcome], unreadable: list[tuple[str, str]],
             out: Console) -> int:
    """Print what became of the files; the exit status (1 if any failed)."""
    where = dict(plan.queued)  # each job's file, as the plan names it
    imported = [o for o in outcomes if o.status == "done"]
    duplicates = plan.duplicates + [where.get(o.job_id, o.name) for o in outcomes if o.status == "duplicate"]
    failed = unreadable + plan.failed
    failed += [(where.get(o.job_id, o.name), o.why() or tr("failed")) for o in outcomes
               if o.status == "failed"]
    # a server on the same database took them (still queued or running there)
    elsewhere = [o for o in outcomes if o.status not in ("done", "duplicate", "failed")]
    out.print(
        tr(
            "{name}: {imported} imported, {duplicates} duplicates, {failed} failed",
            name=account,
            imported=len(imported),
            duplicates=len(duplicates),
            failed=len(failed),
        )
    )
    replaced = sum(o.replaced for o in imported)
    if replaced:
        out.print(ntr("{n} match imported before was the first games of a match imported now, "
                      "which takes its place",
                      "{n} matches imported before were the first games of matches imported now, "
                      "which take their place", replaced, n=replaced))
    if elsewhere:
        out.print(ntr("{n} match is being analysed by another process using the same database (a server): "
                      "it goes into the profile when that is done",
                      "{n} matches are being analysed by another process using the same database (a server): "
                      "they go into the profile when that is done", len(elsewhere), n=len(elsewhere)))
    _failures(failed, out)
    return 1 if failed else 0


def _not_found(player: str, files: int, names_seen: dict[str, int]) -> str:
    """Why nothing was imported: ``player`` is in none of the files; the names found instead, the
    most frequent first, a few (a folder of thousands of matches has as many names)."""
    names = sorted(names_seen, key=lambda n: (-names_seen[n], n.lower()))
    more = len(names) - NAMES_SHOWN
    seen = ", ".join(cut(n, 40) for n in names[:NAMES_SHOWN]) + (
        ntr(", and {n} more", ", and {n} more", more, n=more) if more > 0 else ""
    )
    return ntr(
        "{player} plays in none of the {n} files; the players found are: {seen}",
        "{player} plays in none of the {n} files; the players found are: {seen}",
        files,
        player=cut(repr(player)),
        n=files,
        seen=seen or tr("none (no file could be read)"),
    )


def _failures(failed: list[tuple[str, str]], console: Console) -> None:
    for name, reason in failed:
        # a file's name may hold a terminal's escape sequences or line breaks
        line = tr("failed: {name}: {reason}", name=printable(name), reason=printable(reason))
        console.print("  " + line, markup=False, soft_wrap=True)


__all__ = ["add_import", "run_import"]
