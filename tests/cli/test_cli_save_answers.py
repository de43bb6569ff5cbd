"""The answers to "Save the match first? Type a file name": a no in words ("no thanks") leaves
without a file named after it, a yes asks for the name; anything else is the file's name."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gammon.i18n import use_language
from gammon.rules import Rules
from tests.cli.test_cli_session import O_OPENING_PLAY, O_OPENS, run_session


def _quit_answering(answer: str, lang: str = "en", then: str = "") -> str:
    with use_language(lang):
        _, out = run_session([O_OPENING_PLAY, "quit", answer, then], [O_OPENS], Rules(match_length=3))
    return out


@pytest.mark.parametrize(("lang", "answer"), [
    ("en", "no thanks"), ("en", "No!"), ("en", "n"), ("en", "no, thank you."),
    ("pl", "nie, dziękuję"), ("pl", "nie"), ("cs", "Ne díky"), ("cs", "ne"), ("sk", "nie, ďakujem"),
])
def test_a_no_in_words_leaves_without_saving(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str,
                                             answer: str) -> None:
    monkeypatch.chdir(tmp_path)
    out = _quit_answering(answer, lang)
    assert os.listdir(tmp_path) == []
    assert "Saved to" not in out and "Zapisano" not in out


@pytest.mark.parametrize(("lang", "answer"), [
    ("en", "yes please"), ("en", "y"), ("pl", "tak, poproszę"), ("cs", "ano, prosím"), ("sk", "áno"),
])
def test_a_yes_in_words_asks_for_the_file_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str,
                                               answer: str) -> None:
    monkeypatch.chdir(tmp_path)
    _quit_answering(answer, lang, then="kept.mat")
    assert os.listdir(tmp_path) == ["kept.mat"]


@pytest.mark.parametrize("name", ["no thanks.mat", "nope", "yes/../match.sgf"])
def test_a_name_with_an_extension_or_a_folder_or_no_yes_or_no_is_a_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "yes").mkdir()
    out = _quit_answering(name)
    assert f"Saved to {name}." in out and (tmp_path / name).is_file()
