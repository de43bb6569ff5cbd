"""GNU Backgammon's marks for decisions and rolls, with its thresholds (in EMG).

The thresholds are GNU Backgammon 1.07's defaults (``show analysis``: doubtful 0.030, bad 0.060,
very bad 0.120; lucky 0.300, very lucky 0.600; versions before 1.06 used 0.04 / 0.08 / 0.16), and
a decision is marked when it loses strictly more than a threshold, as gnubg's ``Skill()`` does. A
cube decision is "close" when doubling costs less than 0.16 against the best cube action
(gnubg's ``isCloseCubedecision``); close and actual cube decisions are the ones counted in the
cube error rate.
"""

from __future__ import annotations

from enum import Enum

DOUBTFUL = 0.030
BAD = 0.060
VERY_BAD = 0.120
LUCKY = 0.300
VERY_LUCKY = 0.600
CLOSE_CUBE = 0.16


class Skill(Enum):
    """How a decision is marked by the equity it lost."""

    NONE = "none"
    DOUBTFUL = "doubtful"
    BAD = "bad"
    VERY_BAD = "very bad"


class Luck(Enum):
    """How a roll is marked by the equity it brought (against the average roll)."""

    VERY_UNLUCKY = "very unlucky"
    UNLUCKY = "unlucky"
    NONE = "none"
    LUCKY = "lucky"
    VERY_LUCKY = "very lucky"


def skill_mark(error: float) -> Skill:
    """The mark of a decision that lost ``error`` EMG (>= 0)."""
    if error > VERY_BAD:
        return Skill.VERY_BAD
    if error > BAD:
        return Skill.BAD
    if error > DOUBTFUL:
        return Skill.DOUBTFUL
    return Skill.NONE


def luck_mark(luck: float) -> Luck:
    """The mark of a roll whose luck is ``luck`` EMG (positive: better than the average roll)."""
    if luck > VERY_LUCKY:
        return Luck.VERY_LUCKY
    if luck > LUCKY:
        return Luck.LUCKY
    if luck < -VERY_LUCKY:
        return Luck.VERY_UNLUCKY
    if luck < -LUCKY:
        return Luck.UNLUCKY
    return Luck.NONE
