"""The precompiled kernels shipped in the package: current (every kernel of hint and eval loads from
them, nothing compiles) and, where they cannot be used, numba compiles as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gammon.compiled import shipped_kernels
from gammon.compiled.precompile import collect
from gammon.compiled.shipped_kernels import MANIFEST, PACKAGE, SHIPPED, numba_sources

ROOT = Path(__file__).resolve().parents[1]
REBUILD = ("the shipped kernels are stale: run `python -m gammon.compiled.precompile` and commit "
           "gammon/compiled/precompiled")


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without numba's settings (the test process has the shipped kernels' own)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_") and k != shipped_kernels.OFF}
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def test_the_shipped_kernels_are_built_from_these_sources() -> None:
    manifest = json.loads((SHIPPED / MANIFEST).read_text())
    assert manifest["sources"] == numba_sources(), REBUILD
    for relative, indexes in manifest["files"].items():
        folder = (SHIPPED / relative).parent
        for index in indexes:
            _, stamp, overloads = shipped_kernels.read_index((folder / index).read_bytes())
            assert stamp.hex() == manifest["sources"][relative], REBUILD
            assert all((folder / name).is_file() for name in overloads.values())


# Run in a fresh process with an empty numba cache: what compiled, and the outputs.
COMMANDS = [["hint", "4HPwATDgc/ABMA", "31"], ["eval", "u9sCAMDd1gAAAA"],
            ["eval", "4HPwATDgc/ABMA:cAkAAAAAAAAA"],
            ["hint", "XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:2:4:0:7:10"]]
RUN_COMMANDS = textwrap.dedent("""
    import contextlib, io, json, sys
    from gammon.compiled import shipped_kernels
    from gammon.cli.main import main
    from numba.core import event

    compiled = []

    class Listener(event.Listener):
        def on_start(self, ev):
            compiled.append(ev.data["dispatcher"].py_func.__qualname__)

        def on_end(self, ev):
            pass

    event.register("numba:compile", Listener())
    outputs = []
    for argv in json.loads(sys.argv[1]):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(argv) == 0
        outputs.append(out.getvalue())
    unused = shipped_kernels.unused_because
    print(json.dumps({"unused_because": unused, "compiled": compiled, "outputs": outputs}))
""")


def run_commands(env: dict[str, str]) -> dict:
    done = subprocess.run([sys.executable, "-c", RUN_COMMANDS, json.dumps(COMMANDS)], env=env,
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.slow
def test_hint_and_eval_load_every_kernel_from_the_shipped_cache(tmp_path: Path, monkeypatch) -> None:
    for name in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES", "NUMBA_CACHE_LOCATOR_CLASSES", shipped_kernels.OFF):
        monkeypatch.delenv(name, raising=False)
    reason = shipped_kernels._unusable(SHIPPED, PACKAGE)
    if reason and reason.startswith(("this CPU lacks", "built for python", "built for platform",
                                     "built for machine")):
        pytest.skip(f"the shipped kernels are not for this computer: {reason}")
    shipped = run_commands(clean_env(NUMBA_CACHE_DIR=str(tmp_path / "empty")))
    assert shipped["unused_because"] is None, REBUILD
    assert shipped["compiled"] == [], REBUILD
    # the same answers as kernels compiled here for this CPU (numba's ordinary cache)
    compiled = run_commands(clean_env(**{shipped_kernels.OFF: "1"}))
    assert compiled["unused_because"] == f"{shipped_kernels.OFF} is set"
    assert shipped["outputs"] == compiled["outputs"]
    assert all(out.startswith("Position ") and " win " in out for out in shipped["outputs"])


# -- the fallbacks, on a one-kernel package built into a shipped cache of its own -------------------

KERNEL = "from numba import njit\n\n\n@njit(cache=True)\ndef f(x):\n    return x * {} + 1\n"
RUN_KERNEL = textwrap.dedent("""
    import json, os, sys
    from pathlib import Path
    from gammon.compiled import shipped_kernels  # GAMMON_NO_PRECOMPILED: gammon's kernels stay out
    del os.environ[shipped_kernels.OFF]
    shipped, package, hook, args = sys.argv[1], sys.argv[2], sys.argv[3] == "1", json.loads(sys.argv[4])
    unused = shipped_kernels.use_shipped_kernels(Path(shipped), Path(package)) if hook else "off"
    from numba.core import event
    compiled = []

    class Listener(event.Listener):
        def on_start(self, ev):
            compiled.append(ev.data["dispatcher"].py_func.__qualname__)

        def on_end(self, ev):
            pass

    event.register("numba:compile", Listener())
    sys.path.insert(0, package)
    from kern import f
    print(json.dumps({"unused": unused, "compiled": compiled, "results": [f(a) for a in args]}))
""")


class OneKernel:
    """``tmp/pkg/kern.py`` with one cached kernel, its shipped cache in ``tmp/shipped`` (built for
    x86-64-v3, as gammon's) and an empty numba cache for the runs."""

    def __init__(self, tmp: Path) -> None:
        self.package, self.shipped, self.cache = tmp / "pkg", tmp / "shipped", tmp / "cache"
        self.package.mkdir()
        (self.package / "kern.py").write_text(KERNEL.format(2))
        build = tmp / "build"
        out = self.run(hook=False, args=(3,), cache=build, NUMBA_CPU_NAME="x86-64-v3", NUMBA_CPU_FEATURES="")
        assert out["compiled"] == ["f"] and out["results"] == [7]
        self.manifest = collect(build, self.shipped, "x86-64-v3", package=self.package)

    def run(self, hook: bool = True, args: tuple = (3,), cache: Path | None = None, **env: str) -> dict:
        done = subprocess.run(
            [sys.executable, "-c", RUN_KERNEL, str(self.shipped), str(self.package), "1" if hook else "0",
             json.dumps(list(args))], env=clean_env(NUMBA_CACHE_DIR=str(cache or self.cache),
                                              **{shipped_kernels.OFF: "1"}, **env),
            capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.splitlines()[-1])

    def edit_manifest(self, **changes: str) -> None:
        (self.shipped / MANIFEST).write_text(json.dumps({**self.manifest, **changes}))


@pytest.fixture
def one_kernel(tmp_path: Path) -> OneKernel:
    if shipped_kernels._cpu_flags().isdisjoint({"avx2"}):
        pytest.skip("this CPU cannot run x86-64-v3 code")
    return OneKernel(tmp_path)


def test_a_fresh_cache_loads_the_shipped_kernel(one_kernel: OneKernel) -> None:
    assert list(one_kernel.manifest["files"]) == ["kern.py"]
    out = one_kernel.run()
    assert out == {"unused": None, "compiled": [], "results": [7]}
    assert one_kernel.run() == out  # and again, from the copy in numba's cache


def test_an_edited_kernel_compiles(one_kernel: OneKernel) -> None:
    (one_kernel.package / "kern.py").write_text(KERNEL.format(3))
    out = one_kernel.run()
    assert "kernels changed since they were built: kern.py" in out["unused"]
    assert out["compiled"] == ["f"] and out["results"] == [10]


def test_another_numba_compiles(one_kernel: OneKernel) -> None:
    one_kernel.edit_manifest(numba="0.1.0")
    out = one_kernel.run()
    assert out["unused"].startswith("built for numba 0.1.0")
    assert out["compiled"] == ["f"] and out["results"] == [7]


def test_code_for_another_cpu_level_is_not_loaded(one_kernel: OneKernel) -> None:
    # numba's cache key names the CPU: shipped code for x86-64-v3 does not serve x86-64-v2
    one_kernel.edit_manifest(cpu_name="x86-64-v2")
    out = one_kernel.run()
    assert out["unused"] is None and out["compiled"] == ["f"] and out["results"] == [7]


def test_a_damaged_shipped_index_compiles(one_kernel: OneKernel) -> None:
    (one_kernel.shipped / one_kernel.manifest["files"]["kern.py"][0]).write_bytes(b"not a numba index")
    out = one_kernel.run()
    assert out["unused"] is None and out["compiled"] == ["f"] and out["results"] == [7]


def test_shipped_entries_join_what_numba_compiled_before(one_kernel: OneKernel) -> None:
    # a float kernel compiled here first (same CPU level); then the shipped int kernel is added to it
    first = one_kernel.run(hook=False, args=(2.5,), NUMBA_CPU_NAME="x86-64-v3", NUMBA_CPU_FEATURES="")
    assert first["compiled"] == ["f"] and first["results"] == [6.0]
    out = one_kernel.run(args=(3, 2.5))
    assert out == {"unused": None, "compiled": [], "results": [7, 6.0]}


def test_numba_settings_of_the_user_are_left_alone(monkeypatch) -> None:
    monkeypatch.setenv("NUMBA_CACHE_LOCATOR_CLASSES", "")
    monkeypatch.setenv("NUMBA_CPU_NAME", "znver4")
    reason = shipped_kernels._unusable(SHIPPED, PACKAGE)
    assert reason == "numba's CPU or cache locator is set in the environment"
    monkeypatch.setenv(shipped_kernels.OFF, "1")
    assert shipped_kernels._unusable(SHIPPED, PACKAGE) == f"{shipped_kernels.OFF} is set"


def test_a_shipped_entry_replaces_the_one_numba_had_for_the_same_kernel(one_kernel: OneKernel) -> None:
    # numba's entry for the same source and key, but other code (as after an upgrade of gammon whose
    # kernels inline an edited kernel of another file): the shipped code is the one that runs
    first = one_kernel.run(hook=False, args=(3, 2.5), NUMBA_CPU_NAME="x86-64-v3", NUMBA_CPU_FEATURES="")
    assert first["compiled"] == ["f", "f"]
    data = sorted(one_kernel.cache.rglob("kern.f-*.nbc"))
    assert len(data) == 2
    for d in data:
        d.write_bytes(b"old code")
    out = one_kernel.run(args=(3,))
    assert out == {"unused": None, "compiled": [], "results": [7]}
    [shipped] = one_kernel.shipped.glob("kern.f-*.nbc")  # the int kernel's
    assert sorted(d.read_bytes() for d in data) == sorted([shipped.read_bytes(), b"old code"])
