"""The player may be a man or a woman: the catalogues never speak to the player, or of a named player,
in a form that says which (the past tense, conditional or participle: Polish 'wygrałeś', Czech 'jste
vyhrál' or 'jste vyhráli', Slovak 'vyhral si'; '{name} wyszedł', 'že se {name} vzdal')."""

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from gammon.i18n import check as i18n_check
from gammon.i18n import ntr, po_path, use_language
from gammon.i18n.check import gender_problems


@pytest.mark.parametrize("lang", ["pl", "cs", "sk"])
def test_no_message_speaks_to_the_player_as_a_man_or_a_woman(lang):
    with po_path(lang).open("rb") as f:
        cat = read_po(f, locale=lang, domain="gammon")
    assert [p for m in cat if m.id for p in gender_problems(lang, m)] == []


def _message(lang: str, msgstr: str, context: str | None = None):
    cat = Catalog(locale=lang)
    cat.add("x {name}", msgstr, context=context)
    return cat.get("x {name}", context)


@pytest.mark.parametrize(
    ("lang", "msgstr", "words"),
    [
        ("pl", "Wygrałeś z {name}!", "Wygrałeś"),
        ("pl", "Przegrałaś z {name}", "Przegrałaś"),
        ("pl", "czy chciałbyś zagrać z {name}?", "chciałbyś"),
        ("pl", "zaloguj się, abyś mógł grać z {name}", "abyś mógł"),
        ("pl", "nie jesteś zalogowany u {name}", "jesteś zalogowany"),
        ("pl", "nie możesz zaprosić samego siebie ({name})", "samego siebie"),
        ("cs", "Vyhrál jste proti {name}!", "Vyhrál jste"),
        ("cs", "Proti {name} jste prohráli", "jste prohráli"),
        ("cs", "přihlaste se, abyste mohli hrát s {name}", "abyste mohli"),
        ("cs", "nejste přihlášen u {name}", "nejste přihlášen"),
        ("sk", "Vyhral si proti {name}!", "Vyhral si"),
        ("sk", "Proti {name} si prehrala", "si prehrala"),
        ("sk", "prihlás sa, aby si mohol hrať s {name}", "aby si mohol"),
        ("sk", "nie si prihlásený u {name}", "nie si prihlásený"),
        ("pl", "{name} wyszedł z gry", "{name} wyszedł"),
        ("pl", "stopka mówi, że {name} się poddał", "{name} się poddał"),
        ("pl", "mecz skończony: wygrał go {name}", "wygrał go {name}"),
        ("cs", "{name} odešel", "{name} odešel"),
        ("cs", "RE uvádí, že se {name} vzdal", "{name} vzdal"),
        ("sk", "zápas skončil: vyhrala ho {name}", "vyhrala ho {name}"),
        ("sk", "{name} sa vzdal", "{name} sa vzdal"),
        ("pl", "miejsce {name}: działaj zalogowany", "działaj zalogowany"),
        ("cs", "místo {name}: hrajte přihlášeni", "hrajte přihlášeni"),
        ("sk", "miesto {name}: hraj prihlásený", "hraj prihlásený"),
    ],
)
def test_the_check_finds_a_gendered_second_person(lang, msgstr, words):
    assert gender_problems(lang, _message(lang, msgstr)) == [
        f"{lang}: 'x {{name}}' speaks to or of a player as a man or a woman ({words}); say it in a "
        f"form that fits both"
    ]


@pytest.mark.parametrize(
    ("lang", "msgstr"),
    [
        ("pl", "Wygrana z {name}!"),
        ("pl", "Wygrywasz z {name}"),
        ("pl", "{name}: nie zalogowano"),
        ("pl", "cały mecz z {name}"),  # 'ł' but no verb in the second person
        ("cs", "Vyhráváte proti {name}"),
        ("cs", "Jste na tahu proti {name}"),
        ("cs", "{name}: nepřihlášeno"),
        ("sk", "Vyhrávaš proti {name}"),
        ("sk", "Privlastniť si hru od {name}?"),  # 'si' the reflexive pronoun
        ("sk", "{name}: chýba prihlásenie"),
        ("pl", "{name}: rozłączenie przed chwilą"),
        ("cs", "{name} nemůže hrát dál"),
        ("sk", "ťah hráča {name} na {roll} nie je platný"),
        ("pl", "{name}: podaj inny plik"),  # an order, no participle
        ("cs", "{name}: proto ho dejte jen jemu"),
        ("pl", "miejsce {name}: działaj po zalogowaniu"),
    ],
)
def test_forms_that_fit_both_pass(lang, msgstr):
    assert gender_problems(lang, _message(lang, msgstr)) == []


def test_the_typed_words_are_the_players_not_the_catalogues():
    assert gender_problems("pl", _message("pl", "wygrałeś", context="command")) == []


def test_gammon_i18n_check_reports_it(tmp_path, monkeypatch):
    template = Catalog(locale="en")
    template.add("You won against {name}")
    cat = Catalog(locale="sk", domain="gammon")
    cat.add("You won against {name}", "Vyhral si proti {name}")
    path = tmp_path / "gammon.po"
    with path.open("wb") as f:
        write_po(f, cat)
    monkeypatch.setattr(i18n_check, "po_path", lambda lang: path)
    assert i18n_check.problems(template, ("sk",)) == [
        "sk: 'You won against {name}' speaks to or of a player as a man or a woman (Vyhral si); say it "
        "in a form that fits both"
    ]


@pytest.mark.parametrize(("lang", "words"), [
    ("pl", ["1 osoba zalogowana", "2 osoby zalogowane", "5 osób zalogowanych"]),
    ("cs", ["1 přihlášená osoba", "2 přihlášené osoby", "5 přihlášených osob"]),
    ("sk", ["1 prihlásená osoba", "2 prihlásené osoby", "5 prihlásených osôb"]),
])
def test_the_lobbys_count_of_players_signed_in_fits_women_too(lang, words):
    """The lobby counted '1 zalogowany' (a man): the players are counted as people ('osoba')."""
    with use_language(lang):
        assert [ntr("{n} signed in", "{n} signed in", n, n=n) for n in (1, 2, 5)] == words
