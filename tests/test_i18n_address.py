"""Each language speaks to the player in one form: Polish and Slovak say 'ty', Czech says 'vy'
(docs/i18n.md). A catalogue that mixes them reads as two translators' work."""

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from gammon.i18n import po_path
from gammon.i18n.check import address_problems


@pytest.mark.parametrize("lang", ["pl", "cs", "sk"])
def test_every_message_speaks_to_the_player_in_the_languages_one_form(lang):
    with po_path(lang).open("rb") as f:
        cat = read_po(f, locale=lang, domain="gammon")
    assert [p for m in cat if m.id for p in address_problems(lang, m)] == []


def _message(lang: str, msgid: str, msgstr: str, context: str | None = None):
    cat = Catalog(locale=lang)
    cat.add(msgid, msgstr, context=context)
    return cat.get(msgid, context)


@pytest.mark.parametrize(
    ("lang", "msgid", "msgstr", "words"),
    [
        ("cs", "You roll {dice}", "Házíš {dice}", "házíš"),
        ("cs", "Type 'help'.", "Napiš 'pomoc'.", "napiš"),
        ("cs", "(leave it out)", "(vynech ji)", "vynech"),
        ("cs", "you cannot bear off", "nemůžeš vyvádět kameny mimo tvé vnitřní pole", "nemůžeš, tvé"),
        ("sk", "the lobby is full; try again later", "herňa je plná; skúste to neskôr", "skúste"),
        ("sk", "Your name", "Vaše meno", "vaše"),
        ("sk", "not signed in", "nie ste prihlásení", "ste"),
        ("pl", "Sign in", "Zalogujcie się", "zalogujcie"),
    ],
)
def test_the_check_finds_a_message_in_the_other_form(lang, msgid, msgstr, words):
    assert address_problems(lang, _message(lang, msgid, msgstr)) == [
        f"{lang}: {msgid!r} speaks to the player as '{'ty' if lang == 'cs' else 'vy'}' ({words}), "
        f"not as '{'vy' if lang == 'cs' else 'ty'}'"
    ]


@pytest.mark.parametrize(
    ("lang", "msgstr", "context"),
    [
        ("cs", "Házíte {dice}", None),
        ("cs", "váš tah; náš návrh", None),  # -áš words that are no verbs said to 'ty'
        ("cs", "napiš", "command"),  # a word the player types, not the catalogue speaking
        ("sk", "Hádžeš {dice}", None),
        ("pl", "Rzucasz {dice}", None),
    ],
)
def test_the_languages_own_form_and_typed_commands_pass(lang, msgstr, context):
    assert address_problems(lang, _message(lang, "x {dice}", msgstr, context)) == []
