"""Test tiers: each test is marked by what it needs, from the fixtures it uses and the module it
lives in (the markers are registered in pyproject.toml, which makes pytest refuse any other):

* ``gnubg``: GNU Backgammon, the program (the ``needs_gnubg`` skip of tests/helpers.py) or the PyPI
  module (its test module imports ``gnubg``; a test that imports it in its body is marked by hand);
* ``browser``: headless Chromium through Playwright (the ``browser`` fixture of
  tests/web/test_e2e.py; a test that starts Playwright itself is marked by hand);
* ``postgres``: a PostgreSQL server (the ``pg_url`` fixture, or the ``postgresql`` case of
  ``store_url``);
* ``ray``: a local Ray (its test module imports ``ray``);
* ``slow``: more than about 5 s on a 2-core machine, marked by hand (``@pytest.mark.slow``).

The quick tier leaves out the slow and browser tests: ``python -m pytest -m "not slow and not
browser" -n 2``; the full suite (``python -m pytest -n 2``) is the CI command.
"""

from __future__ import annotations

import os
from types import ModuleType

import pytest

from tests.helpers import needs_gnubg

# The tests read English messages, whatever the locale of the machine that runs them (the commands
# they start inherit it); the tests of the other languages ask for theirs.
os.environ["LANGUAGE"] = "en"
# The commands they start write no bytecode: some run where a write past a few bytes fails (a full
# disk), and a child there left the checkout's .pyc files cut short, breaking every later import.
os.environ["PYTHONDONTWRITEBYTECODE"] = "1"


def _imports(item: pytest.Item, name: str) -> bool:
    """Whether the test's module imported the module ``name`` under that name."""
    return isinstance(getattr(getattr(item, "module", None), name, None), ModuleType)


def _tiers(item: pytest.Item) -> list[str]:
    fixtures = getattr(item, "fixturenames", ())
    callspec = getattr(item, "callspec", None)
    needs = {
        "gnubg": needs_gnubg.mark in item.iter_markers("skipif") or _imports(item, "gnubg"),
        "browser": "browser" in fixtures,
        "postgres": "pg_url" in fixtures
        or (callspec is not None and callspec.params.get("store_url") == "postgresql"),
        "ray": _imports(item, "ray"),
    }
    return [name for name, needed in needs.items() if needed]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for name in _tiers(item):
            if item.get_closest_marker(name) is None:
                item.add_marker(name)
