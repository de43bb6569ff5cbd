"""``gammon diagram ID``: a position drawn to share (gammon.diagram): GNU Backgammon's text board,
an SVG or a PNG image."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from pathlib import Path

from gammon.cli.files import write_whole
from gammon.diagram import Kind, render
from gammon.errors import GammonError, quoted_path
from gammon.formats.ids import gnubg_player_on_roll, read_id
from gammon.i18n import tr


def add_diagram(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "diagram",
        help=tr("draw a position to share: text (forum style), SVG or PNG"),
        description=tr(
            "Draw the position of a Position ID, a GNU Backgammon ID 'PositionID:MatchID' or an "
            "XGID, with its dice, cube and score: as GNU Backgammon's text board (the default), "
            "an SVG image or a PNG image."
        ),
    )
    p.add_argument("id", help=tr("e.g. 4HPwATDgc/ABMA:cAkAAAAAAAAA or XGID=..."))
    kind = p.add_mutually_exclusive_group()
    kind.add_argument(
        "--text", dest="kind", action="store_const", const="text", help=tr("the text board (default)")
    )
    kind.add_argument("--svg", dest="kind", action="store_const", const="svg", help=tr("an SVG image"))
    kind.add_argument("--png", dest="kind", action="store_const", const="png", help=tr("a PNG image"))
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help=tr("write to FILE (default: standard output; a PNG needs -o unless piped)"),
    )
    p.set_defaults(func=run_diagram, kind=None)


def run_diagram(args: argparse.Namespace) -> int:
    if args.output == "":  # -o "$OUT" with OUT unset: no file to write, not standard output
        print(
            "gammon diagram: "
            + tr("cannot write {path}: {error}", path=quoted_path(""), error=os.strerror(errno.ENOENT)),
            file=sys.stderr,
        )
        return 1
    kind: Kind | None = args.kind or _kind_of(args.output)
    if kind is None and args.output and Path(args.output).suffix:  # board.gif: no text board in it
        print(
            "gammon diagram: "
            + tr(
                "cannot tell what to draw in {path} from its extension: name it .txt, .svg or .png, "
                "or give --text, --svg or --png",
                path=quoted_path(args.output),
            ),
            file=sys.stderr,
        )
        return 2
    kind = kind or "text"
    try:
        # the GNU Backgammon ID drawn names the player on roll as the ID typed does
        data = render(read_id(args.id), kind, gnubg_player_on_roll(args.id))
    except GammonError as e:
        print(f"gammon diagram: {e}", file=sys.stderr)
        return 2
    if args.output:
        try:
            write_whole(args.output, data)  # or not at all: a cut image destroys no file already there
        except OSError as e:
            print(
                "gammon diagram: "
                + tr("cannot write {path}: {error}", path=quoted_path(args.output), error=e.strerror or e),
                file=sys.stderr,
            )
            return 1
        return 0
    if kind == "png" and sys.stdout.isatty():
        print(
            "gammon diagram: " + tr("a PNG is not for the terminal: give -o FILE or pipe it"), file=sys.stderr
        )
        return 2
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()  # a full disk shows here (> /dev/full), not at exit
    except BrokenPipeError:
        raise  # the reader went away (| head): gammon's entry point ends quietly
    except OSError as e:
        print(
            "gammon diagram: " + tr("cannot write to standard output: {error}", error=e.strerror or e),
            file=sys.stderr,
        )
        return 1
    return 0


def _kind_of(path: str | None) -> Kind | None:
    """The kind a file name's extension asks for (``board.png``), if any: a name that is only an
    extension (``.png``), which Path reads as a hidden file with none, asks for it too."""
    if not path:
        return None
    kinds: dict[str, Kind] = {".png": "png", ".svg": "svg", ".txt": "text"}
    name = Path(path)
    return kinds.get(name.suffix.lower()) or kinds.get(name.name.lower())
