"""``gammon convert IN OUT``: a match file from one format to another (gammon.formats.convert)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gammon.cli.args import user_path
from gammon.cli.files import write_whole
from gammon.errors import GammonError, quoted_path, shown_path
from gammon.formats.convert import FORMATS, convert, find_format, format_of
from gammon.i18n import ntr, tr


def add_convert(subparsers: argparse._SubParsersAction) -> None:
    readable = [f.name for f in FORMATS if f.read]
    writable = [f.name for f in FORMATS if f.write]
    known = ", ".join(f"{f.name} ({' '.join(f.extensions)})" for f in FORMATS)
    p = subparsers.add_parser(
        "convert",
        help=tr("convert a match file to another format (.mat, .sgf)"),
        description=tr(
            "Convert a match or money session file. Formats, chosen by the file extension: "
            "{known}. Prints what the output format cannot hold (e.g. analysis dropped by .mat).",
            known=known,
        ),
    )
    p.add_argument("input", metavar="IN", type=user_path, help=tr("the file to read"))
    p.add_argument("output", metavar="OUT", type=user_path, help=tr("the file to write"))
    p.add_argument(
        "--from", dest="source_format", choices=readable, help=tr("IN's format (default: its extension)")
    )
    p.add_argument(
        "--to", dest="target_format", choices=writable, help=tr("OUT's format (default: its extension)")
    )
    p.add_argument("--force", action="store_true", help=tr("overwrite OUT if it exists"))
    p.set_defaults(func=run_convert)


def run_convert(args: argparse.Namespace) -> int:
    source, target = Path(args.input), Path(args.output)
    try:
        source_format = find_format(args.source_format) if args.source_format else format_of(source)
        target_format = find_format(args.target_format) if args.target_format else format_of(target)
    except ValueError as e:
        return _fail(str(e))
    if target_format.write is None:  # .xg by its extension: said before the input is read
        return _fail(tr("gammon cannot write {format} files", format=target_format.name))
    if _same_file(source, target):  # --force or not: what OUT's format cannot hold would be lost
        return _fail(tr("{file} is IN itself; name another file to write", file=quoted_path(target)))
    if target.exists() and not args.force:
        return _fail(tr("{file} exists; add --force to overwrite it", file=quoted_path(target)))
    try:
        data = source.read_bytes()
    except OSError as e:
        return _fail(tr("cannot read {file}: {why}", file=quoted_path(source), why=e.strerror or e))
    try:
        done = convert(data, source_format, target_format)
    except GammonError as e:
        return _fail(f"{shown_path(source)}: {e}")
    except ValueError as e:  # a format that cannot do this, or input the target cannot express
        return _fail(f"{shown_path(source)}: {e}")
    try:
        write_whole(str(target), done.text)  # or not at all: a failed write cuts no file already there
    except OSError as e:
        return _fail(tr("cannot write {file}: {why}", file=quoted_path(target), why=e.strerror or e))
    for warning in done.source.warnings:
        said = tr("warning: {file}: {warning}", file=source, warning=warning)
        print(f"gammon convert: {said}", file=sys.stderr)
    match = done.result.match
    length = match.rules.match_length
    what = ntr("{n}-point match", "{n}-point match", length, n=length) if length else tr("money session")
    games = ntr("{n} game", "{n} games", len(match.games), n=len(match.games))
    print(
        tr(
            "{source} ({source_format}) -> {target} ({target_format}): {what}, {games}, {first} vs {second}",
            source=source,
            source_format=source_format.name,
            target=target,
            target_format=target_format.name,
            what=what,
            games=games,
            first=done.result.names[0],
            second=done.result.names[1],
        )
    )
    if done.losses:
        print(tr("Not carried over to {format}:", format=target_format.name))
        for loss in done.losses:
            print(f"  - {loss}")
    return 0


def _same_file(source: Path, target: Path) -> bool:
    try:
        return source.samefile(target)
    except OSError:  # either is missing (or unreadable): said when it is read or written
        return False


def _fail(message: str) -> int:
    print(f"gammon convert: {message}", file=sys.stderr)
    return 2
