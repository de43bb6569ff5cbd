"""The terminal game as a newcomer meets it: saving at the end, hints for the player who must
answer, the board after one's own play, messages in a player's words, prefixes that fit two
commands. Each test drives PlaySession with scripted lines and ScriptedDice."""

from __future__ import annotations

import io
import re

from rich.console import Console

from gammon.cli.session import HELP, PlaySession, Seat
from gammon.dice import ScriptedDice
from gammon.engine.players import computer_player
from gammon.game import GamePhase, PlayMade
from gammon.i18n import tr, use_language
from gammon.match import Match
from gammon.rules import Rules

# (player 0's die, player 1's die): 2-5, so O (player 1) opens with 5-2 when two people play.
O_OPENS = (2, 5)
O_OPENING_PLAY = "13/8 24/22"
PROMPT = re.compile(r"^(?:X|O|You) \(.*?\) > ")  # input is not echoed: what follows a prompt is said


def run_session(lines: list[str], dice: list[tuple[int, int]], rules: Rules | None = None,
                computer: str | None = None) -> tuple[PlaySession, str]:
    """Play ``lines`` (then end of input) as X and O, or as "You" against ``computer``."""
    out = io.StringIO()
    match = Match(rules or Rules(), ScriptedDice(dice))
    seats = ((Seat("You"), Seat(computer, computer_player(computer, seed=1))) if computer
             else (Seat("X"), Seat("O")))
    session = PlaySession(match, seats, console=Console(file=out, width=120),
                          stdin=io.StringIO("".join(line + "\n" for line in lines)), color=False)
    session.run()
    return session, out.getvalue()


def after(text: str, marker: str) -> str:
    assert marker in text, f"{marker!r} not in the output"
    return text[text.index(marker) + len(marker):]


# --- saving ----------------------------------------------------------------------------------


def test_a_finished_match_can_be_saved_at_the_end_and_save_typed_there_is_not_lost(tmp_path):
    bad = tmp_path / "no" / "such" / "dir.mat"
    target = tmp_path / "won.mat"
    # O opens, X resigns, O accepts: O wins the 1-point match.
    _, out = run_session([O_OPENING_PLAY, "resign", "accept", f"save {bad}", f"save {target}"],
                         [O_OPENS], Rules(match_length=1))
    assert "O wins the match." in out
    end = after(out, "O wins the match.")
    assert "The match is over. Save it?" in end
    assert "Could not save to" in end  # asked again after a path that cannot be written
    assert f"Saved to {target}." in end and end.rstrip().endswith("Goodbye.")
    text = target.read_text()
    assert " 1 point match" in text and "52: 13/8 24/22" in text and "Wins 1 point" in text


def test_quit_right_after_a_save_does_not_ask_again_but_after_another_play_it_does(tmp_path):
    target = tmp_path / "m.mat"
    _, out = run_session([f"save {target}", "quit"], [O_OPENS], Rules(match_length=3))
    assert f"Saved to {target}." in out and "Save the match first?" not in out
    assert out.rstrip().endswith("Goodbye.")
    again = tmp_path / "again.mat"  # a new file: the first session's would be asked about first
    _, out = run_session([f"save {again}", O_OPENING_PLAY, "quit", ""], [O_OPENS], Rules(match_length=3))
    assert "Save the match first?" in after(out, f"Saved to {again}.")


def test_a_match_saved_between_games_holds_the_finished_game(tmp_path):
    target = tmp_path / "game1.mat"
    session, out = run_session([O_OPENING_PLAY, "resign", "accept", "board", f"save {target}", ""],
                               [O_OPENS, (4, 1)], Rules(match_length=3))
    between = after(out, "Score: X 0, O 1 (match to 3).")
    assert between.startswith("\nPress Enter to start game 2 > ")
    assert f"Saved to {target}." in between
    text = target.read_text()
    assert "Game 1" in text and "Wins 1 point" in text and "Game 2" not in text
    assert "X throws 4, O throws 1: X plays first." in between  # then Enter started game 2
    assert len(session.match.games) == 2


def test_a_money_session_is_saved_at_another_game_and_offered_when_leaving(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _, out = run_session([O_OPENING_PLAY, "resign", "accept", "save first.mat", "n", "save last.mat"],
                         [O_OPENS])
    assert "Please answer y or n" not in out
    assert "Saved to first.mat." in out
    assert "Save the session? Type a file name" in after(out, "Another game? [y/n]")
    assert "Saved to last.mat." in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["first.mat", "last.mat"]


def test_the_quit_prompt_reads_save_file_and_no_as_a_player_means_them(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _, out = run_session(["quit", "save mine.mat"], [O_OPENS])
    assert "Saved to mine.mat." in out
    _, out = run_session(["quit", "n"], [O_OPENS])
    assert "Saved" not in out and out.rstrip().endswith("Goodbye.")
    assert [p.name for p in tmp_path.iterdir()] == ["mine.mat"]  # no 'save mine.mat', no 'n'


# --- hints -----------------------------------------------------------------------------------


def test_hint_facing_a_double_advises_the_taker_from_the_takers_side():
    from gammon.engine.engine import Engine

    session, out = run_session([O_OPENING_PLAY, "double", "hint"], [O_OPENS])
    g = session.match.game
    assert g.phase == GamePhase.DOUBLED and g.turn == 1  # O must answer X's double
    advice = [PROMPT.sub("", line) for line in out.splitlines() if "Cube advice" in line]
    assert len(advice) == 1 and advice[0].startswith("Cube advice for O: ")
    decision = Engine().cube_decision(g)  # the double judged from X's side
    answer = "beaver" if decision.beaver else "take" if decision.take else "pass"
    assert advice[0].startswith(f"Cube advice for O: {answer} ")
    take, drop = (float(x) for x in re.findall(r"after a (?:take|pass) ([+-]\d\.\d{3})", advice[0]))
    assert drop == -1.0  # O loses the cube's value by passing
    assert abs(take + decision.double_take) < 1e-3  # and gets the opposite of X's double/take
    assert answer == ("take" if take >= drop else "pass")
    assert "no double" not in advice[0]


def test_hint_before_the_roll_names_the_player_on_roll():
    _, out = run_session([O_OPENING_PLAY, "hint"], [O_OPENS])
    assert "Cube advice for X: no double" in out
    _, out = run_session(["hint 2"], [(5, 2)], computer="random")  # You open 5-2
    assert "Best plays for you (cubeless equity" in out and "  2. " in out and "  3. " not in out


def test_hint_before_a_roll_without_the_cube_gives_no_cube_advice():
    # O opens, X doubles and O takes: X, on roll, cannot double again; then a game without the cube
    _, out = run_session([O_OPENING_PLAY, "double", "take", "hint"], [O_OPENS])
    assert "X (roll) > No cube decision for X: O owns the cube; roll (Enter).\n" in out
    _, out = run_session([O_OPENING_PLAY, "hint"], [O_OPENS], Rules(use_cube=False))
    assert "No cube decision for X: this game is played without the cube; roll (Enter)." in out
    assert "Cube advice" not in out  # which weighed a double/take that cannot be


# --- the board after one's own play ----------------------------------------------------------


def test_the_board_is_drawn_after_a_typed_play_before_the_computer_acts():
    session, out = run_session([O_OPENING_PLAY], [(5, 2)], computer="random")  # You open 5-2
    g = session.match.game
    assert g.turn == 1 and g.phase == GamePhase.ROLL  # the play awaits Enter
    between = after(out, "You play 5-2: 24/22 13/8")
    between = between[:between.index("You (Enter to end the turn, or undo) > ")]
    assert f"GNU Backgammon ID: {g.position.id}:" in between
    assert "│" in between


def test_two_players_see_the_board_after_a_play_even_when_no_double_is_possible():
    session, out = run_session([O_OPENING_PLAY], [O_OPENS], Rules(use_cube=False))
    between = after(out, "O plays 5-2: 24/22 13/8")
    assert f"GNU Backgammon ID: {session.match.game.position.id}:" in between
    assert between.count("GNU Backgammon ID:") == 1  # drawn once, not again at X's prompt


# --- messages --------------------------------------------------------------------------------

INTERNAL = re.compile(r"phase|player [01]|GamePhase|WinKind|\b(MOVE|ROLL|DOUBLED|RESIGNED|OPENING)\b"
                      r"|accept_resignation|reject_resignation|Position\.from_id|Play\(|<Game|\\x")


def test_refusals_speak_a_players_words_and_quote_input_once_and_short():
    long_garbage = "x" * 300
    long_move = "24/18 " + "y" * 200
    _, out = run_session([
        # O to play 5-2
        "take", "accept", "reject", "roll", "double", "undo", "beaver", "13/7(5)", long_garbage,
        long_move, "24/1", O_OPENING_PLAY,
        # X to roll or double
        "13/7", "take", "double",
        # O doubled
        "roll", "beaver", "13/8", "", "take",
        # X to roll; O owns the cube
        "double", "",
        # X to play 6-4; then X resigns and O must answer
        "resign", "roll", "double", "", "reject",
    ], [O_OPENS, (6, 4)])
    assert not INTERNAL.search(out), INTERNAL.search(out)
    said = [PROMPT.sub("", line) for line in out.splitlines()]
    expected = [
        "Sorry: there is no double to answer.",
        "Sorry: there is no resignation to answer.",
        "Sorry: the dice are rolled: play the 5-2.",
        "Sorry: a double is offered before rolling, not after.",
        "Sorry: there is no play to take back.",
        "Roll first ('13/7' is a move): press Enter or type 'roll'.",
        "Sorry: first answer the double: take or pass.",
        "Sorry: beavers are off in this game ('gammon play --beavers' allows them).",
        "Please answer: take or pass.",
        "Sorry: O owns the cube.",
        "Sorry: first answer the resignation: accept or reject.",
        "Please answer: accept or reject.",
    ]
    for line in expected:
        assert line in said, line
    # what was typed is quoted once, cut when it is long
    assert max(len(line) for line in said) <= 150
    garbage_lines = [line for line in said if "xxxxxxxxxx" in line]
    assert garbage_lines == [f"Unknown command '{'x' * 49}…'; type 'help' for the list."]
    move_lines = [line for line in said if "yyyyyyyyyy" in line]
    assert len(move_lines) == 1 and re.findall("y{10,}…?", move_lines[0]) == ["y" * 49 + "…"]
    repeat = [line for line in said if "13/7(5)" in line]
    assert repeat == ["Sorry: repeat count in '13/7(5)' must be 1-4."]
    illegal = [line for line in said if "'24/1'" in line]
    assert len(illegal) == 1 and "jOfg" not in illegal[0] and " 52" not in illegal[0]


# --- prefixes --------------------------------------------------------------------------------


def test_a_prefix_that_fits_two_commands_asks_which_and_a_unique_prefix_works():
    session, out = run_session(["h", "r", "d", "p", "b", "pi", "he", O_OPENING_PLAY, "ro"],
                               [O_OPENS, (6, 4)])
    for question in ("Did you mean hint or help?", "Did you mean roll, resign or reject?",
                     "Did you mean double or drop?", "Did you mean pass or pips?",
                     "Did you mean beaver or board?"):
        assert question in out
    assert out.count("Commands (") == 1  # 'he' showed the help, 'h' did not
    assert "Pips: O 167, X 167" in out   # 'pi'
    assert "X rolls 6-4." in out         # 'ro'
    g = session.match.game
    assert g.phase == GamePhase.MOVE and g.turn == 0 and g.cube_value == 1


# --- found while playing ---------------------------------------------------------------------


def test_the_person_cannot_take_back_the_computers_play():
    session, out = run_session(["undo", "u"], [O_OPENS, (6, 4)], computer="random")
    g = session.match.game
    assert out.count("Sorry: there is no play of yours to take back.") == 2
    assert out.count("random plays 5-2") == 1
    last = g.history[-1]
    assert isinstance(last, PlayMade) and last.player == 1 and g.phase == GamePhase.ROLL and g.turn == 0


def test_the_end_of_turn_prompt_keeps_what_is_typed():
    session, out = run_session([O_OPENING_PLAY, "pips", "13/8", "board", "nonsense", ""],
                               [(5, 2), (6, 4)], computer="random")
    confirm = after(out, "You play 5-2: 24/22 13/8")
    assert "Pips: You 160, random 167 (difference -7)." in confirm
    assert "Your play is made: press Enter to end your turn, or type 'undo' to change it." in confirm
    assert "(not 'nonsense')" in confirm
    assert "random plays 6-4" in confirm  # Enter ended the turn
    assert session.match.game.turn == 0


def test_a_double_shows_on_the_board_and_the_prompt_lists_the_answers():
    _, out = run_session([O_OPENING_PLAY, "double"], [O_OPENS], Rules(beavers=True))
    doubled = after(out, "X doubles to 2.")
    assert "[2]  offered by X" in doubled and "cube centred" not in doubled
    assert doubled.rstrip().splitlines()[-2] == "O (doubled to 2: take, pass or beaver) > "


class CtrlC(io.StringIO):
    """A keyboard on which every line read is a Ctrl-C."""

    def readline(self, size: int = -1) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_offers_to_save_and_a_second_ctrl_c_leaves_on_a_new_line():
    out = io.StringIO()
    session = PlaySession(Match(Rules(), ScriptedDice([O_OPENS])), (Seat("X"), Seat("O")),
                          console=Console(file=out, width=120), stdin=CtrlC(), color=False)
    assert session.run() == 0
    assert out.getvalue().endswith("Interrupted.\nSave the match first? Type a file name, or press Enter "
                                   "to quit without saving: \nGoodbye.\n")


def test_a_new_player_is_told_what_is_played_and_where_the_commands_are():
    _, out = run_session([], [(5, 2)], Rules(match_length=3), computer="random")
    assert out.startswith("A match to 3 points: You against random. Type 'help' for the commands, "
                          "'quit' to leave.\nYou throw 5, random throws 2: You play first.\n")
    _, out = run_session([], [O_OPENS])
    assert out.startswith("A money game: X against O. Type 'help'")


def test_hint_in_a_match_ranks_the_plays_by_match_winning_chances():
    _, out = run_session(["hint 5"], [(5, 2)], Rules(match_length=5), computer="random")  # You open 5-2
    assert "Best plays for you (match winning chances, " in out and "cubeless" not in out
    shown = re.findall(r"^\s+\d\. .*?(\d+\.\d)%$", out, re.MULTILINE)
    assert len(shown) == 5 and [float(x) for x in shown] == sorted((float(x) for x in shown), reverse=True)


def test_an_illegal_play_says_which_rule_it_breaks():
    _, out = run_session(["6/off"], [(5, 2)], computer="random")  # You open 5-2
    why = "you cannot bear off while a checker is outside your home board"
    assert f"'6/off' is not a legal play: {why}" in out


def test_the_board_fits_the_terminals_width():
    # the side panel beside the rows made them 79 columns wide, wrapped by a narrower terminal
    out = io.StringIO()
    session = PlaySession(Match(Rules(), ScriptedDice([O_OPENS])), (Seat("X"), Seat("O")),
                          console=Console(file=out, width=60), stdin=io.StringIO("quit\n\n"), color=False)
    session.run()
    board = [line for line in out.getvalue().splitlines() if "│" in line or "pips" in line]
    assert board and max(len(line) for line in board) <= 60
    assert "  pips 167  off 0    score 0" in board


def test_hint_takes_a_count_of_ascii_digits_only():
    # 'hint ²' passed str.isdigit() and int() refused it: "Unexpected error (invalid literal ...)"
    lines = ["hint ²", "hint " + "9" * 5000, "hint ٣", "hint 2"]
    _, out = run_session(lines, [O_OPENS])
    assert "Unexpected error" not in out
    for typed in ("'²'", "'" + "9" * 49 + "…'", "'٣'"):
        assert f"Usage: hint [N] for the N best plays (1-99), not {typed}." in out
    assert re.search(r"Best plays for O .*\n  1\. .*\n  2\. .*\nO \(", out)


def test_a_saved_files_name_reaches_the_terminal_without_its_control_characters(tmp_path, monkeypatch):
    # 'save r<ESC>[31mred.mat' answered "Saved to r<ESC>[31mred.mat.", which turned the terminal red
    monkeypatch.chdir(tmp_path)
    _, out = run_session(["save r\x1b[31mred.mat"], [O_OPENS])
    assert "Saved to r\\x1b[31mred.mat." in out and "\x1b" not in out
    assert (tmp_path / "r\x1b[31mred.mat").exists()


def test_a_double_after_the_roll_is_refused_for_the_reason_the_cube_gives():
    # "a double is offered before rolling, not after" was said where no double is ever allowed
    said_after_the_roll = {
        Rules(use_cube=False): "Sorry: this game is played without the cube.",
        Rules(): "Sorry: a double is offered before rolling, not after.",
    }
    for rules, refusal in said_after_the_roll.items():
        _, out = run_session(["double"], [O_OPENS], rules=rules)  # O is to play its 5-2
        assert f"O (5-2 to play) > {refusal}\n" in out
    # X has the cube on 2 against it: O owns it
    _, out = run_session([O_OPENING_PLAY, "double", "take", "", "double"], [O_OPENS, (6, 4)])
    assert "X (6-4 to play) > Sorry: O owns the cube.\n" in out
    # the Crawford game of a match to 2, O 1 point ahead
    _, out = run_session([O_OPENING_PLAY, "resign", "accept", "", "double"], [O_OPENS, (2, 5)],
                         rules=Rules(match_length=2))
    assert "O (5-2 to play) > Sorry: there is no doubling in the Crawford game.\n" in out


def test_help_is_wrapped_to_a_terminal_narrower_than_it():
    # its lines ran to 94 columns in English and in Polish, cut mid-word by an 80-column terminal
    for lang in ("en", "pl"):
        for width in (80, 60):
            out = io.StringIO()
            session = PlaySession(Match(Rules(), ScriptedDice([O_OPENS])), (Seat("X"), Seat("O")),
                                  console=Console(file=out, width=width), stdin=io.StringIO("help\n"),
                                  color=False)
            with use_language(lang):
                session.run()
                text = tr(HELP)
            # after the prompt, which a terminal leaves for the next line with the typed Enter
            shown = re.split(r"(?m)^O \(.*?\) > ", out.getvalue())[1].splitlines()
            assert max(len(line) for line in shown) <= width
            assert " ".join(shown).split() == text.split()  # every word, in order
            assert shown[-1].startswith("  ")  # an entry, its description under the others'
    _, out = run_session(["help"], [O_OPENS])  # 120 columns: as written
    assert tr(HELP) in out
