"""What a catalogue lacks against the messages the sources mark: a message missing or not
translated, a placeholder that differs from the English, plural forms of the wrong count, the player
addressed in the form the language does not use or as a man or a woman, a word of the game said
otherwise than the language's glossary says it."""

from __future__ import annotations

import re
from typing import Any

from babel.messages.pofile import read_po

from gammon.i18n import DEFAULT_LANGUAGE, LANGUAGES, catalogue, po_path

# Python's "{name}" / "{0:.1%}" and "%(name)s" / "%s" placeholders, as str.format and % read them.
_BRACE = re.compile(r"(?<!\{)\{([^{}]*)\}(?!\})")
_PERCENT = re.compile(r"%(?:\([^)]*\))?[#0+-]*\d*(?:\.\d+)?[sdifr%]")

# The number of plural forms each language has (the Plural-Forms header must say the same).
PLURAL_FORMS = {"pl": 3, "cs": 3, "sk": 3}

# How each language speaks to the player (docs/i18n.md), and the words of the other form that give
# a message away: pronouns and the verbs the catalogues use. The typed commands (context
# "command": Czech 'hoď', 'zdvoj') are words the player types, not the catalogue speaking.
ADDRESS = {"pl": "ty", "cs": "vy", "sk": "ty"}
_OTHER_FORM = {
    "pl": frozenset("""wy wasz wasza wasze waszego waszej waszym waszych wam macie możecie jesteście
        pan pani państwo państwa spróbujcie wpiszcie kliknijcie naciśnijcie wybierzcie zalogujcie
        podajcie""".split()),
    "cs": frozenset("""ty tebe tobě tvůj tvoje tvá tvé tvého tvém tvému tvým tvých tvými tvou jsi
        napiš stiskni klikni vyber zadej přidej odeber vlož odpověz zkus počkej zvol ukonči změň
        přihlas pošli otevři zavři zruš zahraj podívej hraj vynech""".split()),
    "sk": frozenset("""vy vás vám vami váš vaša vaše vášho vašej vašom vašu vašich vašim vašimi
        vašemu ste máte nemáte môžete nemôžete chcete budete musíte skúste zadajte napíšte stlačte
        kliknite vyberte pridajte odoberte vložte odpovedzte počkajte zvoľte prihláste pošlite
        otvorte zatvorte zrušte pozrite nastavte použite obnovte zmažte presuňte začnite spustite
        pomenujte načítajte skopírujte spomaľte hrajte čítajte píšte precvičte priraďte prijmite
        dajte nahrajte""".split()),
}
# Czech verbs said to 'ty' end in -áš, -íš, -eš (máš, házíš, hraješ); náš, váš and též do not count.
_CZECH_TY_VERB = re.compile(r"\w+(?:áš|íš|eš)")
_NOT_A_VERB = frozenset({"náš", "váš"})


def placeholders(text: str) -> list[str]:
    return sorted(_BRACE.findall(text)) + sorted(p for p in _PERCENT.findall(text) if p != "%%")


def _ids(message: Any) -> list[str]:
    return list(message.id) if isinstance(message.id, tuple | list) else [message.id]


def _strings(message: Any) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple | list) else [message.string]


def _message_problems(lang: str, message: Any, found: Any) -> list[str]:
    where = f"{lang}: {_ids(message)[0]!r}"
    if found is None:
        return [f"{where} is missing"]
    strings = _strings(found)
    if found.fuzzy or not all(strings):
        return [f"{where} is not translated"]
    out = []
    if isinstance(message.id, tuple | list) and len(strings) != PLURAL_FORMS.get(lang, 2):
        out.append(f"{where} has {len(strings)} plural forms, not {PLURAL_FORMS.get(lang, 2)}")
    expected = placeholders(_ids(message)[-1])
    for s in strings:
        if placeholders(s) != expected and not (
            len(strings) > 1 and placeholders(s) == placeholders(_ids(message)[0])
        ):
            out.append(f"{where}: placeholders {placeholders(s)} differ from {expected}")
    return out


# Words of the game that the catalogues say one way (docs/i18n.md, "Words of the game"): a variant
# found in a message, as a pattern, and the word the catalogue uses instead.
GLOSSARY: dict[str, tuple[tuple[str, str], ...]] = {
    "pl": ((r"\bekwit\w*|\bequit\w*", "wartość"), (r"\brezygnac\w*", "poddanie"),
           (r"\bkostk\w* podwajając\w*", "kostka dublująca"), (r"\bwarcab\w*|\bżeton\w*", "pionek"),
           (r"\bkoś(?:ć|ci|ćmi)\b", "kostki")),
    "cs": ((r"\bequit\w*", "hodnota"), (r"\bdes(?:ka|ky|ce|ku|kou)\b", "hrací plocha"),
           (r"\bžeton\w*|\bfigurk\w*", "kámen"), (r"\brelac\w* hr\w* o sázku", "sezení hry o sázku")),
    "sk": ((r"\bequit\w*", "hodnota"), (r"\bdos(?:ka|ky|ke|ku|kou)\b", "hracia plocha"),
           (r"\bžetón\w*|\bfigúrk\w*", "kameň"), (r"\brelác\w* hr\w* o stávku", "sedenie hry o stávku")),
}


def glossary_problems(lang: str, message: Any) -> list[str]:
    """A message of ``lang`` that says a word of the game otherwise than the glossary."""
    out = []
    for pattern, word in GLOSSARY.get(lang, ()):
        found = sorted({m.group(0) for s in _strings(message)
                        for m in re.finditer(pattern, s, re.IGNORECASE)})
        if found:
            out.append(f"{lang}: {_ids(message)[0]!r} says {', '.join(found)} "
                       f"where the catalogue says {word!r}")
    return out


def address_problems(lang: str, message: Any) -> list[str]:
    """A message of ``lang`` that speaks to the player in the form the language does not use."""
    if lang not in ADDRESS or message.context in ("command", "resign", "answer"):
        return []
    words = {w for s in _strings(message) for w in re.findall(r"\w+", s.lower())}
    found = words & _OTHER_FORM[lang]
    if lang == "cs":
        found |= {w for w in words if _CZECH_TY_VERB.fullmatch(w) and w not in _NOT_A_VERB}
    if not found:
        return []
    other = "vy" if ADDRESS[lang] == "ty" else "ty"
    return [f"{lang}: {_ids(message)[0]!r} speaks to the player as '{other}' ({', '.join(sorted(found))}), "
            f"not as '{ADDRESS[lang]}'"]


# The player may be a man or a woman, and the past tense (and the conditional, the passive) says which
# in the second person: Polish 'wygrałeś' / 'wygrałaś', Czech 'jste vyhrál' / 'vyhrála' (and the
# plural 'jste vyhráli', masculine too), Slovak 'vyhral si' / 'vyhrala si'. A message says it in a
# form that needs no gender: the present, a noun, the impersonal ('Wygrana!', 'nie zalogowano').
_L_FORM = r"\w+(?:l|la|li|ly|ol)"  # Czech and Slovak past participles: vyhrál, chyboval, mohli
_GENDERED: dict[str, tuple[str, ...]] = {
    "pl": (r"\b\w+ł[ae]ś\b", r"\b\w+ła?byś\b", r"\b(?:a|że|gdy)?byś\s+(?:\w+\s+)?\w+ła?\b",
           r"\bjesteś\s+(?:\w+\s+)?\w+(?:ny|na|ty|ta|wy|wa|ien)\b", r"\bsam(?:ego|ej)\s+siebie\b"),
    "cs": (rf"\b(?:ne)?jste\s+(?:\w+\s+)?{_L_FORM}\b", rf"\b{_L_FORM}\s+jste\b",
           rf"\b(?:a|kdy)?byste\s+(?:\w+\s+)?{_L_FORM}\b",
           r"\b(?:ne)?jste\s+\w+(?:[eá]n[aiy]?|[ýí])\b", r"\bs[aá]m[aiy]?\s+sebe\b"),
    "sk": (rf"\b(?:a?by\s+)?si\s+(?:\w+\s+)?{_L_FORM}\b", rf"\b{_L_FORM}\s+si\b",
           r"\b(?:nie\s+)?si\s+\w+(?:ný|ná|tý|tá)\b", r"\bs[aá]m[a]?\s+seba\b"),
}
# An order with a participle ("graj zalogowany", "hrajte přihlášeni", "hraj prihlásený").
_GENDERED["pl"] += (r"\b(?:\w+aj|bądź|zostań)\s+\w+(?:[ao]n[ya]|ęt[ya])\b",)
_GENDERED["cs"] += (r"\b(?:\w+[ej]te|buďte|zůstaňte)\s+\w{4,}[eá]n[aiy]?\b",)
_GENDERED["sk"] += (r"\b(?:\w+aj|buď|zostaň)\s+\w+[eá]n[ýá]\b",)
# A named player ("{name} wyszedł", "že se {name} vzdal", "vyhral ho {name}") may be a woman too.
_PLAYER = r"\{(?:name|winner|player|other|who|poster|opponent)\}"
_NAMED_PAST = {"pl": r"\w+ła?", "cs": _L_FORM, "sk": _L_FORM}
_REFLEXIVE = {"pl": r"(?:się|go)", "cs": r"(?:se|ho)", "sk": r"(?:sa|ho)"}
for _lang, _past in _NAMED_PAST.items():
    _GENDERED[_lang] += (rf"{_PLAYER}\s+(?:{_REFLEXIVE[_lang]}\s+)?{_past}\b",
                         rf"\b{_past}\s+(?:{_REFLEXIVE[_lang]}\s+)?{_PLAYER}")


def gender_problems(lang: str, message: Any) -> list[str]:
    """A message of ``lang`` that speaks to the player, or of a named player, in a form that is a
    man's or a woman's (the past tense, the conditional, a participle)."""
    if message.context in ("command", "resign", "answer"):
        return []
    found = sorted({m.group(0) for s in _strings(message) for pattern in _GENDERED.get(lang, ())
                    for m in re.finditer(pattern, s, re.IGNORECASE)})
    if not found:
        return []
    return [f"{lang}: {_ids(message)[0]!r} speaks to or of a player as a man or a woman "
            f"({', '.join(found)}); say it in a form that fits both"]


def problems(template: Any, langs: tuple[str, ...] = LANGUAGES) -> list[str]:
    """Everything wrong with the catalogues of ``langs`` against ``template`` (an extracted catalogue)."""
    out: list[str] = []
    for lang in langs:
        if lang == DEFAULT_LANGUAGE:
            continue
        with po_path(lang).open("rb") as f:
            cat = read_po(f, locale=lang, domain="gammon")
        if cat.num_plurals != PLURAL_FORMS.get(lang, 2):
            out.append(
                f"{lang}: the Plural-Forms header says {cat.num_plurals} forms, not {PLURAL_FORMS[lang]}"
            )
        for message in template:
            if message.id:
                found = cat.get(message.id, message.context)
                out.extend(_message_problems(lang, message, found))
                if found is not None:
                    out.extend(address_problems(lang, found) + glossary_problems(lang, found)
                               + gender_problems(lang, found))
    return out


def _english_patterns(lang: str) -> list[tuple[str, re.Pattern[str]]]:
    """Each English message that ``lang`` translates otherwise, as a pattern of a whole text (its
    placeholders match anything)."""
    out = []
    entries = catalogue(lang)
    # a word that one context keeps as it is ("Start" on the start page's button, Polish too) is
    # not English left on a page because another context (a replay's "Start") translates it
    kept = {key.split("\x04")[-1] for key, value in entries.items() if value == key.split("\x04")[-1]}
    for key in entries:
        msgid = key.split("\x04")[-1]
        if msgid in kept or not re.search(r"[A-Za-z]{3}", _BRACE.sub("", msgid)):
            continue
        pattern = "".join(
            ".+" if part.startswith("{") else re.escape(part)
            for part in re.split(r"(\{[^{}]*\})", msgid)
            if part
        )
        out.append((msgid, re.compile(pattern, re.DOTALL)))
    return out


def untranslated(texts: list[str], lang: str) -> list[str]:
    """The ``texts`` (a page's visible strings, each stripped) that are an English message which
    ``lang`` translates: text a page shows in English where it should not."""
    patterns = _english_patterns(lang)
    return [text for text in texts if any(p.fullmatch(text) for _msgid, p in patterns)]
