"""Dates on the pages (the drill page's due dates) are written as the page's language writes them,
not as the browser's locale does (common.js ``dateTime``), run in Node.js as an English browser."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.web.test_outcome_words import page_words


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the pages' modules")
@pytest.mark.parametrize(
    ("lang", "written"),
    [
        ("en", "11/30/2026, 1:16:46 PM"),
        ("pl", "30.11.2026, 13:16:46"),
        ("cs", "30. 11. 2026 13:16:46"),
        ("sk", "30. 11. 2026 13:16:46"),
    ],
)
def test_a_date_is_written_in_the_pages_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, written: str
) -> None:
    monkeypatch.setenv("TZ", "UTC")
    assert page_words(tmp_path, lang, "common.js", "dateTime", ["2026-11-30T13:16:46Z"]) == [written]
