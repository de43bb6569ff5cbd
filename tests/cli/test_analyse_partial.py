"""gammon analyse --partial on a damaged .xg or .sgf file: the games before the first one that does
not replay (a transcription error) are analysed, the problem said, as for a .mat file; without
--partial the file is refused. The damage is done to a copy of a real file."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from gammon.cli.main import main
from gammon.formats.convert import read_match
from gammon.formats.xg import read_xg
from gammon.formats.xg_container import unpack
from tests.formats.xg_writer import RECORD, container

REAL = Path(__file__).resolve().parents[1] / "data"
XG = REAL / "xg/real/gbf-charlot1-charlot2-7pt.xg"
SGF = REAL / "sgf/real/gbf-charlot1-charlot2-7pt.sgf"
GAME_HEADER, MOVE = 1, 3  # the records' kinds (gammon/formats/xg_records.py)


def _damaged_xg(game: int, move: int) -> bytes:
    """The real file with the dice of ``move`` in ``game`` (1-based) changed to 1-2: its play no
    longer fits them, as a transcription error."""
    archive = unpack(XG.read_bytes())
    files = {name: archive.files[name] for name in archive.files}
    records = bytearray(files["temp.xg"])
    games = moves = 0
    for at in range(0, len(records), RECORD):
        kind = records[at + 8]
        games, moves = (games + 1, 0) if kind == GAME_HEADER else (games, moves + (kind == MOVE))
        if (games, moves, kind) == (game, move, MOVE):
            assert struct.unpack_from("<2i", records, at + 100) != (1, 2)
            struct.pack_into("<2i", records, at + 100, 1, 2)
            break
    else:
        raise AssertionError(f"no move {move} in game {game}")
    files["temp.xg"] = bytes(records)
    return container(files)


def _damaged_sgf() -> str:
    """The real file with game 4's third move (4-3) written as a 1-2 it does not fit."""
    text = SGF.read_text(encoding="utf-8")
    assert text.count(";B[43ydqt]") == 1
    return text.replace(";B[43ydqt]", ";B[12ydqt]")


def test_a_damaged_xg_file_gives_the_games_before_the_bad_one() -> None:
    data = _damaged_xg(game=3, move=3)
    assert len(read_xg(data).games) == 4
    with pytest.raises(ValueError, match="game 3, move 3: .* is not legal"):
        read_match(data, "xg")
    t = read_match(data, "xg", partial=True)
    assert len(t.match.games) == 2 and t.match.score == read_match(XG.read_bytes(), "xg").match.games[2].score
    assert len(t.problems) == 1 and "game 3, move 3" in t.problems[0]
    assert t.names == ("charlot1", "charlot2")
    whole = read_match(XG.read_bytes(), "xg", partial=True)  # an undamaged file: all, no problem
    assert len(whole.match.games) == 4 and whole.problems == ()


def test_a_damaged_xg_file_whose_first_game_is_bad_keeps_nothing() -> None:
    t = read_match(_damaged_xg(game=1, move=2), "xg", partial=True)
    assert not any(g.history for g in t.match.games) and "game 1, move 2" in t.problems[0]


def test_a_damaged_sgf_file_gives_the_games_before_the_bad_one() -> None:
    data = _damaged_sgf().encode()
    with pytest.raises(ValueError, match="game 4, SGF line 152"):
        read_match(data, "sgf")
    t = read_match(data, "sgf", partial=True)
    assert len(t.match.games) == 3 and len(t.problems) == 1 and "game 4, SGF line 152" in t.problems[0]
    assert t.match.games[-1].score == read_match(SGF.read_bytes(), "sgf").match.games[2].score


@pytest.mark.parametrize("kind", ["xg", "sgf"])
def test_analyse_partial_analyses_the_games_before_the_bad_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    bad = tmp_path / f"damaged.{kind}"
    if kind == "xg":
        bad.write_bytes(_damaged_xg(game=3, move=3))
        problem, kept = "game 3, move 3", 2
    else:
        bad.write_text(_damaged_sgf(), encoding="utf-8")
        problem, kept = "game 4, SGF line 152", 3
    assert main(["analyse", str(bad), "--plies", "0", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and problem in captured.err
    assert main(["analyse", str(bad), "--plies", "0", "--json", "--partial"]) == 0
    captured = capsys.readouterr()
    assert f"gammon analyse: {bad}: {problem}" in captured.err  # the problem is still said
    data = json.loads(captured.out)
    assert [p["name"] for p in data["players"]] == ["charlot1", "charlot2"]
    assert {d["game"] for d in data["decisions"]} == set(range(1, kept + 1))  # games are numbered from 1
