"""Computer players against a stand-in with the Game contract's attributes (docs/game-api.md)."""

from dataclasses import dataclass, field

import pytest

from gammon import Game, Match, Position, RandomDice, Rules, ScriptedDice, WinKind
from gammon.engine.players import available_levels, computer_player, win_chance
from gammon.game import ActionKind, GamePhase
from tests.helpers import pos


@dataclass
class FakeGame:
    position: Position
    dice: tuple[int, int] | None = None
    turn: int = 0
    score: tuple[int, int] = (0, 0)
    cube_value: int = 1
    cube_owner: int | None = None
    offered_resignation: int | None = None
    rules: Rules = field(default_factory=Rules)
    doubling_allowed: bool = True

    def legal_plays(self):
        return self.position.legal_plays(self.dice) if self.dice else []

    def can_double(self):
        return self.doubling_allowed


START = Position.initial()


def test_win_chance_is_fair_at_the_start_and_grows_with_the_lead():
    assert 0.55 < win_chance(START) < 0.7
    race = pos("x 6:5 5:5 4:5; o 10:5 9:5 8:5")
    assert win_chance(race) > 0.9
    assert win_chance(race.flip()) < 0.1


def test_levels_and_unknown_level():
    assert {"random", "pubeval"} <= set(available_levels())
    with pytest.raises(ValueError, match="'strong'"):
        computer_player("strong")


def test_pubeval_player_plays_the_pubeval_move_and_passes_without_dice():
    player = computer_player("pubeval")
    assert str(player.choose_play(FakeGame(START, dice=(3, 1)))) == "8/5 6/5"
    assert player.choose_play(FakeGame(START)) is None


def test_random_player_is_reproducible_and_legal():
    game = FakeGame(START, dice=(6, 4))
    a = [computer_player("random", seed=5).choose_play(game) for _ in range(3)]
    assert a[0] == a[1] == a[2]
    assert a[0] in game.legal_plays()


def test_cube_policy_in_a_race():
    player = computer_player("pubeval")
    ahead = pos("x 6:5 5:5 4:3; o 6:3 5:3 4:3 10:6")  # 57 vs 108 pips: double, and a pass
    assert player.wants_to_double(FakeGame(ahead))
    assert not player.wants_to_double(FakeGame(ahead, doubling_allowed=False))
    assert not player.wants_to_double(FakeGame(START))
    # The doubled player sees the position from its side; the doubler is on roll.
    assert player.answer_double(FakeGame(ahead.flip(), turn=1)) == "pass"
    close = pos("x 6:5 5:5 4:5; o 6:5 5:5 4:5")
    assert player.answer_double(FakeGame(close.flip(), turn=1)) == "take"
    beaver_rules = Rules(beavers=True)
    behind = pos("x 6:5 5:5 4:5; o 3:5 2:5 1:5")  # the doubler is far behind
    assert player.answer_double(FakeGame(behind.flip(), turn=1, rules=beaver_rules)) == "beaver"


def test_no_double_when_the_cube_already_wins_the_match():
    player = computer_player("pubeval")
    ahead = pos("x 6:5 5:5 4:3; o 6:3 5:3 4:3 10:6")
    game = FakeGame(ahead, score=(4, 0), rules=Rules(match_length=5))
    assert not player.wants_to_double(game)


def test_resignations():
    player = computer_player("pubeval")
    # The resigner (opponent of turn) is far behind and still has checkers outside home: a single
    # resignation is not enough, a gammon is.
    crushed = pos("x 6:5 5:5 4:5; o 17:5 16:5 15:5")  # from the accepting player's view
    assert not player.accepts_resignation(FakeGame(crushed, turn=1, cube_owner=0, offered_resignation=1))
    assert player.accepts_resignation(FakeGame(crushed, turn=1, cube_owner=0, offered_resignation=2))
    # With Jacoby and a centred cube gammons do not count: a single resignation is fine.
    assert player.accepts_resignation(FakeGame(crushed, turn=1, offered_resignation=1))
    # An even game: a single resignation is a gift; with no offer there is nothing to accept.
    assert player.accepts_resignation(FakeGame(START, turn=1, offered_resignation=1))
    assert not player.accepts_resignation(FakeGame(START, turn=1))


def test_the_heuristic_counts_backgammons():
    """The pip-count heuristic of random and pubeval counted gammons but not backgammons: with the
    resigner's 15 checkers on the bar against the winner's last two on its ace point, a backgammon
    is certain, yet it accepted a gammon. It takes a backgammon only there, and a gammon where the
    resigner's checkers left in the winner's home board escape easily."""
    certain = Position.from_points({25: 15}, {1: 2}).flip()  # the resigner's view flipped: the winner's
    for player in (computer_player("random", seed=1), computer_player("pubeval")):
        assert not player.accepts_resignation(FakeGame(certain, turn=1, cube_owner=0, offered_resignation=2))
        assert player.accepts_resignation(FakeGame(certain, turn=1, cube_owner=0, offered_resignation=3))
    # with Jacoby and a centred cube neither gammons nor backgammons count
    assert player.accepts_resignation(FakeGame(certain, turn=1, offered_resignation=1))
    # two checkers on the winner's ace point against a winner with 67 pips to bear off: little risk
    escapes = Position.from_points({24: 2, 6: 13}, {6: 5, 5: 5, 4: 3})
    assert player.accepts_resignation(FakeGame(escapes.flip(), turn=1, cube_owner=0, offered_resignation=2))
    # one checker borne off: no gammon, no backgammon, whatever is left behind
    borne = Position.from_points({25: 14}, {1: 2})
    assert player.accepts_resignation(FakeGame(borne.flip(), turn=1, cube_owner=0, offered_resignation=1))


def test_engine_player_plays_legal_moves_and_answers_the_cube_through_a_real_game():
    from gammon.dice import ScriptedDice
    from gammon.engine.engine import Engine
    from gammon.engine.net.evaluator import PipCountEvaluator
    from gammon.engine.players import EnginePlayer
    from gammon.game import Game, GamePhase

    player = EnginePlayer(Engine(plies=0, evaluator=PipCountEvaluator()), "engine-0ply")
    game = Game(dice=ScriptedDice([(3, 1), (6, 4), (5, 2)]))
    game.roll()
    play = player.choose_play(game)
    assert play in game.legal_plays()
    game.play(play)
    assert player.wants_to_double(game) in (True, False)
    game.double()
    assert game.phase == GamePhase.DOUBLED
    assert player.answer_double(game) == "take"  # an early double is an easy take


def test_pubeval_beats_random_play():
    # A sign or orientation error in the evaluator would make it lose to random plays.
    from gammon.dice import RandomDice
    from gammon.game import Game
    from gammon.rules import Rules

    players = (computer_player("pubeval"), computer_player("random", seed=1))
    wins = 0
    for seed in range(20):
        game = Game(Rules(use_cube=False), RandomDice(seed))
        game.roll()
        while not game.is_over:
            if game.legal_plays():
                game.play(players[game.turn].choose_play(game))
            else:
                game.roll()
        wins += game.result.winner == 0
    assert wins >= 17


def test_engine_player_beavers_only_where_the_rules_allow_it():
    from types import SimpleNamespace

    from gammon import Game, RandomDice, Rules
    from gammon.engine.players import EnginePlayer

    decision = SimpleNamespace(beaver=True, take=True)
    player = EnginePlayer(SimpleNamespace(cube_decision=lambda game: decision), "engine")
    answers = {}
    for name, rules in {"money+beavers": Rules(beavers=True), "money": Rules(),
                        "match": Rules(match_length=5)}.items():
        game = Game(rules, RandomDice(seed=2))
        answers[name] = player.answer_double(game)
    assert answers == {"money+beavers": "beaver", "money": "take", "match": "take"}
    decision.beaver, decision.take = False, False
    assert player.answer_double(Game(Rules(beavers=True), RandomDice(seed=2))) == "pass"


@pytest.mark.parametrize("level", ["random", "pubeval"])
def test_next_action_plays_whole_matches_with_legal_actions(level: str) -> None:
    # Both sides driven by next_action alone, as the terminal and the web drive the computer.
    players = (computer_player(level, seed=1), computer_player(level, seed=2))
    match = Match(Rules(match_length=5), RandomDice(7))
    seen: set[ActionKind] = set()
    while True:
        game = match.game
        while not game.is_over:
            if game.phase is GamePhase.OPENING:
                game.roll()
                continue
            action = players[game.turn].next_action(game)
            assert action.kind in game.legal_actions(), (action, game.legal_actions())
            seen.add(action.kind)
            if action.kind is ActionKind.PLAY:
                assert action.play in game.legal_plays()
                game.play(action.play)
            else:
                game.apply(action.request())
        if match.is_over:
            break
        match.new_game()
    assert {ActionKind.ROLL, ActionKind.PLAY, ActionKind.DOUBLE} <= seen
    assert seen & {ActionKind.TAKE, ActionKind.PASS}
    assert max(match.score) >= 5


def test_next_action_resigned_phase_answers() -> None:
    game = Game(Rules(), ScriptedDice([(3, 1)]))
    game.roll()
    game.play("8/5 6/5")
    game.resign(WinKind.BACKGAMMON)  # player 1 offers 3 points at the start: take them
    assert computer_player("pubeval").next_action(game).kind is ActionKind.ACCEPT_RESIGNATION


@pytest.mark.parametrize("length", [31, 99])
def test_engine_player_doubles_and_answers_in_matches_longer_than_the_table(length: int) -> None:
    """The match equity table stops at 25 away; a longer match (the browser offers up to 99
    points) goes on by its pattern, and the computer answers a double there (it raised before)."""
    from gammon.engine.engine import Engine
    from gammon.engine.players import EnginePlayer

    player = EnginePlayer(Engine(plies=0), "engine-0ply")
    match = Match(Rules(match_length=length), ScriptedDice([(3, 1), (6, 4)]))
    game = match.game
    game.roll()
    game.play(player.choose_play(game))
    assert player.wants_to_double(game) is False  # no double after the opening roll
    game.double()
    assert player.answer_double(game) == "take"


def test_no_beaver_past_the_cube_limit() -> None:
    """A redouble to the limit of 4 with beavers on: the engine player answered "beaver" (to 8)
    and the game refused it ("cannot beaver: a beaver would pass the cube limit of 4"); the
    heuristic levels likewise. They take now, and beaver where the limit allows it."""
    from gammon.engine.engine import Engine
    from gammon.engine.net.evaluator import ConstantEvaluator
    from gammon.engine.players import EnginePlayer

    def redoubled(limit: int) -> Game:
        game = Game(Rules(beavers=True, cube_limit=limit), ScriptedDice([(3, 1), (6, 5)]))
        game.roll()
        game.play("8/5 6/5")
        game.double()
        game.take()
        game.roll()
        game.play(game.legal_plays()[0])
        game.double()  # to 4, by the player who owned the 2-cube
        return game

    doubler_behind = ConstantEvaluator((0.3, 0.05, 0.0, 0.1, 0.0))
    engine_player = EnginePlayer(Engine(plies=0, evaluator=doubler_behind), "engine")
    for limit, answer in ((4, ActionKind.TAKE), (8, ActionKind.BEAVER)):
        game = redoubled(limit)
        action = engine_player.next_action(game)
        assert action.kind is answer
        action.perform(game)
    behind = pos("x 6:5 5:5 4:5; o 3:5 2:5 1:5")  # the doubler is far behind
    heuristic = computer_player("pubeval")
    for limit, heuristic_answer in ((8, "beaver"), (4, "take")):
        asked = FakeGame(behind.flip(), turn=1, rules=Rules(beavers=True, cube_limit=limit), cube_value=2)
        assert heuristic.answer_double(asked) == heuristic_answer  # type: ignore[arg-type]


@dataclass
class ResignedGame:
    """A stand-in whose situation() is the resigner's, as Game.situation() gives it while a
    resignation awaits its answer."""

    resigner: Position
    offered: WinKind

    def situation(self):
        from gammon.situation import Situation

        return Situation(self.resigner, resignation=self.offered, rules=Rules(jacoby=False))


def test_the_engine_rejects_a_gammon_offered_where_a_backgammon_is_certain():
    """The resigner has all 15 checkers on the bar, against two checkers left on the winner's ace
    point: the winner bears both off next roll whatever it throws, while the resigner, with none
    off, still has checkers in its home board. The engine holds out for the backgammon, and takes
    the backgammon offered (the heuristic too: test_the_heuristic_counts_backgammons)."""
    from gammon.engine.engine import Engine
    from gammon.engine.players import EnginePlayer

    resigner = Position.from_points({25: 15}, {1: 2})
    engine = EnginePlayer(Engine(plies=0), "engine-0ply")
    assert not engine.accepts_resignation(ResignedGame(resigner, WinKind.GAMMON))
    assert engine.accepts_resignation(ResignedGame(resigner, WinKind.BACKGAMMON))
