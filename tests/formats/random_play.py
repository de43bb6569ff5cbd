"""Whole matches played with seeded dice and random legal choices, cube and resignations included."""

from __future__ import annotations

import random

from gammon import RandomDice
from gammon.game import Game
from gammon.match import Match
from gammon.rules import Rules


def play_game(game: Game, rng: random.Random, double: float = 0.08, take: float = 0.6,
              resign: float = 0.01) -> None:
    """Play ``game`` to its end with random legal actions."""
    while not game.is_over:
        actions = game.legal_actions()
        if "accept_resignation" in actions:
            (game.accept_resignation if rng.random() < 0.6 else game.reject_resignation)()
        elif "take" in actions:
            if "beaver" in actions and rng.random() < 0.2:
                game.beaver()
            else:
                (game.take if rng.random() < take else game.pass_)()
        elif "play" in actions:
            plays = game.legal_plays()
            # gnubg reads a roll written without a play as the play when only one is legal, so
            # resign after rolling only where there is a choice
            if len(plays) > 1 and rng.random() < resign:
                game.resign(rng.choice([1, 2, 3]))
            else:
                game.play(rng.choice(plays))
        elif "double" in actions and rng.random() < double:
            game.double()
        elif "roll" in actions:
            if "resign" in actions and rng.random() < resign:
                game.resign(rng.choice([1, 2, 3]))
            else:
                game.roll()


def play_match(seed: int, rules: Rules, games: int = 50, **odds: float) -> Match:
    """A match (or money session of at most ``games`` games) with RandomDice(seed)."""
    rng = random.Random(seed)
    match = Match(rules, RandomDice(seed))
    for _ in range(games):
        play_game(match.game, rng, **odds)
        if match.is_over:
            break
        if len(match.games) < games:
            match.new_game()
    return match
