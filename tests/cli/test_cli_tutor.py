"""The tutor in the terminal: a warning before a person's play or cube action that the engine
marks, then the person goes on, takes the better choice or chooses again, and the record keeps
the final choice; the computer is never tutored; the 'tutor' command and 'gammon play --tutor'.
The engine is at 0 ply for speed."""

from __future__ import annotations

import io
import re
from functools import lru_cache

from rich.console import Console

from gammon.analysis.marks import Skill
from gammon.cli.main import build_parser
from gammon.cli.session import PlaySession, Seat, tutor_level
from gammon.dice import ScriptedDice
from gammon.engine.engine import Engine
from gammon.engine.players import computer_player
from gammon.game import Double, PlayMade, Take
from gammon.i18n import use_language
from gammon.match import Match
from gammon.rules import Rules

X_OPENS_31 = (3, 1)  # player 0's die, player 1's die: X plays 3-1 first
O_OPENS = (2, 5)  # O plays 5-2 first, then X is on roll with the cube centred
BLUNDER = "24/21 24/23"
WARNING = "Tutor: 24/23 24/21 is a very bad play: it loses"
QUESTION = "Play it anyway? [y/N, or b for 8/5 6/5] "


@lru_cache(maxsize=1)
def engine() -> Engine:
    return Engine(plies=0)


def run(
    lines: list[str],
    dice: list[tuple[int, int]],
    tutor: Skill | None = Skill.DOUBTFUL,
    computer: str | None = None,
    rules: Rules | None = None,
) -> tuple[PlaySession, str]:
    """Play ``lines`` (then end of input) as X and O, or as "You" against ``computer``."""
    out = io.StringIO()
    seats = (
        (Seat("You"), Seat(computer, computer_player(computer, seed=1)))
        if computer
        else (Seat("X"), Seat("O"))
    )
    session = PlaySession(
        Match(rules or Rules(), ScriptedDice(dice)),
        seats,
        console=Console(file=out, width=120),
        stdin=io.StringIO("".join(line + "\n" for line in lines)),
        color=False,
        engine=engine(),
        tutor=tutor,
    )
    session.run()
    return session, out.getvalue()


def plays(session: PlaySession) -> list[str]:
    return [str(a.play) for a in session.match.game.history if isinstance(a, PlayMade)]


def test_the_player_goes_back_after_a_warning_and_the_record_keeps_the_new_play() -> None:
    session, out = run([BLUNDER, "", "8/5 6/5", "quit", ""], [X_OPENS_31])
    assert WARNING in out and QUESTION in out
    assert "Choose again." in out
    assert out.count("Tutor:") == 1  # the best play goes through quietly
    assert plays(session) == ["8/5 6/5"]


def test_the_player_plays_on_or_takes_the_better_play() -> None:
    session, out = run([BLUNDER, "y", "quit", ""], [X_OPENS_31])
    assert WARNING in out and plays(session) == ["24/23 24/21"]
    session, out = run([BLUNDER, "maybe", "b", "quit", ""], [X_OPENS_31])
    assert "Please answer y (go on), n (choose again) or b (8/5 6/5), not 'maybe'." in out
    assert plays(session) == ["8/5 6/5"]


def test_without_the_tutor_or_below_its_level_nothing_is_said() -> None:
    session, out = run([BLUNDER, "quit", ""], [X_OPENS_31], tutor=None)
    assert "Tutor:" not in out and plays(session) == ["24/23 24/21"]
    session, out = run(["24/18 13/8", "quit", ""], [(6, 5)], tutor=Skill.BAD)  # only doubtful
    assert "Tutor:" not in out and plays(session) == ["24/18 13/8"]
    session, out = run(["24/18 13/8", "", "24/13", "quit", ""], [(6, 5)])
    assert "Tutor: 24/18 13/8 is a doubtful play" in out and plays(session) == ["24/13"]


def test_cube_actions_are_tutored_and_the_record_keeps_the_final_answer() -> None:
    # X doubles at once after O's opening play and goes on; O passes, is warned, and takes.
    session, out = run(["13/8 24/22", "double", "y", "pass", "n", "take", "quit", ""], [O_OPENS])
    assert "Tutor: Doubling is a very bad cube decision: it loses" in out
    assert "Double anyway? [y/N, or b for no double] " in out
    assert "Tutor: Passing is a very bad cube decision" in out and "Better: take." in out
    history = session.match.game.history
    assert [type(a) for a in history if isinstance(a, Double | Take)] == [Double, Take]
    # the better choice instead of a double: the roll
    session, out = run(["13/8 24/22", "double", "b", "quit", ""], [O_OPENS, (4, 2)])
    assert not any(isinstance(a, Double) for a in session.match.game.history)
    assert session.match.game.dice == (4, 2)


def test_the_better_cube_action_is_said_in_the_players_language() -> None:
    # X doubles at once after O's opening play: the better choice, not doubling, was said in English
    with use_language("pl"):
        _, out = run(["13/8 24/22", "podwój", "x", "n", "koniec", ""], [O_OPENS])
    assert "Lepiej: bez podwojenia." in out
    assert "Podwoić mimo to? [t/N albo b: bez podwojenia] " in out
    assert "lub b (bez podwojenia), nie 'x'." in out
    assert "no double" not in out


def test_in_a_match_the_warning_gives_the_match_winning_chances_lost() -> None:
    _, out = run(["13/8 24/22", "double", "", "quit", ""], [O_OPENS], rules=Rules(match_length=5))
    assert re.search(
        r"Tutor: Doubling is a [a-z ]+ cube decision: it loses \d+\.\d\d% in match "
        r"winning chances \(\d\.\d{3} EMG\)\. Better: no double\.",
        out,
    )


def test_the_match_winning_chances_lost_are_said_with_the_languages_decimal_comma() -> None:
    with use_language("cs"):
        _, out = run(["13/8 24/22", "double", "", "quit", ""], [O_OPENS], rules=Rules(match_length=5))
    # the whole percent as the browser's tutor says it, with the no-break space of Czech
    assert re.search(r"ztrácí \d+,\d\d\u00a0% šancí na výhru zápasu \(\d,\d{3} EMG\)", out), out
    with use_language("pl"):
        _, out = run(["13/8 24/22", "double", "", "quit", ""], [O_OPENS], rules=Rules(match_length=5))
    assert re.search(r"\d+,\d\d% szans wygrania meczu \(\d,\d{3} EMG\)", out), out


def test_the_computer_is_never_tutored() -> None:
    # the random player opens for O and plays whatever it likes; only your own choices are judged
    session, out = run(["quit", ""], [O_OPENS], computer="random")
    assert "Tutor:" not in out
    assert len(plays(session)) == 1


def test_the_tutor_command_switches_it_and_sets_the_level() -> None:
    session, out = run(
        [
            "tutor",
            "tutor very bad",
            BLUNDER,
            "n",
            "tutor off",
            BLUNDER,
            "tutor on",
            "tutor",
            "tutor loud",
            "quit",
            "",
        ],
        [X_OPENS_31],
        tutor=None,
    )
    assert "The tutor is off. Usage: tutor on" in out
    assert "The tutor is on: it warns before a play or cube action marked very bad or worse." in out
    assert WARNING in out and "The tutor is off." in out
    assert "The tutor is on: it warns from doubtful. Usage:" in out
    assert "very-bad (the mark it warns from), not 'loud'." in out
    assert plays(session) == ["24/23 24/21"] and session.tutor is Skill.DOUBTFUL


def test_a_tutor_that_fails_lets_the_choice_through(monkeypatch) -> None:
    from gammon.analysis.tutor import Tutor

    def broken(*args: object) -> None:
        raise RuntimeError("no engine today")

    monkeypatch.setattr(Tutor, "warning", broken)
    session, out = run([BLUNDER, "quit", ""], [X_OPENS_31])
    assert "The tutor could not judge this (no engine today); it goes through." in out
    assert plays(session) == ["24/23 24/21"]


def test_gammon_play_takes_a_tutor_level() -> None:
    parse = build_parser().parse_args
    assert parse(["play"]).tutor is None
    assert parse(["play", "--tutor"]).tutor == "doubtful"
    assert parse(["play", "--tutor", "very-bad", "--match", "5"]).tutor == "very-bad"
    assert [tutor_level(w) for w in ("doubtful", "bad", "very-bad", "Very Bad", "on")] == [
        Skill.DOUBTFUL,
        Skill.BAD,
        Skill.VERY_BAD,
        Skill.VERY_BAD,
        None,
    ]
    assert "--tutor [LEVEL]" in build_parser()._subparsers._group_actions[0].choices["play"].format_help()
