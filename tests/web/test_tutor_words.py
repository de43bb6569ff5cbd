"""The tutor's warning (tutor.js ``warningText``) and the cube hint (cubehint.js ``cubeHintLines``) on the
game page in each language, run in Node.js."""

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


# The hint's cube answers (GET /api/matches/<id>/hint): before the roll, and when doubled.
BEFORE_ROLL = {
    "plies": 0,
    "cube": {
        "question": "double",
        "available": True,
        "mwc": None,
        "action": "no double",
        "answer": "take",
        "no_double": 0.1,
        "double_take": -0.3,
        "double_pass": 1.0,
    },
}
DOUBLED = {
    "plies": 0,
    "cube": {
        "question": "take",
        "available": True,
        "mwc": None,
        "action": "double, take",
        "answer": "take",
        "no_double": 0.4,
        "double_take": 0.6,
        "double_pass": 1.0,
    },
}


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the pages' modules")
@pytest.mark.parametrize(
    ("lang", "verdicts"),
    [
        ("en", ["Engine: no double (if doubled, the opponent should take)", "Engine: take"]),
        (
            "pl",
            [
                "Silnik: bez podwojenia (po podwojeniu właściwa odpowiedź przeciwnika: przyjęcie)",
                "Silnik: przyjęcie",
            ],
        ),
        ("cs", ["Engine: nezdvojovat (po zdvojení je správná odpověď soupeře: přijetí)", "Engine: přijetí"]),
        ("sk", ["Engine: nezdvojovať (po zdvojení je správna odpoveď súpera: prijatie)", "Engine: prijatie"]),
    ],
)
def test_the_cube_hints_answer_is_named_as_the_analysis_names_it(
    tmp_path: Path, lang: str, verdicts: list
) -> None:
    """The hint's take was the terminal's command word too: Czech 'Engine: přijmi' and 'by soupeř
    měl: přijmi', an order to the player as 'ty'."""
    lines = page_words(tmp_path, lang, "cubehint.js", "cubeHintLines", [BEFORE_ROLL, DOUBLED])
    assert [shown[0] for shown in lines] == verdicts, lines
