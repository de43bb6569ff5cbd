"""GNU Backgammon's ``external`` command judges gammon's board lines under the game's own rules (the
Jacoby rule, the Crawford rule, beavers), not its defaults. The Debian ``gnubg`` program judges."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gammon.position import Position
from gammon.protocols.gnubg_external import GnubgExternalPlayer, session_options
from gammon.rules import Rules
from gammon.situation import Situation
from tests.helpers import needs_gnubg
from tests.protocols.test_gnubg_external import free_port, gnubg

# A blitz before the roll, cube centred: the player on roll has a five-point board and three of the
# opponent's checkers on the bar; too good to double when gammons count, a double under Jacoby.
BLITZ = [0, 0, 2, 2, 2, 2, 3, 0, 2, 0, 0, 0, -5, 2, 0, 0, 0, -3, 0, -2, 0, 0, 0, 0, -2, 0]
BLITZ[0] = -3


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
