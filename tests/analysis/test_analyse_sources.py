"""analyse() takes what the formats' readers give (the README: `gammon.analysis.analyse(match_or_record)`
beside `gammon analyse FILE` for .mat, .sgf and .xg): an SGF or XG record as a .mat record, the
players' names from the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from gammon.analysis import analyse
from gammon.engine import Engine
from gammon.formats import read_sgf, read_xg, read_xg_match

DATA = Path(__file__).resolve().parents[1] / "data"
SGF = DATA / "sgf" / "real" / "gbf-charlot1-charlot2-7pt.sgf"
XG = DATA / "xg" / "real" / "gbf-charlot1-charlot2-7pt.xg"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(plies=0)


def test_an_sgf_record_is_analysed_as_its_match_with_its_names(engine: Engine) -> None:
    record = read_sgf(SGF.read_bytes())
    analysis = analyse(record, engine)
    assert analysis.names == record.names == ("charlot1", "charlot2")
    assert analysis == analyse(record.match, engine, names=record.names)


def test_an_xg_record_is_analysed_as_its_match_with_its_names(engine: Engine) -> None:
    record = read_xg(XG)
    analysis = analyse(record, engine)
    assert analysis.names == record.names == ("charlot1", "charlot2")
    assert analysis == analyse(read_xg_match(XG), engine, names=record.names)
