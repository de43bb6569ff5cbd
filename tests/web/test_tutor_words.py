"""The tutor's warning on the game page in each language (tutor.js ``warningText``), run in Node.js."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.web.test_outcome_words import page_words

# The tutor's answers (POST /api/matches/<id>/tutor): a pass it flags, and a double.
PASS = {"mark": "very bad", "error": 0.66, "cost": 0.1656, "unit": "mwc", "chosen": "pass", "best": "take"}
DOUBLE = {"mark": "bad", "error": 0.12, "cost": 0.12, "unit": "emg", "chosen": "double", "best": "no double"}


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the pages' modules")
@pytest.mark.parametrize(
    ("lang", "better"),
    [
        ("en", ["Better: take.", "Better: no double."]),
        ("pl", ["Lepiej: przyjęcie.", "Lepiej: brak podwojenia."]),
        ("cs", ["Lépe: přijetí.", "Lépe: nezdvojení."]),
        ("sk", ["Lepšie: prijatie.", "Lepšie: nezdvojenie."]),
    ],
)
def test_the_better_cube_action_is_named_as_the_analysis_names_it(
    tmp_path: Path, lang: str, better: list
) -> None:
    """The better cube action was the terminal's command word: Czech 'Lépe: přijmi.' spoke to the
    player as 'ty' in a catalogue that says 'vy', and Polish 'przyjmij' stood beside nouns."""
    said = page_words(tmp_path, lang, "tutor.js", "warningText", [PASS, DOUBLE])
    assert [s[s.rindex(". ", 0, len(s) - 1) + 2 :] for s in said] == better, said
