"""Exchange formats: GNU Backgammon Match ID, XGID, Jellyfish/gnubg ``.mat`` and GNU Backgammon
SGF match files, and eXtreme Gammon's binary ``.xg`` / ``.xgp`` files (read only).

One module per format; each reads text into frozen records (errors: :class:`InvalidNotationError`
quoting the input) and writes records back. ``gammon.formats.convert`` is the registry of the match
file formats and converts between them; :func:`read_match` there is the one way to read a match file.
"""

from gammon.formats.convert import Transcript, read_match, sniff_format
from gammon.formats.mat import MatGame, MatMatch, format_mat, read_mat, to_match, write_mat
from gammon.formats.matchid import (
    GameState,
    MatchState,
    format_gnubg_id,
    gnubg_id,
    match_id,
    match_state,
    parse_gnubg_id,
    read_gnubg_id,
)
from gammon.formats.sgf import SgfAnnotator, SgfMatch, format_sgf, parse_sgf, read_sgf, write_sgf
from gammon.formats.xg import XGMatch, XGPosition, read_xg, read_xg_match, read_xgp
from gammon.formats.xgid import XGID, format_xgid, parse_xgid, read_xgid

__all__ = ["XGID", "GameState", "MatGame", "MatMatch", "MatchState", "SgfAnnotator", "SgfMatch", "Transcript",
           "XGMatch", "XGPosition", "format_gnubg_id", "format_mat", "format_sgf", "format_xgid", "gnubg_id",
           "match_id", "match_state", "parse_gnubg_id", "parse_sgf", "parse_xgid", "read_gnubg_id",
           "read_mat", "read_match", "read_sgf", "read_xg", "read_xg_match", "read_xgid", "read_xgp",
           "sniff_format", "to_match", "write_mat", "write_sgf"]
