"""Game: the rules of one game, action by action (docs/game-api.md)."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gammon import (
    Game,
    GamePhase,
    GameResult,
    IllegalActionError,
    IllegalMoveError,
    InvalidNotationError,
    Position,
    RandomDice,
    Request,
    Rules,
    ScriptedDice,
    WinKind,
)
from gammon.game import (
    Abandon,
    AcceptResignation,
    ActionKind,
    Beaver,
    Double,
    Pass,
    PlayMade,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from gammon.rules import win_kind

START = Position.initial()
NO_JACOBY = Rules(jacoby=False)


def snapshot(game: Game) -> tuple:
    """Everything a caller can see of a game."""
    return (game.phase, game.turn, game.position_for(0), game.dice, game.cube_value, game.cube_owner,
            game.offered_resignation, game.result, tuple(game.history), frozenset(game.legal_actions()),
            game.can_double(), game.can_undo(), tuple(game.legal_plays()))


def started(rules: Rules | None = None, rolls=(), **kwargs) -> Game:
    """Player 0 wins the opening roll 3-1 and plays 8/5 6/5; player 1 is to roll."""
    game = Game(rules, ScriptedDice([(3, 1), *rolls]), **kwargs)
    game.roll()
    game.play("8/5 6/5")
    return game


def count_checkers(position: Position) -> tuple[int, int]:
    b = position.board
    on_board = (sum(c for c in b if c > 0), -sum(c for c in b if c < 0))
    return (on_board[0] + position.off[0], on_board[1] + position.off[1])


# --- the opening roll ---------------------------------------------------------------------------


def test_a_new_game_waits_for_the_opening_roll():
    game = Game()
    assert game.phase is GamePhase.OPENING and game.turn is None and game.dice is None
    assert game.position == START and game.legal_actions() == {"roll", "abandon"}
    assert game.cube_value == 1 and game.cube_owner is None and game.result is None
    assert game.history == [] and game.legal_plays() == [] and not game.can_double()


@pytest.mark.parametrize("dice, mover", [((3, 1), 0), ((1, 3), 1), ((6, 5), 0), ((2, 6), 1)])
def test_the_higher_die_plays_both_numbers(dice, mover):
    game = Game(dice=ScriptedDice([dice]))
    assert game.roll() == dice
    assert (game.phase, game.turn, game.dice) == (GamePhase.MOVE, mover, dice)
    assert game.history == [Roll(mover, dice, opening=True)]
    assert {str(p) for p in game.legal_plays()} == {str(p) for p in START.legal_plays(dice)}


def test_opening_ties_throw_again_and_are_recorded():
    game = Game(dice=ScriptedDice([(2, 2), (5, 5), (1, 6)]))
    game.roll(player=0)  # anyone may throw the opening roll
    assert (game.turn, game.dice, game.cube_value) == (1, (1, 6), 1)
    assert game.history == [Roll(1, (1, 6), opening=True, ties=((2, 2), (5, 5)))]


def test_automatic_doubles_turn_the_centred_cube_on_ties_up_to_their_limit():
    ties = [(2, 2), (5, 5), (4, 4), (3, 1)]
    game = Game(Rules(automatic_doubles=2), ScriptedDice(ties))
    game.roll()
    assert (game.cube_value, game.cube_owner, game.turn) == (4, None, 0)
    assert game.can_double() is False  # the opening roll is played, not doubled
    game.play("8/5 6/5")
    assert game.can_double()  # the cube is still centred: either player may double
    capped = Game(Rules(automatic_doubles=5, cube_limit=2), ScriptedDice(ties))
    capped.roll()
    assert capped.cube_value == 2
    match = Game(Rules(match_length=5, automatic_doubles=2), ScriptedDice(ties))
    match.roll()
    assert match.cube_value == 1  # a money option only


def test_automatic_doubles_keep_jacoby_while_the_cube_is_centred():
    game = Game(Rules(automatic_doubles=1), ScriptedDice([(4, 4), (3, 1)]))
    game.roll()
    game.resign(WinKind.BACKGAMMON)
    game.accept_resignation()
    assert (game.result.cube_value, game.result.points) == (2, 2)


# --- turns --------------------------------------------------------------------------------------


def test_turns_alternate_and_positions_are_seen_by_the_player_on_turn():
    game = started(rolls=[(6, 5)])
    after = START.parse_play("8/5 6/5", (3, 1)).after
    assert (game.phase, game.turn, game.dice) == (GamePhase.ROLL, 1, None)
    assert game.position == after == game.position_for(1) == game.position_for(0).flip()
    assert game.legal_actions() == {"roll", "double", "resign", "abandon", "undo"}
    assert game.roll(player=1) == (6, 5)
    played = game.play("24/13", player=1)
    assert str(played) == "24/13" and played.position == after
    assert game.history[-2:] == [Roll(1, (6, 5)), PlayMade(1, (6, 5), played)]
    assert game.turn == 0 and game.position == played.after


def test_play_accepts_a_play_object_from_legal_plays():
    game = Game(dice=ScriptedDice([(4, 2)]))
    game.roll()
    chosen = next(p for p in game.legal_plays() if str(p) == "8/4 6/4")
    assert game.play(chosen) == chosen
    assert game.position_for(0) == chosen.after.flip()


def test_a_roll_with_no_legal_play_passes_the_turn():
    passes = 0
    for seed in range(20):
        game = Game(dice=RandomDice(seed))
        rng = random.Random(seed)
        while not game.is_over:
            if game.phase is GamePhase.MOVE:
                game.play(rng.choice(game.legal_plays()))
                continue
            before, mover = game.position_for(0), game.turn
            game.roll()
            last = game.history[-1]
            if isinstance(last, PlayMade) and last.play is None:
                passes += 1
                assert not game.position_for(mover).legal_plays(last.dice)
                assert game.history[-2] == Roll(mover, last.dice)
                assert (game.phase, game.turn, game.dice) == (GamePhase.ROLL, 1 - mover, None)
                assert game.position_for(0) == before and not game.can_undo()
    assert passes > 0


def test_legal_play_texts_are_the_plays_notation_and_play_as_their_parse():
    """A play sent back as legal_play_texts() wrote it is found without parsing: the same play a
    game that never showed the texts parses, roll after roll, undo included."""
    assert Game().legal_play_texts() == []
    for seed in range(6):
        shown, parsed = Game(dice=RandomDice(seed)), Game(dice=RandomDice(seed))
        rng = random.Random(seed)
        while not shown.is_over:
            if shown.phase is not GamePhase.MOVE:
                assert shown.legal_play_texts() == []
                shown.roll(), parsed.roll()
                continue
            texts = shown.legal_play_texts()
            assert texts == [str(p) for p in shown.legal_plays()] and shown.legal_play_texts() == texts
            text = rng.choice(texts)
            assert shown.play(text) == parsed.play(text)
            if shown.can_undo() and rng.random() < 0.2:  # taken back: the roll's texts again
                shown.undo(), parsed.undo()
                assert shown.legal_play_texts() == texts
                shown.play(text), parsed.play(text)
            assert shown.history == parsed.history
        assert shown.result == parsed.result


# --- whole games to the end -------------------------------------------------------------------


def play_out(game: Game, rng: random.Random) -> Game:
    """Player 0 races greedily (most borne off, fewest pips), player 1 plays at random."""
    while not game.is_over:
        if game.phase is not GamePhase.MOVE:
            game.roll()
        elif game.turn == 0:
            game.play(max(game.legal_plays(), key=lambda p: (p.after.off[1], -p.after.pip_counts[1])))
        else:
            game.play(rng.choice(game.legal_plays()))
    return game


def test_bear_off_ends_the_game_with_single_gammon_and_backgammon():
    kinds = {}
    for seed in range(40):
        game = play_out(Game(NO_JACOBY, RandomDice(seed)), random.Random(seed))
        result, loser = game.result, game.position_for(game.result.loser)
        assert result.reason == "bear_off" and game.phase is GamePhase.OVER and game.turn is None
        assert game.position_for(result.winner).off[0] == 15 and loser.off[0] < 15
        assert game.position == game.position_for(result.winner)
        # gammon = nothing borne off; backgammon = and a checker on the bar or in the
        # winner's home board (the loser's points 19-24).
        in_winners_home = any(loser.board[p] > 0 for p in range(19, 26))
        expected = (WinKind.SINGLE if loser.off[0] else
                    WinKind.BACKGAMMON if in_winners_home else WinKind.GAMMON)
        assert result.kind == expected and result.points == int(expected) * result.cube_value
        assert game.legal_actions() == set() and game.dice is None
        assert isinstance(game.history[-1], PlayMade) and game.history[-1].player == result.winner
        kinds.setdefault(expected, seed)
    assert set(kinds) == set(WinKind)


def test_jacoby_counts_a_bear_off_gammon_as_single_while_the_cube_is_centred():
    kinds = set()
    for seed in range(10):
        game = play_out(Game(Rules(), RandomDice(seed)), random.Random(seed))
        same = play_out(Game(NO_JACOBY, RandomDice(seed)), random.Random(seed))
        assert game.result.kind == same.result.kind and game.result.points == 1
        kinds.add(game.result.kind)
    assert WinKind.GAMMON in kinds or WinKind.BACKGAMMON in kinds


def test_pass_gives_the_doubler_the_value_before_the_double():
    game = started(rolls=[(6, 5)])
    game.double(player=1)
    assert (game.phase, game.turn, game.history[-1]) == (GamePhase.DOUBLED, 0, Double(1, 2))
    assert game.position == game.position_for(0)
    game.pass_(player=0)
    assert game.result == GameResult(1, WinKind.SINGLE, 1, 1, "pass")
    assert game.history[-1] == Pass(0) and game.is_over and game.turn is None


def test_pass_of_a_redouble():
    game = started(rolls=[(6, 5)])
    game.double()
    game.take()
    game.roll()
    game.play("24/13")
    game.double(player=0)
    game.pass_(player=1)
    assert (game.result.winner, game.result.cube_value, game.result.points) == (0, 2, 2)


@pytest.mark.parametrize("kind", list(WinKind))
@pytest.mark.parametrize("rules, cube_turned, points", [
    (NO_JACOBY, False, lambda k: k),
    (Rules(), False, lambda k: 1),            # Jacoby: gammons count once the cube is turned
    (Rules(), True, lambda k: 2 * k),
    (Rules(match_length=7), False, lambda k: k),
])
def test_resignation_accepted_at_each_level(kind, rules, cube_turned, points):
    game = started(rules)
    if cube_turned:
        game.double()
        game.take()
        assert game.turn == 1  # the doubler rolls after the take
    resigner = game.turn
    game.resign(kind, player=resigner)
    assert (game.phase, game.turn, game.offered_resignation) == (GamePhase.RESIGNED, 1 - resigner, kind)
    assert game.legal_actions() == {"accept_resignation", "reject_resignation", "abandon"}
    game.accept_resignation(player=1 - resigner)
    r = game.result
    assert (r.winner, r.kind, r.reason, r.points) == (1 - resigner, kind, "resign", points(int(kind)))
    assert game.history[-2:] == [Resign(resigner, kind), AcceptResignation(1 - resigner)]
    assert game.offered_resignation is None


@pytest.mark.parametrize("setup", ["roll", "move", "doubled"])
def test_a_rejected_resignation_lets_play_go_on_where_it_was(setup):
    game = started(rolls=[(6, 5)])
    if setup == "move":
        game.roll()
    elif setup == "doubled":
        game.double()
    before = snapshot(game)
    resigner = game.turn
    game.resign(2)
    game.reject_resignation()
    assert game.history[-2:] == [Resign(resigner, WinKind.GAMMON), RejectResignation(1 - resigner)]
    assert snapshot(game)[:8] == before[:8] and game.legal_actions() - {"undo"} == before[9] - {"undo"}
    assert game.offered_resignation is None


@pytest.mark.parametrize("phase", ["opening", "roll", "move", "doubled", "resigned"])
def test_abandon_loses_a_backgammon_times_the_cube_in_any_phase(phase):
    game = Game(Rules(), ScriptedDice([(3, 1), (6, 5), (6, 5)]))
    if phase != "opening":
        game.roll()
        game.play("8/5 6/5")
        game.double()
        game.take()  # cube 2, owned by player 0
        if phase == "move":
            game.roll()
        elif phase == "doubled":
            game.roll()
            game.play("24/13")
            game.double()  # player 0 redoubles to 4: still 2 until taken
        elif phase == "resigned":
            game.resign(WinKind.SINGLE)
    game.abandon(1)
    cube = 1 if phase == "opening" else 2
    r = game.result
    assert (r.winner, r.kind, r.cube_value, r.points, r.reason) == (0, WinKind.BACKGAMMON, cube, 3 * cube,
                                                                    "abandon")
    assert game.history[-1] == Abandon(1) and game.is_over


# --- the cube -----------------------------------------------------------------------------------


def test_cube_ownership_passes_to_each_taker():
    game = started(rolls=[(6, 5), (6, 4), (5, 2)])
    assert game.can_double() and game.cube_owner is None
    game.double()
    game.take()
    assert (game.cube_value, game.cube_owner, game.turn, game.phase) == (2, 0, 1, GamePhase.ROLL)
    assert not game.can_double() and "double" not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="the other player owns the cube"):
        game.double()
    game.roll()
    game.play("24/13")
    assert game.can_double()  # player 0 owns it
    game.double(player=0)
    assert game.history[-1] == Double(0, 4)
    game.take(player=1)
    assert (game.cube_value, game.cube_owner) == (4, 1)
    game.roll()  # the doubler rolls after the take
    game.play("24/18 13/9")
    assert game.turn == 1 and game.can_double()  # player 1 owns it now
    game.double()
    game.take()
    assert (game.cube_value, game.cube_owner, game.history[-1]) == (8, 0, Take(0))
    game.roll()
    game.play("13/11 13/8")
    assert game.turn == 0 and game.can_double()  # the owner's turn again


def test_beaver_redoubles_at_once_and_keeps_the_cube():
    game = started(Rules(beavers=True), rolls=[(6, 5), (6, 4)])
    game.double()
    assert "beaver" in game.legal_actions()
    game.beaver(player=0)
    assert game.history[-2:] == [Double(1, 2), Beaver(0, 4)]
    assert (game.cube_value, game.cube_owner, game.turn, game.phase) == (4, 0, 1, GamePhase.ROLL)
    assert not game.can_double()
    game.roll()
    game.play("24/13")
    game.double()
    assert game.history[-1] == Double(0, 8)


@pytest.mark.parametrize("rules, reason", [
    (Rules(), "do not allow beavers"),
    (Rules(match_length=5, beavers=True), "money play only"),
    (Rules(beavers=True, cube_limit=2), "limit of 2"),
])
def test_beaver_refused(rules, reason):
    game = started(rules)
    game.double()
    assert "beaver" not in game.legal_actions()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=f"cannot beaver: .*{reason}.*a double waits for its answer"):
        game.beaver()
    assert snapshot(game) == before
    game.take()  # a take is still fine
    assert game.cube_value == 2


def test_cube_limit_stops_redoubles():
    game = started(Rules(cube_limit=4), rolls=[(6, 5), (6, 4)])
    game.double()
    game.take()
    game.roll()
    game.play("24/13")
    game.double()
    game.take()
    assert game.cube_value == 4
    game.roll()
    game.play("24/18 13/9")
    assert not game.can_double()
    with pytest.raises(IllegalActionError, match="limit of 4"):
        game.double()


def test_no_doubling_in_the_crawford_game_or_without_the_cube():
    crawford = started(Rules(match_length=5), score=(4, 2), crawford_game=True)
    for game in (crawford, started(Rules(use_cube=False))):
        assert not game.can_double() and "double" not in game.legal_actions()
        with pytest.raises(IllegalActionError, match="cannot double: (.*Crawford|.*without the cube)"):
            game.double()


def test_constructor_checks_its_arguments():
    with pytest.raises(ValueError, match="crawford_game"):
        Game(Rules(), crawford_game=True)
    with pytest.raises(ValueError, match=r"\(1, -1\)"):
        Game(score=(1, -1))
    with pytest.raises(ValueError, match="'money'"):
        Game("money")  # type: ignore[arg-type]


# --- undo ---------------------------------------------------------------------------------------


def test_undo_takes_back_the_last_play_until_the_opponent_acts():
    game = started(rolls=[(6, 5)])
    assert game.can_undo()
    with pytest.raises(IllegalActionError, match="cannot undo: only the player who made the play"):
        game.undo(player=1)
    game.undo(player=0)
    assert (game.phase, game.turn, game.dice, game.position) == (GamePhase.MOVE, 0, (3, 1), START)
    assert game.history == [Roll(0, (3, 1), opening=True)]
    game.play("24/21 6/5")
    game.roll()  # player 1 acts: no more undo
    assert not game.can_undo()
    with pytest.raises(IllegalActionError, match="cannot undo: there is no play"):
        game.undo()


def test_no_undo_after_a_double_or_a_resignation():
    game = started()
    game.double()
    game.take()
    assert not game.can_undo()
    game = started()
    game.resign(1)
    game.reject_resignation()
    assert not game.can_undo()


# --- refused actions leave the game as it was ---------------------------------------------------


def opening() -> Game:
    return Game(Rules(beavers=True), ScriptedDice([(3, 1), (6, 5)]))


def rolling() -> Game:
    return started(Rules(beavers=True), rolls=[(6, 5)])


def moving() -> Game:
    game = rolling()
    game.roll()
    return game


def doubled() -> Game:
    game = rolling()
    game.double()
    return game


def resigned() -> Game:
    game = rolling()
    game.resign(WinKind.GAMMON)
    return game


def over() -> Game:
    game = rolling()
    game.abandon(1)
    return game


STATES = [opening, rolling, moving, doubled, resigned, over]
ACTIONS = {
    "roll": lambda g, p=None: g.roll(player=p),
    "play": lambda g, p=None: g.play("24/13", player=p),
    "undo": lambda g, p=None: g.undo(player=p),
    "double": lambda g, p=None: g.double(player=p),
    "take": lambda g, p=None: g.take(player=p),
    "pass": lambda g, p=None: g.pass_(player=p),
    "beaver": lambda g, p=None: g.beaver(player=p),
    "resign": lambda g, p=None: g.resign(WinKind.SINGLE, player=p),
    "accept_resignation": lambda g, p=None: g.accept_resignation(player=p),
    "reject_resignation": lambda g, p=None: g.reject_resignation(player=p),
    "abandon": lambda g, p=None: g.abandon(0 if p is None else p),
}


WHERE = {GamePhase.OPENING: "the game starts with the opening roll",
         GamePhase.ROLL: "the player on roll is to roll or double",
         GamePhase.MOVE: "the player on roll is to play",
         GamePhase.DOUBLED: "a double waits for its answer",
         GamePhase.RESIGNED: "an offer to resign waits for its answer",
         GamePhase.OVER: "the game is over"}


@pytest.mark.parametrize("state", STATES, ids=lambda s: s.__name__)
def test_every_action_not_in_legal_actions_is_refused_and_changes_nothing(state):
    assert set(state().legal_actions()) <= set(ACTIONS)
    refused = 0
    for name, action in ACTIONS.items():
        game = state()
        if name in game.legal_actions():
            continue
        before = snapshot(game)
        with pytest.raises(IllegalActionError) as err:
            action(game)
        message = str(err.value)
        # in a player's words: no phase names, no player numbers
        assert f"cannot {name.replace('_', ' the ')}" in message and WHERE[game.phase] in message
        assert "phase" not in message and "player 0" not in message and "player 1" not in message
        assert snapshot(game) == before
        refused += 1
    assert refused >= 4


@pytest.mark.parametrize("state", STATES, ids=lambda s: s.__name__)
def test_every_legal_action_works(state):
    for name in state().legal_actions():
        game = state()
        ACTIONS[name](game)
        assert game.history != state().history or name == "undo"


@pytest.mark.parametrize("state", [rolling, moving, doubled, resigned], ids=lambda s: s.__name__)
def test_the_wrong_player_is_refused_for_every_action(state):
    # the player not on turn may resign while the opponent is to roll (tested on its own)
    for name in state().legal_actions() - {"abandon"} - ({"resign"} if state is rolling else set()):
        game = state()
        wrong = game.turn if name == "undo" else 1 - game.turn
        before = snapshot(game)
        why = {"undo": "only the player who made the play can take it back",
               "resign": "only the player on roll can now"}.get(name, "it is the other player's turn")
        with pytest.raises(IllegalActionError, match=f"cannot {name.replace('_', ' the ')}: {why}"):
            ACTIONS[name](game, wrong)
        assert snapshot(game) == before


@pytest.mark.parametrize("bad", [2, -1, True, "0", 0.5, 0.0, [0]])
def test_bad_player_values_are_quoted(bad):
    for state, name in [(opening, "roll"), (rolling, "roll"), (moving, "play"), (doubled, "take"),
                        (rolling, "abandon"), (rolling, "undo")]:
        game = state()
        before = snapshot(game)
        with pytest.raises(IllegalActionError, match=f"cannot {name}: .*got {re.escape(repr(bad))}"):
            ACTIONS[name](game, bad)
        assert snapshot(game) == before
    with pytest.raises(IllegalActionError, match=f"got {re.escape(repr(bad))}"):
        Game().position_for(bad)


def test_abandon_needs_the_player():
    game = rolling()
    with pytest.raises(IllegalActionError, match="needs the player"):
        game.abandon(None)  # type: ignore[arg-type]
    assert not game.is_over


@pytest.mark.parametrize("play, error", [
    ("24/30", InvalidNotationError),
    ("13/7", IllegalMoveError),              # uses the 6 only when both dice can be played
    ("24/18 24/19", IllegalMoveError),       # not the dice
    (42, IllegalActionError),
    (START.parse_play("13/7 13/8", (6, 5)), IllegalMoveError),  # a play from another position
])
def test_bad_plays_are_refused_and_change_nothing(play, error):
    game = moving()
    before = snapshot(game)
    with pytest.raises(error):
        game.play(play)
    assert snapshot(game) == before


@pytest.mark.parametrize("kind", [0, 4, "gammon", None, True])
def test_bad_resignation_kinds_are_quoted(kind):
    game = rolling()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=f"got {kind!r}"):
        game.resign(kind)
    assert snapshot(game) == before


def test_a_dice_script_used_up_changes_nothing():
    game = started()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="used up"):
        game.roll()
    assert snapshot(game) == before


def test_history_is_a_copy():
    game = rolling()
    game.history.clear()
    assert len(game.history) == 2


# --- replay -------------------------------------------------------------------------------------


def assert_same(a: Game, b: Game) -> None:
    assert snapshot(a) == snapshot(b)
    assert (a.rules, a.score, a.crawford_game) == (b.rules, b.score, b.crawford_game)


def test_replay_rebuilds_a_game_with_every_kind_of_action():
    rules = Rules(beavers=True, automatic_doubles=1)
    game = Game(rules, ScriptedDice([(5, 5), (3, 1), (6, 5), (6, 4)]))
    game.roll()
    game.play("8/5 6/5")
    game.undo()
    game.play("24/21 6/5")
    game.double()
    game.beaver()
    game.resign(WinKind.GAMMON)
    game.reject_resignation()
    game.roll()
    game.play("24/13")
    game.double()
    game.take()
    game.roll()
    game.resign(WinKind.SINGLE)
    game.accept_resignation()
    again = Game.replay(game.history, rules=rules)
    assert_same(again, game)
    assert again.result.points == 16 and again.cube_value == 16


def test_replay_of_random_games_and_continuing_with_new_dice():
    for seed in range(5):
        game = play_out(Game(NO_JACOBY, RandomDice(seed)), random.Random(seed))
        assert_same(Game.replay(game.history, rules=NO_JACOBY), game)
    game = started(Rules(match_length=5), score=(2, 3), crawford_game=False)
    again = Game.replay(game.history, rules=Rules(match_length=5), score=(2, 3), dice=ScriptedDice([(4, 2)]))
    assert_same(again, game)
    assert again.roll() == (4, 2)


def test_replay_refuses_actions_that_do_not_fit():
    game = started(rolls=[(6, 5)])
    game.roll()
    history = game.history
    with pytest.raises(IllegalActionError):
        Game.replay(history[:2] + [Take(1)])
    with pytest.raises(IllegalActionError, match="do not replay"):
        Game.replay(history[:2] + [PlayMade(1, (6, 5), None)])  # no pass there
    with pytest.raises(IllegalActionError, match="to the player who threw 1, but the 3 wins it"):
        Game.replay([Roll(1, (3, 1), opening=True)])  # 3-1 is player 0's


# --- random legal games -------------------------------------------------------------------------

RULE_SETS = [Rules(), NO_JACOBY, Rules(beavers=True, automatic_doubles=2, cube_limit=16),
             Rules(match_length=7), Rules(use_cube=False)]
# Rare weights for the actions that end a game at once, so most games reach the bear-off.
WEIGHTS = {"abandon": 0.01, "resign": 0.05, "accept_resignation": 5, "pass": 1, "double": 2, "undo": 5}


def expected_points(game: Game) -> int:
    r = game.result
    if r.reason == "pass":
        return r.cube_value
    jacoby = game.rules.is_money and game.rules.jacoby and game.cube_owner is None
    return r.cube_value * (1 if jacoby and r.reason != "abandon" else int(r.kind))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULE_SETS), seed=st.integers(0, 2 ** 32 - 1))
def test_random_legal_games_conserve_checkers_and_end_consistently(rules, seed):
    # One seed for dice and choices: Hypothesis's own randoms favour extreme values, which here
    # would mostly mean abandoning at once.
    game = Game(rules, RandomDice(seed))
    rng = random.Random(seed)
    for _ in range(1500):
        if game.is_over:
            break
        names = sorted(game.legal_actions())
        name = rng.choices(names, [WEIGHTS.get(n, 20) for n in names])[0]
        if name == "play":
            game.play(rng.choice(game.legal_plays()))
        elif name == "resign":
            game.resign(rng.choice(list(WinKind)))
        elif name == "abandon":
            game.abandon(rng.randint(0, 1))
        else:
            game.apply(Request(ActionKind(name)))
        p0 = game.position_for(0)
        assert count_checkers(p0) == (15, 15)
        assert game.position_for(1) == p0.flip()
        assert (game.turn is None) == (game.phase in (GamePhase.OPENING, GamePhase.OVER))
        assert game.is_over or game.legal_actions()
        if game.phase is GamePhase.MOVE:
            assert game.dice is not None and game.legal_plays()
        elif game.phase is not GamePhase.RESIGNED:  # a resignation offered in MOVE keeps the dice
            assert game.dice is None and game.legal_plays() == []
    if game.is_over:
        r = game.result
        assert r.winner in (0, 1) and r.cube_value == game.cube_value and r.points == expected_points(game)
        assert game.legal_actions() == set() and game.turn is None
        winner_view = game.position_for(r.winner)
        assert (winner_view.off[0] == 15) == (r.reason == "bear_off")
        if r.reason == "bear_off":
            assert r.kind == win_kind(winner_view.flip())
        if not rules.use_cube:
            assert game.cube_value == 1 and not any(isinstance(a, Double) for a in game.history)
    assert_same(Game.replay(game.history, rules=rules), game)


def test_legal_plays_is_a_copy():
    game = moving()
    plays = game.legal_plays()
    plays.clear()
    assert game.legal_plays() and game.play("24/13")


def test_the_player_not_on_turn_may_resign_while_the_opponent_is_to_roll() -> None:
    game = Game(Rules(), ScriptedDice([(3, 1), (6, 6)]))
    game.roll()
    game.play("8/5 6/5")  # player 0 played; player 1 is to roll
    assert game.turn == 1
    game.resign(WinKind.SINGLE, player=0)
    assert (game.phase, game.turn) == (GamePhase.RESIGNED, 1)
    game.reject_resignation(player=1)
    assert (game.phase, game.turn) == (GamePhase.ROLL, 1)  # play goes on where it was
    game.resign(WinKind.SINGLE, player=0)
    game.accept_resignation(player=1)
    assert (game.result.winner, game.result.points, game.result.reason) == (1, 1, "resign")
    assert Game.replay(game.history).history == game.history


def test_the_player_not_on_turn_cannot_resign_while_the_opponent_plays() -> None:
    game = Game(Rules(), ScriptedDice([(3, 1)]))
    game.roll()  # player 0 must play the 31
    with pytest.raises(IllegalActionError, match="cannot resign: only the player on roll can now"):
        game.resign(WinKind.SINGLE, player=1)


def test_apply_makes_a_roll_with_its_recorded_dice_not_the_dice_source():
    game = Game(dice=ScriptedDice([(1, 2)] * 5))
    game.apply(Roll(0, (5, 2), opening=True, ties=((4, 4),)))
    game.apply(PlayMade(0, (5, 2), game.position.parse_play("13/8 13/11", (5, 2))))
    game.apply(Roll(1, (6, 6)))
    assert game.dice == (6, 6) and game.history[0].ties == ((4, 4),)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="the play is of 5-2 but the dice are 6-6"):
        game.apply(PlayMade(1, (5, 2), Game().position.parse_play("13/8 13/11", (5, 2))))
    with pytest.raises(IllegalActionError, match="doubles to 4 with the cube at 1, which makes 2"):
        Game(dice=ScriptedDice([(3, 1), (6, 5)])).apply(Double(0, 4))  # the recorded value must be the cube's
    assert snapshot(game) == before


def test_apply_refuses_recorded_rolls_that_cannot_be() -> None:
    for roll, why in [(Roll(0, (5, 2), opening=True, ties=((4, 3),)), "ties .* must be doubles"),
                      (Roll(0, (5, 2)), "not the opening roll, which must come first"),
                      (Roll(0, (4, 4), opening=True), "the opening roll 4-4 cannot be a double")]:
        game = Game()
        with pytest.raises(IllegalActionError, match=why):
            game.apply(roll)
        assert game.phase is GamePhase.OPENING and game.history == []
    game = started(rolls=[(6, 5)])  # player 1 to roll
    with pytest.raises(IllegalActionError, match="cannot make the opening roll"):
        game.apply(Roll(1, (3, 1), opening=True))


def test_apply_and_why_not_refuse_what_is_no_action_in_the_games_words() -> None:
    """A string or None reached ``action.player`` first: an AttributeError from inside."""
    from gammon import Match
    from gammon.refusal import Refusal

    for thing in ("roll", None, 3, "x" * 500):
        for apply in (Game().apply, Match().apply):
            with pytest.raises(IllegalActionError, match="is not a game action") as refused:
                apply(thing)  # type: ignore[arg-type]
            assert len(str(refused.value)) < 120
        why = Game().why_not(thing)  # type: ignore[arg-type]
        assert why is not None and why.refusal is Refusal.NOT_A_GAME_ACTION


def test_a_game_refuses_a_won_score_a_crawford_game_without_a_side_1_away_and_no_dice_source() -> None:
    """Each was taken and failed later: an ID gnubg calls illegal, a dead cube at 0-0, the first roll."""
    five = Rules(match_length=5)
    with pytest.raises(ValueError, match="7-0 has already won the 5-point match"):
        Game(five, RandomDice(seed=1), score=(7, 0))
    with pytest.raises(ValueError, match="needs a side 1-away"):
        Game(five, RandomDice(seed=1), crawford_game=True)
    assert Game(five, RandomDice(seed=1), score=(2, 4), crawford_game=True).crawford_game
    for dice in ([(3, 1)], 3, "31"):
        with pytest.raises(ValueError, match="dice must be a dice source"):
            Game(Rules(), dice)  # type: ignore[arg-type]


# --- requests and the reasons for a refusal ------------------------------------------------------


def test_a_request_is_made_through_apply_as_its_method_makes_it() -> None:
    from gammon import Request
    from gammon.game import ActionKind

    game = rolling()
    game.apply(Request(ActionKind.ROLL))
    assert game.phase is GamePhase.MOVE and game.dice == (6, 5)
    game.apply(Request(ActionKind.PLAY, player=1, play="24/13"))
    assert game.history[-1].play is not None and str(game.history[-1].play) == "24/13"
    game.apply(Request(ActionKind.RESIGN, win_kind=WinKind.GAMMON))
    assert game.offered_resignation is WinKind.GAMMON and game.turn == 1


def test_why_not_says_the_rule_as_a_value_and_the_error_carries_it() -> None:
    from gammon import Refusal, Refused, Request
    from gammon.game import ActionKind as K

    cases = [
        (rolling, Request(K.TAKE), Refused(Refusal.NO_DOUBLE)),
        (rolling, Request(K.ACCEPT_RESIGNATION), Refused(Refusal.NO_RESIGNATION)),
        (rolling, Request(K.PLAY, play="24/13"), Refused(Refusal.DICE_NOT_ROLLED)),
        (rolling, Request(K.ROLL, player=0), Refused(Refusal.NOT_YOUR_TURN)),
        (rolling, Request(K.ROLL, player=2), Refused(Refusal.NOT_A_PLAYER, detail="2")),
        (rolling, Request(K.UNDO, player=1), Refused(Refusal.NOT_YOUR_PLAY)),
        (moving, Request(K.ROLL), Refused(Refusal.DICE_ROLLED)),
        (moving, Request(K.DOUBLE), Refused(Refusal.DICE_ROLLED)),
        (moving, Request(K.UNDO), Refused(Refusal.NOTHING_TO_UNDO)),
        (doubled, Request(K.ROLL), Refused(Refusal.DOUBLE_PENDING)),
        (doubled, Request(K.UNDO), Refused(Refusal.DOUBLE_PENDING)),
        (resigned, Request(K.TAKE), Refused(Refusal.RESIGNATION_PENDING)),
        (over, Request(K.ROLL), Refused(Refusal.GAME_OVER)),
        (opening, Request(K.DOUBLE), Refused(Refusal.NOT_STARTED)),
        (rolling, Request(K.ABANDON), Refused(Refusal.PLAYER_NEEDED)),
        (rolling, Request(K.RESIGN, win_kind=4), Refused(Refusal.BAD_RESIGNATION, detail="4")),
    ]
    for state, request, refused in cases:
        game = state()
        before = snapshot(game)
        assert game.why_not(request) == refused, (state.__name__, request)
        with pytest.raises(IllegalActionError) as caught:
            game.apply(request)
        assert caught.value.refused == refused
        assert snapshot(game) == before
    assert rolling().why_not(Request(K.ROLL)) is None and doubled().why_not(Request(K.BEAVER)) is None


def test_why_not_gives_the_cube_rule_with_its_data() -> None:
    from gammon import Refusal, Refused, Request
    from gammon.game import ActionKind as K

    game = started(rolls=[(6, 5), (6, 4)])
    game.double()
    game.take()  # player 0 owns the cube at 2; player 1, the doubler, is to roll
    assert game.why_not(Request(K.DOUBLE)) == Refused(Refusal.CUBE_OWNED, player=0)
    game.roll()
    game.play(game.legal_plays()[0])  # player 0, the owner, is to roll
    assert game.why_not(Request(K.DOUBLE)) is None
    limited = started(Rules(cube_limit=2), rolls=[(6, 5), (6, 4)])
    limited.double()
    limited.take()
    limited.roll()
    limited.play(limited.legal_plays()[0])
    assert limited.why_not(Request(K.DOUBLE)) == Refused(Refusal.CUBE_LIMIT, limit=2)
    crawford = started(Rules(match_length=5), score=(4, 0), crawford_game=True)
    assert crawford.why_not(Request(K.DOUBLE)) == Refused(Refusal.CRAWFORD_GAME)


def test_why_not_checks_a_play_and_apply_raises_the_notation_error() -> None:
    from gammon import Refusal, Request
    from gammon.game import ActionKind as K

    game = moving()  # player 1 to play 6-5
    refused = game.why_not(Request(K.PLAY, play="24/30"))
    assert refused is not None and refused.refusal is Refusal.ILLEGAL_PLAY and "24/30" in refused.detail
    with pytest.raises(InvalidNotationError):
        game.apply(Request(K.PLAY, play="24/30"))
    assert game.why_not(Request(K.PLAY, play="24/13")) is None


def test_a_match_refuses_a_new_game_while_one_is_played() -> None:
    from gammon import Match, NewGame, Refusal, Refused

    match = Match(Rules(match_length=1, use_cube=False), ScriptedDice([(3, 1)]))
    assert match.why_not(NewGame()) == Refused(Refusal.GAME_NOT_OVER)
    with pytest.raises(IllegalActionError, match="the current game is not over") as caught:
        match.apply(NewGame())
    assert caught.value.refused == Refused(Refusal.GAME_NOT_OVER)
    match.game.abandon(1)
    assert match.why_not(NewGame()) == Refused(Refusal.MATCH_OVER, score=(3, 0))  # a backgammon
