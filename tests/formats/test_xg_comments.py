"""The comments eXtreme Gammon keeps in a ``.xg`` file (``temp.xgc``, RTF, pointed to by the
records' comment indices) are read as text and placed on the replayed match's games and actions,
as an SGF file's ``C`` properties are, so that ``gammon analyse`` carries them into its outputs."""

from __future__ import annotations

import struct
from pathlib import Path

from gammon.formats.sgf import format_sgf, read_sgf
from gammon.formats.xg import comments_on, read_xg
from gammon.formats.xg_records import decode_comments, rtf_text
from gammon.game import Double, PlayMade, Roll
from gammon.rules import Rules
from tests.formats import xg_writer
from tests.formats.random_play import play_match

REAL = Path(__file__).parents[1] / "data/xg/real/gbf-harmand-unger-9pt-comment.xg"
RTF = (rb"{\rtf1\ansi\ansicpg1252\uc1\deff0{\fonttbl{\f0\fcharset0 Arial;}}"
       rb"{\colortbl;}{\*\generator Wine Riched20 2.0;}\pard\f0 %s\par}")
# as a line of temp.xgc: XG writes the document's line breaks as the bytes 1 and 2
XGC = RTF.replace(b"}{", b"}\x01\x02{").replace(b"\\par}", b"\\par\x01\x02}")


def test_the_real_files_comments_are_read_as_text() -> None:
    record = read_xg(REAL)
    assert record.comments == ("coup assez difficile", "les double 66 sont toujpurs difficiles à trouver")
    assert record.commented
    assert [m.comment for g in record.games for m in g.actions if m.comment != -1] == [0, 1]


def test_the_real_files_comments_go_on_the_plays_they_were_made_on() -> None:
    record = read_xg(REAL)
    match = record.to_match()
    comments = comments_on(record, match)
    history = match.games[0].history
    placed = {i: comments.action_properties(0, i)["C"] for i in range(len(history))
              if comments.action_properties(0, i)}
    # the first game's second and third plays: White's 54, then White's 66
    assert list(placed.values()) == [("coup assez difficile",),
                                     ("les double 66 sont toujpurs difficiles à trouver",)]
    plays = [i for i, a in enumerate(history) if isinstance(a, PlayMade)]
    assert list(placed) == [plays[2], plays[4]]
    assert [history[i].dice for i in placed] == [(5, 4), (6, 6)]
    assert all(not comments.action_properties(k, i) for k in range(1, len(match.games))
               for i in range(len(match.games[k].history)))


def test_rtf_text_decodes_what_xg_writes() -> None:
    assert rtf_text(RTF % rb"les double 66 \'e0 trouver") == "les double 66 à trouver"
    # Unicode with its ANSI stand-in, a character beyond U+FFFF, escaped braces, paragraphs, tables
    text = rb"\u8364?uro \u-10179?\u-8704? \{x\} \\ {\b bold}\par second\tab line"
    assert rtf_text(RTF % text) == "\u20acuro \U0001f600 {x} \\ bold\nsecond line"
    # a terminal's escape sequence is no part of a comment shown in a terminal
    assert rtf_text(RTF % b"red \x1b[31m") == "red \ufffd[31m"
    assert rtf_text(b"not rtf <b>") == "not rtf <b>"


def test_decode_comments_keeps_each_comments_place() -> None:
    data = XGC % b"first" + b"\r\n" + b"\r\n" + XGC % b"third" + b"\r\n"
    assert decode_comments(data) == ("first", "", "third")
    assert decode_comments(b"") == ()


def _set(records: list[bytes], k: int, offset: int, *values: int) -> None:
    raw = bytearray(records[k])
    struct.pack_into(f"<{len(values)}i", raw, offset, *values)
    records[k] = bytes(raw)


def test_comments_on_games_doubles_and_no_doubles_go_on_their_nodes() -> None:
    match = play_match(1, Rules(match_length=5), games=1, double=0.2, resign=0.0)
    game = match.games[0]
    assert any(isinstance(a, Double) for a in game.history)
    records = [xg_writer.match_header(("Ann", "Bo"), match.rules)] + xg_writer.game_records(game, 1)
    kinds = [r[8] for r in records]
    cubes = [k for k, kind in enumerate(kinds) if kind == 2]
    doubling = next(k for k in cubes if struct.unpack_from("<i", records[k], 16)[0] == 1)
    quiet = next(k for k in cubes if struct.unpack_from("<i", records[k], 16)[0] == 0)
    texts = [b"the match", b"after the match", b"game one", b"a double", b"no double here",
             b"<script>alert(1)</script>", b"the game's end"]
    _set(records, 0, 576, 0, 1)
    _set(records, 1, 56, 2, 6)
    _set(records, doubling, 292, 3)
    _set(records, quiet, 292, 4)
    first_move = kinds.index(3)
    _set(records, first_move, 2524, 5)
    files = xg_writer.archive_files(records)
    files["temp.xgc"] = b"".join(XGC % t + b"\r\n" for t in texts)
    record = read_xg(xg_writer.container(files))
    replayed = record.to_match()
    comments = comments_on(record, replayed)
    history = replayed.games[0].history
    assert comments.match == ("the match", "after the match")
    assert comments.game_properties(0) == {"C": ("game one", "the game's end")}
    placed = {i: comments.action_properties(0, i)["C"] for i in range(len(history))
              if comments.action_properties(0, i)}
    doubles = [i for i, a in enumerate(history) if isinstance(a, Double)]
    plays = [i for i, a in enumerate(history) if isinstance(a, PlayMade)]
    assert placed[plays[0]] == ("<script>alert(1)</script>",)
    assert placed[doubles[0]] == ("a double",)
    # the no-double's comment is on the play of the roll that follows it
    quiet_at = [i for i, texts in placed.items() if texts == ("no double here",)]
    assert len(quiet_at) == 1 and isinstance(history[quiet_at[0]], PlayMade)
    assert isinstance(history[quiet_at[0] - 1], Roll)
    # and an SGF writer puts each on its node, read back as they were written
    back = read_sgf(format_sgf(replayed, record.names, annotator=comments))
    assert back.game_notes[0]["C"] == ("game one", "the game's end")
    assert {i: n["C"] for i, n in back.action_notes[0].items() if "C" in n} == placed


def test_a_file_of_braces_costs_no_memory_per_brace() -> None:
    import tracemalloc

    nested = b"{\\rtf1 " + b"{" * 200_000 + b"deep" + b"}" * 200_000 + b" top}"
    tracemalloc.start()
    try:
        assert rtf_text(nested) == "deep top"
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * len(nested)  # the text and its tokens, not a state per open brace


def test_the_comments_are_read_only_when_asked() -> None:
    record = read_xg(REAL)
    assert record.commented and "comments" not in vars(record)  # not decoded yet
    assert record.comments[0] == "coup assez difficile"
