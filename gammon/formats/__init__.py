"""Exchange formats: GNU Backgammon Match ID, XGID, Jellyfish/gnubg ``.mat`` match files and
eXtreme Gammon's binary ``.xg`` / ``.xgp`` files (read only).

One module per format; each reads text into frozen records (errors: :class:`InvalidNotationError`
quoting the input) and writes records back.
"""

from gammon.formats.mat import MatGame, MatMatch, format_mat, read_mat, to_match, write_mat
from gammon.formats.matchid import (
    GameState,
    MatchState,
    format_gnubg_id,
    gnubg_id,
    match_id,
    match_state,
    parse_gnubg_id,
)
from gammon.formats.xg import XGMatch, XGPosition, read_xg, read_xg_match, read_xgp
from gammon.formats.xgid import XGID, format_xgid, parse_xgid

__all__ = ["XGID", "GameState", "MatGame", "MatMatch", "MatchState", "XGMatch", "XGPosition",
           "format_gnubg_id", "format_mat", "format_xgid", "gnubg_id", "match_id", "match_state",
           "parse_gnubg_id", "parse_xgid", "read_mat", "read_xg", "read_xg_match", "read_xgp",
           "to_match", "write_mat"]
