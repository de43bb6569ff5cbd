"""Hand-worked games for the analysis tests, and engines with fake evaluators."""

from __future__ import annotations

from gammon import Game, Rules, ScriptedDice
from gammon.engine.engine import Engine
from gammon.engine.net.evaluator import ConstantEvaluator, PipCountEvaluator


def pip_engine() -> Engine:
    """0 ply on the pip-count race formula (no bear-off database): fast and hand-computable."""
    return Engine(plies=0, evaluator=PipCountEvaluator(), bearoff=False)


def constant_engine(win: float, win_gammon: float = 0.0, lose_gammon: float = 0.0) -> Engine:
    """0 ply where every position has the same chances for the player on roll."""
    return Engine(plies=0, evaluator=ConstantEvaluator([win, win_gammon, 0.0, lose_gammon, 0.0]),
                  bearoff=False)


def play_out(game: Game, turns: list[str | None]) -> Game:
    """Roll and play each turn's notation in order; None: the roll has no legal play."""
    for text in turns:
        game.roll()
        if text is None:
            assert not game.legal_plays() and game.phase.name == "ROLL", "expected a roll with no play"
            continue
        game.play(text)
    return game


# Eight turns, worked by hand (player 0 moves first):
#  1. P0 53: 24/21 8/3         unforced
#  2. P1 63: 13/4*             unforced (hits the blot on P0's 21 point)
#  3. P0 66: no play           on the bar, P1 holds its 6 point (P0's entry point 19): a passed turn
#  4. P1 65: 8/2 6/1*          unforced (hits the blot on P0's 3 point)
#  5. P0 41: bar/24* bar/21*   forced: two checkers on the bar must both enter, with the 1 and the 4
#  6. P1 62: bar/23            forced: two P1 checkers on the bar; the 2 enters one, the 6 cannot
#                              enter (P0 holds its 6 point, P1's 19) and nothing else may move
#  7. P0 12: 24/23* 8/6        unforced
#  8. P1 13: bar/24 bar/22*    forced: two on the bar again, the 1 and the 3 enter them
# P0: 4 moves, 2 unforced; P1: 4 moves, 2 unforced.
FORCED_DICE = [(5, 3), (6, 3), (6, 6), (6, 5), (1, 4), (2, 6), (1, 2), (1, 3)]
FORCED_TURNS: list[str | None] = ["24/21 8/3", "13/4*", None, "8/2 6/1*", "bar/24* bar/21*", "bar/23",
                                  "24/23* 8/6", "bar/24 bar/22*"]


def forced_game(rules: Rules | None = None, score: tuple[int, int] = (0, 0)) -> Game:
    """The eight turns above (the opening roll 5-3 thrown as player 0's 5 and player 1's 3)."""
    return play_out(Game(rules or Rules(), ScriptedDice(FORCED_DICE), score), FORCED_TURNS)


def blunder_game(rules: Rules | None = None) -> Game:
    """Player 1 answers 53 (24/21 8/3) with 63 24/15 where the pip count wants a hit (13/4*)."""
    return play_out(Game(rules or Rules(), ScriptedDice([(5, 3), (6, 3)])), ["24/21 8/3", "24/15"])
