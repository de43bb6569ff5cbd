"""The terminal game loop: a person against the computer, or two people at one keyboard.

The loop owns no rules: every command that is a game action is read into a
:class:`gammon.game.Request` and submitted through :meth:`gammon.match.Match.apply`, which
validates it and leaves the state unchanged when it is refused. The loop only reads lines, turns
them into requests and reports what happened, so bad input can never lose the game in progress.
Before submitting, it asks the game why not (:meth:`gammon.game.Game.why_not`) and puts the reason
in a player's words (:func:`gammon.cli.words.refusal_words`; the game's own messages speak of
phases and "the other player").
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from rich.console import Console
from rich.text import Text

from gammon.cli.args import user_path
from gammon.cli.board import PLAIN_GLYPHS, BoardView, draws_in, render_board
from gammon.cli.files import write_whole
from gammon.cli.words import (
    TUTOR_LEVELS,
    WIN_WORDS,
    better_words,
    cube_advice,
    fold,
    format_dice,
    local_commands,
    local_resign_words,
    mark_words,
    no_words,
    object_form,
    one_of,
    os_error_words,
    points_text,
    printable,
    quote,
    refusal_words,
    said,
    say_of,
    shown_name,
    tidy,
    tutor_question,
    tutor_warning,
    yes_words,
)
from gammon.datadir import data_dir
from gammon.engine.engine import Engine
from gammon.engine.players import ComputerPlayer
from gammon.errors import PATH_QUOTE_LIMIT, GammonError
from gammon.formats.convert import Transcript, writing_format
from gammon.formats.mat import mat_name_problem, mat_names
from gammon.formats.matchid import gnubg_id
from gammon.game import ActionKind, Game, GamePhase, PlayMade, RejectResignation, Request, Roll, Take
from gammon.i18n import N_, format_number, ntr, tr
from gammon.match import Match
from gammon.notation import position_words
from gammon.refusal import Refusal
from gammon.rules import GameResult, WinKind
from gammon.words import describe

if TYPE_CHECKING:
    from gammon.analysis.marks import Skill
    from gammon.analysis.tutor import Tutor

__all__ = ["HELP", "ComputerFailed", "Hangup", "PlaySession", "QuitSession", "Seat", "format_dice",
           "mat_name_problem", "mat_names", "resolve", "said", "save_match", "tutor_level"]

HELP = N_("""\
Commands (a prefix is enough when it fits only one command: 'ro' = roll, 'dr' = drop = pass):
  24/18 13/11     play a move in standard notation: bar/22*, 6/off, 13/7(2), 8/5*/3 ...
  roll            roll the dice (Enter does the same when it is time to roll)
  double          offer the cube before rolling
  take, pass      answer a double ('drop' = pass); beaver where the rules allow it
  resign [single|gammon|backgammon]   offer to resign (default: single)
  accept, reject  answer an offer to resign
  undo            take back your last play while the next player has not acted
  hint [N]        the N best plays for the dice (default 5), or cube advice before the roll
                  and when a double is offered
  tutor [on|off|doubtful|bad|very-bad]   warn before a play or cube action the engine
                  marks doubtful, bad or very bad (or worse); 'tutor' alone says how it is set
  board           draw the board again;  pips   the pip counts
  save FILE       save the match (or money session) at any time: FILE.sgf as GNU
                  Backgammon's SGF, any other name as a .mat file (.xg cannot be written);
                  'gammon play --resume FILE' goes on with it later (then 'save' alone
                  saves a .mat FILE again)
  help            this text;  quit    leave (asks to save first)""")

HELP_COLUMN = 18  # where HELP's descriptions start, in every language

HINT_PLAYS = 5

# What can be typed -> the command: a game action (GAME_ACTIONS), else method ``_do_<command>``.
# 'pass' and 'drop' are one command.
COMMANDS = {
    "roll": "roll", "double": "double", "take": "take", "pass": "pass", "drop": "pass",
    "beaver": "beaver", "resign": "resign", "accept": "accept", "reject": "reject", "undo": "undo",
    "hint": "hint", "board": "board", "pips": "pips", "save": "save", "help": "help", "?": "help",
    "quit": "quit", "exit": "quit", "tutor": "tutor",
}
# Commands that change nothing in the game: they work at every prompt, between games too.
QUIET_COMMANDS = frozenset({"board", "pips", "save", "help", "quit", "tutor"})
# Commands that are game actions -> the kind of request they make.
GAME_ACTIONS = {"roll": ActionKind.ROLL, "double": ActionKind.DOUBLE, "take": ActionKind.TAKE,
                "pass": ActionKind.PASS, "beaver": ActionKind.BEAVER, "resign": ActionKind.RESIGN,
                "accept": ActionKind.ACCEPT_RESIGNATION, "reject": ActionKind.REJECT_RESIGNATION,
                "undo": ActionKind.UNDO}
RESIGN_WORDS = {"single": WinKind.SINGLE, "s": WinKind.SINGLE, "normal": WinKind.SINGLE,
                "gammon": WinKind.GAMMON, "g": WinKind.GAMMON,
                "backgammon": WinKind.BACKGAMMON, "b": WinKind.BACKGAMMON}
SAVE_USAGE = N_("Usage: save FILE (FILE.sgf: GNU Backgammon's SGF; any other name: a .mat file; "
                 ".xg cannot be written), e.g. save match.mat")
TUTOR_USAGE = N_("Usage: tutor on, tutor off, or tutor doubtful, bad or very-bad (the mark it warns from)")


def tutor_level(word: str) -> Skill | None:
    """The tutor's level a player names ('doubtful', 'bad', 'very-bad' or 'very bad'); None if
    it names none."""
    from gammon.analysis.marks import Skill

    value = TUTOR_LEVELS.get("-".join(word.lower().split()))
    return Skill(value) if value is not None else None


def resolve(word: str, allowed: frozenset[str] | None = None) -> tuple[str | None, list[str]]:
    """The command ``word`` names, in full or by a prefix that fits one command only, and
    ``[]``; or None and the names the prefix fits (several: the person must say which).
    ``allowed`` limits the commands to those that make sense at the prompt."""
    # the words of the current language, then the English ones, which always mean what they do in English
    every = {**local_commands(), **COMMANDS}
    # typed as folded (no accents), shown as written
    names = {fold(name): (name, cmd) for name, cmd in every.items() if allowed is None or cmd in allowed}
    word = fold(word)
    if word in names:
        return names[word][1], []
    fits = [names[name] for name in names if name.startswith(word)]
    if len({cmd for _name, cmd in fits}) == 1:
        return fits[0][1], []
    return None, [name for name, _cmd in fits]


def _whole_command(word: str) -> str | None:
    """The command ``word`` spells out in full, in English or the current language ('?' is none)."""
    every = {fold(name): cmd for name, cmd in {**local_commands(), **COMMANDS}.items()}
    return every.get(fold(word)) if word != "?" else None


def _fitted(text: str, width: int) -> str:
    """``text`` with each line wider than ``width`` wrapped at its spaces, continuations at the
    line's own indent: the terminal's wrapping would cut words (the cube advice, the save usage).
    A word wider than the terminal (a long path) is left whole for the terminal to wrap."""
    lines: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        lines.extend(textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                                   break_on_hyphens=False) or [line])
    return "\n".join(lines)


def _yes_or_no(line: str) -> bool | None:
    """What an answer to "Save ...? Type a file name" says: True for a yes, False for a no (in
    English or the current language), None for a file name. A yes or no word followed by more words
    ("no thanks", "tak, poproszę") is that answer too unless something marks a file (a folder or an
    extension): a person answering the question would otherwise get a file called "no thanks"."""
    text = line.strip().rstrip(".!,")
    words = fold(text).replace(",", " ").split()
    if not words:
        return None
    if len(words) > 1 and ("/" in text or os.sep in text or os.path.splitext(text)[1]):
        return None
    if words[0] in yes_words():
        return True
    if words[0] in no_words():
        return False
    return None


def _to_act(g: Game) -> int:
    """The player who must act; the session asks only while a game is being played."""
    if g.turn is None:
        raise GammonError("no player is to act: the game has not started or is over")
    return g.turn


def _rolled(g: Game) -> tuple[int, int]:
    """The dice to play; the session asks only in the MOVE phase."""
    if g.dice is None:
        raise GammonError("no dice are rolled")
    return g.dice


def _result(g: Game) -> GameResult:
    if g.result is None:
        raise GammonError("the game is not over")
    return g.result


class QuitSession(Exception):
    """The person asked to leave, or input ended (``input_ended``)."""

    def __init__(self, input_ended: bool = False) -> None:
        super().__init__()
        self.input_ended = input_ended


class ComputerFailed(Exception):
    """The computer player cannot go on (GNU Backgammon unreachable, or its connection lost):
    the session ends, the match saved."""

    def __init__(self, name: str, error: Exception) -> None:
        super().__init__(str(error))
        self.name = name


class Hangup(BaseException):  # as KeyboardInterrupt: no "except Exception" stops it
    """The terminal went away (SIGHUP, or writing to it failed): nobody is there to ask."""


@dataclass
class Seat:
    """One side of the table: a name, and a computer player or None for a person."""

    name: str
    computer: ComputerPlayer | None = None


@dataclass
class PlaySession:
    """Runs a match (or money session) in the terminal until it ends, the person quits or input ends."""

    match: Match
    seats: tuple[Seat, Seat]
    console: Console = field(default_factory=Console)
    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    auto_roll: bool = False
    confirm_plays: bool = True
    color: bool | None = None
    engine: Engine | None = None  # the advisor for hints; a default Engine() on the first hint
    autosave: bool = False  # save the match in gammon's data directory when input ends unsaved
    save_file: str | None = None  # where 'save' alone saves (the .mat file a match was resumed from)
    source: Transcript | None = None  # the file resumed from: its match information is saved again
    tutor: Skill | None = None  # warn before a person's choice marked this or worse (None: off)
    _shown: object = None  # the state the board was last drawn for
    _saved: object = None  # the games' histories when the match was last saved (or read back)
    _reading: bool = False  # waiting for a line: a hangup may end the wait at once
    _hung_up: bool = False
    _terminated: bool = False  # SIGTERM ('kill'): ended as a hangup, the terminal still there
    _thinking: bool = False  # the computer chooses its action, which changes nothing: it may be cut short
    _output_error: OSError | None = None  # writing the output failed: a full disk, not a hangup
    _resumed: bool = False  # read back from a file: resumed() said so instead of the welcome
    _lost: bool = False  # the match was to be saved when the session ended, and could not be
    _tutor: Tutor | None = None  # judges with the engine of the hints, once it is needed
    # the files resumed from or saved to (real paths): 'save' writes over them without asking
    _own_files: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        if self.color is None:
            c = self.console
            self.color = bool(c.is_terminal and c.color_system and not c.no_color)

    # --- output -------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self._print(self._fit(text), markup=False, highlight=False, emoji=False, soft_wrap=True)

    def _fit(self, text: str) -> str:
        # a terminal only: a pipe or a file has no width, and its reader may look for whole lines
        return _fitted(text, self.console.width) if self.console.is_terminal else text

    def _print(self, *objects: Any, **options: Any) -> None:
        """Print to the terminal; a terminal that is gone (writing fails) ends the session with
        :class:`Hangup`, whose handler saves the match."""
        try:
            self.console.print(*objects, **options)
            self.console.file.flush()
        except OSError as e:
            self._hung_up = True
            # output to a file (> /dev/full), or none at all ('>&-'): no terminal
            if e.errno in (errno.ENOSPC, errno.EFBIG, errno.EBADF):
                self._output_error = e
            raise Hangup from None

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def names(self) -> tuple[str, str]:
        return (self.seats[0].name, self.seats[1].name)

    def _viewer(self) -> int:
        """The side drawn at the bottom: the person, or the person on turn when two play."""
        humans = [i for i in (0, 1) if self.seats[i].computer is None]
        if len(humans) == 1:
            return humans[0]
        turn = self.game.turn
        return turn if turn is not None else 0

    def board_view(self) -> BoardView:
        g = self.game
        me = self._viewer()
        rel = {None: None, me: 0, 1 - me: 1}
        rules = self.match.rules
        try:
            position_id, match_id = gnubg_id(g).split(":")
        except ValueError:  # a state a Match ID cannot hold (a money cube past 2**15)
            position_id, match_id = g.position.id, None
        return BoardView(
            position=g.position_for(me),
            names=(self.seats[me].name, self.seats[1 - me].name),
            on_turn=rel[g.turn],
            dice=g.dice,
            cube_value=g.cube_value,
            cube_owner=rel[g.cube_owner],
            cube_offered_by=rel[1 - _to_act(g)] if g.phase == GamePhase.DOUBLED else None,
            cube_in_use=rules.use_cube and not g.crawford_game,
            score=(self.match.score[me], self.match.score[1 - me]),
            match_length=rules.match_length,
            crawford=g.crawford_game,
            position_id=position_id,
            match_id=match_id,
            glyphs=(PLAIN_GLYPHS[me], PLAIN_GLYPHS[1 - me]),
            players=(me, 1 - me),
        )

    def show_board(self) -> None:
        ascii_only = not draws_in(self.console.encoding)
        for line in render_board(self.board_view(), color=bool(self.color), ascii_only=ascii_only,
                                 width=self.console.width):
            self._print(line if self.color else Text(line.plain), highlight=False, soft_wrap=True)
        g = self.game
        self._shown = (id(g), len(g.history), g.phase)

    def _show_board_once(self) -> None:
        """Draw the board unless it is already on screen for this state of the game."""
        g = self.game
        if self._shown != (id(g), len(g.history), g.phase):
            self.show_board()

    # --- input --------------------------------------------------------------------------------

    def ask(self, prompt: str) -> str:
        """One line from the person; EOF ends the session."""
        if self._hung_up:
            raise Hangup
        # the prompt's last line keeps its closing space: the answer is typed after it
        fitted = self._fit(prompt.rstrip()) + prompt[len(prompt.rstrip()):]
        self._print(fitted, end="", markup=False, highlight=False, soft_wrap=True)
        self._reading = True
        try:
            if self._hung_up:  # signalled while the prompt was written: the wait would not end
                raise Hangup
            line = self.stdin.readline()
        except OSError:  # a terminal that has closed gives EIO
            self._hung_up = True
            raise Hangup from None
        finally:
            self._reading = False
        if not line:
            self.say("")
            raise QuitSession(input_ended=True)
        return line.strip()

    # --- the loop -----------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the match ends, the person quits or input ends; returns an exit status."""
        welcome = len(self.match.games) == 1 and self.game.phase == GamePhase.OPENING and not self._resumed
        self._saved = self._histories()  # a match read back from a file starts as saved
        try:
            with self._hangup_handled():
                if welcome:  # inside: a terminal gone before the first line is a hangup too
                    self._welcome()
                self._loop()
        except Hangup:
            if self._terminated:
                self._save_unsaved(tr("The game was stopped (SIGTERM)"))
                return 1 if self._lost else 128 + signal.SIGTERM  # as a shell reports a kill
            self._save_unsaved(tr("The terminal closed"))
            if self._output_error is not None:  # the caller says standard output failed (exit 1)
                raise self._output_error from None
            return 1 if self._lost else 0
        except ComputerFailed as e:
            why = tr("{name} cannot play on ({error})", name=shown_name(e.name), error=tidy(str(e)))
            if not self._save_unsaved(why):
                self.say(why + ".")
            return 1
        except Exception as e:
            # a bug where no command catches it (the computer's turn, between games): the match is
            # saved before the traceback, which the person may report
            with contextlib.suppress(Exception):
                self._save_unsaved(tr("Unexpected error ({error})", error=tidy(str(e))))
            raise
        self.say(tr("Goodbye."))
        return 1 if self._lost else 0  # a script must not take a match that is gone for one saved

    def _loop(self) -> None:
        try:
            while True:
                g = self.game
                if g.is_over:
                    if not self._after_game():
                        break
                    continue
                if g.phase == GamePhase.OPENING:
                    self._opening_roll()
                    continue
                seat = self.seats[_to_act(g)]
                if seat.computer is not None:
                    self._computer_acts(seat)
                else:
                    self._person_acts(seat)
        except QuitSession as e:
            if e.input_ended:
                self._save_unsaved(tr("Input ended"))
        except KeyboardInterrupt:
            self.say("\n" + tr("Interrupted."))
            try:
                self._offer_save(tr("Save the match first?"), tr("quit without saving"))
            except QuitSession as e:
                if e.input_ended:
                    self._save_unsaved(tr("Input ended"))
            except KeyboardInterrupt:  # a second Ctrl-C: leave at once, on a line of its own
                self.say("")
                self._save_unsaved(tr("Interrupted again"))

    def _histories(self) -> tuple[tuple[object, ...], ...]:
        """What a save keeps: every game's actions (an undo then another play is a change)."""
        return tuple(tuple(g.history) for g in self.match.games)

    def _save_unsaved(self, why: str) -> bool:
        """Input ended (or the terminal closed) with actions not yet saved: save the match in
        gammon's data directory (:mod:`gammon.datadir`), so that nothing is lost, and say where
        (or why not). False when there was nothing to save, and nothing was said."""
        if not self.autosave or self._histories() == self._saved:
            return False
        if not any(not isinstance(a, Roll) for g in self.match.games for a in g.history):
            return False  # nothing a match file would keep: its rolls are kept with their plays
        # a .mat file keeps a roll only with its play: dice not yet played go in SGF, which keeps
        # them, as it does what else a .mat file cannot hold (automatic doubles)
        suffixes = [".sgf"] if self.game.phase == GamePhase.MOVE else [".mat", ".sgf"]
        try:
            stem = data_dir() / f"gammon-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
        except OSError as e:
            ok, message = False, tr("the match could not be saved: {error}", error=e)
        else:
            for suffix in suffixes:  # the last one's reason if none could be written
                path = stem.with_suffix(suffix)
                ok, message = save_match(self.match, str(path), self.names, self.source)
                if ok:
                    break
        try:
            if ok:
                if self.match.is_over:  # 'gammon play --resume' refuses a finished match
                    self.say(tr("{why}: the finished match is saved in {path}.", why=why, path=path))
                else:
                    self.say(tr("{why}: the match is saved in {path}; 'gammon play --resume {path}' goes "
                                "on with it.", why=why, path=path))
                if suffix == ".mat" and names_note(self.names):
                    self.say(names_note(self.names))
            else:
                self._lost = True
                self.say(f"{why}: {message}")
        except Hangup:  # no terminal left to tell
            pass
        return True

    @contextlib.contextmanager
    def _hangup_handled(self) -> Iterator[None]:
        """While the session runs, SIGHUP (the terminal closed) and SIGTERM ('kill') do not end
        the process at once: they end a wait for input with :class:`Hangup`, or (while a game
        action is under way, or the computer thinks after SIGHUP) the next wait, so the match can
        be saved first; SIGTERM ends the computer's thinking at once. Only the main thread can set
        a signal handler; elsewhere (a session a test runs in a thread) nothing changes, nor for a
        signal that is ignored (SIGHUP under ``nohup``)."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def hangup(signum: int, frame: object) -> None:
            self._hung_up = True
            self._terminated = self._terminated or signum == signal.SIGTERM
            # a kill ends the computer's thinking too: GNU Backgammon may take minutes to answer
            if self._reading or (self._thinking and signum == signal.SIGTERM):
                raise Hangup

        signals = [getattr(signal, name) for name in ("SIGHUP", "SIGTERM") if hasattr(signal, name)]
        # None: a handler set outside Python, which could not be put back
        previous = {signum: handler for signum in signals
                    if (handler := signal.getsignal(signum)) not in (signal.SIG_IGN, None)}
        for signum in previous:
            signal.signal(signum, hangup)
        try:
            yield
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)

    def _welcome(self) -> None:
        length = self.match.rules.match_length
        what = (ntr("A match to {n} point", "A match to {n} points", length, n=length) if length
                else tr("A money game"))
        self.say(tr("{what}: {first} against {second}. Type 'help' for the commands, 'quit' to leave.",
                    what=what, first=shown_name(self.names[0]), second=shown_name(self.names[1])))

    def resumed(self, source: str) -> None:
        """Say where a match read back from ``source`` stands, and draw its board (unless its
        last game is over: the loop reports that game first, then starts the next)."""
        self._resumed = True
        self._own_files.add(os.path.realpath(source))
        length = self.match.rules.match_length
        what = (ntr("a match to {n} point", "a match to {n} points", length, n=length) if length
                else tr("a money session"))
        number = len(self.match.games)
        self.say(tr("Resumed {what} from {source}: {first} against {second}, game {number}. {score} "
                    "Type 'help' for the commands, 'quit' to leave.", what=what, source=source,
                    first=shown_name(self.names[0]), second=shown_name(self.names[1]), number=number,
                    score=self._score_line()))
        if self.match.is_crawford_game and not self.game.is_over:
            self.say(tr("This is the Crawford game: no doubling."))
        if self.game.phase not in (GamePhase.OPENING, GamePhase.OVER):
            self.show_board()

    def _opening_roll(self) -> None:
        g = self.game
        self.match.apply(Request(ActionKind.ROLL))
        self.say(describe(g.history[0], self.names) + ".")  # the opening roll
        if g.cube_value > 1:
            self.say(tr("Automatic doubles: the cube is on {value}.", value=g.cube_value))

    def _after_game(self) -> bool:
        """Report the result, then ask before the next game. False when the session is over."""
        result = _result(self.game)
        self._show_board_once()
        winner = self.names[result.winner]
        how = {"pass": N_(" after the double is passed"), "resign": N_(" by resignation"),
               "abandon": N_(" as the other player left"), "bear_off": ""}[result.reason]
        self.say(say_of(winner, N_("{name} wins {what}{how}, {points}."),
                        N_("You win {what}{how}, {points}."),
                        what=tr(WIN_WORDS[result.kind]), how=tr(how) if how else "",
                        points=points_text(result.points)))
        self.say(self._score_line())
        if self.match.winner is not None:
            self.say(say_of(self.names[self.match.winner], N_("{name} wins the match."),
                            N_("You win the match.")))
            self._offer_save(tr("The match is over. Save it?"), tr("leave"))
            return False
        if not self._next_game_wanted():
            self._offer_save(tr("Save the session?"), tr("leave"))
            return False
        self.match.new_game()
        if self.match.is_crawford_game:
            self.say(tr("This is the Crawford game: no doubling."))
        return True

    def _next_game_wanted(self) -> bool:
        """Between games: the commands that change nothing work here too ('save', 'board' ...)."""
        money = self.match.rules.match_length == 0
        number = len(self.match.games) + 1
        prompt = tr("Another game? [y/n] ") if money else tr("Press Enter to start game {number} > ",
                                                             number=number)
        while True:
            line = self.ask(prompt)
            answer = fold(line)
            if answer == "" or answer in yes_words():
                return True
            if money and answer in no_words():
                return False
            if self._quiet_command(line):
                continue
            if money:
                self.say(tr("Please answer y or n, not {typed} ('save FILE' saves the session).",
                            typed=quote(line)))
            else:
                self.say(tr("Press Enter for the next game, or type 'save FILE', 'board' or 'quit' "
                            "(not {typed}).",
                            typed=quote(line)))

    def _quiet_command(self, line: str) -> bool:
        """Run ``line`` if it is a command that changes nothing ('board', 'save FILE', ...); True if
        it was one (or named several: the person is asked which)."""
        parts = line.split(maxsplit=1)
        if not parts:
            return False
        command, fits = resolve(parts[0], QUIET_COMMANDS)
        if command is None:
            if len(fits) > 1:
                self.say(tr("Did you mean {words}?", words=one_of(fits)))
                return True
            return False
        getattr(self, f"_do_{command}")(parts[1] if len(parts) > 1 else "")
        return True

    def _score_line(self) -> str:
        s = self.match.score
        length = self.match.rules.match_length
        first, second = shown_name(self.names[0]), shown_name(self.names[1])
        if length:
            return tr("Score: {first} {a}, {second} {b} (match to {length}).", first=first, a=s[0],
                      second=second, b=s[1], length=length)
        return tr("Score: {first} {a}, {second} {b}.", first=first, a=s[0], second=second, b=s[1])

    def _offer_save(self, question: str, leave: str) -> None:
        """Before leaving: ask for a file to save the match in. Enter or a no ('n', 'no thanks')
        leaves without saving, a yes asks for the name; a file that cannot be written is reported
        and asked for again."""
        prompt = tr("{question} Type a file name, or press Enter to {leave}: ", question=question,
                    leave=leave)
        while True:
            line = self.ask(prompt)
            parts = line.split(maxsplit=1)
            # a command's whole word only: a file may be called 'b'
            word = _whole_command(parts[0]) if parts else None
            said = _yes_or_no(line)
            if not line or said is False or fold(line) == "q" or (word == "quit" and len(parts) == 1):
                return
            if said:
                prompt = tr("File name (Enter: do not save): ")
                continue
            if word == "save":  # 'save FILE' typed out of habit: the file is FILE
                if len(parts) == 1:
                    prompt = tr("File name (Enter: do not save): ")
                    continue
                line = parts[1]
            elif word in ("board", "pips", "help") and len(parts) == 1:
                getattr(self, f"_do_{word}")("")
                continue
            if self._save(line):
                return

    # --- the computer -------------------------------------------------------------------------

    def _computer_acts(self, seat: Seat) -> None:
        g = self.game
        bot = seat.computer
        assert bot is not None
        self._thinking = True
        try:
            request = bot.next_action(g).request(_to_act(g))
        except GammonError as e:  # GNU Backgammon gone or answering nonsense: it cannot go on
            raise ComputerFailed(seat.name, e) from e
        finally:
            self._thinking = False
        self._submit(request)

    def _report(self) -> None:
        """Say what the last action did, in gammon's words (and what follows from it)."""
        g = self.game
        action = g.history[-1]
        text = describe(action, self.names)
        if isinstance(action, Take):
            text += tr(". The cube is on {value}", value=g.cube_value)
        elif isinstance(action, RejectResignation):
            text += tr("; play on")
        self.say(text + ".")

    def _submit(self, request: Request) -> None:
        """Make ``request`` (refused: the game's error, the game unchanged) and say what it did."""
        g = self.game
        self.match.apply(request)
        if request.kind is ActionKind.ROLL:
            roller = next(a.player for a in reversed(g.history) if isinstance(a, Roll))
            if isinstance(g.history[-1], PlayMade) or self.seats[roller].computer is None:
                self._report()  # a roll that passes the turn, or a person's roll
        elif request.kind is ActionKind.UNDO:
            self._shown = None
            self.say(tr("The last play is taken back."))
        else:
            self._report()

    def _asker(self) -> int | None:
        """Who the person at the keyboard acts as: the one person's side against the computer;
        None when two people share it (whoever must act)."""
        humans = [i for i in (0, 1) if self.seats[i].computer is None]
        return humans[0] if len(humans) == 1 else None

    def _roll(self, seat: Seat) -> None:
        """Roll for the player on turn; say so when the roll cannot be played."""
        request = self._tutored(Request(ActionKind.ROLL, self._asker()))
        if request is not None:
            self._submit(request)

    # --- the person ---------------------------------------------------------------------------

    def _person_acts(self, seat: Seat) -> None:
        g = self.game
        phase = g.phase
        # The board before each decision: at the roll only when the cube is an option.
        if phase != GamePhase.ROLL or g.can_double():
            self._show_board_once()
        if phase == GamePhase.ROLL and self.auto_roll and not g.can_double():
            self._roll(seat)
            return
        line = self.ask(self._prompt(seat))
        try:
            self._command(seat, line)
        except QuitSession:
            raise
        except GammonError as e:
            self.say(tr("Sorry: {why}", why=tidy(str(e))))
        except Exception as e:  # noqa: BLE001 - a bug must not cost the person the game in progress
            self.say(tr("Unexpected error ({error}); the game goes on.", error=tidy(str(e))))

    def _choices(self) -> str:
        """What the player on turn is asked to do, in a few words."""
        g = self.game
        phase = g.phase
        if phase == GamePhase.ROLL:
            return tr("roll or double") if g.can_double() else tr("roll")
        if phase == GamePhase.MOVE:
            return tr("{dice} to play", dice=format_dice(_rolled(g)))
        if phase == GamePhase.DOUBLED:
            return tr("doubled to {value}: {answers}", value=g.cube_value * 2, answers=self._answers())
        kind = g.offered_resignation or WinKind.SINGLE  # the RESIGNED phase always has one
        return say_of(self.names[1 - _to_act(g)], N_("{name} offers to resign {what}: {answers}"),
                      N_("You offer to resign {what}: {answers}"), what=tr(WIN_WORDS[kind]),
                      answers=self._answers())

    def _answers(self) -> str:
        """The answers the game waits for ("take or pass"); else what the player is asked to do."""
        g = self.game
        if g.phase == GamePhase.DOUBLED:
            answers = [tr("take"),
                       tr("pass")] + ([tr("beaver")] if ActionKind.BEAVER in g.legal_actions() else [])
            return one_of(answers)
        if g.phase == GamePhase.RESIGNED:
            return tr("accept or reject")
        return self._choices()

    def _prompt(self, seat: Seat) -> str:
        return f"{shown_name(seat.name)} ({self._choices()}) > "

    def _command(self, seat: Seat, line: str) -> None:
        g = self.game
        phase = g.phase
        parts = line.split(maxsplit=1)
        if not parts:
            if phase == GamePhase.ROLL:
                self._roll(seat)
            elif phase == GamePhase.MOVE:
                self.say(tr("Type your move, e.g. 13/7 8/7, or 'help'."))
            else:
                self.say(tr("Please answer: {answers}.", answers=self._answers()))
            return
        command, fits = resolve(parts[0])
        if command is None:
            looks_like_move = any(c.isdigit() for c in line)
            if len(fits) > 1:
                self.say(tr("Did you mean {words}?", words=one_of(fits)))
            elif looks_like_move and phase == GamePhase.MOVE:
                self._play(seat, line)
            elif looks_like_move and phase == GamePhase.ROLL:
                self.say(tr("Roll first ({typed} is a move): press Enter or type 'roll'.", typed=quote(line)))
            elif looks_like_move:
                self.say(tr("Sorry: {why}.", why=self._refusal(Request(ActionKind.ROLL, self._asker()))))
            else:
                self.say(tr("Unknown command {typed}; type 'help' for the list.", typed=quote(line)))
            return
        rest = parts[1] if len(parts) > 1 else ""
        kind = GAME_ACTIONS.get(command)
        if kind is None:
            getattr(self, f"_do_{command}")(rest)
            return
        # Refused first, whatever follows the command: a resignation is asked about as a single.
        refusal = self._refusal(Request(kind, self._asker(), win_kind=WinKind.SINGLE))
        if refusal:
            self.say(tr("Sorry: {why}.", why=refusal))
            return
        request = self._request(kind, rest)
        if request is not None:
            request = self._tutored(request)
        if request is not None:
            self._submit(request)

    def _request(self, kind: ActionKind, rest: str) -> Request | None:
        """The request a game action command makes, with what follows it; None (and the person
        told why) when that cannot be read."""
        if kind is not ActionKind.RESIGN:
            return Request(kind, self._asker())
        words = fold(rest).split() or ["single"]
        every = {**local_resign_words(), **RESIGN_WORDS}
        if len(words) > 1 or words[0] not in every:
            self.say(tr("Resign how much? 'resign single', 'resign gammon' or 'resign backgammon', "
                        "not {typed}.",
                        typed=quote(rest)))
            return None
        return Request(kind, self._asker(), win_kind=every[words[0]])

    def _refusal(self, request: Request) -> str | None:
        """Why ``request`` cannot be made now, in a player's words (the game says why); None if it can."""
        g = self.game
        refused = g.why_not(request)
        if refused is None:
            return None
        rolled = refused.refusal is Refusal.DICE_ROLLED
        if rolled and request.kind is ActionKind.DOUBLE and g.turn is not None:
            # "a double is offered before rolling" only where the cube would allow it before the roll:
            # not in a game without the cube, the Crawford game, or with the opponent's cube
            refused = g.cube.refusal_to_double(g.turn, self.match.rules, g.crawford_game) or refused
        return refusal_words(refused, request.kind, self.names, answers=self._answers(), dice=self.game.dice)

    def _play(self, seat: Seat, text: str) -> None:
        g = self.game
        position, dice = g.position, _rolled(g)
        request = Request(ActionKind.PLAY, self._asker(), play=text)
        try:
            tutored = self._tutored(request)  # an illegal play passes: the game refuses it
            if tutored is None:
                return
            self.match.apply(tutored)
        except GammonError as e:
            # The board is on screen: the position ID and the dice in the message add nothing.
            message = str(e).replace(" " + position_words(position, dice), "")
            self.say(tr("Sorry: {why}.", why=tidy(message).rstrip(".")))
            return
        self._report()
        self._show_board_once()  # the result of the play, before the opponent acts
        # Against the computer, which acts at once, the turn ends only when the person says so:
        # until then 'undo' can take the play back.
        if self.confirm_plays and not g.is_over and self.seats[_to_act(g)].computer is not None:
            self._confirm_play(seat)

    def _confirm_play(self, seat: Seat) -> None:
        allowed = QUIET_COMMANDS | {"undo"}
        while True:
            line = self.ask(tr("{name} (Enter to end the turn, or undo) > ", name=shown_name(seat.name)))
            if not line:
                return
            parts = line.split(maxsplit=1)
            if resolve(parts[0], allowed)[0] == "undo":
                self.match.apply(Request(ActionKind.UNDO, self._asker()))
                self._shown = None
                self.say(tr("Play taken back."))
                return
            if self._quiet_command(line):
                continue
            if any(c.isdigit() for c in line):
                self.say(tr("Your play is made: press Enter to end your turn, or type 'undo' to change it."))
            else:
                self.say(tr("Press Enter to end your turn or type 'undo' (not {typed}).", typed=quote(line)))

    # --- the tutor ----------------------------------------------------------------------------

    def _tutored(self, request: Request) -> Request | None:
        """With the tutor on, the person's ``request`` as the tutor lets it through: itself when
        the engine does not mark it at the tutor's level, or when the person goes on after the
        warning; the engine's better choice when the person takes it; None to choose again."""
        if self.tutor is None:
            return request
        try:
            warning = self._get_tutor(self.tutor).warning(self.game.situation(), request)
        except Exception as e:  # noqa: BLE001 - the tutor failing must not stop the person's choice
            self.say(tr("The tutor could not judge this ({error}); it goes through.", error=tidy(str(e))))
            return request
        if warning is None:
            return request
        self.say(tutor_warning(warning))
        while True:
            line = self.ask(tutor_question(warning))
            answer = fold(line)
            if answer in yes_words():
                return request
            if answer == "" or answer in no_words():
                self.say(tr("Choose again."))
                return None
            if answer in ("b", "better"):
                return warning.best
            if self._quiet_command(line):
                if self.tutor is None:  # switched off while asked: the choice goes through
                    return request
                continue
            self.say(tr("Please answer y (go on), n (choose again) or b ({better}), not {typed}.",
                        better=better_words(warning), typed=quote(line)))

    def _get_tutor(self, level: Skill) -> Tutor:
        from gammon.analysis.tutor import Tutor

        engine = self._hint_engine()
        if self._tutor is None or self._tutor.engine is not engine:
            self._tutor = Tutor(engine, level)
        self._tutor.level = level
        return self._tutor

    def _do_tutor(self, rest: str) -> None:
        word = "-".join(rest.lower().split())
        if not word:
            if self.tutor:
                state = tr("The tutor is on: it warns from {mark}.", mark=mark_words(self.tutor.value))
            else:
                state = tr("The tutor is off.")
            self.say(f"{state} {tr(TUTOR_USAGE)}.")
            return
        if word == "off":
            self.tutor = None
            self.say(tr("The tutor is off."))
            return
        level = tutor_level("doubtful" if word == "on" else word)
        if level is None:
            self.say(tr("{usage}, not {typed}.", usage=tr(TUTOR_USAGE), typed=quote(rest)))
            return
        self.tutor = level
        self.say(tr("The tutor is on: it warns before a play or cube action marked {mark} or worse.",
                    mark=mark_words(level.value)))

    # --- commands -----------------------------------------------------------------------------

    def _do_hint(self, rest: str) -> None:
        words = rest.split()
        # ASCII digits, two at most: str.isdigit() passes '²' and 5,000 digits, which int() refuses
        if len(words) > 1 or (words and not (re.fullmatch(r"[0-9]{1,2}", words[0]) and int(words[0]) >= 1)):
            self.say(tr("Usage: hint [N] for the N best plays (1-99), not {typed}.", typed=quote(rest)))
            return
        for line in self.hint_lines(int(words[0]) if words else HINT_PLAYS):
            self.say(line)

    def hint_lines(self, n: int = HINT_PLAYS) -> list[str]:
        """The engine's advice for the player who must act: the best plays for the dice, the
        cube before the roll, take or pass when a double is offered."""
        g = self.game
        name = object_form(self.names[_to_act(g)])
        if g.phase == GamePhase.RESIGNED:
            return [tr("No hint here: answer the resignation (accept or reject).")]
        if g.phase == GamePhase.ROLL and not g.can_double():
            # the engine's cube decision would weigh a double the rules do not allow
            why = self._refusal(Request(ActionKind.DOUBLE, self._asker()))
            return [tr("No cube decision for {name}: {why}; roll (Enter).", name=name, why=why)]
        engine = self._hint_engine()
        if g.phase == GamePhase.ROLL:
            advice = cube_advice(engine.cube_decision(g))
            return [tr("Cube advice for {name}: {advice}", name=name, advice=advice)]
        if g.phase == GamePhase.DOUBLED:
            return [self._answer_hint(engine.cube_decision(g), name)]
        from gammon.advice import ranked_plays  # with the engine: loaded only for a hint

        # at the score: a match ranks the plays by match winning chances, a money game by equity
        situation = g.situation()
        mwc = situation.match is not None
        measure = tr("match winning chances") if mwc else tr("cubeless equity")
        lines = [tr("Best plays for {name} ({measure}, {plies} ply):", name=name, measure=measure,
                    plies=engine.plies)]
        for i, (h, score) in enumerate(ranked_plays(engine, situation, _rolled(g), n), 1):
            lines.append(f"  {i}. {str(h.play):<28} {f'{score:.1%}' if mwc else f'{score:+.3f}'}")
        return lines

    @staticmethod
    def _answer_hint(decision: Any, taker: str) -> str:
        """Take or pass, for the taker: the engine judges the double from the doubler's side, so
        its equities are negated (and its match winning chances taken from one)."""
        answer = tr("beaver") if decision.beaver else tr("take") if decision.take else tr("pass")
        text = tr("Cube advice for {name}: {answer} (cubeful equity after a take {take}, after a pass {drop}",
                  name=taker, answer=answer, take=format_number(-decision.double_take, "+.3f"),
                      drop=format_number(-decision.double_pass, "+.3f"))
        if decision.match_winning_chances:
            _, take, drop = decision.match_winning_chances
            text += tr("; match winning chances {take} after a take, {drop} after a pass",
                       take=format_number(1 - take, ".1%"),
                       drop=format_number(1 - drop, ".1%"))
        return text + ")."

    def _hint_engine(self) -> Engine:
        if self.engine is None:
            self.engine = Engine()
        return self.engine

    def _do_board(self, rest: str) -> None:
        self.show_board()

    def _do_pips(self, rest: str) -> None:
        me = self._viewer()
        mine, theirs = self.game.position_for(me).pip_counts
        self.say(tr("Pips: {first} {a}, {second} {b} (difference {difference}).",
                    first=shown_name(self.names[me]),
                    a=mine, second=shown_name(self.names[1 - me]), b=theirs,
                        difference=f"{mine - theirs:+d}"))

    def _do_save(self, rest: str) -> None:
        if not rest.strip():
            if self.save_file is None:
                self.say(tr(SAVE_USAGE))
            else:
                self._save(self.save_file)
            return
        self._save(rest.strip())

    def _save(self, path: str) -> bool:
        # a name typed at the prompt meets no shell to take its quotes away or expand '~'
        if len(path) > 1 and path[0] == path[-1] and path[0] in "'\"":
            path = path[1:-1]
        path = user_path(path)
        if not self._may_overwrite(path):
            return False
        ok, message = save_match(self.match, path, self.names, self.source)
        self.say(message)
        if ok and self.game.phase == GamePhase.MOVE and writing_format(path).name == "mat":
            self.say(tr("A .mat file keeps a roll only with its play: resumed from this one, the game "
                        "rolls again instead of playing the {dice} (a .sgf file keeps them).",
                        dice=format_dice(_rolled(self.game))))
        if ok and self.game.phase == GamePhase.RESIGNED:  # neither format records the offer
            self.say(tr("A saved file does not keep an offer to resign: resumed from this one, the game "
                        "goes on from before the offer."))
        if ok:
            self._saved = self._histories()
            self._own_files.add(os.path.realpath(path))
        return ok

    def _may_overwrite(self, path: str) -> bool:
        """Whether ``path`` may be written: a file not there yet, or this match's own (resumed
        from or saved to); another file only when the person says yes. Input ending here is a no
        (the session's end then saves the match in the data directory)."""
        if (not os.path.isfile(path) or os.path.realpath(path) in self._own_files
                or writing_format(path).write is None):  # a format save refuses anyway
            return True
        answer = fold(self.ask(tr("{file} exists: overwrite it? [y/N] ", file=quote(path, PATH_QUOTE_LIMIT))))
        if answer in yes_words():
            return True
        self.say(tr("Not saved: {file} is left as it was.", file=quote(path, PATH_QUOTE_LIMIT)))
        return False

    def _do_help(self, rest: str) -> None:
        text = tr(HELP)
        width = self.console.width
        if max(len(line) for line in text.splitlines()) <= width:
            self.say(text)
            return
        # narrower than the text: the terminal's own wrapping would cut words and the columns
        # apart, so each entry (and the opening paragraph) is wrapped anew, its continuation at
        # the column of the descriptions
        paragraphs: list[str] = []
        for line in text.splitlines():
            entry = line.startswith("  ") and not line.startswith(" " * HELP_COLUMN)
            if paragraphs and not entry:
                paragraphs[-1] += " " + line.strip()
            else:
                paragraphs.append(line)
        for paragraph in paragraphs:
            indent = " " * HELP_COLUMN if paragraph.startswith("  ") else ""
            for part in textwrap.wrap(paragraph, width, subsequent_indent=indent, break_long_words=False,
                                      break_on_hyphens=False):
                self.say(part)

    def _do_quit(self, rest: str) -> None:
        if self._histories() != self._saved:  # nothing to ask right after a save
            self._offer_save(tr("Save the match first?"), tr("quit without saving"))
        raise QuitSession


def names_note(names: tuple[str, str]) -> str:
    """What to tell the person when a .mat file holds ``names`` changed (:func:`mat_names`); "" if not."""
    safe = mat_names(names)
    if safe == names:
        return ""
    return tr("A .mat file cannot hold the players' names as they are: they are saved as {first} and "
              "{second}.", first=quote(safe[0]), second=quote(safe[1]))


def save_match(match: Match, path: str, names: tuple[str, str],
               source: Transcript | None = None) -> tuple[bool, str]:
    """Write the match in the format the file's extension names (``.sgf``: GNU Backgammon's SGF;
    ``.mat`` for any other), so that it reads back as what it is called; returns whether it was
    written and what to tell the person. ``source``: the file the match was resumed from, whose
    match information (a site's header tags: Site, Event, Match ID ...) the file keeps."""
    fmt = writing_format(path)
    if fmt.write is None:
        why = tr("gammon cannot write {format} files: name it .mat or .sgf", format=fmt.name)
        return False, tr("Could not save to {file}: {why}.", file=quote(path, PATH_QUOTE_LIMIT), why=why)
    written = mat_names(names) if fmt.name == "mat" else names
    try:
        transcript = (Transcript(match, written, dict(source.info), record=source.record) if source
                      else Transcript(match, written))
        write_whole(path, fmt.write(transcript))  # a failed save leaves the file saved before whole
    except OSError as e:
        why = os_error_words(e) if e.strerror else tr("the file cannot be written")
        return False, tr("Could not save to {file}: {why}.", file=quote(path, PATH_QUOTE_LIMIT), why=why)
    except ValueError as e:
        why = tidy(str(e))
        return False, tr("Could not save to {file}: {why}.", file=quote(path, PATH_QUOTE_LIMIT), why=why)
    note = names_note(names) if written != names else ""
    return True, " ".join(filter(None, [tr("Saved to {path}.", path=printable(path)), note]))
