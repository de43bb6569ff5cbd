"""The catalogues' upkeep: ``python -m gammon.i18n extract`` writes the template of every marked
message (gammon/locale/gammon.pot); ``python -m gammon.i18n update`` merges it into each
language's .po (new messages come in untranslated, changed ones fuzzy); ``python -m gammon.i18n
check`` lists what a catalogue lacks, as the tests do."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from babel.messages.pofile import read_po, write_po

from gammon.i18n import DEFAULT_LANGUAGE, LANGUAGES, po_path
from gammon.i18n.check import problems
from gammon.i18n.extract import extract_catalog, package_dir


def _write(cat: Any, path: str) -> None:
    with open(path, "wb") as f:
        write_po(f, cat, width=100, ignore_obsolete=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gammon.i18n", description=__doc__)
    parser.add_argument("command", choices=("extract", "update", "check"))
    args = parser.parse_args(argv)
    template = extract_catalog()
    if args.command == "extract":
        pot = package_dir() / "locale" / "gammon.pot"
        _write(template, str(pot))
        print(f"{len(template)} messages in {pot}")
        return 0
    if args.command == "update":
        for lang in LANGUAGES:
            if lang == DEFAULT_LANGUAGE:
                continue
            path = str(po_path(lang))
            with open(path, "rb") as f:
                cat = read_po(f, locale=lang, domain="gammon")
            cat.update(template, no_fuzzy_matching=True)
            _write(cat, path)
            untranslated = sum(
                1 for m in cat if m.id and not all(m.string if isinstance(m.string, tuple) else [m.string])
            )
            print(f"{path}: {untranslated} to translate")
        return 0
    found = problems(template)
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
