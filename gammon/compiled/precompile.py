"""``python -m gammon.compiled.precompile``: rebuild the precompiled kernels shipped in
``gammon/compiled/precompiled/`` (see :mod:`gammon.compiled.shipped_kernels` and
docs/precompiled.md) after a kernel is edited.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from numba.core.caching import _CacheLocator

from gammon.compiled.shipped_kernels import (
    LEVEL,
    LEVEL_FLAGS,
    MANIFEST,
    NUMBA_SETTINGS,
    OFF,
    PACKAGE,
    SHIPPED,
    numba_sources,
    read_index,
    system,
)

# What the build runs: the commands whose kernels a new user meets first (every kernel of hint and
# eval, money and match, contact, race and bear-off; rollouts in one process).
WORKLOAD = (
    ["hint", "4HPwATDgc/ABMA", "31"],
    ["hint", "4HPwATDgc/ABMA:cAkAAAAAAAAA", "52", "--plies", "1"],
    ["hint", "XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:2:4:0:7:10", "--plies", "0"],
    ["eval", "4HPwATDgc/ABMA"],
    ["eval", "4HPwATDgc/ABMA:cAkAAAAAAAAA"],
    ["eval", "u9sCAMDd1gAAAA"],
    ["eval", "sgEAANMAAAAAAA"],  # six checkers or fewer a side: the two-sided database's builder
    ["eval", "XGID=-b----E-C---eE---c-e----B-:1:1:-1:00:2:4:0:7:10", "--plies", "1"],
    ["hint", "u9sCAMDd1gAAAA", "61"],
    ["rollout", "4HPwATDgc/ABMA", "--trials", "36", "--workers", "1", "--seed", "1"],
    ["rollout", "4HPwATDgc/ABMA", "--dice", "31", "--trials", "36", "--workers", "1", "--seed", "1"],
    ["rollout", "4HPwATDgc/ABMA", "--cube", "--trials", "36", "--workers", "1", "--seed", "1"],
)
# Then what ``gammon serve`` loads as it starts: an engine worker's warm-up (every level's kernels,
# pubeval's included) and the server process's own (the browser's single-step orders).
SERVE_WARM_UP = ("from gammon.web import engine_pool, warmup\n"
                 "from gammon.web.hints import default_advisor\n"
                 "engine_pool.init_worker(default_advisor(), ready=object())\n"
                 "warmup.warm_server()\n")


def build(shipped: Path = SHIPPED, level: str = LEVEL,
          workload: tuple[list[str], ...] = WORKLOAD) -> dict[str, Any]:
    """Compile the kernels ``workload`` uses for CPU ``level`` in a fresh process and a fresh numba
    cache, and replace ``shipped`` with that cache and its manifest; return the manifest."""
    with tempfile.TemporaryDirectory(prefix="gammon-precompile-") as tmp:
        env = {k: v for k, v in os.environ.items() if k not in NUMBA_SETTINGS}
        env.update({OFF: "1", "NUMBA_CACHE_DIR": tmp, "NUMBA_CPU_NAME": level, "NUMBA_CPU_FEATURES": ""})
        env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE.parent), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep)
        script = ("import contextlib, io, json, sys\nfrom gammon.cli.main import main\n"
                  "quiet = contextlib.redirect_stdout, contextlib.redirect_stderr\n"
                  "for argv in json.loads(sys.argv[1]):\n"
                  "    with quiet[0](io.StringIO()), quiet[1](io.StringIO()):\n"
                  "        code = main(argv)\n"
                  "    if code: sys.exit(f'gammon {argv} exited {code}')\n")
        subprocess.run([sys.executable, "-c", script, json.dumps(list(workload))], env=env, check=True)
        subprocess.run([sys.executable, "-c", SERVE_WARM_UP], env=env, check=True)
        return collect(Path(tmp), shipped, level)


def collect(cache_dir: Path, shipped: Path, level: str, package: Path = PACKAGE) -> dict[str, Any]:
    """Copy the indexes and data files of ``package``'s kernels from the numba cache ``cache_dir``
    (a ``NUMBA_CACHE_DIR``) into a fresh ``shipped``, with the manifest."""
    sources = numba_sources(package)
    if shipped.exists():
        shutil.rmtree(shipped)
    shipped.mkdir(parents=True)
    files: dict[str, list[str]] = {}
    for relative in sources:
        source = package / relative
        found = cache_dir / _CacheLocator.get_suitable_cache_subpath(str(source))
        prefix = f"{source.stem}."
        for index in sorted(found.glob(f"{prefix}*.nbi")):
            _, stamp, overloads = read_index(index.read_bytes())
            if stamp != bytes.fromhex(sources[relative]):
                raise RuntimeError(f"{index} was built from another {relative}")
            target = shipped / Path(relative).parent
            target.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(index, target / index.name)
            for name in overloads.values():
                shutil.copyfile(found / name, target / name)
            files.setdefault(relative, []).append(index.name)
    manifest = {**system(), "cpu_name": level, "cpu_features": "", "sources": sources, "files": files}
    (shipped / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m gammon.compiled.precompile",
        description=f"Rebuild the precompiled kernels shipped in {SHIPPED} (run it after editing a "
                    "kernel; it takes a minute).")
    parser.add_argument("--level", default=LEVEL, choices=sorted(LEVEL_FLAGS),
                        help=f"the CPU level to compile for (default {LEVEL})")
    args = parser.parse_args(argv)
    manifest = build(level=args.level)
    size = sum(f.stat().st_size for f in SHIPPED.rglob("*") if f.is_file())
    count = sum(len(v) for v in manifest["files"].values())
    print(f"{count} kernels of {len(manifest['files'])} files, {size / 1e6:.1f} MB in {SHIPPED} "
          f"(numba {manifest['numba']}, {manifest['python']}, {manifest['cpu_name']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
