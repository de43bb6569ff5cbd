"""Match: scores, the match winner, Crawford and post-Crawford games, money sessions."""

import pytest

from gammon import IllegalActionError, Match, Rules, ScriptedDice, WinKind


def win(match: Match, winner: int, kind: WinKind = WinKind.SINGLE) -> None:
    """Finish the current game: the loser resigns ``kind`` right after the opening roll."""
    game = match.game
    game.roll()
    if game.turn == winner:
        game.play(game.legal_plays()[0])
    game.resign(kind, player=1 - winner)
    game.accept_resignation(player=winner)


def test_a_match_starts_at_love_and_needs_the_game_over_for_a_new_one():
    match = Match(Rules(match_length=3), ScriptedDice([(3, 1)] * 10))
    assert match.score == (0, 0) and not match.is_over and match.winner is None
    assert len(match.games) == 1 and match.game.score == (0, 0) and not match.is_crawford_game
    with pytest.raises(IllegalActionError, match="not over"):
        match.new_game()
    assert len(match.games) == 1


def test_crawford_and_post_crawford_games():
    match = Match(Rules(match_length=5), ScriptedDice([(3, 1)] * 20))
    win(match, 1)
    assert match.score == (0, 1)
    match.new_game()
    win(match, 0, WinKind.GAMMON)
    assert match.score == (2, 1) and not match.is_crawford_game
    game = match.new_game()
    assert game.score == (2, 1) and game.can_double() is False  # opening not rolled yet
    win(match, 1, WinKind.BACKGAMMON)
    assert match.score == (2, 4)
    crawford = match.new_game()
    assert match.is_crawford_game and crawford.crawford_game and crawford.score == (2, 4)
    crawford.roll()
    crawford.play(crawford.legal_plays()[0])
    assert not crawford.can_double()
    with pytest.raises(IllegalActionError, match="Crawford"):
        crawford.double()
    crawford.resign(WinKind.SINGLE)
    crawford.accept_resignation()
    assert match.score == (3, 4)
    post = match.new_game()  # post-Crawford: doubling is back
    assert not match.is_crawford_game
    post.roll()
    post.play(post.legal_plays()[0])
    assert post.can_double()
    post.double(player=1)
    post.take(player=0)
    post.resign(WinKind.SINGLE, player=1)  # player 1 resigns at the cube of 2
    post.accept_resignation()
    assert match.score == (5, 4) and match.is_over and match.winner == 0
    with pytest.raises(IllegalActionError, match="the match is over, 5-4"):
        match.new_game()
    assert [g.crawford_game for g in match.games] == [False, False, False, True, False]


def test_only_the_first_player_to_reach_match_point_gets_a_crawford_game():
    match = Match(Rules(match_length=3), ScriptedDice([(3, 1)] * 20))
    win(match, 0, WinKind.GAMMON)  # 2-0: Crawford
    assert match.new_game().crawford_game
    win(match, 1, WinKind.GAMMON)  # 2-2: the other player reaches match point, no new Crawford game
    assert not match.new_game().crawford_game
    win(match, 0)
    assert match.winner == 0 and match.score == (3, 2)


def test_no_crawford_game_without_the_rule():
    match = Match(Rules(match_length=3, crawford=False), ScriptedDice([(3, 1)] * 10))
    win(match, 0, WinKind.GAMMON)
    assert not match.new_game().crawford_game
    assert match.game.rules.crawford is False


def test_money_sessions_accumulate_and_never_end():
    match = Match(Rules(jacoby=False), ScriptedDice([(3, 1)] * 10))
    win(match, 0, WinKind.BACKGAMMON)
    match.new_game()
    win(match, 1, WinKind.GAMMON)
    match.new_game()
    win(match, 1)
    assert match.score == (3, 3) and not match.is_over and match.winner is None
    game = match.new_game()
    assert game.score == (3, 3) and not game.crawford_game and len(match.games) == 4


def test_games_share_the_match_dice_and_rules():
    rules = Rules(match_length=7, cube_limit=64)
    match = Match(rules, ScriptedDice([(3, 1), (1, 3)]))
    win(match, 0)
    game = match.new_game()
    assert game.rules is rules
    game.roll()
    assert game.turn == 1  # the second scripted roll


def test_bad_rules_are_refused():
    with pytest.raises(ValueError, match="'to 5'"):
        Match("to 5")  # type: ignore[arg-type]
