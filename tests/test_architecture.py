"""Architecture checks over gammon's source, read with the stdlib ``ast`` and grimp (no gammon
module is imported): no import cycles, imports inside functions only where they save start-up
time, no function over 100 lines, no public function with more than 8 parameters, no private name
imported from another module.

Each check has an allowlist of today's offenders in the engine, the web and the action dispatch,
marked TO BE EMPTIED: those areas are being reworked, and each entry goes when its offender is
fixed. A check also fails when an allowlisted entry no longer offends, so the lists only shrink.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "gammon"

MAX_LINES = 100
MAX_PARAMETERS = 8

# Imports made inside a function on purpose, to keep `import gammon` and the commands' start fast,
# or because the dependency is needed only by some uses: (importing module, imported module) -> why.
_ENGINE = "the engine (numba kernels, nets, bear-off database) loads only for the commands that use it"
_ANALYSIS = "match analysis (and the engine under it) loads only when `gammon analyse` runs"
_TUTOR = "the analysis (and its engine) loads for `gammon play` only once the tutor is switched on"
_WEB = "the server (FastAPI, the store, the engine workers) loads only when `gammon serve` runs"
_SERVER = "the server process starts without the engine: its workers load it"
_PROFILE = "the store, the accounts and the engine load only for `gammon import` and `gammon drill`"
_ACCOUNTS = "SQLAlchemy and argon2 load only for `gammon account`"

STARTUP_SAVINGS: dict[tuple[str, str], str] = {
    ("gammon.i18n", "babel.messages.mofile"): "English needs no catalogue: Babel loads with the first "
    "other language's",
    ("gammon.i18n", "babel.messages.pofile"): "as above",
    ("gammon.position", "gammon.movegen"): "`import gammon` without numba: the move generator's "
    "kernels load on the first legal_plays()",
    ("gammon.position", "numpy"): "`import gammon` without numpy: a board as an array only when asked",
    ("gammon.compiled.shipped_kernels", "numba"): "`import gammon` sets numba's cache up without "
    "importing numba",
    ("gammon.compiled.shipped_kernels", "numba.core.caching"): "as above: only when numba sets a kernel's "
    "cache up",
    ("gammon.compiled.shipped_kernels", "numba.core.serialize"): "as above: only when the shipped index is "
    "merged",
    ("gammon.cli.progress", "numba.core"): "the compile notice listens to numba only while a command runs",
    ("gammon.cli.main", "gammon.engine.players"): "importing gammon.cli.main does not load the engine; "
    "building the play command's parser does (its levels)",
    ("gammon.cli.main", "gammon.cli.session"): _ENGINE,
    ("gammon.cli.session", "gammon.analysis.marks"): _TUTOR,
    ("gammon.cli.session", "gammon.analysis.tutor"): _TUTOR,
    ("gammon.cli.session", "gammon.advice"): _ENGINE,
    ("gammon.cli.main", "gammon.cli.hint"): _ENGINE,
    ("gammon.cli.main", "gammon.cli.serve"): "asyncio loads only for `gammon serve`",
    ("gammon.cli.main", "gammon.protocols.gnubg_external"): _ENGINE,
    ("gammon.cli.external", "gammon.engine.engine"): _ENGINE,
    ("gammon.cli.external", "gammon.protocols.external"): _ENGINE,
    ("gammon.cli.analyse", "gammon.analysis"): _ANALYSIS,
    ("gammon.cli.analyse", "gammon.analysis.report_html"): _ANALYSIS,
    ("gammon.cli.analyse", "gammon.analysis.serialize"): _ANALYSIS,
    ("gammon.cli.analyse", "gammon.analysis.sgf_annotations"): _ANALYSIS,
    ("gammon.cli.analyse", "gammon.analysis.summary"): _ANALYSIS,
    ("gammon.cli.analyse", "gammon.engine.engine"): _ENGINE,
    ("gammon.cli.rollout", "gammon.advice"): _ENGINE,
    ("gammon.cli.rollout", "gammon.engine.engine"): _ENGINE,
    ("gammon.cli.rollout", "gammon.engine.rollout.rollouts"): _ENGINE,
    ("gammon.cli.serve", "gammon.store"): _WEB,
    ("gammon.cli.serve", "gammon.web"): _WEB,
    ("gammon.cli.serve", "gammon.web.jobs"): _WEB,
    ("gammon.cli.serve", "gammon.web.lifeline"): _WEB,
    ("gammon.cli.serve", "gammon.web.members"): _WEB,
    ("gammon.cli.serve", "gammon.web.study"): _WEB,
    ("gammon.cli.serve", "gammon.web.warmup"): _WEB,
    ("gammon.cli.serve", "uvicorn"): _WEB,
    ("gammon.cli.serve", "uvicorn.config"): _WEB,
    ("gammon.cli.account", "gammon.accounts"): _ACCOUNTS,
    ("gammon.cli.account", "gammon.store"): _ACCOUNTS,
    ("gammon.web.engine_pool", "gammon.engine.engine"): _SERVER,
    ("gammon.web.engine_pool", "gammon.web.tutoring"): _SERVER,
    ("gammon.web.hints", "gammon.advice"): _SERVER,
    ("gammon.web.hints", "gammon.engine.engine"): _SERVER,
    ("gammon.protocols.wildbg", "gammon.engine.engine"): _SERVER,
    ("gammon.protocols.wildbg", "gammon.advice"): _SERVER,
    ("gammon.web.study", "gammon.advice"): _SERVER,
    ("gammon.web.study", "gammon.engine.engine"): _SERVER,
    ("gammon.web.study", "gammon.web.study_work"): _SERVER,
    ("gammon.web.study", "gammon.engine.rollout.settings"): _SERVER,
    ("gammon.web.uploads", "gammon.web.study_work"): _SERVER,
    ("gammon.cli.drill", "gammon.accounts"): _PROFILE,
    ("gammon.cli.drill", "gammon.profile.drill"): _PROFILE,
    ("gammon.cli.drill", "gammon.profile.summary"): _PROFILE,
    ("gammon.cli.drill", "gammon.store"): _PROFILE,
    ("gammon.cli.import_matches", "gammon.accounts"): _PROFILE,
    ("gammon.cli.import_matches", "gammon.engine.engine"): _PROFILE,
    ("gammon.cli.import_matches", "gammon.engine.rollout.parallel"): _PROFILE,
    ("gammon.cli.import_matches", "gammon.profile"): _PROFILE,
    ("gammon.cli.import_matches", "gammon.profile.importer"): _PROFILE,
    ("gammon.cli.import_matches", "gammon.store"): _PROFILE,
    ("gammon.web.warmup", "gammon.engine.bearoff.one_sided"): _SERVER,
    ("gammon.web.warmup", "gammon.engine.cube.cubeful"): _SERVER,
    ("gammon.engine.players", "gammon.engine.engine"): _ENGINE,
    ("gammon.engine.players", "gammon.engine.net.evaluator"): _ENGINE,
    ("gammon.store.notify", "psycopg"): "only a PostgreSQL store listens: SQLite needs no psycopg",
    ("gammon.engine.rollout.parallel", "ray"): "Ray is optional (the cluster extra): imported for a Ray "
    "run only",
}

# --- TO BE EMPTIED: today's offenders in the engine, the web and the action dispatch -------------

CYCLES_TO_BE_EMPTIED: list[set[str]] = []

FUNCTION_IMPORTS_TO_BE_EMPTIED: set[tuple[str, str]] = set()

LONG_FUNCTIONS_TO_BE_EMPTIED: set[str] = set()

MANY_PARAMETERS_TO_BE_EMPTIED: set[str] = set()

PRIVATE_IMPORTS_TO_BE_EMPTIED: set[tuple[str, str]] = set()


# --- reading the source ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    module: str
    path: Path
    tree: ast.Module

    @property
    def is_package(self) -> bool:
        return self.path.name == "__init__.py"


def _sources() -> list[Source]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out.append(Source(".".join(parts), path, ast.parse(path.read_text(), str(path))))
    return out


SOURCES = _sources()
MODULES = {source.module for source in SOURCES}


def _imported_module(source: Source, node: ast.ImportFrom) -> str:
    """The absolute name of the module ``from ... import`` reads from."""
    if not node.level:
        return node.module or ""
    base = source.module.split(".")
    if not source.is_package:
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _functions(
    tree: ast.AST, prefix: str = ""
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, bool]]:
    """Every function with its qualified name, and whether it is part of a public interface (a
    module-level function or a method, not a function nested in another)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.ClassDef):
            yield from _functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield f"{prefix}{node.name}", node, True
            for name, inner, _ in _functions(node, f"{prefix}{node.name}.<locals>."):
                yield name, inner, False


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _check(found: set, allowed: set, what: str) -> None:
    new = sorted(found - allowed, key=str)
    gone = sorted(allowed - found, key=str)
    assert not new, f"{what}:\n  " + "\n  ".join(map(str, new))
    assert not gone, "fixed, so take them off the allowlist:\n  " + "\n  ".join(map(str, gone))


# --- the checks -------------------------------------------------------------------------------------


def _cycles() -> list[set[str]]:
    """The strongly connected components of gammon's runtime import graph (imports under
    ``TYPE_CHECKING`` are left out: they never run) that hold more than one module."""
    graph = grimp.build_graph("gammon", exclude_type_checking_imports=True, cache_dir=None)
    edges = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []

    def visit(module: str) -> None:  # Tarjan's algorithm; the graph is shallow enough to recurse
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in edges[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = set()
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.add(other)
                if other == module:
                    break
            if len(component) > 1:
                out.append(component)

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return out


def test_no_import_cycles() -> None:
    found = {frozenset(c) for c in _cycles()}
    allowed = {frozenset(c) for c in CYCLES_TO_BE_EMPTIED}
    _check(found, allowed, "modules that import each other (break each cycle)")


def test_imports_inside_functions_only_to_save_start_up_time() -> None:
    found = set()
    for source in SOURCES:
        for _, function, _ in _functions(source.tree):
            for node in ast.walk(function):
                if isinstance(node, ast.Import):
                    found |= {(source.module, alias.name) for alias in node.names}
                elif isinstance(node, ast.ImportFrom):
                    target = _imported_module(source, node)
                    # `from gammon.cli import hint` imports the module gammon.cli.hint
                    found |= {
                        (
                            source.module,
                            f"{target}.{alias.name}" if f"{target}.{alias.name}" in MODULES else target,
                        )
                        for alias in node.names
                    }
    allowed = set(STARTUP_SAVINGS) | FUNCTION_IMPORTS_TO_BE_EMPTIED
    _check(found, allowed, "imports inside functions (import at the top, or list a start-up saving)")
    assert not set(STARTUP_SAVINGS) & FUNCTION_IMPORTS_TO_BE_EMPTIED


def test_no_function_over_100_lines() -> None:
    found = {
        f"{source.module}:{name}"
        for source in SOURCES
        for name, function, _ in _functions(source.tree)
        if function.end_lineno is not None and function.end_lineno - function.lineno + 1 > MAX_LINES
    }
    _check(found, LONG_FUNCTIONS_TO_BE_EMPTIED, f"functions over {MAX_LINES} lines")


def test_no_public_function_with_more_than_8_parameters() -> None:
    found = set()
    for source in SOURCES:
        for name, function, interface in _functions(source.tree):
            if not interface or any(_is_private(part) for part in name.split(".")):
                continue
            args = function.args
            names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
            if len([n for n in names if n not in ("self", "cls")]) > MAX_PARAMETERS:
                found.add(f"{source.module}:{name}")
    _check(
        found, MANY_PARAMETERS_TO_BE_EMPTIED, f"public functions with more than {MAX_PARAMETERS} parameters"
    )


def test_no_private_name_imported_from_another_module() -> None:
    """Neither ``from gammon.x import _name`` nor ``x._name`` / ``SomeClass._name`` on a module or
    name imported from another gammon module."""
    found = set()
    for source in SOURCES:
        # names bound in this file to another gammon module or to something imported from one: a
        # module (`from gammon import movegen`, `import gammon.x as y`) or a class, function or
        # constant (`from gammon.play import Play`), whose private attributes are as private
        aliases: dict[str, str] = {}
        for node in ast.walk(source.tree):
            if isinstance(node, ast.ImportFrom):
                target = _imported_module(source, node)
                if not target.startswith("gammon"):
                    continue
                for alias in node.names:
                    if f"{target}.{alias.name}" in MODULES:
                        aliases[alias.asname or alias.name] = f"{target}.{alias.name}"
                    elif _is_private(alias.name) and target != source.module:
                        found.add((source.module, f"{target}.{alias.name}"))
                    elif target != source.module:
                        aliases[alias.asname or alias.name] = f"{target}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("gammon.") and alias.asname:
                        aliases[alias.asname] = alias.name
        for node in ast.walk(source.tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and _is_private(node.attr)
                and aliases[node.value.id] != source.module
            ):
                found.add((source.module, f"{aliases[node.value.id]}.{node.attr}"))
    _check(found, PRIVATE_IMPORTS_TO_BE_EMPTIED, "private names used from another module (make them public)")


def test_every_start_up_saving_says_why() -> None:
    assert all(reason.strip() for reason in STARTUP_SAVINGS.values())
