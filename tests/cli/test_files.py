"""gammon.cli.files.write_whole: a file the person names, written whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gammon.cli.files import write_whole


def test_a_pipe_named_by_a_device_path_is_written_as_it_is():
    # /dev/stdout piped (gammon convert a.mat /dev/stdout | ...) failed: its real path is
    # 'pipe:[...]', no folder to write a temporary file in
    read, write = os.pipe()
    try:
        write_whole(f"/dev/fd/{write}", "ok\n")
        os.close(write)
        write = -1
        with os.fdopen(read, "rb") as reader:
            read = -1
            assert reader.read() == b"ok\n"
    finally:
        for fd in (read, write):
            if fd >= 0:
                os.close(fd)


def test_a_new_file_is_written(tmp_path: Path):
    write_whole(str(tmp_path / "a.txt"), "żółw\n")
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "żółw\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_a_file_that_may_not_be_written_is_left_as_it_is(tmp_path: Path, monkeypatch):
    # renaming onto a read-only file replaced it, where a plain write is refused (the check is
    # the system's: made to answer as for someone other than root, whom it never refuses)
    there = tmp_path / "board.svg"
    there.write_text("old")
    there.chmod(0o444)
    monkeypatch.setattr(os, "access", lambda path, mode: not (mode & os.W_OK and Path(path) == there))
    with pytest.raises(PermissionError) as e:
        write_whole(str(there), b"<svg/>")
    assert e.value.filename == str(there)
    assert there.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["board.svg"]
