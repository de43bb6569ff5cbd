"""The languages' machinery: choosing a language, plural forms, the current language of a
context, and the catalogues against the messages the sources mark."""

from __future__ import annotations

import asyncio

import pytest
from babel.messages.catalog import Catalog

from gammon.errors import InvalidNotationError
from gammon.formats.convert import read_match
from gammon.formats.mat import read_mat, to_match
from gammon.i18n import (
    current_language,
    from_accept_language,
    from_environment,
    normalize,
    ntr,
    set_language,
    tr,
    use_language,
)
from gammon.i18n.check import _message_problems, problems
from gammon.i18n.extract import extract_catalog


def test_a_language_tag_is_read_as_one_of_ours_or_none():
    assert normalize("pl_PL.UTF-8") == "pl" and normalize("cs-CZ") == "cs" and normalize("SK") == "sk"
    assert normalize("de_DE") is None and normalize("C") is None and normalize("") is None


def test_the_terminal_follows_the_locale_as_gettext_reads_it():
    assert from_environment({}) == "en"
    assert from_environment({"LANG": "pl_PL.UTF-8"}) == "pl"
    assert from_environment({"LANG": "pl_PL.UTF-8", "LC_MESSAGES": "cs_CZ.UTF-8"}) == "cs"
    assert from_environment({"LC_ALL": "sk_SK.UTF-8", "LC_MESSAGES": "cs_CZ.UTF-8"}) == "sk"
    # LANGUAGE is a list of preferences: the first one spoken here wins, then the locale
    assert from_environment({"LANGUAGE": "de:cs:pl", "LANG": "pl_PL"}) == "cs"
    assert from_environment({"LANGUAGE": "de", "LANG": "sk_SK"}) == "sk"
    assert from_environment({"LANG": "C.UTF-8"}) == "en" and from_environment({"LANG": "de_DE"}) == "en"


def test_the_web_follows_the_browsers_preferences_by_quality():
    assert from_accept_language("pl-PL,pl;q=0.9,en;q=0.8") == "pl"
    assert from_accept_language("de-DE,de;q=0.9,sk;q=0.7,cs;q=0.8") == "cs"
    assert from_accept_language("en-GB,en;q=0.9") == "en"
    assert from_accept_language("de,fr") is None and from_accept_language(None) is None
    assert from_accept_language("cs;q=0,sk") == "sk"  # q=0: not wanted
    assert from_accept_language("pl;q=x, cs;q=0.5") == "cs"  # a broken quality counts as 0


@pytest.mark.parametrize(
    ("lang", "forms"),
    [
        ("en", {1: "1 point", 2: "2 points", 5: "5 points"}),
        (
            "pl",
            {
                1: "1 punkt",
                2: "2 punkty",
                4: "4 punkty",
                5: "5 punktów",
                12: "12 punktów",
                22: "22 punkty",
                25: "25 punktów",
            },
        ),
        ("cs", {1: "1 bod", 2: "2 body", 4: "4 body", 5: "5 bodů", 22: "22 bodů"}),
        ("sk", {1: "1 bod", 3: "3 body", 5: "5 bodov"}),
    ],
)
def test_counts_take_each_languages_plural_forms(lang, forms):
    with use_language(lang):
        for n, text in forms.items():
            assert ntr("{n} point", "{n} points", n, n=n) == text


def test_the_language_is_the_contexts_own():
    assert current_language() == "en"
    with use_language("pl"):
        assert tr("Goodbye.") == "Do widzenia."
        with use_language("xx"):  # not spoken here: English
            assert tr("Goodbye.") == "Goodbye."
    assert tr("Goodbye.") == "Goodbye."

    async def speak(lang: str) -> str:
        set_language(lang)
        await asyncio.sleep(0)  # the other task runs here, in its own language
        return tr("Goodbye.")

    async def both() -> list[str]:
        return list(await asyncio.gather(speak("cs"), speak("sk")))

    assert asyncio.run(both()) == ["Na shledanou.", "Dovidenia."]
    assert current_language() == "en"


DAMAGED_FILES = [
    (
        b"hello there\n",
        "mat",
        {
            "en": "line 1: 'hello there': expected the header '; [Tag \"value\"]' or 'N point match'",
            "pl": "wiersz 1: 'hello there': oczekiwano nagłówka '; [Tag \"value\"]' lub 'N point match'",
        },
    ),
    (
        "(;GM[1]FF[4])",
        "sgf",
        {
            "en": "SGF line 1: ';GM[1]FF[4]': not a backgammon game (GM[6]), GM[1]",
            "pl": "SGF wiersz 1: ';GM[1]FF[4]': to nie jest partia backgammona (GM[6]), GM[1]",
        },
    ),
    (
        b"junk-data!",
        "xg",
        {
            "en": "the data is not an eXtreme Gammon file: it must start with the magic 'RGMH' and a "
            "8232-byte header, it starts with b'junk-dat' and has 10 bytes",
            "pl": "dane: to nie jest plik eXtreme Gammon: musi zaczynać się sygnaturą 'RGMH' i nagłówkiem "
            "(8232 B), a zaczyna się od b'junk-dat' i ma 10 B",
        },
    ),
]


@pytest.mark.parametrize(("data", "fmt", "messages"), DAMAGED_FILES, ids=[c[1] for c in DAMAGED_FILES])
def test_a_damaged_match_file_is_refused_in_the_readers_language(data, fmt, messages):
    """The readers word their errors when they raise them, in the current language, quoting the input."""
    for lang, message in messages.items():
        with use_language(lang), pytest.raises(InvalidNotationError) as caught:
            read_match(data, fmt)
        assert str(caught.value) == message


def test_a_mat_files_unread_games_are_known_by_number_in_any_language():
    """A .mat read in part stops before the first game it could not read, whatever the errors' language."""
    text = (
        "3 point match\n\n Game 1\n A : 0   B : 0\n 1) 52: 13/8 24/22\n     Wins 1 point\n\n"
        " Game 2\n A : 1   B : 0\n 1) 52: 99/1\n"
    )
    with use_language("cs"):
        record = read_mat(text)
        assert str(record.errors[0]).startswith("hra 2 (řádek 8): řádek 10: ")
        assert len(to_match(record, partial=True).games) == 1


def test_every_message_the_sources_mark_is_translated_with_the_same_placeholders():
    """The catalogues' completeness, as CI checks it: extracted from the sources with Babel."""
    assert problems(extract_catalog()) == []


def test_the_check_finds_a_missing_message_a_placeholder_mismatch_and_wrong_plural_forms():
    template = Catalog()
    template.add("{name} rolls {dice}")
    template.add(("{n} point", "{n} points"))
    po = Catalog(locale="pl")
    message = template["{name} rolls {dice}"]
    assert _message_problems("pl", message, None) == ["pl: '{name} rolls {dice}' is missing"]
    po.add("{name} rolls {dice}", "{name} rzuca {kostki}")
    assert "placeholders" in _message_problems("pl", message, po["{name} rolls {dice}"])[0]
    po["{name} rolls {dice}"].string = ""
    assert _message_problems("pl", message, po["{name} rolls {dice}"]) == [
        "pl: '{name} rolls {dice}' is not translated"
    ]
    plural = template["{n} point"]
    po.add(("{n} point", "{n} points"), ("{n} punkt", "{n} punkty"))
    assert "plural forms" in _message_problems("pl", plural, po["{n} point"])[0]


def test_every_marked_message_is_a_literal_that_babel_can_extract():
    """tr(f"...") or t(`...${x}`) would never reach a catalogue (Babel skips them) nor the check."""
    import ast
    import re
    from pathlib import Path

    package = Path(__file__).resolve().parents[1] / "gammon"
    found = []
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                literals = {"tr": 1, "ntr": 2, "ptr": 2, "N_": 1}.get(node.func.id, 0)
                for arg in node.args[:literals]:
                    if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                        # a table's N_ mark passed on (tr(WORDS[k])) is the one way a variable goes in
                        if not (
                            node.func.id == "tr" and isinstance(arg, ast.Subscript | ast.Name | ast.Call)
                        ):
                            found.append(f"{path.name}:{node.lineno}")
    for path in (package / "web" / "static").glob("*.js"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\b(?:t|tn)\(\s*`", line):
                found.append(f"{path.name}:{number}")
    assert found == []
