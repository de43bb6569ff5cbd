"""argparse value types shared by the subcommands (each quotes what was typed when it refuses it), and
argparse's own words in the current language."""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable

from gammon.errors import cut
from gammon.i18n import N_, tr
from gammon.rules import HIGHEST_CUBE, Rules


def _ascii_int(text: str) -> int:
    """``text`` as a whole number of ASCII digits (a sign allowed); ValueError otherwise: int()
    also reads '1_0' as 10 and '٣' as 3, a typo taken for a number."""
    if not re.fullmatch(r"[+-]?[0-9]+", text.strip()):
        raise ValueError(text)
    return int(text)


def whole_number(minimum: int) -> Callable[[str], int]:
    """A type that reads a whole number of at least ``minimum``."""

    def read(text: str) -> int:
        try:
            value = _ascii_int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                tr("{text} is not a whole number", text=cut(repr(text)))
            ) from None
        if value < minimum:
            raise argparse.ArgumentTypeError(
                tr("{text} must be at least {minimum}", text=cut(repr(text)), minimum=minimum)
            )
        return value

    return read


positive_int = whole_number(1)
not_negative_int = whole_number(0)


def user_path(text: str) -> str:
    """A file or folder argument with ``~`` expanded: a shell leaves it as it is in
    ``--resume=~/m.mat`` or quoted, and a name typed at gammon's own prompt meets no shell."""
    return os.path.expanduser(text)


def cube_limit(text: str) -> int:
    """The ``--cube-limit`` type: a highest cube value the rules allow (their own check)."""
    # one message for all that is no cube value: '0' was said to need "at least 1", then '1' refused
    try:
        value = _ascii_int(text)
        Rules(cube_limit=value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            tr("{text} is not a power of two of at least 2", text=cut(repr(text)))
        ) from None
    if value > HIGHEST_CUBE:  # the cube stops there anyway: a limit past it would only mislead
        raise argparse.ArgumentTypeError(tr("{text} is past {highest}, the highest cube of any game",
                                            text=cut(repr(text)), highest=HIGHEST_CUBE))
    return value


def add_plies(parser: argparse.ArgumentParser, help_text: str, default: int | None = None) -> None:
    """``--plies``: the engine's search depth, one of the depths it searches (0, 1 or 2);
    ``help_text`` says what it deepens (already translated)."""
    parser.add_argument("--plies", type=int, choices=(0, 1, 2), default=default, help=help_text)


# argparse's own words (its usage and section headings, its errors), which it looks up through
# gettext's "argparse" domain; gammon ships no such catalogue, so they live in gammon's catalogues
# and argparse is given a lookup into them (see install_argparse_words).
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ignored explicit argument %r"),
    N_("can't open '%(filename)s': %(error)s"),
)


def _argparse_gettext(message: str) -> str:
    # tr() would fill "{...}" placeholders; argparse's messages hold "%" ones, filled by argparse
    return tr(message) if message in ARGPARSE_WORDS else message


def _argparse_ngettext(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def install_argparse_words() -> None:
    """Make argparse say its own words in the current language (English: as it always did). It
    reads them at the time it builds a parser and when it writes help or an error, so both are to
    happen in the language (gammon.i18n.use_language)."""
    argparse._ = _argparse_gettext  # type: ignore[attr-defined]
    argparse.ngettext = _argparse_ngettext  # type: ignore[attr-defined]
