"""gammon.cli.files.write_whole: a file the person names, written whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path

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
