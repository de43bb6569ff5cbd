"""Match and game analysis: every checker play and cube action judged by the engine, the luck of
every roll, and GNU Backgammon's per-player statistics (with eXtreme Gammon's PR).

>>> from gammon.analysis import analyse
>>> analysis = analyse(match)              # a Match, a .mat record (read_mat) or a list of Games
>>> first, second = analysis.statistics()  # PlayerStatistics of player 0 and player 1
"""

from gammon.analysis.decisions import (
    AnalysisSettings,
    Candidate,
    CheckerPlay,
    CubeChoice,
    Decision,
    MatchMoment,
    RollLuck,
)
from gammon.analysis.marks import Luck, Skill
from gammon.analysis.stats import PlayerStatistics
from gammon.analysis.walk import DEFAULT_PLIES, GameAnalysis, MatchAnalysis, analyse, move_numbers

__all__ = [
    "DEFAULT_PLIES",
    "AnalysisSettings",
    "Candidate",
    "CheckerPlay",
    "MatchMoment",
    "CubeChoice",
    "Decision",
    "GameAnalysis",
    "Luck",
    "MatchAnalysis",
    "PlayerStatistics",
    "RollLuck",
    "Skill",
    "analyse",
    "move_numbers",
]
