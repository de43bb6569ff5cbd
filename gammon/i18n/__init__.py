"""Languages: the catalogues of gammon's messages and the language they are said in now.

Every message a person sees is an English source string marked with :func:`tr` (or :func:`ntr`
where it holds a count, :func:`ptr` where a short word needs a context, :func:`N_` where it is
kept in a table and translated where it is shown). The catalogues are the gettext ``.po`` files
under ``gammon/locale/<lang>/LC_MESSAGES/gammon.po``, read as text at first use (no compiled
``.mo`` file is shipped). The current language is a context variable, so a web server serves each
request in its own language at once; it is English unless :func:`set_language` or
:func:`use_language` chose another. docs/i18n.md says how messages are marked and catalogues kept.
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext as _gettext
import io
import re
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import resources

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "N_",
    "catalogue",
    "current_language",
    "from_accept_language",
    "format_number",
    "from_environment",
    "normalize",
    "ntr",
    "ptr",
    "set_language",
    "tr",
    "use_language",
]

DEFAULT_LANGUAGE = "en"
LANGUAGES = ("en", "pl", "cs", "sk")
"""The languages gammon speaks; English is the source of every message."""
LANGUAGE_NAMES = {"en": "English", "pl": "Polski", "cs": "Čeština", "sk": "Slovenčina"}
"""Each language's name in itself, for a language switch."""

DOMAIN = "gammon"

_current: contextvars.ContextVar[str] = contextvars.ContextVar("gammon_language", default=DEFAULT_LANGUAGE)


def normalize(tag: str | None) -> str | None:
    """The language of ``tag`` ("pl", "pl-PL", "cs_CZ.UTF-8", "SK") if gammon speaks it, else None."""
    if not tag:
        return None
    lang = re.split(r"[-_.@]", tag.strip().lower(), maxsplit=1)[0]
    return lang if lang in LANGUAGES else None


def current_language() -> str:
    return _current.get()


def set_language(lang: str | None) -> str:
    """Make ``lang`` (a tag :func:`normalize` reads; None or unknown: English) the language of this
    context from now on; returns the language set."""
    chosen = normalize(lang) or DEFAULT_LANGUAGE
    _current.set(chosen)
    return chosen


@contextlib.contextmanager
def use_language(lang: str | None) -> Iterator[str]:
    """The language ``lang`` while the block runs, the one before after it."""
    token = _current.set(normalize(lang) or DEFAULT_LANGUAGE)
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def from_environment(environ: Mapping[str, str]) -> str:
    """The language the terminal's locale asks for, as gettext reads it: the first of LANGUAGE
    (a colon-separated list of preferences), LC_ALL, LC_MESSAGES and LANG that is set; the
    languages of LANGUAGE are taken in turn until one is spoken here. "C", "POSIX" or none of
    ours: English."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var, "")
        if not value:
            continue
        if var == "LANGUAGE":
            for tag in value.split(":"):
                if lang := normalize(tag):
                    return lang
            continue  # gettext then looks at the locale variables
        return normalize(value) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def from_accept_language(header: str | None) -> str | None:
    """The language spoken here that a browser's Accept-Language header ("pl-PL,pl;q=0.9,en;q=0.8")
    prefers most, or None when it names none of ours."""
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        match = re.search(r"q\s*=\s*([^;\s]*)", params)
        if match:
            try:
                quality = float(match[1])
            except ValueError:
                quality = 0.0
        lang = normalize(tag)
        if lang and quality > 0:
            ranked.append((-quality, i, lang))
    return min(ranked)[2] if ranked else None


def po_path(lang: str) -> resources.abc.Traversable:
    """Where the catalogue of ``lang`` lies (in the package, so it ships with it)."""
    return resources.files("gammon") / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def _translations(lang: str) -> _gettext.NullTranslations:
    """The catalogue of ``lang``, read from its .po text once (Babel compiles it in memory)."""
    if lang == DEFAULT_LANGUAGE:
        return _gettext.NullTranslations()
    from babel.messages.mofile import write_mo  # loaded with the first catalogue only
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as f:
        cat = read_po(f, locale=lang, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, cat)  # fuzzy entries are left out, as msgfmt does
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def catalogue(lang: str) -> dict[str, str | list[str]]:
    """Every translated message of ``lang``: {msgid: msgstr}, a message with a context under
    "context\x04msgid", one with plural forms under its singular with the list of its forms
    (what the web's pages get; English has none)."""
    found: dict[str | tuple[str, int], str] = getattr(_translations(lang), "_catalog", {})
    out: dict[str, str | list[str]] = {}
    for key, value in sorted(found.items(), key=lambda item: str(item[0])):
        if isinstance(key, tuple):
            forms = out.setdefault(key[0], [])
            assert isinstance(forms, list)
            forms.append(value)
        elif key:  # "" is the header
            out[key] = value
    return out


def plural_sources(lang: str) -> dict[str, str]:
    """{singular: plural} of the English messages with plural forms that ``lang`` translates (the
    compiled catalogue keeps only the singular)."""
    if lang == DEFAULT_LANGUAGE:
        return {}
    return dict(_plural_sources(lang))


@cache
def _plural_sources(lang: str) -> tuple[tuple[str, str], ...]:
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as f:
        cat = read_po(f, locale=lang, domain=DOMAIN)
    return tuple((m.id[0], m.id[1]) for m in cat if isinstance(m.id, tuple | list) and not m.fuzzy)


def _format(text: str, values: Mapping[str, object]) -> str:
    return text.format(**values) if values else text


def tr(message: str, /, **values: object) -> str:
    """``message`` in the current language, its ``{name}`` placeholders filled from ``values``."""
    return _format(_translations(_current.get()).gettext(message), values)


def ntr(singular: str, plural: str, n: int, /, **values: object) -> str:
    """The form of a message for the count ``n`` in the current language (Polish, Czech and
    Slovak have three), its placeholders filled from ``values``."""
    return _format(_translations(_current.get()).ngettext(singular, plural, n), values)


def ptr(context: str, message: str, /, **values: object) -> str:
    """``message`` in the current language as used in ``context`` (a short word that could mean
    two things: "pass" the command, "pass" the answer)."""
    return _format(_translations(_current.get()).pgettext(context, message), values)


# How each language writes a decimal, thousands and a percent, as CLDR has it (Babel's data, which
# the test checks these against) and as the pages' common.js writes them with Intl.NumberFormat: a
# decimal comma and a no-break space between thousands in Polish, Czech and Slovak; Czech and
# Slovak put a no-break space before the percent sign too.
_DECIMAL_MARKS = {"en": ".", "pl": ",", "cs": ",", "sk": ","}
_GROUP_MARKS = {"en": ",", "pl": "\u00a0", "cs": "\u00a0", "sk": "\u00a0"}
_PERCENT_SIGNS = {"en": "%", "pl": "%", "cs": "\u00a0%", "sk": "\u00a0%"}


def format_number(value: float, spec: str, /) -> str:
    """``format(value, spec)`` ("+.3f", ".1%", "6.2%") written as the current language writes numbers,
    for the text a person reads: "0.123" and "45.1%" in English, "0,123" and "45,1%" in Polish,
    "0,123" and "45,1\u00a0%" in Czech and Slovak. Rounded as Python rounds, so English is what
    ``format`` gives; a padded width is kept (the longer percent sign takes a space of the padding).
    Thousands (``","`` in ``spec``) are parted as the language parts them: "12,960" in English,
    "12\u00a0960" in the others, where "12,960" would read as a decimal. Numbers meant for programs
    (JSON, SGF, .mat) keep ``format``."""
    text = format(value, spec)
    lang = _current.get()
    if lang == DEFAULT_LANGUAGE:
        return text
    out = text.translate({ord("."): _DECIMAL_MARKS[lang], ord(","): _GROUP_MARKS[lang]})
    if spec.endswith("%"):
        out = out.replace("%", _PERCENT_SIGNS[lang])
        extra = len(out) - len(text)
        if extra and out.startswith(" " * extra):
            out = out[extra:]
        elif extra and out.endswith(" " * extra):
            out = out[:-extra]
    return out


def N_(message: str) -> str:  # noqa: N802 - gettext's own name for it, which Babel looks for
    """Marks ``message`` for the catalogue where it is kept (a table) and translated later with
    :func:`tr`; returns it as it is."""
    return message
