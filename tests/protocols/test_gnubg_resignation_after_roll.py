"""Resignations offered to GNU Backgammon (``--level gnubg-external:...``) after the resigner's roll
(the resigner has dice showing and resigns instead of playing them). A board line's ``resignation
N`` values playing on with the resigner on roll before its roll: the dice would be lost. The
Debian ``gnubg`` program judges, at 0 ply."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from gammon.dice import Dice
from gammon.position import Position
from gammon.protocols.gnubg_external import GnubgError, GnubgExternalPlayer
from gammon.rules import Rules, WinKind
from gammon.situation import CubeOwner, Situation
from tests.helpers import needs_gnubg
from tests.protocols.test_gnubg_external import free_port, gnubg

NO_JACOBY = Rules(jacoby=False)
# The resigner (on roll) has one checker on its 13 point and fourteen on its 6 point, none off; GNU
# Backgammon bears off its last two checkers next turn. Only 66 brings the straggler home and a
# checker off: that roll saves the gammon, every other loses it.
RACE = Position.from_points({13: 1, 6: 14}, {1: 2})


@dataclass
class Asked:
    """A stand-in Game whose situation() is the one given."""

    given: Situation

    def situation(self) -> Situation:
        return self.given


KINDS = ("chequerplay", "cubedecision")


@pytest.fixture(scope="module")
def gnubg_player() -> Iterator[GnubgExternalPlayer]:
    port = free_port()
    settings = "".join(f"set evaluation {kind} evaluation plies 0\n" for kind in KINDS)
    with gnubg(f"{settings}external localhost:{port}\n"):
        player = GnubgExternalPlayer("localhost", port, timeout=60, plies=0)
        yield player
        player.close()


def accepts(player: GnubgExternalPlayer, offer: Situation) -> bool:
    return player.accepts_resignation(Asked(offer))  # type: ignore[arg-type]


def after_roll(dice: Dice | None, kind: WinKind = WinKind.SINGLE, rules: Rules = NO_JACOBY,
               score: tuple[int, int] = (0, 0)) -> Situation:
    return Situation(RACE, dice=dice, resignation=kind, score=score, rules=rules)


@needs_gnubg
def test_a_single_game_resigned_after_the_joker_that_saves_the_gammon_is_accepted(
    gnubg_player: GnubgExternalPlayer,
) -> None:
    assert not accepts(gnubg_player, after_roll(None))  # before the roll the gammon is likely
    assert accepts(gnubg_player, after_roll((6, 6)))  # after 66 a single game is lost either way
    assert not accepts(gnubg_player, after_roll((2, 1)))  # after 21 the gammon is certain
    assert accepts(gnubg_player, after_roll((2, 1), WinKind.GAMMON))


@needs_gnubg
def test_in_a_match_too(gnubg_player: GnubgExternalPlayer) -> None:
    five = Rules(match_length=5)
    assert accepts(gnubg_player, after_roll((6, 6), rules=five, score=(0, 2)))
    assert not accepts(gnubg_player, after_roll((4, 3), rules=five, score=(0, 2)))


@needs_gnubg
def test_a_roll_that_wins_the_game_makes_any_offer_acceptable(gnubg_player: GnubgExternalPlayer) -> None:
    # the resigner bears off its last checker with the 21 it holds; GNU Backgammon has a checker
    # in the resigner's home board: playing on wins a backgammon
    offer = Situation(Position.from_points({1: 1}, {6: 14, 20: 1}), dice=(2, 1), resignation=WinKind.SINGLE,
                      rules=NO_JACOBY)
    assert accepts(gnubg_player, offer)


@needs_gnubg
def test_a_dance_turns_an_offer_worth_accepting_into_one_to_reject(gnubg_player: GnubgExternalPlayer) -> None:
    """The resigner (cube 2, its own) is on the bar against a five-point board with a blot on the
    6 point: before its roll the shot at the blot makes a single game worth accepting; once it
    has danced (no play: GNU Backgammon rolls next) the gammon looms; once it has hit, more so."""
    shot = Position.from_points({25: 1, 13: 3, 6: 2, 5: 2, 4: 2, 3: 2, 2: 3},
                                {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 1})

    def offer(dice: Dice | None) -> Situation:
        return Situation(shot, dice=dice, cube_value=2, cube_owner=CubeOwner.MOVER,
                         resignation=WinKind.SINGLE, rules=NO_JACOBY)

    assert accepts(gnubg_player, offer(None))
    assert not accepts(gnubg_player, offer((2, 1)))
    assert accepts(gnubg_player, offer((6, 1)))


# GNU Backgammon (on roll) bears off its last two checkers with any roll; the resigner has all
# fifteen on its 1 and 2 points, none off: a roll of its own would save the gammon, but it gets none.
HOME = Position.from_points({1: 2}, {1: 8, 2: 7})


@needs_gnubg
def test_an_offer_before_gnubgs_own_roll_is_judged_with_gnubg_rolling_first(
    gnubg_player: GnubgExternalPlayer,
) -> None:
    """Offered while GNU Backgammon is to roll (Game.situation() gives it from GNU Backgammon's
    view, ``opponent_resigns``): it bears off before the resigner rolls again."""
    for kind, accepted in ((WinKind.SINGLE, False), (WinKind.GAMMON, True)):
        offer = Situation(HOME, cube_value=2, cube_owner=CubeOwner.OPPONENT, resignation=kind,
                          opponent_resigns=True, rules=NO_JACOBY)
        assert accepts(gnubg_player, offer) is accepted, kind
    in_a_match = Situation(HOME, resignation=WinKind.SINGLE, opponent_resigns=True, score=(1, 0),
                           rules=Rules(match_length=7))
    assert not accepts(gnubg_player, in_a_match)


@needs_gnubg
def test_an_offer_instead_of_answering_gnubgs_double_is_as_good_as_a_pass(
    gnubg_player: GnubgExternalPlayer,
) -> None:
    """GNU Backgammon doubles and the resigner offers a game instead of answering: a single game or
    more gives at least what a pass would, which the resigner may choose; accepted. In RACE (GNU
    Backgammon's opponent's view) the gammon looms even with the resigner to roll, and a single game
    was rejected."""
    for kind in (WinKind.SINGLE, WinKind.GAMMON):
        offer = Situation(RACE.flip(), double_offered=True, resignation=kind, opponent_resigns=True,
                          rules=NO_JACOBY)
        assert accepts(gnubg_player, offer), kind


def test_an_evaluation_that_is_no_six_numbers_is_refused_quoted() -> None:
    """GNU Backgammon's ``evaluation fibsboard`` answers six numbers; anything else (or a number
    that is none) is an error that quotes it, and the connection goes on with the next answer."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)

        def serve() -> None:
            peer, _ = listener.accept()
            with peer, peer.makefile("rb") as lines:
                for reply in (b"0.5 0.1 nonsense\n", b"0 0 0 0 0 nan\n", b"0.1 0.2 0.3 0.4 0.5 -0.25\n"):
                    assert lines.readline().startswith(b"evaluation fibsboard board:")
                    peer.sendall(reply)

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        player = GnubgExternalPlayer("127.0.0.1", listener.getsockname()[1], timeout=30, plies=0)
        with pytest.raises(GnubgError, match="answered '0.5 0.1 nonsense'; expected six numbers"):
            player.evaluate(Situation(RACE))
        with pytest.raises(GnubgError, match="'0 0 0 0 0 nan'"):
            player.evaluate(Situation(RACE))
        assert player.evaluate(Situation(RACE)) == -0.25
        player.close()
        thread.join(timeout=30)
