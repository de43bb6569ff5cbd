"""The ``gammon`` command: one argparse subcommand per job (``play`` here; others register theirs
the same way: a function that adds a subparser and sets ``func``)."""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from gammon import __version__
from gammon.cli.account import add_account
from gammon.cli.analyse import add_analyse
from gammon.cli.args import (
    add_plies,
    cube_limit,
    install_argparse_words,
    not_negative_int,
    positive_int,
    user_path,
)
from gammon.cli.console import Console
from gammon.cli.convert import add_convert
from gammon.cli.diagram import add_diagram
from gammon.cli.drill import add_drill
from gammon.cli.external import add_external
from gammon.cli.import_matches import add_import
from gammon.cli.progress import compile_notice
from gammon.cli.resume import DEFAULT_NAME, Saved, load_saved, person_side
from gammon.cli.rollout import add_rollout
from gammon.dice import RandomDice
from gammon.errors import GammonError, cut
from gammon.formats.convert import reading_format
from gammon.formats.mat import GNUBG_NAME_BYTES, mat_name_problem, mat_names
from gammon.i18n import LANGUAGE_NAMES, LANGUAGES, N_, from_environment, normalize, tr, use_language
from gammon.match import Match
from gammon.rules import Rules

if TYPE_CHECKING:
    from gammon.cli.session import Seat
    from gammon.engine.players import ComputerPlayer


def add_play(subparsers: argparse._SubParsersAction) -> None:
    from gammon.engine.players import BASIC_LEVELS, ENGINE_LEVELS

    p = subparsers.add_parser(
        "play",
        help=tr("play in the terminal, against the computer or two at one keyboard"),
        description=tr("Play backgammon in the terminal. Type 'help' at the prompt for the commands."),
    )
    p.add_argument("--two-player", action="store_true", help=tr("two people at one keyboard"))
    p.add_argument(
        "--level",
        default=None,
        type=_level(BASIC_LEVELS + ENGINE_LEVELS),
        help=tr(
            "the computer's strength: engine (2-ply, the default), engine-0ply (fast), "
            "pubeval, random; or gnubg-external:HOST:PORT, GNU Backgammon listening there "
            "(gnubg -t, then its command 'external localhost:PORT')"
        ),
    )
    p.add_argument(
        "--match",
        type=positive_int,
        default=0,
        metavar="N",
        help=tr("play a match to N points (default: a money game; a 1-point match has no cube)"),
    )
    p.add_argument("--seed", type=int, default=None, help=tr("seed the dice, for a reproducible game"))
    p.add_argument(
        "--name",
        default=None,
        type=str.strip,  # as the match files' readers strip a name: it must match when read back
        help=tr("your name on the board (default: You); with --resume, the player you are"),
    )
    p.add_argument(
        "--resume",
        metavar="FILE",
        type=user_path,
        help=tr(
            "go on with a match saved with 'save' (a .mat file, or .txt, .sgf, .xg): its score, "
            "rules and the game in progress; the rule options given replace the file's"
        ),
    )
    p.add_argument("--no-crawford", action="store_true", help=tr("matches: no Crawford rule"))
    p.add_argument("--no-jacoby", action="store_true", help=tr("money: gammons count with a centred cube"))
    p.add_argument("--beavers", action="store_true", help=tr("money: allow beavers"))
    p.add_argument(
        "--cube-limit",
        type=cube_limit,
        default=None,
        metavar="N",
        help=tr("highest cube value, a power of two (e.g. 64); default: no limit"),
    )
    p.add_argument(
        "--auto-doubles",
        type=not_negative_int,
        default=0,
        metavar="N",
        help=tr("money: up to N automatic doubles on tied opening throws (default 0)"),
    )
    p.add_argument("--no-cube", action="store_true", help=tr("play without the doubling cube"))
    p.add_argument("--auto-roll", action="store_true", help=tr("roll for you when doubling is not possible"))
    p.add_argument(
        "--no-confirm",
        action="store_true",
        help=tr("against the computer, end the turn as soon as the play is typed (no undo)"),
    )
    p.add_argument("--plain", action="store_true", help=tr("no colours, letters for checkers"))
    p.add_argument(
        "--tutor",
        nargs="?",
        const="doubtful",
        default=None,
        metavar="LEVEL",
        choices=("doubtful", "bad", "very-bad"),
        help=tr(
            "before your play or cube action, warn when the engine marks it LEVEL or worse "
            "(doubtful, bad or very-bad; default doubtful), as 'gammon analyse' would, and ask "
            "whether to go on, take the better choice or choose again; the 'tutor' command "
            "switches it on or off during the game"
        ),
    )
    p.set_defaults(func=lambda args: run_play(args, p))


def _level(levels: tuple[str, ...]) -> Callable[[str], str]:
    """The --level type: one of ``levels`` or ``gnubg-external:HOST:PORT``."""

    def read(text: str) -> str:
        from gammon.protocols.gnubg_external import LEVEL_PREFIX, parse_level

        if text.startswith(LEVEL_PREFIX):
            try:
                parse_level(text)
            except ValueError:  # said here in the user's language: the protocol's words are English
                raise argparse.ArgumentTypeError(
                    tr(
                        "a GNU Backgammon level is {prefix}HOST:PORT, a port from 1 to 65535, got {text}",
                        prefix=LEVEL_PREFIX,
                        text=cut(repr(text)),
                    )
                ) from None
        elif text not in levels:
            raise argparse.ArgumentTypeError(
                tr(
                    "invalid choice: {text} (choose from {levels} or {prefix}HOST:PORT)",
                    text=cut(repr(text)),
                    levels=", ".join(levels),
                    prefix=LEVEL_PREFIX,
                )
            )
        return text

    return read


# The rule options that only money play has: a match's Rules keep them but never use them.
_MONEY_ONLY = {
    "beavers": N_("argument --beavers: not allowed in a match: beavers are a money-game rule, "
                  "which matches are played without"),
    "auto_doubles": N_("argument --auto-doubles: not allowed in a match: automatic doubles are a "
                       "money-game rule, which matches are played without"),
}


def run_play(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Play in the terminal; ``parser`` (play's own) reports an option a match cannot use."""
    from gammon.cli.session import PlaySession, tutor_level

    # started with standard input closed ('<&-'), which Python gives as None: the game would end
    # in a traceback at its first prompt
    if sys.stdin is None:
        print("gammon play: " + tr("cannot read standard input: it is closed"), file=sys.stderr)
        return 1
    if args.two_player:  # refused rather than silently dropped, as the money-only rules in a match
        for option, value in (("--level", args.level), ("--name", args.name)):
            if value is not None:
                parser.error(tr("argument {option}: not allowed with --two-player: two people play, X and "
                                "O (with --resume, the saved match's players)", option=option))
    try:
        # a new match's names must fit in the .mat file it is saved in, as they are, for --resume
        # to find the person's (with --resume, --name picks one of the file's names)
        problem = mat_name_problem(args.name) if args.name is not None and not args.resume else None
        if problem:
            raise ValueError(tr("--name must be a name a match file can hold: {problem}", problem=problem))
        fitted = mat_names((args.name, ""))[0] if args.name is not None and not args.resume else args.name
        if fitted != args.name:
            raise ValueError(tr("--name must be a name a match file can hold: {name} is longer than the "
                                "{most} bytes (UTF-8) of a name GNU Backgammon keeps, and would be saved as "
                                "{fitted}", name=cut(repr(args.name)), most=GNUBG_NAME_BYTES,
                                fitted=repr(fitted)))
        if args.name is not None and not args.resume and _computer_like(args):
            # a saved match takes a side named after a level for the computer's: it could not
            # tell the person from the computer when resumed
            raise ValueError(tr("--name cannot be {name}, a computer player's name: a saved match could "
                                "not tell you from the computer", name=cut(repr(args.name))))
        saved = _saved_match(args) if args.resume else None
        match, names = (saved.match, saved.names) if saved else (_new_match(args), None)
        # refused rather than silently dropped: the person asked for a rule the match would not play
        for option, message in _MONEY_ONLY.items():
            if getattr(args, option) and match.rules.match_length:
                parser.error(tr(message))
        seats = _seats(args, names)
    except ValueError as e:
        print(f"gammon play: {e}", file=sys.stderr)
        return 2
    _replace_unencodable(sys.stdout)
    # a byte the terminal's encoding does not read (Latin-1 in a UTF-8 locale) is kept, to be
    # quoted as typed, instead of ending the game with a UnicodeDecodeError
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="surrogateescape")
    console = Console(no_color=args.plain or None, highlight=False)
    session = PlaySession(
        match,
        seats,
        console=console,
        auto_roll=args.auto_roll,
        confirm_plays=not args.no_confirm,
        color=False if args.plain else None,
        autosave=True,
        tutor=tutor_level(args.tutor) if args.tutor else None,
        source=saved.transcript if saved else None,
    )
    if args.resume:
        session.resumed(args.resume)
        if reading_format(args.resume).name == "mat":  # 'save' alone writes the file back
            session.save_file = args.resume
    return session.run()


def _replace_unencodable(stream: TextIO) -> None:
    """Standard output that cannot fail on a character: a file name's bytes that are no UTF-8
    (kept by Python as surrogates) are written back as they were; a terminal whose encoding
    lacks a character of a message (LANG=C without UTF-8, ISO-8859-2: a name, an ellipsis)
    shows '?' for it. The board is drawn in ASCII there (:func:`gammon.cli.board.draws_in`);
    a message must not end the game with a traceback."""
    encoding = (getattr(stream, "encoding", None) or "utf-8").lower().replace("-", "").replace("_", "")
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="surrogateescape" if encoding.startswith("utf8") else "replace")


def _computer_like(args: argparse.Namespace) -> bool:
    """Whether ``--name`` is a computer level's name, or the name the computer plays under."""
    from gammon.engine.players import BASIC_LEVELS, ENGINE_LEVELS

    return bool(args.name in BASIC_LEVELS + ENGINE_LEVELS + (GNUBG_NAME,)
                or args.name == _seat_name(args.level or "engine"))


def _new_match(args: argparse.Namespace) -> Match:
    rules = Rules(
        **{"use_cube": Rules.cube_matters(args.match), **_rule_options(args), "match_length": args.match}
    )
    return Match(rules, RandomDice(args.seed))


def _saved_match(args: argparse.Namespace) -> Saved:
    if args.match:
        raise ValueError(tr("--match cannot change the length of a saved match (leave it out)"))
    return load_saved(args.resume, RandomDice(args.seed), _rule_options(args))


def _rule_options(args: argparse.Namespace) -> dict[str, object]:
    """The rule options (Rules fields): for a new match, every one; with --resume, only those
    given, which replace the file's rules (an option left out keeps the file's)."""
    options: dict[str, object] = {
        "crawford": not args.no_crawford,
        "jacoby": not args.no_jacoby,
        "beavers": args.beavers,
        "cube_limit": args.cube_limit,
        "automatic_doubles": args.auto_doubles,
    }
    if args.no_cube:
        options["use_cube"] = False
    if not args.resume:
        return options
    left_out = {
        "crawford": True,
        "jacoby": True,
        "beavers": False,
        "cube_limit": None,
        "automatic_doubles": 0,
    }
    return {k: v for k, v in options.items() if k not in left_out or v != left_out[k]}


def _seats(args: argparse.Namespace, names: tuple[str, str] | None) -> tuple[Seat, Seat]:
    """The two seats: two people, or the person and the computer at ``--level``. For a saved
    match (``names`` its players') the seats keep the file's names, and the person is the player
    :func:`gammon.cli.resume.person_side` finds."""
    from gammon.cli.session import Seat
    from gammon.engine.players import BASIC_LEVELS, ENGINE_LEVELS

    if args.two_player:
        return (Seat(names[0]), Seat(names[1])) if names else (Seat("X"), Seat("O"))
    levels = BASIC_LEVELS + ENGINE_LEVELS
    if names is None:
        level = args.level or "engine"
        return (Seat(args.name or DEFAULT_NAME), Seat(_seat_name(level), _computer(level, args.seed)))
    # the names the computer plays under: GNU Backgammon's too, whose side another level may play
    computer_names = levels + (GNUBG_NAME,)
    me = person_side(names, args.name, computer_names)
    other = names[1 - me]
    level = args.level or (other if other in levels else "engine")
    # a side named after a level (a file gammon play saved) takes the name of the level that plays
    # it: 'gnubg' played by gammon's engine would pass the engine off as GNU Backgammon
    computer = Seat(_seat_name(level) if other in computer_names else other, _computer(level, args.seed))
    return (Seat(names[me]), computer) if me == 0 else (computer, Seat(names[me]))


def _computer(level: str, seed: int | None) -> ComputerPlayer:
    """The computer player of ``level``: gammon's own, or GNU Backgammon over its external interface."""
    from gammon.engine.players import computer_player
    from gammon.protocols.gnubg_external import LEVEL_PREFIX, GnubgExternalPlayer

    if level.startswith(LEVEL_PREFIX):
        return GnubgExternalPlayer.from_level(level)
    return computer_player(level, seed=seed)


GNUBG_NAME = "gnubg"  # the name GNU Backgammon plays under (gnubg-external:HOST:PORT)


def _seat_name(level: str) -> str:
    """The computer's name on the board: its level, or "gnubg" for GNU Backgammon."""
    return GNUBG_NAME if level.startswith("gnubg-external:") else level


_ID_FORMS = N_(
    "a Position ID (money, cube centred), a GNU Backgammon ID 'PositionID:MatchID' or an "
    "XGID 'XGID=...'; the last two give the score, the cube and the dice"
)


def _add_id(p: argparse.ArgumentParser) -> None:
    """The position argument that hint and eval share."""
    p.add_argument("id", help=tr("e.g. 4HPwATDgc/ABMA, 4HPwATDgc/ABMA:cAkAAAAAAAAA or XGID=..."))


def add_hint(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "hint",
        help=tr("the engine's best plays for a position and a roll"),
        # no word of compiling: the kernels ship compiled, and where they must be compiled after
        # all, compile_notice says so as it happens
        description=tr(
            "Rank the plays of a position for a roll. The position is {forms}.", forms=tr(_ID_FORMS)
        ),
    )
    _add_id(p)
    p.add_argument(
        "dice", nargs="?", default=None, help=tr("the roll, e.g. 31 or 3-1 (default: the dice in the ID)")
    )
    p.add_argument("-n", type=positive_int, default=5, help=tr("how many plays to show (default 5)"))
    add_plies(p, tr("search depth (default: the engine's default)"))
    p.add_argument(
        "--json",
        action="store_true",
        help=tr("print one JSON object: the position and the plays (for scripts)"),
    )
    p.set_defaults(func=lambda a: _print_analysis("run_hint", a.id, a.dice, a.n, a.plies, None, a.json))


def add_eval(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "eval",
        help=tr("the engine's probabilities and cube decision for a position"),
        description=tr(
            "Evaluate a position: winning chances, equity and the cube action. The position is {forms}.",
            forms=tr(_ID_FORMS),
        ),
    )
    _add_id(p)
    add_plies(p, tr("search depth (default: the engine's default)"))
    p.add_argument(
        "--json",
        action="store_true",
        help=tr("print one JSON object: the position, its chances and the cube decision (for scripts)"),
    )
    p.set_defaults(func=lambda a: _print_analysis("run_eval", a.id, a.plies, None, a.json))


def _print_analysis(name: str, *args: object) -> int:
    from gammon.cli import hint

    try:
        with compile_notice():
            text = getattr(hint, name)(*args)
    except GammonError as e:
        print(f"gammon: {e}", file=sys.stderr)
        return 2
    print(text)
    return 0


def add_serve(subparsers: argparse._SubParsersAction) -> None:
    from gammon.cli.serve import add_serve_command, run_serve

    add_serve_command(subparsers).set_defaults(func=run_serve)


SUBCOMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [
    add_play,
    add_hint,
    add_eval,
    add_rollout,
    add_analyse,
    add_convert,
    add_serve,
    add_account,
    add_import,
    add_drill,
    add_external,
    add_diagram,
]


def _add_lang(parser: argparse.ArgumentParser, default: object) -> None:
    names = ", ".join(f"{code} ({name})" for code, name in LANGUAGE_NAMES.items())
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=default,
        help=tr(
            "the language of the messages: {languages}; default: the locale's "
            "(LANGUAGE, LC_ALL, LC_MESSAGES, LANG)",
            languages=names,
        ),
    )


def build_parser() -> argparse.ArgumentParser:
    """The command's parser, its help in the current language (argparse's own words too)."""
    install_argparse_words()
    parser = argparse.ArgumentParser(prog="gammon", description=tr("Backgammon: play, analyse, serve."))
    parser.add_argument(
        "--version",
        action="version",
        version=f"gammon {__version__}",
        help=tr("show program's version number and exit"),
    )
    _add_lang(parser, None)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in SUBCOMMANDS:
        add(subparsers)
    for sub in subparsers.choices.values():  # 'gammon play --lang pl' as well as 'gammon --lang pl play'
        _add_lang(sub, argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``gammon`` console script."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # the language first: the parser's help and errors are said in it
    with use_language(_asked_language(argv) or from_environment(os.environ)):
        parser = build_parser()
        return _run(parser, _parsed(parser, argv))


def _parsed(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """The command line read; the text of --help or --version is written out here, where a full
    disk can be said, not at exit, where Python would complain."""
    try:
        return parser.parse_args(_ids_as_arguments(argv))
    except SystemExit as e:
        if e.code == 0 and sys.stdout is not None:  # closed ('>&-'): argparse wrote to stderr
            try:
                sys.stdout.flush()
            except BrokenPipeError:
                _drop_output(sys.stdout)
            except OSError as error:
                said = tr("cannot write to standard output: {error}", error=error.strerror or error)
                print(f"gammon: {said}", file=sys.stderr)
                _drop_output(sys.stdout)
                raise SystemExit(1) from None
        raise


# The commands that read a position ID, and an XGID's board without 'XGID=': 26 characters of
# checkers and '-' (an empty point), the first its bar, most often empty
_ID_COMMANDS = frozenset({"hint", "eval", "rollout", "diagram"})
_BARE_XGID = re.compile(r"-[-a-oA-O]{25}(?::|$)")


def _ids_as_arguments(argv: list[str]) -> list[str]:
    """``argv`` with an XGID given without 'XGID=' (``-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10``)
    marked for argparse as an argument, not options: a leading space, which the ID readers strip."""
    command = None
    out = list(argv)
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if command is None:
            if arg == "--lang" or not arg.startswith("-") and i and argv[i - 1] == "--lang":
                continue
            if not arg.startswith("-"):
                command = arg
        elif command in _ID_COMMANDS and _BARE_XGID.match(arg):
            out[i] = " " + arg
    return out


def _asked_language(argv: list[str]) -> str | None:
    """The language ``--lang`` asks for, wherever it stands (before or after the command); None
    without it (an unknown one is the parser's to refuse)."""
    found = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif arg.startswith("--lang="):
            found = arg.removeprefix("--lang=")
    return normalize(found)


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    stdout = sys.stdout
    sys.stdout = _Stdout(stdout)
    try:
        code: int = args.func(args)
        sys.stdout.flush()  # a closed pipe or a full disk shows here, not at exit
        return code
    except KeyboardInterrupt:
        print("\n" + tr("Interrupted."), file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`| head`): the end of the output, not an error; what is still
        # buffered goes nowhere, so the flush at exit does not fail again
        _drop_output(stdout)
        return 0
    except StandardOutputError as e:  # > /dev/full, a file size limit
        print(
            f"gammon {args.command}: "
            + tr("cannot write to standard output: {error}", error=e.strerror or e),
            file=sys.stderr,
        )
        _drop_output(stdout)
        return 1
    finally:
        sys.stdout = stdout


class StandardOutputError(OSError):
    """Standard output could not be written (not a closed pipe, which is a BrokenPipeError)."""


class _Stdout:
    """Standard output for a command: the same stream, whose write errors are known for its own
    (an OSError from the command could be any file's)."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    def _open(self) -> TextIO:
        """The stream; a process started with it closed ('>&-', which Python gives as None)
        fails every write as the closed file descriptor would."""
        if self._stream is None:
            raise StandardOutputError(errno.EBADF, os.strerror(errno.EBADF))
        return self._stream

    def write(self, text: str) -> int:
        try:
            written = self._open().write(text)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise StandardOutputError(e.errno, e.strerror) from e
        return written

    def flush(self) -> None:
        try:
            self._open().flush()
        except BrokenPipeError:
            raise
        except OSError as e:
            raise StandardOutputError(e.errno, e.strerror) from e

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def _drop_output(stdout: TextIO | None) -> None:
    """Send what is still buffered for ``stdout`` nowhere, so that the flush at exit does not
    fail again (nothing to do for a stream that has no file descriptor)."""
    if stdout is None:  # started closed: nothing is buffered
        return
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
