"""Exchange formats: GNU Backgammon Match ID, XGID and Jellyfish/gnubg ``.mat`` match files.

One module per format; each reads text into frozen records (errors: :class:`InvalidNotationError`
quoting the input) and writes records back.
"""

from gammon.formats.matchid import GameState, MatchState, format_gnubg_id, parse_gnubg_id

__all__ = ["GameState", "MatchState", "format_gnubg_id", "parse_gnubg_id"]
