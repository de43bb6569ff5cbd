"""The precompiled kernels shipped in the package, put to use at run time, so that the first engine
command after installing starts in about a second instead of compiling for ten.

numba caches a kernel per (source file content, Python version, numba version, target triple, CPU
name, CPU features). ``gammon/compiled/precompiled/`` holds such a cache built for a portable CPU level
(:data:`LEVEL`) with the file ``manifest.json`` saying what it was built from. On ``import gammon``,
:func:`use_shipped_kernels` checks that manifest against this interpreter, this numba, this
computer's CPU and the kernels' sources; when all match, numba is told to compile for that CPU level
(``NUMBA_CPU_NAME``, so that its cache keys match) and to find caches through
:class:`SeedingLocator`, which copies the shipped entries of a source file into numba's ordinary
cache for that file (``__pycache__`` or the user's cache) the first time a kernel of it is defined.
numba then loads them as if it had compiled them itself, and compiles (and caches) as usual
whatever is missing. When anything does not match (another CPU or system, another numba or Python,
a kernel edited since the cache was built) nothing is changed and numba compiles for this CPU as
before, with the note on stderr (:mod:`gammon.cli.progress`).

A kernel inlines the kernels it calls, and numba checks only the file of the kernel it loads, so the
shipped cache is used only when *every* source file that uses numba is as it was built:
``python -m gammon.compiled.precompile`` (:mod:`gammon.compiled.precompile`) rebuilds it after a
kernel is edited (tests/test_precompile.py fails until then). ``GAMMON_NO_PRECOMPILED=1`` turns it off.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import platform
import re
import sys
import uuid
from importlib.util import find_spec
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent.parent  # gammon/, whose kernels are shipped
SHIPPED = PACKAGE / "compiled" / "precompiled"
MANIFEST = "manifest.json"
OFF = "GAMMON_NO_PRECOMPILED"

# The CPU level the shipped code is built for (LLVM's x86-64-v3: AVX2, FMA, BMI2; Intel Haswell, AMD
# Zen 1 and later; as fast here as code for the host, where generic SSE2 code is 30% slower: see
# docs/precompiled.md), and the /proc/cpuinfo flags each level assumes.
LEVEL = "x86-64-v3"
LEVEL_FLAGS = {
    "generic": (),
    "x86-64": (),
    "x86-64-v2": ("cx16", "lahf_lm", "popcnt", "pni", "sse4_1", "sse4_2", "ssse3"),
    "x86-64-v3": ("cx16", "lahf_lm", "popcnt", "pni", "sse4_1", "sse4_2", "ssse3",
                  "avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave"),
}
# numba's settings that decide its cache keys and where it looks: a user's own choice wins.
NUMBA_SETTINGS = ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES", "NUMBA_CACHE_LOCATOR_CLASSES")

_LOCATOR = "gammon.compiled.shipped_kernels.SeedingLocator"

unused_because: str | None = None  # why the shipped kernels are not in use here (None: they are)


def use_shipped_kernels(shipped: Path = SHIPPED, package: Path = PACKAGE) -> str | None:
    """Point numba at the shipped kernels when they fit this computer and these sources (before
    numba compiles anything); return why not, or None. ``shipped`` and ``package`` are for tests."""
    global unused_because, _manifest, _shipped, _package
    unused_because = _unusable(shipped, package)
    if unused_because is None:
        _manifest, _shipped, _package = _read_manifest(shipped), shipped, package
        os.environ["NUMBA_CPU_NAME"] = _manifest["cpu_name"]
        os.environ["NUMBA_CPU_FEATURES"] = _manifest["cpu_features"]
        os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = _LOCATOR
        config = sys.modules.get("numba.core.config")
        if config is not None:  # numba read its settings already: again (its compiler does too)
            config.reload_config()
    return unused_because


def _unusable(shipped: Path, package: Path) -> str | None:
    if os.environ.get(OFF):
        return f"{OFF} is set"
    if os.environ.get("NUMBA_CACHE_LOCATOR_CLASSES") != _LOCATOR and any(
            os.environ.get(name) for name in NUMBA_SETTINGS):  # (ours: set by a gammon parent process)
        return "numba's CPU or cache locator is set in the environment"
    try:
        manifest = _read_manifest(shipped)
    except (OSError, ValueError, KeyError) as e:
        return f"no usable {shipped / MANIFEST} ({e})"
    for key, value in system().items():
        if manifest.get(key) != value:
            return f"built for {key} {manifest.get(key)}, this is {value}"
    level = manifest.get("cpu_name")
    missing = [f for f in LEVEL_FLAGS.get(str(level), ("?",)) if f not in _cpu_flags()]
    if missing:
        return f"this CPU lacks {' '.join(missing)} ({level})"
    sources, shipped_sources = numba_sources(package), manifest.get("sources")
    if not isinstance(shipped_sources, dict) or not isinstance(manifest.get("cpu_features"), str):
        return f"no usable {shipped / MANIFEST}"
    if sources != shipped_sources:
        changed = sorted(set(sources.items()) ^ set(shipped_sources.items()))
        return f"kernels changed since they were built: {', '.join(sorted({n for n, _ in changed}))}"
    return None


def system() -> dict[str, str]:
    """What a numba cache depends on besides the CPU and the sources."""
    return {"python": sys.implementation.cache_tag + getattr(sys, "abiflags", ""),
            "platform": sys.platform, "machine": _machine(), "numba": _numba_version()}


def _machine() -> str:
    if hasattr(os, "uname"):
        return os.uname().machine
    return platform.machine()


def _numba_version() -> str:
    """numba's version without importing it (numba takes half a second) or importlib.metadata (a
    tenth): the name of its ``.dist-info`` directory."""
    spec = find_spec("numba")
    if spec is None or spec.origin is None:
        return "none"
    found = {p.name[len("numba-"): -len(".dist-info")]
             for p in Path(spec.origin).parent.parent.glob("numba-*.dist-info")}
    return found.pop() if len(found) == 1 else "unknown"


def _cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def _read_manifest(shipped: Path) -> dict[str, Any]:
    manifest = json.loads((shipped / MANIFEST).read_text())
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        raise ValueError("not a manifest")
    return manifest


def numba_sources(package: Path = PACKAGE) -> dict[str, str]:
    """Every source file of the package that defines numba kernels (relative path, posix), with the
    sha256 of its content (numba's own source stamp)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        data = path.read_bytes()
        relative = path.relative_to(package).as_posix()
        if (_KERNEL.search(data) and path.name not in _NOT_KERNELS) or relative in _COMPILED_ELSEWHERE:
            found[relative] = hashlib.sha256(data).hexdigest()
    return found


_KERNEL = re.compile(rb"^\s*(@|\w+ = )(\w+\.)?(n?jit|vectorize|guvectorize|register_jitable)\b", re.MULTILINE)
# Plain Python functions that another file compiles (gammon.primitive_kernels): numba caches them
# under their own file, and every kernel calling them inlines them.
_COMPILED_ELSEWHERE = ("primitives.py",)
_NOT_KERNELS = ("precompile.py", "shipped_kernels.py", "numba_cache.py")  # they only speak of kernels


# -- at run time: numba asks SeedingLocator where a kernel's cache is ------------------------------

_manifest: dict[str, Any] = {}
_shipped: Path = SHIPPED
_package: Path = PACKAGE
_seeded: set[tuple[str, str]] = set()


class SeedingLocator:
    """A numba cache locator (named in ``NUMBA_CACHE_LOCATOR_CLASSES``) that finds the place numba
    would use anyway and first copies there the shipped entries of the kernel's source file."""

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        from numba.core.caching import CacheImpl

        for locator_class in CacheImpl._locator_classes:
            locator = locator_class.from_function(py_func, py_file)
            if locator is not None:
                try:
                    _seed(Path(locator.get_cache_path()), Path(py_file))
                except Exception:  # noqa: BLE001  (a damaged shipped file: numba compiles instead)
                    pass
                return locator
        return None


def _seed(cache: Path, source: Path) -> None:
    try:
        relative = source.resolve().relative_to(_package).as_posix()
    except ValueError:
        return
    if (str(cache), relative) in _seeded:
        return
    _seeded.add((str(cache), relative))
    import numba

    if _manifest.get("numba") != numba.__version__:
        return
    shipped_dir = _shipped / Path(relative).parent
    for index in _manifest["files"].get(relative, ()):
        merge_index(shipped_dir / index, cache / index)


def merge_index(shipped: Path, target: Path) -> None:
    """Put the entries of the numba cache index ``shipped`` (and their data files) into the index
    ``target``: a copy where ``target`` is missing or stale, else its other entries stay. A shipped
    entry replaces the one there for the same key: the shipped cache is used only when every kernel
    source is the one it was built from, while an entry numba compiled earlier (an older install
    of gammon) may have inlined a kernel of another file since edited."""
    data = shipped.read_bytes()
    try:
        current = target.read_bytes()
    except FileNotFoundError:
        current = b""
    if current == data:
        return
    version, stamp, overloads = read_index(data)
    kept: dict[Any, str] = {}
    if current:
        try:
            old: tuple[str, Any, dict[Any, str]] | None = read_index(current)
        except Exception:  # noqa: BLE001  (unreadable: numba would start it afresh too)
            old = None
        if old is not None and old[:2] == (version, stamp):
            kept = old[2]
    if not kept:  # missing or stale: the shipped files as they are
        for name in overloads.values():
            _write(target.parent / name, (shipped.parent / name).read_bytes())
        _write(target, data)
        return
    merged = dict(kept)
    taken = set(kept.values())
    base, number = target.name[: -len(".nbi")], 1
    for key, name in overloads.items():
        code = (shipped.parent / name).read_bytes()
        there = kept.get(key)
        if there is not None:
            if _read_or_none(target.parent / there) != code:
                _write(target.parent / there, code)
            continue
        while f"{base}.{number}.nbc" in taken:
            number += 1
        merged[key] = f"{base}.{number}.nbc"
        taken.add(merged[key])
        _write(target.parent / merged[key], code)
    if merged != kept:
        from numba.core.serialize import dumps

        _write(target, pickle.dumps(version, protocol=-1) + dumps((stamp, merged)))


def _read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def read_index(data: bytes) -> tuple[str, Any, dict[Any, str]]:
    """numba's index file: its version pickled, then (source stamp, {key: data file name})."""
    f = io.BytesIO(data)
    version = pickle.load(f)
    stamp, overloads = pickle.loads(f.read())
    return version, stamp, overloads


def _write(path: Path, data: bytes) -> None:
    """Atomically, as numba does: another process may be reading or writing the same cache."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{path.name}.tmp.{uuid.uuid4().hex[:16]}")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
