"""A text match file's encoding: Windows Notepad saves "Unicode" as UTF-16 with a byte-order
mark, which names its encoding; such a .mat or .sgf file reads as its UTF-8 original does."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from gammon.errors import InvalidNotationError
from gammon.formats import read_match
from gammon.formats.convert import sniff_format
from gammon.formats.mat import decode_mat

DATA = Path(__file__).resolve().parents[1] / "data"
REAL = DATA / "mat/real/xg/gbf-hsbt-paris-2023-job-unger-7pt.mat"
REAL_SGF = DATA / "sgf/real/gbf-charlot1-charlot2-7pt.sgf"


@pytest.mark.parametrize("bom, codec", [(codecs.BOM_UTF16_LE, "utf-16-le"),
                                        (codecs.BOM_UTF16_BE, "utf-16-be"),
                                        (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF8, "utf-8")])
def test_a_real_file_saved_with_a_byte_order_mark_reads_as_its_utf8_original(bom: bytes, codec: str) -> None:
    text = REAL.read_text(encoding="utf-8")
    assert not text.isascii()  # an accented name, which a wrong decoding would garble
    original = read_match(text.encode("utf-8"), "mat")
    converted = read_match(bom + text.encode(codec), "mat")
    assert converted.names == original.names
    assert [g.history for g in converted.match.games] == [g.history for g in original.match.games]
    assert converted.match.score == original.match.score and converted.match.is_over


def test_a_byte_order_mark_then_latin1_reads_as_latin1_without_the_mark() -> None:
    text = "7 point match\n Jos\xe9"
    assert decode_mat(codecs.BOM_UTF8 + text.encode("latin-1")) == text


def test_a_file_that_is_not_the_utf16_its_mark_says_is_refused_saying_so() -> None:
    data = codecs.BOM_UTF16_LE + "7 point match".encode("utf-16-le") + b"\x00\xdc"  # a lone low surrogate
    with pytest.raises(InvalidNotationError, match="UTF-16 byte-order mark but is not UTF-16"):
        decode_mat(data)


def test_utf16_that_holds_binary_data_is_still_refused() -> None:
    with pytest.raises(InvalidNotationError, match="not a text file"):
        decode_mat(codecs.BOM_UTF16_LE + "\x01\x02\x03\x00".encode("utf-16-le") * 40)


@pytest.mark.parametrize("path", [REAL, REAL_SGF], ids=["mat", "sgf"])
@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_a_utf16_file_is_told_by_its_content_and_reads_as_its_original(path: Path, codec: str) -> None:
    text = path.read_text(encoding="utf-8")
    bom = codecs.BOM_UTF16_LE if codec.endswith("le") else codecs.BOM_UTF16_BE
    data = bom + text.encode(codec)
    assert sniff_format(data).name == path.suffix[1:]
    original, converted = read_match(text.encode("utf-8")), read_match(data)
    assert converted.names == original.names and len(converted.match.games) >= 4
    assert [g.history for g in converted.match.games] == [g.history for g in original.match.games]
