"""Reading .npz files: every bad file is refused by an error that quotes its path."""

from __future__ import annotations

import re

import numpy as np
import pytest

from gammon.engine.net.npz import PATH_LIMIT, load_npz
from gammon.errors import InvalidNotationError
from tests.helpers import bad_npz_files


def test_load_npz_reads_every_array_and_names_the_file_of_a_missing_one(tmp_path) -> None:
    path = tmp_path / "w.npz"
    np.savez(path, a=np.arange(3), s=np.array("text"))
    data = load_npz(path, "a test file")
    assert sorted(data) == ["a", "s"] and np.array_equal(data["a"], [0, 1, 2]) and str(data["s"]) == "text"
    missing = f"{str(path)!r} is not a test file: it has no array 'b'"
    with pytest.raises(InvalidNotationError, match=re.escape(missing)):
        data["b"]


def test_load_npz_refuses_what_is_not_an_npz_archive(tmp_path) -> None:
    text, empty, cut_zip = bad_npz_files(tmp_path)
    expected = {
        text: "an .npz archive starts with 'PK', it with b'not an a'",
        empty: "it is empty",
        cut_zip: "it is not a readable .npz archive (File is not a zip file)",
    }
    npy = tmp_path / "one.npy"
    np.save(npy, np.arange(3))
    expected[npy] = r"an .npz archive starts with 'PK', it with b'\x93NUMPY\x01\x00'"
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, a=np.array([{}], dtype=object))
    expected[pickled] = "it is not a readable .npz archive (Object arrays cannot be loaded"
    for path, reason in expected.items():
        with pytest.raises(ValueError, match=re.escape(f"{str(path)!r} is not a test file: {reason}")):
            load_npz(path, "a test file")
    with pytest.raises(FileNotFoundError, match="missing.npz"):
        load_npz(tmp_path / "missing.npz", "a test file")


def test_a_long_path_is_cut(tmp_path) -> None:
    folder = tmp_path / ("d" * PATH_LIMIT)
    folder.mkdir()
    path = folder / "x.npz"
    path.write_text("text")
    with pytest.raises(InvalidNotationError) as e:
        load_npz(path, "a test file")
    quoted = repr(str(path)[:PATH_LIMIT - 3] + "...")
    assert str(e.value).startswith(f"{quoted} is not a test file: ")
