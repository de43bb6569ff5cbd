"""A game abandoned before the opening roll in a .mat file: the writer writes its "Wins" alone,
which our reader reads as the abandon it was and GNU Backgammon as an unfinished game with no
winner (it takes a win only after a roll, in whatever column or row it is written). Both keep the
points where another game follows: its score line, which gnubg trusts, says them. gammon convert
to .mat reports the game gnubg reads without a winner."""

from __future__ import annotations

import random
from pathlib import Path

from gammon import RandomDice
from gammon.formats.convert import convert
from gammon.formats.mat import read_mat, to_match, write_mat
from gammon.formats.sgf import format_sgf
from gammon.match import Match
from gammon.rules import Rules
from tests.formats.random_play import play_game
from tests.formats.test_mat_gnubg import walk_in_gnubg
from tests.helpers import needs_gnubg


def _abandoned_before_the_roll(seed: int, last: bool) -> Match:
    """A 7-point match: a game played out, then one that player 0 leaves before the opening roll
    (a backgammon, 3 points, to player 1), then, unless ``last``, another game begun."""
    match = Match(Rules(match_length=7), RandomDice(seed))
    play_game(match.game, random.Random(seed), double=0, resign=0)
    match.new_game()
    match.game.abandon(0)
    if not last:
        match.new_game()
        match.game.roll()
        match.game.play(match.game.legal_plays()[0])
    return match


def test_our_reader_reads_the_abandon_back() -> None:
    for last in (True, False):
        match = _abandoned_before_the_roll(4, last)
        record = read_mat(write_mat(match, ("Ann", "Bob")))
        assert record.errors == ()
        game = record.games[1]
        assert (game.actions, game.winner, game.points) == ((), 1, 3)
        back = to_match(record)
        assert back.games[1].result == match.games[1].result and back.score == match.score


def test_convert_to_mat_reports_the_game_gnubg_reads_unfinished() -> None:
    match = _abandoned_before_the_roll(4, last=True)
    losses = convert(format_sgf(match, ("Ann", "Bob")).encode(), "sgf", "mat").losses
    assert [loss for loss in losses if "opening roll" in loss] == [
        "game 2: GNU Backgammon reads the game abandoned before the opening roll as unfinished, with no "
        "winner, and the match without its points"]
    followed = _abandoned_before_the_roll(4, last=False)
    losses = convert(format_sgf(followed, ("Ann", "Bob")).encode(), "sgf", "mat").losses
    assert [loss for loss in losses if "opening roll" in loss] == [
        "game 2: GNU Backgammon reads the game abandoned before the opening roll as unfinished, with no "
        "winner (the next game's score line keeps its points)"]
    played = _abandoned_before_the_roll(4, last=False).games[0:1]
    losses = convert(format_sgf(played).encode(), "sgf", "mat").losses
    assert not [loss for loss in losses if "opening roll" in loss]


@needs_gnubg
def test_gnubg_reads_no_winner_and_the_next_score(tmp_path: Path) -> None:
    paths = []
    matches = [_abandoned_before_the_roll(4, last) for last in (True, False)]
    for k, match in enumerate(matches):
        path = tmp_path / f"abandoned{k}.mat"
        write_mat(match, ("Ann", "Bob"), path)
        paths.append(path)
    walked = walk_in_gnubg(paths)
    for match, w in zip(matches, walked):
        info = w["info"]
        assert len(info) == len(match.games)
        first = match.games[0].result
        assert (info[0]["winner"], info[0]["points-won"]) == ("XO"[first.winner], first.points)
        assert info[1]["winner"] is None and len(w["ids"][1]) == 1  # no roll, no win
        for game, i in zip(match.games, info):  # every score line as ours, the abandon's points too
            assert (i["score-X"], i["score-O"]) == game.score
