"""The .mat writer fits the players' names itself (:func:`gammon.formats.mat.mat_names`): a match
written directly with a name longer than the 31 bytes GNU Backgammon keeps went into the file whole,
and gnubg cut it, inside a character when one spanned the cut, and then failed on the file."""

from __future__ import annotations

from pathlib import Path

from gammon.formats.convert import convert
from gammon.formats.mat import GNUBG_NAME_BYTES, format_mat, mat_names, read_mat, write_mat
from gammon.formats.sgf import format_sgf
from gammon.rules import Rules
from tests.formats.random_play import play_match
from tests.formats.test_mat_gnubg import walk_in_gnubg
from tests.helpers import needs_gnubg

# 60 bytes and more; the last two put the 32nd byte inside a two-byte letter
LONG = [
    ("A" * 60, "Bob"),
    ("Ann", "Zażółć gęślą jaźń, Grzegorz Brzęczyszczykiewicz z Łodzi"),
    ("Ł" + "ż" * 29 + "ó", "Źdźbło " * 9),
]


def test_the_writer_cuts_long_names_at_a_character() -> None:
    match = play_match(1, Rules(match_length=3), double=0.1)
    for names in LONG:
        assert max(len(n.encode()) for n in names) >= 60
        record = read_mat(write_mat(match, names))
        assert record.errors == () and record.names == mat_names(names)
        assert all(len(n.encode()) <= GNUBG_NAME_BYTES for n in record.names)
        assert all(original.startswith(n) for original, n in zip(names, record.names))


def test_callers_that_fitted_the_names_write_the_same_file() -> None:
    match = play_match(2, Rules(match_length=3), double=0.1)
    for names in LONG:
        assert format_mat(match, names) == format_mat(match, mat_names(names))
        record = read_mat(format_mat(match, names))
        assert format_mat(record) == format_mat(match, names)  # a record keeps the fitted names
    sgf = format_sgf(match, LONG[2])
    assert read_mat(convert(sgf.encode(), "sgf", "mat").text).names == mat_names(LONG[2])


@needs_gnubg
def test_gnubg_imports_a_match_written_directly_with_long_names(tmp_path: Path) -> None:
    match = play_match(3, Rules(match_length=3), double=0.1)
    paths = []
    for k, names in enumerate(LONG):
        path = tmp_path / f"long{k}.mat"
        write_mat(match, names, path)
        paths.append(path)
    walked = walk_in_gnubg(paths)
    for names, w in zip(LONG, walked):
        assert tuple(w["names"]) == mat_names(names), names
        assert len(w["info"]) == len(match.games)
