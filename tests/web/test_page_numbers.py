"""Numbers on the pages are written as the page's language writes them (common.js ``decimal``,
``signedDecimal``, ``percent``, ``signedPercent``): a decimal comma in Polish, Czech and Slovak, and
the percent sign as each writes it; toFixed wrote "ztrácí 16.56% šancí" on a Czech page. English is
written as toFixed wrote it. Run in Node.js as an English browser."""

from __future__ import annotations

import shutil
from importlib.resources import files
from pathlib import Path

import pytest

from tests.web import test_outcome_words
from tests.web.test_outcome_words import page_words
from tests.web.test_tutor_words import BEFORE_ROLL, DOUBLED, PASS

DOUBLED_CUBE = DOUBLED["cube"]
assert isinstance(DOUBLED_CUBE, dict)

NEEDS_NODE = pytest.mark.skipif(
    shutil.which("node") is None, reason="needs Node.js to run the pages' modules"
)
NBSP = "\u00a0"  # Czech and Slovak put a no-break space before the percent sign


@NEEDS_NODE
@pytest.mark.parametrize(
    ("lang", "written"),
    [
        ("en", ["1.51", "-0.000", "1523.3", "1.00", "+0.123", "-0.123", "+0.000", "1.51%", "-2.5%", "+0.0%"]),
        ("pl", ["1,51", "-0,000", "1523,3", "1,00", "+0,123", "-0,123", "+0,000", "1,51%", "-2,5%", "+0,0%"]),
        *[
            (
                lang,
                [
                    "1,51",
                    "-0,000",
                    "1523,3",
                    "1,00",
                    "+0,123",
                    "-0,123",
                    "+0,000",
                    f"1,51{NBSP}%",
                    f"-2,5{NBSP}%",
                    f"+0,0{NBSP}%",
                ],
            )
            for lang in ("cs", "sk")
        ],
    ],
)
def test_the_helpers_write_numbers_in_the_pages_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, written: list
) -> None:
    # page_words's script, each input spread as the function's arguments
    monkeypatch.setattr(test_outcome_words, "NODE", test_outcome_words.NODE.replace("fn(x)", "fn(...x)"))
    calls = [
        ("decimal", [1.5149, 2]),
        ("decimal", [-0.0001, 3]),  # toFixed's "-0.000" kept
        ("decimal", [1523.25, 1]),  # no thousands separator
        ("decimal", [1.005, 2]),  # rounded as toFixed rounds the binary value, not Intl's "1.01"
        ("signedDecimal", [0.1234, 3]),
        ("signedDecimal", [-0.1234, 3]),
        ("signedDecimal", [0, 3]),
        ("percent", [0.0151, 2]),
        ("signedPercent", [-0.025, 1]),
        ("signedPercent", [0, 1]),
    ]
    said = [page_words(tmp_path, lang, "common.js", name, [args])[0] for name, args in calls]
    assert said == written


@NEEDS_NODE
@pytest.mark.parametrize(
    ("lang", "loss"),
    [
        ("en", "it loses 16.56% in match winning chances (0.660 EMG)"),
        ("pl", "traci 16,56% szans wygrania meczu (0,660 EMG)"),
        ("cs", f"ztrácí 16,56{NBSP}% šancí na výhru zápasu (0,660 EMG)"),
        ("sk", f"stráca 16,56{NBSP}% šancí na výhru zápasu (0,660 EMG)"),
    ],
)
def test_the_tutors_warning_writes_its_numbers_in_the_pages_language(
    tmp_path: Path, lang: str, loss: str
) -> None:
    [said] = page_words(tmp_path, lang, "tutor.js", "warningText", [PASS])
    assert loss in said, said


# DOUBLED in a match: the taker's chances are 1 - the doubler's
MWC_DOUBLED = {"plies": 2, "cube": {**DOUBLED_CUBE, "mwc": [0.61, 0.5525, 0.7]}}


@NEEDS_NODE
@pytest.mark.parametrize(
    ("lang", "equities", "chances"),
    [
        ("en", "+0.100, double/take -0.300, double/pass +1.000", "take 44.8%, pass 30.0%"),
        (
            "pl",
            "+0,100, podwojenie/przyjęcie -0,300, podwojenie/odrzucenie +1,000",
            "przyjęcie 44,8%, odrzucenie 30,0%",
        ),
        (
            "cs",
            "+0,100, zdvojení/přijetí -0,300, zdvojení/odmítnutí +1,000",
            f"přijetí 44,8{NBSP}%, odmítnutí 30,0{NBSP}%",
        ),
        (
            "sk",
            "+0,100, zdvojenie/prijatie -0,300, zdvojenie/odmietnutie +1,000",
            f"prijatie 44,8{NBSP}%, odmietnutie 30,0{NBSP}%",
        ),
    ],
)
def test_the_cube_hint_writes_its_numbers_in_the_pages_language(
    tmp_path: Path, lang: str, equities: str, chances: str
) -> None:
    """The game page's cube hint: its equities keep their sign, its chances are percents."""
    [[_, by_equity], [_, by_chances]] = page_words(
        tmp_path, lang, "cubehint.js", "cubeHintLines", [BEFORE_ROLL, MWC_DOUBLED]
    )
    assert by_equity.endswith(equities), by_equity
    assert by_chances.endswith(chances), by_chances


def test_no_page_writes_a_number_with_tofixed() -> None:
    """toFixed always writes the English point: the pages' text goes through common.js's helpers.
    common.js rounds with it, and the profile's chart's SVG coordinates are no text."""
    static = Path(str(files("gammon.web") / "static"))
    found = [
        f"{js.name}:{n}: {line.strip()}"
        for js in sorted(static.glob("*.js"))
        if js.name != "common.js"
        for n, line in enumerate(js.read_text(encoding="utf-8").splitlines(), 1)
        if ".toFixed(" in line and not line.startswith("const coord = ")
    ]
    assert found == []
