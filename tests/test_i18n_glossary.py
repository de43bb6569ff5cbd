"""The words of the game are said one way in each language's catalogue (docs/i18n.md, "Words of
the game"): the board, the equity, a money session, a resignation, the checker and the cube."""

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from gammon.i18n import po_path
from gammon.i18n.check import glossary_problems


@pytest.mark.parametrize("lang", ["pl", "cs", "sk"])
def test_every_message_says_the_words_of_the_game_as_the_glossary(lang):
    with po_path(lang).open("rb") as f:
        cat = read_po(f, locale=lang, domain="gammon")
    assert [p for m in cat if m.id for p in glossary_problems(lang, m)] == []


@pytest.mark.parametrize(
    ("lang", "msgstr", "found", "word"),
    [
        ("pl", "ekwity z kostką{depth}", "ekwity", "wartość"),
        ("pl", "Equity (bez kostki)", "Equity", "wartość"),
        ("pl", "(rezygnacja lub porzucenie gry)", "rezygnacja", "poddanie"),
        ("pl", "gracz na ruchu ma rzucić kośćmi lub podwoić", "kośćmi", "kostki"),
        ("cs", "ukázat tento tah na desce", "desce", "hrací plocha"),
        ("cs", "equity s kostkou", "equity", "hodnota"),
        ("sk", "Otáčať dosku k hráčovi na ťahu", "dosku", "hracia plocha"),
        ("sk", "relácia hry o stávku nemá Crawfordovu hru", "relácia hry o stávku", "sedenie hry o stávku"),
    ],
)
def test_the_check_finds_a_word_said_otherwise(lang, msgstr, found, word):
    cat = Catalog(locale=lang)
    cat.add("x", msgstr)
    expected = f"{lang}: 'x' says {found} where the catalogue says {word!r}"
    assert glossary_problems(lang, cat["x"]) == [expected]


@pytest.mark.parametrize(
    ("lang", "msgstr"),
    [
        ("pl", "wartość z kostką; kostka dublująca; poddanie; rzucić kostkami; głębokość"),
        ("cs", "hodnota s kostkou na hrací ploše; sezení hry o sázku; relace je neznámá"),
        ("sk", "hodnota s kockou na hracej ploche; sedenie hry o stávku; relácia je neznáma"),
    ],
)
def test_the_glossarys_own_words_pass(lang, msgstr):
    cat = Catalog(locale=lang)
    cat.add("x", msgstr)
    assert glossary_problems(lang, cat["x"]) == []
