"""Where numba caches gammon's kernels: its own places when writable, else a private directory."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from gammon.compiled.numba_cache import ensure_cache_dir


@pytest.fixture
def no_cache_dir(monkeypatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("NUMBA_CACHE_DIR", "")  # unset for ensure_cache_dir; restored after the test
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    return blocker  # nothing can be made under a file: an unwritable place, even for root


def test_numba_keeps_its_own_places_when_one_is_writable(no_cache_dir: Path, tmp_path: Path) -> None:
    assert ensure_cache_dir(tmp_path / "package", no_cache_dir / "numba") is None
    assert ensure_cache_dir(no_cache_dir / "package", tmp_path / "user") is None
    assert os.environ["NUMBA_CACHE_DIR"] == ""


def test_a_private_directory_when_none_is(no_cache_dir: Path, tmp_path: Path) -> None:
    chosen = ensure_cache_dir(no_cache_dir / "package", no_cache_dir / "numba")
    assert chosen is not None and chosen.parent == tmp_path / "tmp" and chosen.is_dir()
    assert os.environ["NUMBA_CACHE_DIR"] == str(chosen)
    if hasattr(os, "getuid"):
        assert chosen.name == f"gammon-numba-{os.getuid()}"
        assert chosen.stat().st_mode & 0o777 == 0o700


def test_a_directory_others_can_write_is_not_used(no_cache_dir: Path, tmp_path: Path) -> None:
    shared = tmp_path / "tmp" / f"gammon-numba-{os.getuid() if hasattr(os, 'getuid') else 'user'}"
    shared.mkdir()
    shared.chmod(0o777)
    chosen = ensure_cache_dir(no_cache_dir / "package", no_cache_dir / "numba")
    assert chosen is not None and chosen != shared and chosen.name.startswith("gammon-numba-")


def test_a_cache_dir_set_by_the_user_is_left_alone(monkeypatch, no_cache_dir: Path) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/somewhere/of/mine")
    assert ensure_cache_dir(no_cache_dir / "package", no_cache_dir / "numba") is None
    assert os.environ["NUMBA_CACHE_DIR"] == "/somewhere/of/mine"
