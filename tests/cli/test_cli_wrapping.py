"""gammon play's messages in a terminal narrower than them: wrapped at their spaces, never cut
mid-word by the terminal; a pipe or a file gets them whole."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from gammon.cli.session import PlaySession, Seat, _fitted
from gammon.dice import ScriptedDice
from gammon.i18n import use_language
from gammon.match import Match
from gammon.rules import Rules
from tests.cli.test_cli_session import O_OPENING_PLAY, O_OPENS

PROMPT = re.compile(r"(?m)^(?:X|O) \(.*?\) > ")  # input is not echoed: a message follows its prompt
BOARD_END = re.compile(r"[A-Za-z0-9+/]{14}:[A-Za-z0-9+/]{12}")  # the board's last line: its GNU Backgammon ID


def _said(lines: list[str], width: int, terminal: bool = True) -> list[str]:
    """The lines the session writes after each prompt, which the typed Enter leaves behind."""
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=terminal, color_system=None)
    session = PlaySession(Match(Rules(match_length=3), ScriptedDice([O_OPENS, (4, 1)])),
                          (Seat("X"), Seat("O")), console=console,
                          stdin=io.StringIO("".join(line + "\n" for line in lines)), color=False)
    session.run()
    return PROMPT.sub("", out.getvalue()).splitlines()


def _after_board(lines: list[str]) -> list[str]:
    # the board itself is laid out to the width its own way
    last = max(i for i, line in enumerate(lines) if BOARD_END.search(line))
    return lines[last + 1:]


@pytest.mark.parametrize("lang", ["en", "pl", "cs", "sk"])
@pytest.mark.parametrize("width", [80, 60])
def test_long_messages_fit_a_narrow_terminal_at_word_boundaries(lang: str, width: int) -> None:
    # the save usage, the cube advice and the save prompt ran to 110-190 columns
    with use_language(lang):
        narrow = _said([O_OPENING_PLAY, "save", "hint", "quit"], width)
        wide = _said([O_OPENING_PLAY, "save", "hint", "quit"], 400)
    assert max(len(line) for line in narrow) <= width
    assert max(len(line) for line in _after_board(wide)) > 100  # there were long messages to wrap
    # every word of the messages whole, in order
    assert " ".join(_after_board(narrow)).split() == " ".join(_after_board(wide)).split()


def test_a_pipe_gets_the_messages_whole() -> None:
    whole = _said([O_OPENING_PLAY, "save", "quit"], 80, terminal=False)
    assert any(line.startswith("Usage: save FILE") and len(line) > 100 for line in whole)


def test_a_wrapped_line_keeps_its_indent_and_a_word_wider_than_the_terminal_whole() -> None:
    assert _fitted("  one two three four", 10) == "  one two\n  three\n  four"
    path = "/a/" + "x" * 30
    assert _fitted(f"saved in {path} now", 20) == f"saved in\n{path}\nnow"
    assert _fitted("short\n\nlines", 5) == "short\n\nlines"
