"""Exchange formats: GNU Backgammon Match ID, XGID and Jellyfish/gnubg ``.mat`` match files.

One module per format; each reads text into frozen records (errors: :class:`InvalidNotationError`
quoting the input) and writes records back.
"""

from gammon.formats.matchid import GameState, MatchState, format_gnubg_id, parse_gnubg_id
from gammon.formats.xgid import XGID, format_xgid, parse_xgid

__all__ = ["XGID", "GameState", "MatchState", "format_gnubg_id", "format_xgid", "parse_gnubg_id",
           "parse_xgid"]
