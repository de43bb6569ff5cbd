"""The terminal game loop: a person against the computer, or two people at one keyboard.

The loop owns no rules: every action goes through :class:`gammon.match.Match` and its current
:class:`gammon.game.Game`, which validate it and leave the state unchanged when it is refused. The
loop only reads lines, turns them into actions and reports what happened, so bad input can never
lose the game in progress.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TextIO

from rich.console import Console
from rich.text import Text

from gammon.cli.board import PLAIN_GLYPHS, BoardView, render_board
from gammon.errors import GammonError
from gammon.game import Game, GamePhase
from gammon.match import Match
from gammon.players import ComputerPlayer
from gammon.rules import WinKind

HELP = """\
Commands (a prefix is enough where it is unambiguous):
  24/18 13/11     play a move in standard notation: bar/22*, 6/off, 13/7(2), 8/5*/3 ...
  roll            roll the dice (Enter does the same when it is time to roll)
  double          offer the cube before rolling
  take, pass      answer a double ('drop' = pass); beaver where the rules allow it
  resign [single|gammon|backgammon]   offer to resign (default: single)
  accept, reject  answer an offer to resign
  undo            take back the last play while the next player has not acted
  hint [N]        the N best plays for the dice (default 5), or cube advice before the roll
  board           draw the board again;  pips   the pip counts
  save FILE       save the match as a .mat file
  help            this text;  quit    leave (asks to save first)"""

WIN_WORDS = {WinKind.SINGLE: "a single game", WinKind.GAMMON: "a gammon", WinKind.BACKGAMMON: "a backgammon"}
HINT_PLAYS = 5


_YOU_FORMS = {"rolls": "roll", "plays": "play", "doubles": "double", "takes": "take", "passes": "pass",
              "beavers": "beaver", "offers": "offer", "accepts": "accept", "rejects": "reject",
              "wins": "win", "throws": "throw"}


def said(name: str, verb: str) -> str:
    """``name`` followed by ``verb`` in the third person, or the second person for "You"."""
    return f"{name} {_YOU_FORMS.get(verb, verb) if name == 'You' else verb}"


def format_dice(dice: tuple[int, int]) -> str:
    """Dice as players write them: the higher die first, "6-4"."""
    return f"{max(dice)}-{min(dice)}"


class QuitSession(Exception):
    """The person asked to leave, or input ended."""


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
    _shown: object = None

    def __post_init__(self) -> None:
        if self.color is None:
            c = self.console
            self.color = bool(c.is_terminal and c.color_system and not c.no_color)

    # --- output -------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False, emoji=False, soft_wrap=True)

    @property
    def game(self) -> Game:
        return self.match.game

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
        return BoardView(
            position=g.position_for(me),
            names=(self.seats[me].name, self.seats[1 - me].name),
            on_turn=rel[g.turn],
            dice=g.dice,
            cube_value=g.cube_value,
            cube_owner=rel[g.cube_owner],
            cube_in_use=rules.use_cube and not g.crawford_game,
            score=(self.match.score[me], self.match.score[1 - me]),
            match_length=rules.match_length,
            crawford=g.crawford_game,
            position_id=g.position.id,
            glyphs=(PLAIN_GLYPHS[me], PLAIN_GLYPHS[1 - me]),
            players=(me, 1 - me),
        )

    def show_board(self) -> None:
        for line in render_board(self.board_view(), color=bool(self.color)):
            self.console.print(line if self.color else Text(line.plain), highlight=False, soft_wrap=True)

    # --- input --------------------------------------------------------------------------------

    def ask(self, prompt: str) -> str:
        """One line from the person; EOF ends the session."""
        self.console.print(prompt, end="", markup=False, highlight=False, soft_wrap=True)
        self.console.file.flush()
        line = self.stdin.readline()
        if not line:
            self.say("")
            raise QuitSession
        return line.strip()

    # --- the loop -----------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the match ends, the person quits or input ends; returns an exit status."""
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
                seat = self.seats[g.turn]
                if seat.computer is not None:
                    self._computer_acts(seat)
                else:
                    self._person_acts(seat)
        except QuitSession:
            pass
        except KeyboardInterrupt:
            self.say("\nInterrupted.")
            try:
                self._do_quit(self.seats[0], [])
            except (QuitSession, KeyboardInterrupt):
                pass
        self.say("Goodbye.")
        return 0

    def _opening_roll(self) -> None:
        g = self.game
        dice = g.roll()
        first = g.turn
        names = self.seats
        self.say(f"{said(names[0].name, 'throws')} {dice[0]}, {said(names[1].name, 'throws')} {dice[1]}: "
                 f"{said(names[first].name, 'plays')} first.")
        if g.cube_value > 1:
            self.say(f"Automatic doubles: the cube is on {g.cube_value}.")

    def _after_game(self) -> bool:
        """Report the result; start the next game. False when the session is over."""
        result = self.game.result
        self.show_board()
        winner = self.seats[result.winner].name
        how = {"drop": " after the double is passed", "resign": " by resignation",
               "abandon": " as the other player left", "bear_off": ""}[result.reason]
        points = f"{result.points} point{'s' if result.points != 1 else ''}"
        self.say(f"{said(winner, 'wins')} {WIN_WORDS[result.kind]}{how}, {points}.")
        self.say(self._score_line())
        if self.match.is_over:
            self.say(f"{said(self.seats[self.match.winner].name, 'wins')} the match.")
            return False
        if self.match.rules.match_length == 0:
            while True:
                answer = self.ask("Another game? [y/n] ").lower()
                if answer in ("y", "yes", ""):
                    break
                if answer in ("n", "no", "q", "quit"):
                    return False
                self.say(f"Please answer y or n, not {answer!r}.")
        self.match.new_game()
        if self.match.is_crawford_game:
            self.say("This is the Crawford game: no doubling.")
        return True

    def _score_line(self) -> str:
        s = self.match.score
        length = self.match.rules.match_length
        tail = f" (match to {length})" if length else ""
        return f"Score: {self.seats[0].name} {s[0]}, {self.seats[1].name} {s[1]}{tail}."

    # --- the computer -------------------------------------------------------------------------

    def _computer_acts(self, seat: Seat) -> None:
        g = self.game
        bot = seat.computer
        assert bot is not None
        phase = g.phase
        if phase == GamePhase.ROLL:
            if bot.wants_to_double(g):
                g.double()
                self.say(f"{said(seat.name, 'doubles')} to {g.cube_value * 2}.")
            else:
                self._roll(seat)
        elif phase == GamePhase.MOVE:
            play = bot.choose_play(g)
            dice = g.dice
            g.play(play)
            self.say(f"{said(seat.name, 'plays')} {format_dice(dice)}: {play}")
        elif phase == GamePhase.DOUBLED:
            answer = bot.answer_double(g)
            getattr(g, answer)()
            words = {"take": "takes", "drop": "passes", "beaver": "beavers"}
            self.say(f"{said(seat.name, words[answer])}." + (
                f" The cube is on {g.cube_value}." if answer != "drop" else ""))
        elif phase == GamePhase.RESIGNED:
            if bot.accepts_resignation(g):
                g.accept_resignation()
                self.say(f"{said(seat.name, 'accepts')}.")
            else:
                g.reject_resignation()
                self.say(f"{said(seat.name, 'rejects')} the resignation; play on.")

    def _roll(self, seat: Seat) -> None:
        """Roll for the player on turn; say so when the roll cannot be played."""
        g = self.game
        before = len(g.history)
        dice = g.roll()
        passed = any(getattr(a, "play", 1) is None for a in g.history[before:])
        if passed:
            self.say(f"{said(seat.name, 'rolls')} {format_dice(dice)} and cannot move.")
        elif seat.computer is None:
            self.say(f"{said(seat.name, 'rolls')} {format_dice(dice)}.")

    # --- the person ---------------------------------------------------------------------------

    def _person_acts(self, seat: Seat) -> None:
        g = self.game
        phase = g.phase
        state = (id(g), len(g.history), phase)
        # The board before each decision: at the roll only when the cube is an option.
        wants_board = phase != GamePhase.ROLL or g.can_double()
        if wants_board and self._shown != state:
            self.show_board()
            self._shown = state
        if phase == GamePhase.ROLL and self.auto_roll and not g.can_double():
            self._roll(seat)
            return
        line = self.ask(self._prompt(seat))
        try:
            self._command(seat, line)
        except QuitSession:
            raise
        except GammonError as e:
            self.say(f"Sorry: {e}")
        except Exception as e:  # noqa: BLE001 - a bug must not cost the person the game in progress
            self.say(f"Unexpected error ({type(e).__name__}: {e}); the game goes on.")

    def _prompt(self, seat: Seat) -> str:
        g = self.game
        phase = g.phase
        if phase == GamePhase.ROLL:
            what = "roll or double" if g.can_double() else "roll"
        elif phase == GamePhase.MOVE:
            what = f"{format_dice(g.dice)} to play"
        elif phase == GamePhase.DOUBLED:
            what = f"doubled to {g.cube_value * 2}: take or pass"
            if self.match.rules.beavers and self.match.rules.match_length == 0:
                what += " or beaver"
        else:
            kind = g.offered_resignation
            what = f"offered {WIN_WORDS[kind]}: accept or reject"
        return f"{seat.name} ({what}) > "

    def _command(self, seat: Seat, line: str) -> None:
        g = self.game
        words = line.split()
        word = words[0].lower() if words else ""
        args = words[1:]
        phase = g.phase
        if not word:
            if phase == GamePhase.ROLL:
                self._roll(seat)
            elif phase == GamePhase.MOVE:
                self.say("Type your move, e.g. 13/7 8/7, or 'help'.")
            else:
                self.say("Please answer: " + self._prompt(seat).split("(", 1)[1].split(")")[0] + ".")
            return
        command = _COMMANDS.get(word) or _unique_prefix(word)
        if command is None:
            looks_like_move = any(c.isdigit() for c in line)
            if phase == GamePhase.MOVE and looks_like_move:
                self._play(seat, line)
                return
            if looks_like_move and phase == GamePhase.ROLL:
                self.say(f"Roll first ({line!r} is a move); press Enter or type 'roll'.")
                return
            self.say(f"Unknown command {line!r}; type 'help' for the list.")
            return
        getattr(self, f"_do_{command}")(seat, args)

    def _play(self, seat: Seat, text: str) -> None:
        g = self.game
        play = g.position.parse_play(text, g.dice)
        g.play(play)
        self.say(f"{said(seat.name, 'plays')} {play}")
        # Against the computer, which acts at once, the turn ends only when the person says so:
        # until then 'undo' can take the play back.
        if self.confirm_plays and not g.is_over and self.seats[g.turn].computer is not None:
            self._confirm_play(seat)

    def _confirm_play(self, seat: Seat) -> None:
        while True:
            answer = self.ask(f"{seat.name} (Enter to end the turn, or undo) > ").lower()
            if not answer:
                return
            if answer in ("undo", "u"):
                self.game.undo()
                self.say("Play taken back.")
                return
            if answer in ("board", "b"):
                self.show_board()
                continue
            self.say(f"Press Enter to end your turn or type 'undo' (not {answer!r}).")

    def _do_roll(self, seat: Seat, args: list[str]) -> None:
        self._roll(seat)

    def _do_double(self, seat: Seat, args: list[str]) -> None:
        self.game.double()
        self.say(f"{said(seat.name, 'doubles')} to {self.game.cube_value * 2}.")

    def _do_take(self, seat: Seat, args: list[str]) -> None:
        self.game.take()
        self.say(f"{said(seat.name, 'takes')}. The cube is on {self.game.cube_value}.")

    def _do_drop(self, seat: Seat, args: list[str]) -> None:
        self.game.drop()
        self.say(f"{said(seat.name, 'passes')}.")

    def _do_beaver(self, seat: Seat, args: list[str]) -> None:
        self.game.beaver()
        self.say(f"{said(seat.name, 'beavers')}. The cube is on {self.game.cube_value}.")

    def _do_resign(self, seat: Seat, args: list[str]) -> None:
        kinds = {"single": WinKind.SINGLE, "s": WinKind.SINGLE, "normal": WinKind.SINGLE,
                 "gammon": WinKind.GAMMON, "g": WinKind.GAMMON,
                 "backgammon": WinKind.BACKGAMMON, "b": WinKind.BACKGAMMON}
        text = args[0].lower() if args else "single"
        if len(args) > 1 or text not in kinds:
            self.say(f"Resign how much? 'resign single', 'resign gammon' or 'resign backgammon', "
                     f"not {' '.join(args)!r}.")
            return
        self.game.resign(kinds[text])
        self.say(f"{said(seat.name, 'offers')} to resign {WIN_WORDS[kinds[text]]}.")

    def _do_accept(self, seat: Seat, args: list[str]) -> None:
        self.game.accept_resignation()
        self.say(f"{said(seat.name, 'accepts')} the resignation.")

    def _do_reject(self, seat: Seat, args: list[str]) -> None:
        self.game.reject_resignation()
        self.say(f"{said(seat.name, 'rejects')} the resignation; play on.")

    def _do_undo(self, seat: Seat, args: list[str]) -> None:
        self.game.undo()
        self._shown = None
        self.say("The last play is taken back.")

    def _do_hint(self, seat: Seat, args: list[str]) -> None:
        if len(args) > 1 or (args and not (args[0].isdigit() and 1 <= int(args[0]) <= 99)):
            self.say(f"Usage: hint [N] for the N best plays (1-99), not {' '.join(args)!r}.")
            return
        for line in hint_lines(self.game, int(args[0]) if args else HINT_PLAYS):
            self.say(line)

    def _do_board(self, seat: Seat, args: list[str]) -> None:
        self.show_board()

    def _do_pips(self, seat: Seat, args: list[str]) -> None:
        me = self._viewer()
        mine, theirs = self.game.position_for(me).pip_counts
        self.say(f"Pips: {self.seats[me].name} {mine}, {self.seats[1 - me].name} {theirs} "
                 f"(difference {mine - theirs:+d}).")

    def _do_save(self, seat: Seat, args: list[str]) -> None:
        if len(args) != 1:
            self.say("Usage: save FILE (a .mat file name).")
            return
        self.say(save_match(self.match, args[0], (self.seats[0].name, self.seats[1].name)))

    def _do_help(self, seat: Seat, args: list[str]) -> None:
        self.say(HELP)

    def _do_quit(self, seat: Seat, args: list[str]) -> None:
        answer = self.ask("Save the match first? Type a file name, or press Enter to quit without saving: ")
        if answer:
            self.say(save_match(self.match, answer, (self.seats[0].name, self.seats[1].name)))
        raise QuitSession


_COMMANDS = {
    "roll": "roll", "r": "roll", "double": "double", "d": "double", "take": "take", "t": "take",
    "pass": "drop", "drop": "drop", "p": "drop", "beaver": "beaver", "resign": "resign",
    "accept": "accept", "reject": "reject", "undo": "undo", "u": "undo", "hint": "hint",
    "board": "board", "pips": "pips", "save": "save", "help": "help", "?": "help", "h": "help",
    "quit": "quit", "q": "quit", "exit": "quit",
}


def _unique_prefix(word: str) -> str | None:
    """A command named by an unambiguous prefix of at least two letters ("ro", "dou")."""
    if len(word) < 2:
        return None
    found = {cmd for name, cmd in _COMMANDS.items() if len(name) > 1 and name.startswith(word)}
    return found.pop() if len(found) == 1 else None


def hint_lines(game: Game, n: int = HINT_PLAYS) -> list[str]:
    """Advice for the player on turn from the engine: the best plays for the dice, or the cube
    before the roll and when a double is offered."""
    engine = _engine()
    if game.phase in (GamePhase.ROLL, GamePhase.DOUBLED):
        return [f"Cube: {engine.cube_decision(game)}"]
    if game.phase != GamePhase.MOVE or game.dice is None:
        return ["No hint here: answer the resignation."]
    lines = [f"Best plays (cubeless equity for the player on roll, {engine.plies} ply):"]
    for i, h in enumerate(engine.hint(game.position, game.dice, n), 1):
        lines.append(f"  {i}. {str(h.play):<28} {h.equity:+.3f}")
    return lines


def _engine():  # noqa: ANN202 - the engine module is imported only when hints need it
    from gammon.engine.engine import Engine

    return Engine()


def save_match(match: Match, path: str, names: tuple[str, str]) -> str:
    """Write the match as a .mat file; returns what to tell the person."""
    try:
        from gammon.formats.mat import write_mat
    except ImportError:
        return "Saving is not available (gammon.formats.mat is missing)."
    try:
        write_mat(match, names=names, file=path)
    except OSError as e:
        return f"Could not save to {path!r}: {e.strerror or e}."
    except ValueError as e:
        return f"Could not save to {path!r}: {e}."
    return f"Saved to {path}."
