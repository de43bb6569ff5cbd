"""Real eXtreme Gammon match files, and GNU Backgammon's SGF of one of their matches, from a
public repository (``tests/data/xg/real/MANIFEST.tsv``, ``tests/data/sgf/real/MANIFEST.tsv``).

Every ``.xg`` file reads; where the same match is also in the ``.mat`` corpus (and in gnubg's own
SGF), the files read to the same games, action by action; gnubg, loading its SGF, walks through
the positions we read from the ``.xg``. One file holds a transcription error (an illegal play),
and is refused with the play named."""

from __future__ import annotations

from pathlib import Path

import pytest

from gammon.errors import InvalidNotationError
from gammon.formats import read_mat, read_sgf, read_xg, read_xgp, to_match
from gammon.formats.xg import _dice_make
from gammon.match import Match
from tests.formats.test_mat_gnubg import _check_same_match, walk_in_gnubg
from tests.helpers import needs_gnubg

DATA = Path(__file__).resolve().parents[1] / "data"
XG = DATA / "xg/real"
REFUSED = "gbf-aachen-2024-squire-joergensen-harmand-unger-7pt.xg"
# .xg file -> the same match in the .mat corpus (and in gnubg's SGF)
SAME = {"gbf-charlot1-charlot2-7pt.xg": ("gnubg/gnubgparser-charlot1-charlot2_7p.mat",
                                         "gbf-charlot1-charlot2-7pt.sgf"),
        "gbf-hsbt-paris-2023-job-unger-7pt.xg": ("xg/gbf-hsbt-paris-2023-job-unger-7pt.mat", None)}


def _xg_files() -> list[str]:
    rows = [line.split("\t") for line in (XG / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    files = sorted(row[0] for row in rows)
    assert files == sorted(p.name for p in XG.glob("*.xg")), "every file in the manifest, and only those"
    return files


def _read(name: str) -> Match:
    return read_xg((XG / name).read_bytes()).to_match()


@pytest.mark.parametrize("name", [f for f in _xg_files() if f != REFUSED])
def test_every_real_xg_file_reads_to_a_finished_match(name: str) -> None:
    record = read_xg((XG / name).read_bytes())
    match = record.to_match()
    assert match.is_over and match.rules.match_length in (7, 9, 11)
    assert all(n.strip() for n in record.names)
    assert max(match.score) >= match.rules.match_length
    assert sum(len(g.history) for g in match.games) > 100


@pytest.mark.parametrize("name", sorted(SAME))
def test_the_same_match_in_xg_mat_and_sgf_reads_the_same(name: str) -> None:
    mat, sgf = SAME[name]
    ours = _read(name)
    others = [to_match(read_mat((DATA / "mat/real" / mat).read_text(encoding="utf-8")))]
    if sgf:
        others.append(read_sgf((DATA / "sgf/real" / sgf).read_bytes()).match)
    for other in others:
        assert other.rules.match_length == ours.rules.match_length
        assert [g.history for g in other.games] == [g.history for g in ours.games]
        assert other.score == ours.score


def test_a_transcription_error_is_refused_naming_the_play() -> None:
    """XG recorded the roll 43 and the play 14/11 8/5 (its end position agrees): two 3s. GNU
    Backgammon (1.07) does not import .xg files; XG's own record is wrong, so the file is refused,
    saying why the play cannot be."""
    with pytest.raises(InvalidNotationError, match=r"game 7, move 26: .*play of 43, 14/11 8/5, is not legal "
                                                   r"from \S+: its checkers move 3 \+ 3, which the dice 43 "
                                                   r"do not make \(an error in the file\)$"):
        _read(REFUSED)


@needs_gnubg
def test_gnubg_walks_its_sgf_through_the_positions_read_from_the_xg() -> None:
    sgf = DATA / "sgf/real/gbf-charlot1-charlot2-7pt.sgf"
    record = read_sgf(sgf.read_bytes())
    assert record.application.startswith("GNU Backgammon") and {"A", "DA"} <= record.note_names()
    [walked] = walk_in_gnubg([sgf], "load match")
    _check_same_match(_read("gbf-charlot1-charlot2-7pt.xg"), walked)


def test_a_match_file_read_as_a_position_file_is_refused_in_a_short_message() -> None:
    with pytest.raises(InvalidNotationError, match="not an XG position file") as e:
        read_xgp((XG / "gbf-charlot1-charlot2-7pt.xg").read_bytes())
    assert len(str(e.value)) < 400  # not every record of the match listed


@pytest.mark.parametrize("dice, steps, made", [
    ((4, 3), ((14, 11), (8, 5)), False), ((4, 3), ((24, 17),), True), ((4, 3), ((24, 20), (13, 10)), True),
    ((4, 3), ((13, 9),), True), ((4, 3), ((13, 8),), False), ((3, 3), ((24, 18), (8, 5)), True),
    ((3, 3), ((24, 12), (8, 2)), False), ((6, 5), ((3, 0), (2, 0)), True)])
def test_the_dice_make_a_play_s_steps_only_where_the_lengths_fit(dice: tuple[int, int],
                                                                 steps: tuple[tuple[int, int], ...],
                                                                 made: bool) -> None:
    assert _dice_make(dice, steps) is made
