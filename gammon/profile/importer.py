"""Importing a directory of match files into an account's profile: read each file, find the seat
of the named player, leave out the matches the profile has already (by fingerprint, or a longer
file of the match), queue the others and analyse them, in this process, over local processes or
on a Ray cluster. Of a match's files, the one that goes furthest is kept: a file of its first
games (saved mid-match) counts as a duplicate of it, before or after."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import sessionmaker

from gammon.engine.rollout.parallel import ordered_map
from gammon.errors import GammonError, StoreUnavailableError, cut, quoted_path
from gammon.game import Roll
from gammon.i18n import tr
from gammon.profile.queue import AnalysisQueue, Outcome, at_work, claim_and_run, claimant_name, run_job
from gammon.profile.record import existing, kin
from gammon.profile.source import (
    MATCH_FILE_EXTENSIONS,
    extends,
    fingerprint,
    match_record,
    name_key,
    opening,
    read_file,
    read_match_file,
)


@dataclass
class ImportPlan:
    """What a directory holds for the player: the queued jobs ``(job id, file)``, the duplicates
    (files of a match the profile has, or one listed before, or of the first games of either),
    the files that could not be read or whose players are someone else (with the reason), and
    every player's name seen."""

    queued: list[tuple[int, str]] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    names_seen: dict[str, int] = field(default_factory=dict)
    matched: int = 0  # files where the player was found


def match_files(directory: str | Path, unreadable: list[tuple[str, str]] | None = None) -> list[Path]:
    """The match files under ``directory`` (its folders too, not those behind symbolic links), by
    name; each folder that cannot be listed is added to ``unreadable`` with the reason (Path.rglob
    skipped it without a word, and its matches with it)."""

    def skipped(error: OSError) -> None:
        if unreadable is not None:
            why = tr("the folder cannot be read: {reason}", reason=error.strerror or type(error).__name__)
            unreadable.append((str(error.filename), why))

    found = (Path(folder, name) for folder, _, names in os.walk(directory, onerror=skipped) for name in names)
    return sorted(p for p in found if p.suffix.lower() in MATCH_FILE_EXTENSIONS and p.is_file())


def seat_of(names: tuple[str, str], player: str) -> int | None:
    """The seat whose name is ``player`` (compared as :func:`name_key` writes them)."""
    key = name_key(player)
    found = [seat for seat in (0, 1) if name_key(names[seat]) == key]
    return found[0] if len(found) == 1 else None


def plan_import(
    queue: AnalysisQueue,
    account_id: int,
    files: Sequence[Path],
    player: str,
    plies: int,
    progress: Callable[[], None] | None = None,
) -> ImportPlan:
    """Read ``files`` and queue the analysis of each new match where ``player`` plays;
    ``progress`` is told of each file done, whatever became of it."""
    plan = ImportPlan()
    try:
        _plan(plan, queue, account_id, _telling(files, progress), player, plies)
    except BaseException:  # stopped (Ctrl-C), or the database failed (locked, full): nothing is run
        _withdraw(queue, [job_id for job_id, _ in plan.queued])
        raise
    return plan


def _withdraw(queue: AnalysisQueue, job_ids: list[int], claimant: str | None = None) -> None:
    """Take the import's jobs off the queue as it stops, those not begun and those its workers
    (``claimant``) were running (else they stayed queued or running for good, with their files'
    bytes, and importing again queued the files anew); a server's worker's are left to it."""
    try:
        queue.withdraw(job_ids, claimant)
    except SQLAlchemyError:
        pass  # the database fails still: the error being raised is the one to tell


def _plan(plan: ImportPlan, queue: AnalysisQueue, account_id: int, files: Iterable[Path], player: str,
          plies: int) -> None:
    seen: dict[str, list[tuple[str, int]]] = {}  # by opening: (record, job id)
    sessions = sessionmaker(queue.store.engine)
    for path in files:
        name = str(path)
        try:
            data = read_file(path)
            read = read_match_file(data, path.name)
        except (OSError, GammonError, ValueError) as e:
            plan.failed.append((name, str(e)))
            continue
        for n in read.names:
            plan.names_seen[n] = plan.names_seen.get(n, 0) + 1
        seat = seat_of(read.names, player)
        if seat is None:
            both = all(name_key(n) == name_key(player) for n in read.names)
            quoted = {"player": cut(repr(player)), "first": cut(read.names[0]), "second": cut(read.names[1])}
            why = (
                tr("both players are named {player} ({first}, {second})", **quoted)
                if both
                else tr("{player} is neither of its players ({first}, {second})", **quoted)
            )
            plan.failed.append((name, why))
            continue
        plan.matched += 1
        if not any(isinstance(a, Roll) for game in read.match.games for a in game.history):
            # nothing to analyse, and every such match of a length has one fingerprint: a second
            # one, against anyone, was a "duplicate" of the first
            plan.failed.append((name, tr("no dice are rolled in the match: there is nothing to import")))
            continue
        mark = fingerprint(read.match)
        record = match_record(read.match, seat)
        key = opening(record, read.names[1 - seat][:64])
        try:
            with sessions() as s:
                known = (existing(s, account_id, mark) is not None
                         or kin(s, account_id, read.match, seat, read.names[1 - seat]).longer is not None)
            listed = seen.setdefault(key, [])  # this folder's files of matches that begin so
            if known or any(r == record or extends(r, record) for r, _ in listed):
                plan.duplicates.append(name)
                continue
            # a file of a match's first games listed before: the whole match takes its place
            shorter = [job_id for r, job_id in listed if extends(record, r)]
            if shorter:
                queue.withdraw(shorter)
                plan.duplicates += [n for job_id, n in plan.queued if job_id in shorter]
                plan.queued = [(job_id, n) for job_id, n in plan.queued if job_id not in shorter]
                listed[:] = [(r, job_id) for r, job_id in listed if job_id not in shorter]
            # a name that is no UTF-8 (os.fsdecode's surrogates) cannot be stored as it is
            file_name = os.fsencode(path.name).decode("utf-8", "replace")
            job_id = queue.add_file(account_id, seat, data, file_name, read.format, plies)
            plan.queued.append((job_id, name))
            listed.append((record, job_id))
        except SQLAlchemyError as e:
            raise _unavailable(queue.store.url, e, name) from e


def _telling(files: Sequence[Path], progress: Callable[[], None] | None) -> Iterator[Path]:
    """``files``, calling ``progress`` once the loop is done with each (whichever way it went on)."""
    for path in files:
        yield path
        if progress is not None:
            progress()


def _unavailable(url: str, error: SQLAlchemyError, name: str | None = None) -> StoreUnavailableError:
    """A database failure (read-only, locked, gone) as a GammonError naming the database, the
    file it was at (None: analysing) and the driver's reason, without SQLAlchemy's SQL."""
    inner = getattr(error, "orig", None) or error
    reason = cut(str(inner).strip().splitlines()[0] if str(inner).strip() else type(inner).__name__, 200)
    parsed = make_url(url)
    database = quoted_path(url if parsed.password is None else parsed.render_as_string(hide_password=True))
    if name is None:
        return StoreUnavailableError(tr("the database {database} failed while analysing: {reason}",
                                        database=database, reason=reason))
    return StoreUnavailableError(tr("the database {database} failed at {file}: {reason}",
                                    database=database, file=quoted_path(name), reason=reason))


def run_jobs(
    queue: AnalysisQueue,
    database_url: str,
    job_ids: Sequence[int],
    *,
    workers: int = 1,
    ray_address: str | None = None,
    done: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Analyse the queued jobs ``job_ids``: here when ``workers`` is 1, else over that many local
    processes, or on Ray at ``ray_address`` ("local" starts one here; see
    :mod:`gammon.engine.rollout.parallel`). ``done`` is told of each outcome, in the jobs' order."""
    outcomes: list[Outcome] = []
    # the name its workers claim its jobs by: a job they were running when it stopped (a worker
    # killed, Ray failing) is taken off with the queued ones, one a server's worker runs is not
    claimant = claimant_name("import")  # alive while this process is (and, here, at_work)
    if workers <= 1 and ray_address is None:
        results: Iterable[list[Outcome]] = ([claim_and_run(queue, job_id, claimant)] for job_id in job_ids)
    else:
        results = ordered_map(
            _run_jobs, (database_url, claimant), [(j, j + 1) for j in job_ids], workers=workers,
            ray_address=ray_address,
        )
    try:
        with at_work(claimant):
            for batch in results:
                for outcome in batch:
                    outcomes.append(outcome)
                    if done is not None:
                        done(outcome)
    except SQLAlchemyError as e:  # analysing here (a worker process's comes as a GammonError)
        _withdraw(queue, list(job_ids), claimant)  # not if the database fails still
        raise _unavailable(database_url, e) from e
    except BaseException:  # stopped (Ctrl-C), or cannot go on (Ray not installed or not reached)
        _withdraw(queue, list(job_ids), claimant)
        raise
    return outcomes


def _run_jobs(job: tuple[str, str], start: int, stop: int) -> list[Outcome]:
    """The jobs ``start`` to ``stop`` - 1, claimed as the import ``job`` = (database, claimant)
    names, in a worker process that opens the database itself (its failure handed back as a
    GammonError: SQLAlchemy's errors need not unpickle)."""
    database_url, claimant = job
    try:
        return [run_job(database_url, job_id, claimant) for job_id in range(start, stop)]
    except SQLAlchemyError as e:
        raise _unavailable(database_url, e) from None
