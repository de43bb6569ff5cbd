"""A label campaign: rollout labels made shard by shard, in the background of other work, for as long
as there are cores to spare, and kept.

A campaign lives in a folder (``data/labels`` in the repository): ``campaign.json`` (its
:class:`CampaignSettings`, fixed when the campaign starts), one ``shard-NNNNN.npz`` per finished
shard and ``manifest.json`` (every shard, its size, source, checksum, net and the commit that made
it; rebuilt from the shards). Shard ``k`` is a fixed list of positions: those of 0-ply self-play
games of the net whose dice come from ``(seed, k)``, filtered by the shard's source (the sources
take turns). Each position is rolled out on its own dice, drawn from ``(seed, k, its row)``, so a
shard is the same whatever the number of processes, however often the run stopped, and on any
machine (with the same net).

A shard in progress is kept in ``.partial/`` beside the shards (not committed) after every chunk
of positions, so a run that stops (``--minutes``, Ctrl-C, SIGTERM) loses at most the chunks in
flight and the next run resumes it. Several runs may share one folder: each claims its shard with
a lock that the system drops when the run ends; runs on other machines take other shards
(``first``) and their shard files are copied in.

A shard file (``np.savez_compressed``) holds ``position_ids`` (GNU Backgammon Position IDs, the
player on roll first), ``targets`` float32 (N, 5: win, win gammon, win backgammon, lose gammon,
lose backgammon for the player on roll), ``standard_errors`` float32 (N, 5) of those means, and
``meta``, a JSON text: the shard, its source, the settings, the net's digest, the commit, the
seconds and processes it took.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from gammon.engine.engine import Engine
from gammon.engine.net.neural import NeuralEvaluator
from gammon.engine.net.npz import load_npz
from gammon.engine.rollout.parallel import ordered_map
from gammon.engine.rollout.rollouts import RolloutSettings, rollout
from gammon.position import Position
from gammon.train.labels import LabelSet, Sampling, float32_labels, run_on, sampled_positions, weights_digest

SHARD_FORMAT = 1
#: where each source finds its positions (:class:`~gammon.train.labels.Sampling`'s filters): the
#: kinds of position the engine loses most in
SOURCES: dict[str, dict[str, Any]] = {
    "contact": {"contact_only": True},
    "holding": {"contact_only": True, "min_anchors": 1},  # a side holds a point of the other's home
    "window": {"contact_only": True, "win_window": (0.55, 0.97)},  # a double is close or real
    "crashed": {"contact_only": True, "crashed_only": True},  # a side has few checkers left in play
    "race": {"race_only": True},
    # races where a side has borne off a checker while another is still out: they follow a hit
    "race-set-up": {"race_only": True, "set_up": 3},
    # contact positions where a side has borne off a checker while another is still out (the
    # borne-off head's positions): 1-3 checkers of a side taken off, as `label --set-up 3` does
    "set-up": {"contact_only": True, "set_up": 3},
    # the same, the side 20 or more pips behind taking them off: hit after it bore off, against a
    # side bearing in (the set-ups the borne-off cube net erred on most; the set-up source holds
    # few of them, a side drawn at random being as often the one ahead)
    "set-up-trailing": {"contact_only": True, "set_up": 3, "set_up_trailing": 20},
    # the boards after the 5 best 0-ply plays of a roll in crashed positions, a roll's plays on the
    # same dice: what a 0-ply choice compares where the engine loses most, labelled by rollouts
    # played to the end (a truncated rollout or a search carries the net's own bias back)
    "crashed-plays": {"from_crashed": True, "alternatives": 5},
    # the same for every position of the games, the boards after the plays kept where there is
    # contact: the plays `Engine()` now loses most on against GNU Backgammon 2-ply (slower to roll
    # out, the games being longer)
    "contact-plays": {"contact_only": True, "alternatives": 5},
}
_GAMES_A_BATCH = 32
_MAX_BATCHES = 200


@dataclass(frozen=True)
class CampaignSettings:
    """What a campaign makes: shards of ``shard_size`` positions, every ``every``-th of self-play
    games with ``explore`` random plays, from ``sources`` in turn, each rolled out ``trials``
    times at ``plies`` (full games, variance reduced, quasi-random dice). ``seed`` fixes it all."""

    seed: int = 1
    shard_size: int = 250
    trials: int = 36
    plies: int = 0
    every: int = 3
    explore: float = 0.05
    sources: tuple[str, ...] = ("contact", "holding", "window")

    def __post_init__(self) -> None:
        problems = []
        for name in ("seed", "shard_size", "trials", "every"):
            value, least = getattr(self, name), 0 if name == "seed" else 1
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                problems.append(f"{name} must be a whole number >= {least}, got {value!r}")
        if self.plies not in (0, 1):
            problems.append(f"plies must be 0 or 1, got {self.plies!r}")
        if not 0.0 <= self.explore <= 1.0:
            problems.append(f"explore must be a probability, got {self.explore!r}")
        unknown = [s for s in self.sources if s not in SOURCES]
        if unknown or not self.sources:
            problems.append(f"sources must be some of {', '.join(SOURCES)}, got {list(self.sources)!r}")
        plays = [
            s for s in self.sources if s in SOURCES and SOURCES[s].get("alternatives", 0) > self.shard_size
        ]
        if plays:
            problems.append(f"shard_size {self.shard_size!r} cannot hold a whole decision of {plays[0]!r}")
        if problems:
            raise ValueError("invalid CampaignSettings: " + "; ".join(problems))

    def source(self, shard: int) -> str:
        return self.sources[shard % len(self.sources)]

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["sources"] = list(self.sources)
        return d

    @classmethod
    def from_json(cls, data: object, where: str) -> CampaignSettings:
        names = {f.name for f in fields(cls)}
        if not isinstance(data, dict) or set(data) - names:
            raise ValueError(f"{where!r} is not a campaign's settings: {str(data)[:200]!r}")
        values = dict(data)
        if "sources" in values:
            values["sources"] = tuple(values["sources"])
        return cls(**values)


@dataclass(frozen=True)
class CampaignRun:
    """What one run of a campaign does: label shards from shard ``first`` on, until ``shards`` are
    finished by this run (None: no end) or ``minutes`` have passed (0: no limit), ``chunk``
    positions a piece of work over ``workers`` local processes."""

    first: int = 0
    shards: int | None = None
    minutes: float = 0.0
    workers: int = 1
    chunk: int = 5


@dataclass(frozen=True)
class Shard:
    """A finished shard: its positions (boards, player on roll), their rollout means and standard
    errors, and ``meta`` (what made it)."""

    boards: np.ndarray
    targets: np.ndarray
    standard_errors: np.ndarray
    meta: dict[str, Any]
    #: of a source of plays, the decision of each board (its position and roll in the shard,
    #: runs of equal values: :class:`gammon.train.choices.Decisions`); None for the other sources
    decisions: np.ndarray | None = None


def plays_source(name: str) -> bool:
    """Whether source ``name`` gives the boards after a roll's plays (decisions of several boards)."""
    return bool(SOURCES[name].get("alternatives"))


def shard_positions(
    ev: NeuralEvaluator, settings: CampaignSettings, shard: int
) -> tuple[np.ndarray, np.ndarray]:
    """``(boards, decisions)``: the ``shard_size`` positions of shard ``shard``, from batches of
    self-play games of ``ev`` (batch ``b`` seeded by ``(seed, shard, b)``) filtered by the shard's
    source, in order, and each one's decision (0, 1, ... in the shard; its own row but for a source
    of plays, whose shard ends at the last whole decision that fits)."""
    source = SOURCES[settings.source(shard)]
    found: list[np.ndarray] = []
    keys: list[np.ndarray] = []
    count = 0
    for batch in range(_MAX_BATCHES):
        seed = (settings.seed * 1_000_003 + shard) * 1_009 + batch
        sampling = Sampling(_GAMES_A_BATCH, settings.every, seed, explore=settings.explore, **source)
        boards, decisions = sampled_positions(ev, sampling)
        found.append(boards)
        keys.append(decisions)  # a batch's count from 0: run_on makes them the shard's
        count += len(boards)
        if count >= settings.shard_size:
            return _whole_decisions(np.concatenate(found), run_on(keys), settings.shard_size)
    raise ValueError(
        f"source {settings.source(shard)!r} gave only {count} positions in "
        f"{_MAX_BATCHES * _GAMES_A_BATCH} games"
    )


@dataclass(frozen=True)
class _Job:
    evaluator: NeuralEvaluator
    boards: np.ndarray
    settings: CampaignSettings
    shard: int
    dice: np.ndarray  # each board's key to its rollout dice: its row, or its decision


def _whole_decisions(boards: np.ndarray, decisions: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The first ``size`` boards, less the last decision's if it does not fit whole; numbered
    0, 1, ... (the boards of one decision are consecutive)."""
    _, numbers = np.unique(decisions, return_inverse=True)
    end = size
    if end < len(boards) and numbers[end] == numbers[end - 1]:
        end = int(np.searchsorted(numbers, numbers[end - 1]))
    return np.ascontiguousarray(boards[:end]), numbers[:end].astype(np.int64)


def position_seed(settings: CampaignSettings, shard: int, row: int) -> int:
    """The rollout dice of row ``row`` of shard ``shard`` (of a source of plays: of decision
    ``row``, shared by its boards, so that their labels differ by the plays, not by the luck)."""
    key = f"{settings.seed}/{shard}/{row}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:6], "big")


def rollout_chunk(job: _Job, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """Rollout means and standard errors, float32 (stop - start, 5) each, of ``job.boards[start:stop]``
    (module level: it runs in worker processes)."""
    s = job.settings
    engine = Engine(plies=s.plies, evaluator=job.evaluator)
    means, errors = [], []
    for row in range(start, stop):
        settings = RolloutSettings(trials=s.trials, seed=position_seed(s, job.shard, int(job.dice[row])))
        result = rollout(engine, Position(job.boards[row].tolist()), settings, workers=1)
        means.append(result.probabilities.as_tuple())
        se = result.standard_error
        errors.append((se.win, se.win_gammon, se.win_backgammon, se.lose_gammon, se.lose_backgammon))
    n = stop - start
    return (
        float32_labels(np.array(means, dtype=np.float64).reshape(n, 5)),
        np.nan_to_num(np.array(errors, dtype=np.float32).reshape(n, 5)),
    )


def position_ids(boards: np.ndarray) -> np.ndarray:
    return np.array([Position(b.tolist()).id for b in boards], dtype="S14")


def boards_of(ids: np.ndarray) -> np.ndarray:
    return np.array([Position.from_id(i.decode()).as_array() for i in ids], dtype=np.int8).reshape(-1, 26)


def save_shard(path: Path, shard: Shard) -> None:
    """Write ``shard`` to ``path`` at once (a file appears whole or not at all)."""
    tmp = _work_folder(path.parent) / (path.name + ".tmp.npz")
    arrays: dict[str, Any] = {
        "position_ids": position_ids(shard.boards),
        "targets": shard.targets,
        "standard_errors": shard.standard_errors,
        "meta": json.dumps(shard.meta, sort_keys=True),
    }
    if shard.decisions is not None:
        arrays["decisions"] = shard.decisions.astype(np.int32)
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)


def load_shard(path: Path) -> Shard:
    """The shard in ``path``, or ValueError saying why it is not one."""
    try:
        # load_npz turns a damaged archive (a cut file: BadZipFile, zlib.error) into a ValueError
        data = load_npz(path, "a label shard")
    except OSError as e:
        raise ValueError(f"{str(path)!r} is not a label shard: {e}") from None
    ids, targets, errors = data["position_ids"], data["targets"], data["standard_errors"]
    decisions = data["decisions"].astype(np.int64) if "decisions" in data else None
    try:
        meta = json.loads(str(data["meta"]))
    except ValueError as e:
        raise ValueError(f"{str(path)!r} is not a label shard: its meta is not JSON ({e})") from None
    if not isinstance(meta, dict) or meta.get("format") != SHARD_FORMAT:
        raise ValueError(f"{str(path)!r} is not a label shard of format {SHARD_FORMAT}")
    if targets.shape != (len(ids), 5) or errors.shape != (len(ids), 5):
        raise ValueError(
            f"{str(path)!r} is damaged: {len(ids)} positions, targets {targets.shape}, "
            f"standard errors {errors.shape}"
        )
    if decisions is not None and (decisions.shape != (len(ids),) or np.any(np.diff(decisions) < 0)):
        raise ValueError(f"{str(path)!r} is damaged: its decisions are not one a position, in order")
    return Shard(boards_of(ids), targets.astype(np.float32), errors.astype(np.float32), meta, decisions)


def shard_files(folder: Path) -> list[Path]:
    """The shard files in ``folder``, in shard order: ``shard-NNNNN.npz`` alone, not a
    ``.tmp.npz`` before its rename (half written while a run saves, or left by one killed)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("shard-*.npz") if is_shard_file(p))


def _work_folder(folder: Path) -> Path:
    """Where files of ``folder`` are written before their rename: ``.partial/`` (not committed),
    so that a ``git add`` of the folder while a run saves never takes a half-written file."""
    work = folder if folder.name == ".partial" else folder / ".partial"
    work.mkdir(parents=True, exist_ok=True)
    return work


def shard_path(folder: Path, shard: int) -> Path:
    return folder / f"shard-{shard:05d}.npz"


def _partial_path(folder: Path, shard: int) -> Path:
    return folder / ".partial" / f"shard-{shard:05d}.npz"


def load_campaign(folder: Path) -> CampaignSettings:
    where = folder / "campaign.json"
    try:
        data = json.loads(where.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"{str(where)!r} cannot be read as a campaign: {e}") from None
    return CampaignSettings.from_json(data, str(where))


def open_campaign(folder: Path, settings: CampaignSettings | None) -> CampaignSettings:
    """The campaign in ``folder``: started with ``settings`` (default settings if None) if the
    folder has none, else its own, which ``settings`` (if given) must match."""
    if (folder / "campaign.json").exists():
        own = load_campaign(folder)
        if settings is not None and settings != own:
            raise ValueError(
                f"{str(folder)!r} holds a campaign with other settings ({own.to_json()}); "
                "give another folder to start one"
            )
        return own
    own = settings if settings is not None else CampaignSettings()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "campaign.json").write_text(json.dumps(own.to_json(), indent=1) + "\n")
    return own


def _finished_shards(folder: Path) -> list[Shard]:
    paths = shard_files(folder)
    if not paths:
        raise ValueError(f"{str(folder)!r} has no finished label shard")
    return [load_shard(p) for p in paths]


def _label_set(folder: Path | str, shards: list[Shard]) -> LabelSet:
    # a source of plays' boards keeps each board's decision, so that a fit can rank them (--rank-weight)
    plays = any(s.decisions is not None for s in shards)
    return LabelSet(
        np.concatenate([s.boards for s in shards]),
        np.concatenate([s.targets for s in shards]),
        f"campaign {folder}: {len(shards)} shards of rollouts",
        _shard_decisions(shards) if plays else None,
    )


def _shard_decisions(shards: list[Shard]) -> np.ndarray:
    return run_on([s.decisions if s.decisions is not None else np.arange(len(s.boards)) for s in shards])


def labels_of(folder: Path) -> LabelSet:
    """Every finished shard of the campaign in ``folder`` as one label set, in shard order (what
    ``python -m gammon.train fit --rollout-labels FOLDER`` fits), with each board's decision
    (:func:`decisions_of`) where the shards are of plays' boards."""
    return _label_set(folder, _finished_shards(folder))


def labels_of_shards(paths: list[Path]) -> LabelSet:
    """The shard files ``paths`` as one label set, in their order: some of a campaign's shards (the
    first N of a campaign that has gone on since a fit, say), each board's decision kept as in
    :func:`labels_of`."""
    if not paths:
        raise ValueError("no label shard given")
    folders = {p.parent for p in paths}
    where = str(paths[0].parent) if len(folders) == 1 else f"{len(folders)} folders"
    return _label_set(where, [load_shard(p) for p in paths])


def is_shard_file(path: Path) -> bool:
    """Whether ``path`` is named as a campaign's finished shard (``shard-NNNNN.npz``)."""
    return re.fullmatch(r"shard-\d+\.npz", path.name) is not None


def decisions_of(folder: Path) -> np.ndarray:
    """The decision of each position of :func:`labels_of` (``folder``'s shards in order): a source
    of plays' boards of one roll share one, every other position is one of its own."""
    return _shard_decisions(_finished_shards(folder))


def plays_of(folder: Path) -> tuple[LabelSet, np.ndarray]:
    """:func:`labels_of` and :func:`decisions_of` together, the shards read once."""
    labels = labels_of(folder)
    return labels, labels.decisions_or_own()


def write_manifest(folder: Path) -> dict[str, Any]:
    """Rebuild ``manifest.json`` from the shard files in ``folder``; return it."""
    settings = load_campaign(folder)
    rows = []
    for path in shard_files(folder):
        shard = load_shard(path)
        m = shard.meta
        rows.append(
            {
                "file": path.name,
                "shard": m["shard"],
                "positions": len(shard.boards),
                "source": m["source"],
                "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
                "net": m["net"],
                "commit": m["commit"],
                "seconds": m["seconds"],
                "processes": m["processes"],
                "finished": m["finished"],
            }
        )
    manifest = {
        "format": SHARD_FORMAT,
        "campaign": settings.to_json(),
        "shards": rows,
        "positions": sum(r["positions"] for r in rows),
        "teacher": f"cubeless rollouts, {settings.trials} trials at {settings.plies} ply, played "
        "to the end, variance reduced, quasi-random dice"
        + ("; the plays of a roll on the same dice" if any(map(plays_source, settings.sources)) else ""),
    }
    tmp = _work_folder(folder) / f"manifest.json.{os.getpid()}.tmp"  # a run and --status may both write
    tmp.write_text(json.dumps(manifest, indent=1) + "\n")
    tmp.replace(folder / "manifest.json")
    return manifest


def _commit() -> str:
    """The commit of the code running (the repository's HEAD, with '+' if it has changes); outside
    a checkout (a copy of the tree on another machine) $GAMMON_COMMIT, or 'unknown'."""
    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "gammon"],
            cwd=here.parent.parent,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return os.environ.get("GAMMON_COMMIT", "unknown")
    return head + ("+" if dirty.strip() else "")


@contextmanager
def _claim(folder: Path, shard: int) -> Iterator[bool]:
    """Whether this run got shard ``shard`` (no other run holds it); held until the block ends."""
    (folder / ".partial").mkdir(parents=True, exist_ok=True)
    with open(folder / ".partial" / f"shard-{shard:05d}.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True


class _Stop:
    """Set by SIGINT / SIGTERM (and by the time limit): the run saves and ends after the chunk
    it waits for."""

    def __init__(self, minutes: float, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.deadline = clock() + 60 * minutes if minutes else None
        self.signalled = False

    def __call__(self, _signum: int, _frame: object) -> None:
        self.signalled = True

    def due(self) -> bool:
        return self.signalled or (self.deadline is not None and self.clock() >= self.deadline)


def run_campaign(
    folder: Path,
    ev: NeuralEvaluator,
    *,
    settings: CampaignSettings | None = None,
    run: CampaignRun = CampaignRun(),
    note: Callable[[str], None] = print,
    clock: Callable[[], float] = time.monotonic,
    should_stop: Callable[[], bool] | None = None,
) -> int:
    """Label shards of the campaign in ``folder`` (started with ``settings`` if new) with ``ev``:
    from shard ``run.first`` on, each shard that is neither finished nor taken by another run,
    until ``run.shards`` shards are finished by this run (None: no end), ``run.minutes`` have passed
    (0: no limit), a SIGINT / SIGTERM comes, or ``should_stop()`` says so (checked after every
    chunk). Returns the number of shards this run finished."""
    settings = open_campaign(folder, settings)
    stop = _Stop(run.minutes, clock)
    old = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    digest = weights_digest(ev)[:16]
    commit = _commit()
    finished = 0
    try:
        k = run.first
        while (run.shards is None or finished < run.shards) and not stop.due():
            if shard_path(folder, k).exists():
                k += 1
                continue
            with _claim(folder, k) as mine:
                # another run may have finished it since the look above
                if (
                    mine
                    and not shard_path(folder, k).exists()
                    and _label_shard(folder, ev, settings, k, digest, commit, stop, run, note, should_stop)
                ):
                    finished += 1
                    write_manifest(folder)
            k += 1
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
    return finished


def _label_shard(
    folder: Path,
    ev: NeuralEvaluator,
    settings: CampaignSettings,
    k: int,
    digest: str,
    commit: str,
    stop: _Stop,
    run: CampaignRun,
    note: Callable[[str], None],
    should_stop: Callable[[], bool] | None,
) -> bool:
    """Label (or go on with) shard ``k``; whether it was finished."""
    boards, decisions = shard_positions(ev, settings, k)
    plays = plays_source(settings.source(k))
    partial = _partial_path(folder, k)
    targets = np.empty((0, 5), dtype=np.float32)
    errors = np.empty((0, 5), dtype=np.float32)
    seconds = 0.0
    if partial.exists():
        try:
            old = load_shard(partial)
        except ValueError as e:
            note(f"shard {k}: starting again ({e})")
        else:
            n = len(old.boards)
            if old.meta["net"] == digest and np.array_equal(old.boards, boards[:n]):
                targets, errors, seconds = old.targets, old.standard_errors, float(old.meta["seconds"])
            else:
                note(f"shard {k}: the kept part was made by another net or settings; starting again")
    done = len(targets)
    note(f"shard {k} ({settings.source(k)}): {done} / {len(boards)} positions labelled already")
    edges = list(range(done, len(boards), run.chunk)) + [len(boards)]
    results = ordered_map(
        rollout_chunk,
        _Job(ev, boards, settings, k, decisions),
        list(zip(edges[:-1], edges[1:])),
        workers=run.workers,
    )
    started = time.perf_counter()
    parts_t, parts_e = [targets], [errors]

    def meta() -> dict[str, Any]:
        return {
            "format": SHARD_FORMAT,
            "shard": k,
            "source": settings.source(k),
            "settings": settings.to_json(),
            "net": digest,
            "commit": commit,
            "seconds": round(seconds + time.perf_counter() - started, 1),
            "processes": run.workers,
            "finished": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        }

    try:
        for t, se in results:
            parts_t.append(t)
            parts_e.append(se)
            done += len(t)
            current = Shard(
                boards[:done],
                np.concatenate(parts_t),
                np.concatenate(parts_e),
                meta(),
                decisions[:done] if plays else None,
            )
            if done == len(boards):
                save_shard(shard_path(folder, k), current)
                partial.unlink(missing_ok=True)
                note(f"shard {k} finished: {done} positions in {current.meta['seconds']:.0f} s")
                return True
            save_shard(partial, current)
            if stop.due() or (should_stop is not None and should_stop()):
                stop.signalled = True
                note(f"shard {k}: stopped at {done} / {len(boards)}; the next run goes on from there")
                return False
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return False


def status(folder: Path) -> str:
    """One line on the campaign in ``folder``: its shards and positions, finished and in progress."""
    manifest = write_manifest(folder)
    partial = shard_files(folder / ".partial")
    kept = sum(len(load_shard(p).boards) for p in partial)
    seconds = sum(r["seconds"] * r["processes"] for r in manifest["shards"])
    line = (
        f"{len(manifest['shards'])} shards finished, {manifest['positions']:,} positions "
        f"({seconds / 3600:.1f} core-hours); {len(partial)} in progress with {kept:,} positions"
    )
    return line
