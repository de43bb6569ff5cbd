"""The engine's public functions and methods (in Python; the compiled kernels take flat arrays) take at
most eight parameters, ``self`` aside: more options travel in a settings object (SearchSettings,
RolloutSettings) or a Situation. A dataclass's own constructor is its fields."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil

import gammon.engine

MOST = 8


def _modules() -> list[str]:
    return [m.name for m in pkgutil.walk_packages(gammon.engine.__path__, "gammon.engine.")]


def test_no_public_engine_function_takes_more_than_eight_parameters() -> None:
    crowded = []
    for name in _modules():
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if attr.startswith("_") or getattr(value, "__module__", None) != name:
                continue
            functions = [(attr, value)] if inspect.isfunction(value) else []
            if inspect.isclass(value):
                functions = [
                    (f"{attr}.{k}", v)
                    for k, v in vars(value).items()
                    if inspect.isfunction(v)
                    and (not k.startswith("_") or k == "__init__")
                    and not (k == "__init__" and dataclasses.is_dataclass(value))
                ]
            for label, fn in functions:
                try:
                    count = len([p for p in inspect.signature(fn).parameters if p not in ("self", "cls")])
                except (TypeError, ValueError):
                    continue
                if count > MOST:
                    crowded.append(f"{name}.{label} ({count})")
    assert not crowded, crowded
