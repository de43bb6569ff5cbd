"""gammon.formats.ids.read_id: a Situation from any ID form, and its errors."""

from __future__ import annotations

import re

import pytest

from gammon.errors import InvalidNotationError
from gammon.formats.ids import read_id

BOARD = "XGID=-b----E-C---eE---c-e----B-"


@pytest.mark.parametrize("fields, what", [
    (":0:0:1:00:0:40000:0:0:10", "score (40000, 0)"),
    (":0:0:1:00:0:0:0:40000:10", "match length 40000"),
    (":20:0:1:00:0:0:0:5:10", "cube value"),
])
def test_xgid_fields_out_of_range_are_notation_errors(fields: str, what: str) -> None:
    with pytest.raises(InvalidNotationError, match=f"XGID '{re.escape(BOARD)}.*: .*{re.escape(what)}"):
        read_id(BOARD + fields)


def test_an_id_that_is_no_string_is_quoted_cut() -> None:
    with pytest.raises(InvalidNotationError, match="an ID must be a string") as e:
        read_id(b"x" * 100_000)  # type: ignore[arg-type]
    assert len(str(e.value)) < 200
