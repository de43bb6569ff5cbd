"""GNU Backgammon's ``external`` command judges gammon's board lines under the game's own rules (the
Jacoby rule, the Crawford rule, beavers), not its defaults. The Debian ``gnubg`` program judges."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from gammon.dice import ScriptedDice
from gammon.game import ActionKind, Game
from gammon.position import Position
from gammon.protocols.gnubg_external import GnubgExternalPlayer, session_options
from gammon.rules import Rules, WinKind
from gammon.situation import CubeOwner, Situation
from tests.helpers import needs_gnubg
from tests.protocols.test_gnubg_external import free_port, gnubg

# A blitz before the roll, cube centred: the player on roll has a five-point board and three of the
# opponent's checkers on the bar; too good to double when gammons count, a double under Jacoby.
BLITZ = [0, 0, 2, 2, 2, 2, 3, 0, 2, 0, 0, 0, -5, 2, 0, 0, 0, -3, 0, -2, 0, 0, 0, 0, -2, 0]
BLITZ[0] = -3
# The resigner's fifteen checkers are all in GNU Backgammon's home board, and GNU Backgammon (on cube
# 2) bears off its last checker, on its 1 point, next: a backgammon, not the gammon offered.
TRAPPED = Position.from_points({22: 5, 21: 5, 20: 5}, {1: 1})


def test_session_options_say_the_rules() -> None:
    assert session_options(Rules()) == " jacobyrule on crawfordrule on beavers off"
    assert session_options(Rules(jacoby=False, beavers=True)) == " jacobyrule off crawfordrule on beavers on"
    assert (
        session_options(Rules(match_length=5, crawford=False))
        == " jacobyrule on crawfordrule off beavers off"
    )


@pytest.fixture(scope="module")
def gnubg_player() -> Iterator[GnubgExternalPlayer]:
    port = free_port()
    with gnubg(f"external localhost:{port}\n"):
        player = GnubgExternalPlayer("localhost", port, timeout=60)
        yield player
        player.close()


@needs_gnubg
def test_gnubg_plays_for_a_gammon_without_the_jacoby_rule(gnubg_player: GnubgExternalPlayer) -> None:
    position = Position(BLITZ)
    assert gnubg_player.ask(Situation(position, rules=Rules(jacoby=True))) == "double"
    assert gnubg_player.ask(Situation(position, rules=Rules(jacoby=False))) == "roll"


@dataclass
class Resigned:
    """A game where the player on roll of ``offer`` offers to resign to GNU Backgammon, as a Game
    answers ``situation()`` and as the heuristic reads a game."""

    offer: Situation
    turn: int = 1  # GNU Backgammon, asked to accept
    score: tuple[int, int] = (0, 0)

    def situation(self) -> Situation:
        return self.offer

    @property
    def position(self) -> Position:
        return self.offer.position.flip()  # the view of the player asked

    @property
    def offered_resignation(self) -> WinKind | None:
        return self.offer.resignation

    @property
    def rules(self) -> Rules:
        return self.offer.rules

    @property
    def cube_value(self) -> int:
        return self.offer.cube_value

    @property
    def cube_owner(self) -> int | None:
        return {CubeOwner.MOVER: 0, CubeOwner.OPPONENT: 1}.get(self.offer.cube_owner)


@needs_gnubg
def test_gnubg_judges_a_resignation_offered_to_it(gnubg_player: GnubgExternalPlayer) -> None:
    for kind, accepted in ((WinKind.GAMMON, False), (WinKind.BACKGAMMON, True)):
        offer = Situation(
            TRAPPED, cube_value=2, cube_owner=CubeOwner.OPPONENT, resignation=kind, rules=Rules(jacoby=False)
        )
        assert gnubg_player.accepts_resignation(Resigned(offer)) is accepted, kind  # type: ignore[arg-type]


@needs_gnubg
def test_gnubg_judges_the_offer_of_a_player_not_on_roll_from_the_resigners_side(
    gnubg_player: GnubgExternalPlayer,
) -> None:
    """The same offers made while GNU Backgammon is to roll (``opponent_resigns``, as Game.situation()
    gives them now): judged for the resigner, not as an offer of GNU Backgammon's own."""
    gnubg_view = TRAPPED.flip()
    for kind, accepted in ((WinKind.GAMMON, False), (WinKind.BACKGAMMON, True)):
        offer = Situation(gnubg_view, cube_value=2, cube_owner=CubeOwner.MOVER, resignation=kind,
                          opponent_resigns=True, rules=Rules(jacoby=False))
        assert gnubg_player.accepts_resignation(Resigned(offer)) is accepted, kind  # type: ignore[arg-type]


@needs_gnubg
def test_gnubg_accepts_a_single_game_offered_at_the_start(gnubg_player: GnubgExternalPlayer) -> None:
    game = Game(Rules(jacoby=False), ScriptedDice([(3, 1)]))
    game.roll()  # player 0 wins the opening roll, then resigns a single game to GNU Backgammon
    game.resign(WinKind.SINGLE)
    assert gnubg_player.next_action(game).kind is ActionKind.ACCEPT_RESIGNATION
