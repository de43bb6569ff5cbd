"""``gammon external`` under the money rules GNU Backgammon plays by: a board line does not carry
the Jacoby rule or beavers, so the server is told them (``--no-jacoby``, ``--beavers``)."""

from __future__ import annotations

import pytest

from gammon.cli.main import build_parser
from gammon.position import Position
from gammon.protocols.external import answer
from gammon.protocols.fibs_board import fibs_board
from gammon.rules import Rules
from gammon.situation import Situation
from tests.protocols.test_gnubg_external import ENGINE
from tests.protocols.test_gnubg_external_rules import BLITZ

# The doubler, on roll, is far behind in a race (75 pips to 30): a beaver where beavers are allowed.
BEHIND = [0, 0, 0, 0, 5, 5, 5] + [0] * 15 + [-5, -5, -5, 0]


def test_without_the_jacoby_rule_a_blitz_plays_for_the_gammon() -> None:
    line = str(fibs_board(Situation(Position(BLITZ))))
    assert answer(ENGINE, line) == "double"  # under the Jacoby rule gammons do not count yet
    assert answer(ENGINE, line, jacoby=False) == "roll"


def test_beavers_where_the_session_allows_them() -> None:
    line = str(fibs_board(Situation(Position(BEHIND), double_offered=True)))
    assert answer(ENGINE, line) == "take"
    assert answer(ENGINE, line, beavers=True) == "beaver"
    match_line = str(
        fibs_board(Situation(Position(BEHIND), double_offered=True, rules=Rules(match_length=5)))
    )
    assert answer(ENGINE, match_line, beavers=True) == "take"  # no beavers in a match


@pytest.mark.parametrize(
    "words, jacoby, beavers",
    [([], True, False), (["--no-jacoby"], False, False), (["--beavers"], True, True)],
)
def test_the_command_line_says_the_rules(words: list[str], jacoby: bool, beavers: bool) -> None:
    args = build_parser().parse_args(["external", "--port", "0", *words])
    assert (not args.no_jacoby, args.beavers) == (jacoby, beavers)
