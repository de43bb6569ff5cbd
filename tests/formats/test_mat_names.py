"""Players' names as a .mat file holds them: one fitting (:func:`gammon.formats.mat.mat_names`) for
the terminal's saves and the browser's downloads, whose names the writer accepts and GNU
Backgammon reads back as they are."""

from __future__ import annotations

from pathlib import Path

import hypothesis
import pytest
from hypothesis import strategies as st

from gammon.errors import QUOTE_LIMIT, cut
from gammon.formats.mat import GNUBG_NAME_BYTES, mat_name_problem, mat_names, read_mat, write_mat
from gammon.i18n import use_language
from gammon.rules import Rules
from tests.formats.random_play import play_match
from tests.formats.test_mat_gnubg import walk_in_gnubg
from tests.helpers import needs_gnubg

# (names given, names written)
FITTED = [
    (("Ann Lee", "Zoë Łukasz"), ("Ann Lee", "Zoë Łukasz")),
    (("a:b", '"q" (x) [y]'), ("a b", '"q" (x) [y]')),  # only ':' splits a score line
    (("  lead", "trail "), ("lead", "trail")),  # the readers strip a name's ends
    (("a\x1b[2Jb", "a\tb"), ("a\ufffd[2Jb", "a b")),
    (("", ":"), ("Player 1", "Player 2")),
    (("x" * 40, "Bob"), ("x" * GNUBG_NAME_BYTES, "Bob")),
    # gnubg keeps 31 bytes: a cut inside a character crashes it
    (("x" * 30 + "é", "é" * 16), ("x" * 30, "é" * 15)),
    (("日本語のとても長い名前です", "x" * 30 + " y"), ("日本語のとても長い名", "x" * 30)),
    # names that fitting alone made one stay two
    (("a:b", "a b"), ("a b", "a b (2)")),
    (("Player 2", ""), ("Player 2", "Player 2 (2)")),
    (("x" * 40, "x" * 41), ("x" * 31, "x" * 27 + " (2)")),
    (("Bob", "Bob"), ("Bob", "Bob")),  # the players' own names, the same
]


@pytest.mark.parametrize(("given", "written"), FITTED)
def test_names_are_fitted_for_the_writer_and_gnubg(given: tuple[str, str], written: tuple[str, str]) -> None:
    assert mat_names(given) == written
    for name in written:
        assert mat_name_problem(name) is None and len(name.encode()) <= GNUBG_NAME_BYTES


def test_fitting_is_idempotent() -> None:
    for given, written in FITTED:
        assert mat_names(written) == written, given


@hypothesis.given(st.text(max_size=60), st.text(max_size=60))
def test_any_names_fit_and_stay_apart(first: str, second: str) -> None:
    fitted = mat_names((first, second))
    for name in fitted:
        assert mat_name_problem(name) is None and len(name.encode()) <= GNUBG_NAME_BYTES
    assert first == second or fitted[0] != fitted[1]
    assert mat_names(fitted) == fitted


@needs_gnubg
def test_gnubg_reads_the_fitted_names_back(tmp_path: Path) -> None:
    match = play_match(1, Rules(match_length=3), double=0.1)
    paths = []
    for k, (given, _) in enumerate(FITTED):
        path = tmp_path / f"n{k}.mat"
        write_mat(match, mat_names(given), path)
        paths.append(path)
    walked = walk_in_gnubg(paths)
    for (given, written), path, w in zip(FITTED, paths, walked):
        assert tuple(w["names"]) == written, given
        assert read_mat(path.read_text()).names == written, given


@pytest.mark.parametrize("name", [" Ann", "Ann ", "Ann\xa0", "Ann\u2028Lee", "Ann\u2029Lee"])
def test_the_writer_fits_a_name_that_would_not_read_back(name: str) -> None:
    match = play_match(1, Rules(match_length=3))
    assert mat_name_problem(name) is not None
    fitted = mat_names((name, "Bob"))
    assert read_mat(write_mat(match, (name, "Bob"))).names == fitted == (" ".join(name.split()), "Bob")
    assert write_mat(match, (name, "Bob")) == write_mat(match, fitted)


@pytest.mark.parametrize("lang", ["pl", "cs", "sk"])
def test_a_name_problem_is_said_in_the_language_of_the_rest(lang: str) -> None:
    name = "Ann:" + "x" * 5000
    english = mat_name_problem(name)
    with use_language(lang):
        message = mat_name_problem(name)
    assert message is not None and english is not None and message != english
    assert cut(repr(name)) in message and len(message) < 4 * QUOTE_LIMIT
