"""Finding the messages to translate in gammon's sources, as Babel extracts them, and the HTML
extractor Babel is given for the web's pages.

A page marks a text to translate with the attribute ``data-i18n`` on the element that holds it
(the element's text is the English message) and an attribute to translate by naming it in
``data-i18n-attrs`` (``<input placeholder="Name" data-i18n-attrs="placeholder">``); the scripts
call ``t("...")`` and ``tn("one", "many", n)`` (gammon/web/static/common.js).
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Collection, Iterator, Mapping
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir

# Babel's keywords: the functions of gammon.i18n and the web's t()/tn().
KEYWORDS: dict[str, Any] = {
    "tr": None,
    "ntr": (1, 2),
    "ptr": ((1, "c"), 2),
    "N_": None,
    "t": None,
    "tn": (1, 2),
}
# Which extractor reads which files, as Babel's method map (paths relative to the package).
METHOD_MAP = [
    ("**/locale/**", "ignore"),
    ("**.py", "python"),
    ("web/static/**.js", "javascript"),
    ("web/static/**.html", "gammon.i18n.extract:extract_html"),
]

Message = tuple[int, str, "str | tuple[str, ...]", list[str]]


class _Marked(HTMLParser):
    """Collects the texts and attributes a page marks for translation."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]]] = []  # marked elements being read: tag, line, text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        line = self.getpos()[0]
        for name in (values.get("data-i18n-attrs") or "").split():
            if values.get(name):
                self.found.append((line, str(values[name])))
        if "data-i18n" in values:
            self._open.append((tag, line, []))
        elif self._open and tag == self._open[-1][0]:
            self._open.append((tag, line, self._open[-1][2]))  # a nested element of the same tag

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _tag, line, parts = self._open.pop()
            if not self._open or self._open[-1][2] is not parts:
                text = text_of("".join(parts))
                if text:
                    self.found.append((line, text))

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)


def text_of(raw: str) -> str:
    """A marked element's text as its message: white space runs made one space."""
    return " ".join(raw.split())


def extract_html(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Message]:
    """Babel's extractor for the web's pages (see the module's doc for how they mark messages)."""
    parser = _Marked()
    parser.feed(fileobj.read().decode(str(options.get("encoding", "utf-8"))))
    parser.close()
    for line, text in parser.found:
        yield line, "", text, []


def package_dir() -> Path:
    return Path(__file__).resolve().parent.parent


def extract_catalog() -> Catalog:
    """A Babel catalogue of every message marked in the package's sources (English to English)."""
    cat = Catalog(project="gammon", domain="gammon", charset="utf-8")
    root = package_dir()
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        found = list(
            extract_from_dir(
                str(root),
                METHOD_MAP,
                keywords=KEYWORDS,
                comment_tags=("Translators:",),
                strip_comment_tags=True,
            )
        )
    # Babel warns of every f-string among a call's arguments: here they are the values of keyword
    # arguments, never a message (tests/test_i18n.py checks that every message is a literal)
    for line in said.getvalue().splitlines():
        if "Skipping f-string" not in line:
            print(line, file=sys.stderr)
    for filename, lineno, message, comments, context in found:
        cat.add(message, None, [(f"gammon/{filename}", lineno)], auto_comments=comments, context=context)
    return cat
