"""Reading match files for the profile, and the fingerprint of a match."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gammon.errors import GammonError
from gammon.profile import fingerprint, read_match_file
from gammon.profile.source import _record
from tests.profile.conftest import CHARLOT_SGF, CHARLOT_XG, LASSE_1, LASSE_2


def test_one_match_in_two_formats_has_one_fingerprint() -> None:
    sgf = read_match_file(CHARLOT_SGF.read_bytes(), CHARLOT_SGF.name)
    xg = read_match_file(CHARLOT_XG.read_bytes(), CHARLOT_XG.name)
    assert (sgf.format, xg.format) == ("sgf", "xg")
    assert sgf.names == xg.names == ("charlot1", "charlot2")
    assert sgf.date == xg.date == datetime(2025, 11, 8, tzinfo=UTC)
    assert fingerprint(sgf.match) == fingerprint(xg.match)


def test_different_matches_differ() -> None:
    one = read_match_file(LASSE_1.read_bytes(), LASSE_1.name).match
    two = read_match_file(LASSE_2.read_bytes(), LASSE_2.name).match
    assert fingerprint(one) != fingerprint(two)
    assert len(fingerprint(one)) == 64


def test_the_fingerprint_does_not_depend_on_which_player_is_listed_first() -> None:
    match = read_match_file(LASSE_1.read_bytes(), LASSE_1.name).match
    assert _record(match, False) != _record(match, True)
    # the smaller hash of the two ways round: a file listing the players the other way gives it too
    import hashlib

    hashes = {hashlib.sha256(_record(match, swap).encode()).hexdigest() for swap in (False, True)}
    assert fingerprint(match) == min(hashes)


def test_a_bad_file_raises_a_gammon_error() -> None:
    with pytest.raises(GammonError):
        read_match_file(b"no match here", "x.sgf")
