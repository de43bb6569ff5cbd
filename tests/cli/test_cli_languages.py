"""The terminal in Polish, Czech and Slovak: its commands in the player's language (English always
works too, and no translated word is taken for another command), a game played in Polish, and
the language chosen by --lang or the locale."""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys

import pytest
from rich.console import Console

from gammon.cli.main import build_parser, main
from gammon.cli.session import COMMANDS, PlaySession, Seat, resolve
from gammon.cli.words import fold, local_commands, local_resign_words, no_words, yes_words
from gammon.dice import ScriptedDice
from gammon.i18n import use_language
from gammon.match import Match
from gammon.rules import Rules

OTHER_LANGUAGES = ("pl", "cs", "sk")


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_command_word_of_a_language_names_its_command_and_english_still_works(lang):
    with use_language(lang):
        local = local_commands()
        assert set(local.values()) == set(COMMANDS.values()) - {"beaver", "tutor"}  # every command has a word
        for word, command in local.items():
            assert resolve(word) == (command, []), word  # as written...
            assert resolve(fold(word).upper()) == (command, []), word  # ...and without accents, any case
            # a translated word is never another command's English word
            assert COMMANDS.get(fold(word), command) == command, word
        for word, command in COMMANDS.items():
            assert resolve(word) == (command, []), word
        assert resolve("ro") == ("roll", [])  # the English prefixes the help names
        assert resolve("dr") == ("pass", [])
        # the answers: no word says both yes and no, and a resignation's words are its own
        assert not yes_words() & no_words()
        assert {"y", "yes", "n", "no"} <= yes_words() | no_words()
        assert set(local_resign_words().values()) == {1, 2, 3}


def test_english_has_no_other_words():
    assert local_commands() == {} and resolve("rzuć") == (None, [])


def play(lines: list[str], dice: list[tuple[int, int]], lang: str = "pl") -> str:
    """Two people (X and O) play ``lines`` in ``lang`` (then end of input); what was printed."""
    out = io.StringIO()
    match = Match(Rules(), ScriptedDice(dice))
    session = PlaySession(
        match,
        (Seat("X"), Seat("O")),
        console=Console(file=out, width=120),
        stdin=io.StringIO("".join(line + "\n" for line in lines)),
        color=False,
    )
    with use_language(lang):
        session.run()
    return out.getvalue()


def test_a_money_game_played_in_polish():
    # O opens with 5-2; X doubles, O takes; X plays 4-1; O redoubles and X passes
    out = play(
        [
            "13/8 24/22",
            "akceptuj",
            "podwoj",
            "przyjmij",
            "rzuc",
            "13/5",
            "24/23 13/9",
            "podwój",
            "plansza",
            "pas",
            "n",
            "",
        ],
        [(2, 5), (4, 1)],
    )
    said = [
        "Gra o stawkę: X przeciw O. Wpisz 'pomoc', aby zobaczyć polecenia, 'koniec', aby wyjść.",
        "X wyrzuca 2, O wyrzuca 5: O zaczyna.",
        "O gra 5-2: 24/22 13/8.",
        "Niestety: nie ma poddania, na które trzeba odpowiedzieć.",  # 'akceptuj' answers a resignation
        "X podwaja do 2.",
        "O (podwojenie do 2: przyjmij lub pas) > ",
        "O przyjmuje kostkę. Kostka dublująca jest na 2.",
        "Niestety: '13/5' nie jest dozwolonym ruchem",
        "X gra 4-1: 24/23 13/9.",
        "kostkę ma O",  # the board's cube
        "O podwaja do 4.",
        "X odrzuca kostkę.",
        "O wygrywa pojedynczą grę po odrzuceniu podwojenia, 2 punkty.",
        "Wynik: X 0, O 2.",
        "Jeszcze jedna gra? [t/n] ",
        "Zapisać sesję? Wpisz nazwę pliku albo naciśnij Enter, aby wyjść: ",
        "Do widzenia.",
    ]
    at = 0
    for text in said:  # in this order
        assert text in out[at:], text
        at = out.index(text, at) + len(text)
    for english in ("You", "roll", "Score", "wins", "Sorry", "Goodbye", "money game", "pips", "cube"):
        assert english not in out, english


def test_a_resignation_in_czech_and_a_prefix_that_fits_two_commands_in_slovak():
    out = play(["13/8 24/22", "vzdej gammon", "souhlas"], [(2, 5)], lang="cs")
    assert "X nabízí, že prohraje gammon." in out
    assert "O vyhrává gammon vzdáním, 1 bod." in out  # the Jacoby rule: a centred cube
    out = play(["13/8 24/22", "z", "zdv", "odmietni", "n", ""], [(2, 5)], lang="sk")
    assert "Možno myslíš zdvoj alebo zamietni?" in out
    assert "X zdvojuje na 2." in out and "O odmieta kocku." in out and "X vyhráva jednoduchú hru" in out


def gammon_play(args: list[str], env: dict[str, str], stdin: str) -> str:
    return subprocess.run(
        [sys.executable, "-m", "gammon", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
        check=True,
    ).stdout


@pytest.mark.slow  # three runs of the command
def test_the_command_speaks_the_locales_language_unless_lang_says_otherwise():
    slovak = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "sk_SK.UTF-8"}
    out = gammon_play(["play", "--two-player", "--plain", "--seed", "1"], slovak, "koniec\n\n")
    assert "Hra o stávku: X proti O." in out and out.rstrip().endswith("Dovidenia.")
    out = gammon_play(["--lang", "cs", "play", "--two-player", "--plain", "--seed", "1"], slovak, "konec\n\n")
    assert "Hra o sázku: X proti O." in out and out.rstrip().endswith("Na shledanou.")
    out = gammon_play(
        ["play", "--lang", "en", "--two-player", "--plain", "--seed", "1"], {"LANGUAGE": "pl"}, "quit\n\n"
    )
    assert "A money game: X against O." in out and out.rstrip().endswith("Goodbye.")


def test_the_cube_advice_says_in_english_what_the_engine_says_and_is_translated():
    from gammon.cli.words import cube_advice
    from gammon.engine.cube.decision import CubeAction, CubeDecision

    decision = CubeDecision(CubeAction.TOO_GOOD_TAKE, True, 0.1, 0.2, -0.3, None, (0.5, 0.6, 0.7))  # type: ignore[arg-type]
    assert cube_advice(decision) == str(decision)
    with use_language("pl"):
        assert cube_advice(decision).startswith("za dobrze na podwojenie, przyjęcie (odpowiedź przeciwnika")


def _helps(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Every help and description text of ``parser`` and its subcommands, by where it stands."""
    found = {"description": parser.description or ""}
    for action in parser._actions:
        if action.help and action.help != argparse.SUPPRESS:
            found[f"{parser.prog} {'/'.join(action.option_strings) or action.dest}"] = action.help
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                found[f"{parser.prog} {choice.dest}"] = choice.help or ""
            for name, sub in action.choices.items():
                found |= {f"{name} {k}": v for k, v in _helps(sub).items()}
    return found


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_commands_help_is_translated(lang):
    english = _helps(build_parser())
    with use_language(lang):
        local = _helps(build_parser())
    assert local.keys() == english.keys()
    assert [where for where, text in local.items() if text == english[where]] == []


@pytest.mark.parametrize(
    "command",
    [
        "play",
        "hint",
        "eval",
        "rollout",
        "analyse",
        "convert",
        "serve",
        "account",
        "import",
        "drill",
        "external",
        "diagram",
    ],
)
def test_each_commands_help_in_polish(command, capsys):
    with pytest.raises(SystemExit) as done:
        main(["--lang", "pl", command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("użycie: gammon ") and "\nopcje:\n" in out, out
    assert "pokaż tę pomoc i zakończ" in out and "usage:" not in out and "show this help" not in out
    # --lang after the command says the same
    with pytest.raises(SystemExit):
        main([command, "--lang", "pl", "--help"])
    assert capsys.readouterr().out == out


def test_argparse_errors_and_a_commands_refusal_in_polish(capsys, tmp_path):
    with pytest.raises(SystemExit) as done:
        main(["play", "--lang", "pl", "--match", "x"])
    assert done.value.code == 2
    assert capsys.readouterr().err.endswith(
        "gammon play: błąd: argument --match: 'x' nie jest liczbą całkowitą\n"
    )
    with pytest.raises(SystemExit):
        main(["--lang", "pl", "hint"])
    assert "błąd: wymagane są argumenty: id" in capsys.readouterr().err
    assert (
        main(["--lang", "pl", "import", str(tmp_path), "--player", "Ala", "--database-url", "sqlite://"]) == 2
    )
    assert (
        capsys.readouterr().err
        == f"gammon import: brak plików meczów (.mat, .txt, .sgf, .xg) w {str(tmp_path)!r}\n"
    )


def test_the_help_and_errors_stay_english_without_a_language(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: gammon play ") and "\noptions:\n" in out
    assert "  -h, --help            show this help message and exit\n" in out
    with pytest.raises(SystemExit):
        main(["play", "--match", "x"])
    assert capsys.readouterr().err.endswith(
        "gammon play: error: argument --match: 'x' is not a whole number\n"
    )


def test_polish_words_are_understood_without_the_letter_l_with_a_stroke():
    # 'ł' has no decomposition in Unicode: stripping accents alone left 'zwykła' unreachable as 'zwykla'
    assert fold("Łódź") == "lodz"
    with use_language("pl"):
        assert local_resign_words()["zwykla"] == 1
    out = play(["24/22 13/8", "poddaj zwykla", "akceptuj"], [(2, 5)])
    assert "O wygrywa pojedynczą grę przez poddanie, 1 punkt." in out
