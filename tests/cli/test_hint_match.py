"""gammon hint at a match score: the plays ranked by cubeful match winning chances, and said so."""

from __future__ import annotations

from gammon.cli.hint import run_hint
from gammon.engine.engine import Engine
from gammon.i18n import use_language

# 66 to play at 7-away each, the mover all but lost: the opponent, on roll after any play, doubles
# it out, so every play is worth the match winning chance of losing one point, about 43%
LOST = "7gEIAP5+AJAAAA:cAn7AAAAAAAA"


def test_a_match_hint_says_its_chances_are_cubeful_and_gives_them() -> None:
    out = run_hint(LOST, engine=Engine(plies=0))
    header, _, first = out.splitlines()[:3]
    assert "match winning chances with the cube" in header and "cubeless" not in header
    mwc = float(first.split("MWC")[1].split("%")[0])
    assert 40.0 < mwc < 47.0, first  # cubeless it would be about 4%
    with use_language("pl"):
        assert "szanse na wygranie meczu z kostką" in run_hint(LOST, engine=Engine(plies=0))


def test_a_money_hint_stays_cubeless() -> None:
    out = run_hint("4HPwATDgc/ABMA", "31", engine=Engine(plies=0))
    assert "cubeless" in out.splitlines()[0]
