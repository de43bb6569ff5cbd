"""The terminal's tests keep gammon's data directory (where a match is saved when input ends)
in a temporary folder, never the user's."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _data_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))
