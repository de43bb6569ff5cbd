"""Converting match files between formats, and the registry of the formats gammon reads and writes.

Each format is one :class:`MatchFormat` entry in :data:`FORMATS`: its name, its file extensions and
functions that read a file's bytes into a :class:`Transcript` (a Match, the names, the match
information in this module's own keys, :data:`INFO`) and write a Transcript as text. A format
gammon only reads has ``write=None``; adding one is one entry, e.g. for XG files::

    MatchFormat("xg", (".xg", ".xgp"), read=lambda data: as_transcript(read_xg(data)), write=None)

(:func:`as_transcript` takes a Match, ``.mat`` records or an :class:`SgfMatch`).

:func:`read_match` is the one way every reader of match files (``gammon convert``, ``gammon
analyse``, ``gammon play --resume``, the web's uploads) reads one: in the format named, or the one
its bytes show, and with ``partial=True`` the games before a damaged or unfinished part where the
format's reader can tell them.

:func:`convert` writes the target text, reads it back with the target's own reader and compares
the two transcripts: every difference is either something the target format cannot hold
(reported in :attr:`Conversion.losses`: gnubg's analysis dropped by ``.mat``, the beaver rule
that SGF does not record, a rejected resignation offer ...) or a bug, which raises rather than
writing a file that does not say what the input said. Tied opening throws are not compared: no
format keeps their dice, and their effect on the cube is compared with the rest of the game.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING

from gammon.errors import GammonError, InvalidNotationError
from gammon.formats.mat import MatMatch, decode_mat, format_mat, read_mat, to_match
from gammon.formats.sgf import SgfMatch, format_sgf, read_sgf, read_sgf_partial
from gammon.formats.text import wide_codec
from gammon.formats.xg import XGComments, XGMatch, comments_on, read_xg, to_match_partial
from gammon.formats.xg_container import MAGIC as XG_MAGIC
from gammon.game import Abandon, AcceptResignation, Action, PlayMade, RejectResignation, Resign, Roll
from gammon.i18n import ntr, ptr, tr
from gammon.match import Match
from gammon.rules import GameResult, Rules
from gammon.words import describe

if TYPE_CHECKING:
    from gammon.game import Game

INFO = ("event", "round", "place", "date", "annotator", "comment", "rating 1", "rating 2")
"""The match information a Transcript carries (date as YYYY-MM-DD)."""


@dataclass(frozen=True)
class Transcript:
    """A match as read from a file of any format: the replayed Match, the players' names (player
    0's first), the match information (:data:`INFO` keys), a description of whatever else the file
    holds that another format may not (``"gnubg's analysis (A, DA)"``), and the format's own record
    (so that a file written in its own format keeps everything)."""

    match: Match
    names: tuple[str, str]
    info: dict[str, str] = field(default_factory=dict)
    notes: frozenset[str] = frozenset()
    record: object = None
    warnings: tuple[str, ...] = ()  # what the reader accepted though it did not add up
    problems: tuple[str, ...] = ()  # a partial read: what was left out, each quoting its line


@dataclass(frozen=True)
class MatchFormat:
    """One file format: ``read`` turns a file's bytes (or its text, for a text format) into a
    Transcript (raising :class:`InvalidNotationError` quoting bad input), ``write`` a Transcript
    into text; None when gammon does not do that. ``read_partial`` reads what it can of a damaged
    file (the games before the first bad one), where the format can tell them apart."""

    name: str
    extensions: tuple[str, ...]
    read: Callable[[bytes | str], Transcript] | None
    write: Callable[[Transcript], str] | None
    read_partial: Callable[[bytes | str], Transcript] | None = None


@dataclass(frozen=True)
class Conversion:
    """The text written, what was read from the input, what the text reads back as, and the
    report of what could not be carried over."""

    text: str
    source: Transcript
    result: Transcript
    losses: tuple[str, ...]


def as_transcript(source: Match | MatMatch | SgfMatch, names: tuple[str, str] | None = None,
                  info: Mapping[str, str] | None = None, notes: frozenset[str] = frozenset()) -> Transcript:
    """A Transcript of what a reader returned: a Match (named ``names``), ``.mat`` records (replayed
    by :func:`to_match`) or an SgfMatch."""
    if isinstance(source, SgfMatch):
        return _sgf_transcript(source)
    if isinstance(source, MatMatch):
        return _mat_transcript(source)
    if isinstance(source, Match):
        return Transcript(source, names or ("Player 1", "Player 2"), dict(info or {}), notes)
    raise TypeError(f"cannot make a transcript of {type(source).__name__}")


# --- .mat ------------------------------------------------------------------------------------

# .mat header tags <-> Transcript information (gnubg's export: Site, Event, Round, EventDate, Transcriber)
_MAT_INFO = {"Event": "event", "Round": "round", "Site": "place", "EventDate": "date",
             "Transcriber": "annotator", "Annotator": "annotator"}
_MAT_RULES = {"Player 1", "Player 2", "Variation", "Crawford", "Jacoby", "Beaver", "CubeLimit"}


def _read_mat(data: bytes | str) -> Transcript:
    record = read_mat(decode_mat(data) if isinstance(data, bytes | bytearray) else data)
    if record.errors:
        more = len(record.errors) - 1
        raise InvalidNotationError(
            ntr("{error} (and {n} more)", "{error} (and {n} more)", more, error=record.errors[0], n=more)
            if more else str(record.errors[0])
        )
    return _mat_transcript(record)


def _read_mat_partial(data: bytes | str) -> Transcript:
    """The games before the first one with a problem, and the problems."""
    record = read_mat(decode_mat(data) if isinstance(data, bytes | bytearray) else data)
    t = _mat_transcript(record, partial=bool(record.errors))
    return dataclasses.replace(t, problems=tuple(str(e) for e in record.errors))


def _mat_transcript(record: MatMatch, partial: bool = False) -> Transcript:
    info = {}
    for tag, value in record.tags.items():
        if tag in _MAT_INFO and value:
            key = _MAT_INFO[tag]
            info[key] = _iso_date(value) if key == "date" else value
    other = sorted(t for t in record.tags if t not in _MAT_INFO and t not in _MAT_RULES)
    notes = frozenset({tr(".mat header tags ({tags})", tags=", ".join(other))} if other else set())
    return Transcript(to_match(record, partial=partial), record.names, info, notes, record)


def _write_mat(t: Transcript) -> str:
    tags = {}
    if isinstance(t.record, MatMatch):  # tags of a .mat file go back into a .mat file
        tags.update({k: v for k, v in t.record.tags.items() if k not in _MAT_RULES and k not in _MAT_INFO})
    for tag, key in _MAT_INFO.items():
        if key in t.info and tag != "Annotator":
            tags[tag] = t.info[key].replace("-", ".") if key == "date" else t.info[key]
    # format_mat fits the names as GNU Backgammon reads them (31 bytes, no ':'); compare reports a
    # name so changed
    return format_mat(t.match, t.names, tags)


def _iso_date(text: str) -> str:
    m = re.fullmatch(r"\s*(\d{4})[.-](\d{1,2})[.-](\d{1,2})\s*", text)
    return f"{m.group(1)}-{int(m.group(2)):02d}-{int(m.group(3)):02d}" if m else text


# --- .sgf ------------------------------------------------------------------------------------

SGF_INFO = {"EV": "event", "RO": "round", "PC": "place", "DT": "date", "AN": "annotator", "GC": "comment",
            "WR": "rating 1", "BR": "rating 2"}
"""The SGF root properties of the match information, and the :data:`INFO` key of each."""
_SGF_INFO = SGF_INFO  # the former private name, for callers that still use it
_ANALYSIS = {"A", "DA", "MR", "CR", "LU", "GB", "GW", "BM", "DO", "BC", "DC", "GS"}


def _read_sgf(data: bytes | str) -> Transcript:
    return _sgf_transcript(read_sgf(data))


def _read_sgf_partial(data: bytes | str) -> Transcript:
    """The games before the first one refused, and its problem."""
    record, problems = read_sgf_partial(data)
    return dataclasses.replace(_sgf_transcript(record), problems=problems)


def _sgf_transcript(record: SgfMatch) -> Transcript:
    info = {SGF_INFO[k]: v for k, v in record.info.items() if v}
    if "date" in info:
        info["date"] = _iso_date(info["date"])
    names = record.note_names()
    notes = set()
    analysis = sorted(names & _ANALYSIS)
    if analysis:
        notes.add(tr("gnubg's analysis ({names} properties)", names=", ".join(analysis)))
    if "C" in names:
        notes.add(tr("comments on moves (C properties)"))
    other = sorted(names - _ANALYSIS - {"C"})
    if other:
        notes.add(tr("other SGF properties ({names})", names=", ".join(other)))
    return Transcript(record.match, record.names, info, frozenset(notes), record, record.warnings)


def _write_sgf(t: Transcript) -> str:
    info = {sgf: t.info[key] for sgf, key in SGF_INFO.items() if key in t.info}
    if isinstance(t.record, SgfMatch) and t.record.match is t.match:  # its notes go back with it
        return format_sgf(t.record, t.names, info)
    if isinstance(t.record, XGComments):  # an .xg file's comments, on the nodes they belong to
        return format_sgf(t.match, t.names, info, annotator=t.record)
    return format_sgf(t.match, t.names, info)


# --- eXtreme Gammon (read only) ---------------------------------------------------------------


def _read_xg(data: bytes | str) -> Transcript:
    record = _xg_record(data)
    return _xg_transcript(record, record.to_match())


def _read_xg_partial(data: bytes | str) -> Transcript:
    """The games before the first one that does not replay (a transcription error), and its problem."""
    record, match, problems = to_match_partial(_xg_record(data))
    return dataclasses.replace(_xg_transcript(record, match), problems=problems)


def _xg_record(data: bytes | str) -> XGMatch:
    if isinstance(data, str):
        raise InvalidNotationError(tr("an eXtreme Gammon file is binary: read its bytes, not text"))
    return read_xg(data)


def _xg_transcript(record: XGMatch, match: Match) -> Transcript:
    h = record.header
    info = {"event": h.event, "place": h.location, "round": h.round, "annotator": h.transcriber}
    if h.date is not None:
        info["date"] = h.date.date().isoformat()
    if not record.commented:
        return as_transcript(match, names=record.names, info={k: v for k, v in info.items() if v})
    # the comments placed on the replayed match: the SGF writer carries them as an SGF file's
    comments = comments_on(record, match)
    if comments.match and not info.get("comment", "").strip():
        info["comment"] = "\n".join(comments.match)
    return Transcript(match, record.names, {k: v for k, v in info.items() if v},
                      frozenset({tr("comments (the .xg file's temp.xgc)")}), comments)


# --- the registry ----------------------------------------------------------------------------

FORMATS: tuple[MatchFormat, ...] = (
    MatchFormat("mat", (".mat", ".txt"), _read_mat, _write_mat, _read_mat_partial),
    MatchFormat("sgf", (".sgf",), _read_sgf, _write_sgf, _read_sgf_partial),
    MatchFormat("xg", (".xg",), _read_xg, None, _read_xg_partial),  # eXtreme Gammon's binary match files
)


def find_format(name: str) -> MatchFormat:
    """The format named ``name`` ("mat", "sgf", or an extension such as ".sgf")."""
    key = name.lower().lstrip(".")
    for fmt in FORMATS:
        if key == fmt.name or "." + key in fmt.extensions:
            return fmt
    known = ", ".join(f"{f.name} ({' '.join(f.extensions)})" for f in FORMATS)
    raise ValueError(
        tr("unknown match file format {name}; gammon knows {known}", name=repr(name), known=known)
    )


def format_of(path: str | Path) -> MatchFormat:
    """The format of a file, by its extension."""
    suffix = Path(path).suffix.lower()
    if not suffix:
        raise ValueError(
            tr("{path} has no extension to tell its format; name one with --from/--to", path=repr(str(path)))
        )
    return find_format(suffix)


def reading_format(path: str | Path) -> MatchFormat:
    """The format to read a match file in: by its extension, and ``.mat`` for any other (the
    sites export ``.mat`` files as ``.txt`` too; the reader says so if the text is not one)."""
    suffix = Path(path).suffix.lower()
    return next((fmt for fmt in FORMATS if suffix in fmt.extensions and fmt.read), FORMATS[0])


def writing_format(path: str | Path) -> MatchFormat:
    """The format to write a match file in: the one its extension names (whether gammon can write
    it or not: the caller refuses one it cannot), ``.mat`` for any other."""
    suffix = Path(path).suffix.lower()
    return next((fmt for fmt in FORMATS if suffix in fmt.extensions), FORMATS[0])


_SGF_START = re.compile(r"\A\ufeff?\s*\(\s*;")


def sniff_format(data: bytes | str) -> MatchFormat:
    """The format a match file's content shows: eXtreme Gammon's magic ``RGMH``, SGF's opening
    ``(;``, else ``.mat`` (whose reader says so if the text is not one)."""
    if isinstance(data, bytes | bytearray):
        if data.startswith(XG_MAGIC):
            return find_format("xg")
        head = data[:64].decode(wide_codec(data) or "utf-8", "replace")  # UTF-16 by its mark
    else:
        head = data[:64]
    return find_format("sgf" if _SGF_START.match(head) else "mat")


def read_match(data: bytes | str, format: MatchFormat | str | None = None,
               partial: bool = False) -> Transcript:
    """Read a match file's bytes (or the text of a text format) in ``format`` (a MatchFormat, its
    name or an extension; None: the one its content shows, :func:`sniff_format`).

    ``partial=True``: a damaged or unfinished file gives the games before its first bad one, its
    problems in :attr:`Transcript.problems`, where the format's reader can tell them apart (.mat;
    .sgf and .xg: a game the rules refuse, not a file that cannot be parsed or unpacked);
    otherwise the first problem refuses the file. Raises :class:`InvalidNotationError` quoting
    the bad input (cut), ValueError for a format that gammon cannot read."""
    fmt = sniff_format(data) if format is None else find_format(format) if isinstance(format, str) else format
    reader = (fmt.read_partial if partial else None) or fmt.read
    if reader is None:
        raise ValueError(tr("gammon cannot read {format} files", format=fmt.name))
    return reader(data)


def convert(data: bytes, source: MatchFormat | str, target: MatchFormat | str) -> Conversion:
    """Read ``data`` in format ``source``, write it in format ``target`` and report the losses.

    Raises :class:`InvalidNotationError` for a bad input file, ValueError for a format that cannot
    read or write, or for input the target cannot express at all (automatic doubles in a ``.mat``
    file; names are fitted to one, and a changed name reported), and :class:`GammonError` if the
    written text does not read back to the same games."""
    source = find_format(source) if isinstance(source, str) else source
    target = find_format(target) if isinstance(target, str) else target
    if source.read is None:
        raise ValueError(tr("gammon cannot read {format} files", format=source.name))
    if target.write is None or target.read is None:
        raise ValueError(tr("gammon cannot write {format} files", format=target.name))
    before = read_match(data, source)
    text = target.write(before)
    try:
        after = target.read(text.encode("utf-8"))
    except GammonError as e:
        raise GammonError(
            tr(".{format} files cannot hold this match: the text written does not read back ({error})",
               format=target.name, error=e)
        ) from None
    return Conversion(text, before, after, tuple(compare(before, after, target.name)))


# --- what was lost ---------------------------------------------------------------------------


def compare(before: Transcript, after: Transcript, target: str) -> list[str]:
    """What ``after`` (the written file, read back) lacks of ``before``, in words. Raises
    :class:`GammonError` when the games themselves differ beyond what a format may drop."""
    losses = []
    a, b = _effective(before.match.rules), _effective(after.match.rules)
    for f in fields(Rules):
        if getattr(a, f.name) != getattr(b, f.name):
            losses.append(
                tr("the rule {rule}={value} (read back as {back}): .{format} files do not record it",
                   rule=f.name, value=repr(getattr(a, f.name)), back=repr(getattr(b, f.name)), format=target))
    if before.names != after.names:
        losses.append(tr("the names {names} (read back as {back})", names=repr(before.names),
                         back=repr(after.names)))
    for key in INFO:
        if key in before.info and before.info[key] != after.info.get(key):
            losses.append(tr("the match {what} {value}", what=_info_word(key), value=repr(before.info[key])))
    lost = before.notes - after.notes
    comments = {tr("comments on moves (C properties)"), tr("comments (the .xg file's temp.xgc)")}
    if after.notes & comments:  # the comments are there, in the target's own form
        lost -= comments
    losses.extend(f"{note}" for note in sorted(lost))
    games_a, games_b = before.match.games, after.match.games
    if len(games_a) != len(games_b):
        raise GammonError(tr("{read} games were read but {back} read back",
                             read=len(games_a), back=len(games_b)))
    for k, (ga, gb) in enumerate(zip(games_a, games_b)):
        losses.extend(tr("game {number}: {loss}", number=k + 1, loss=loss)
                      for loss in _game_losses(ga, gb, k, before.names))
        if target == "mat" and ga.result is not None and not any(isinstance(a, Roll) for a in ga.history):
            # the file says "Wins" and the next game's score agrees, but gnubg's importer takes a
            # win only once the game has a roll: it shows this game unfinished
            losses.append(tr("game {number}: GNU Backgammon reads the game abandoned before the opening "
                             "roll as unfinished, with no winner (the next game's score line keeps its "
                             "points)", number=k + 1) if k + 1 < len(games_a) else
                          tr("game {number}: GNU Backgammon reads the game abandoned before the opening "
                             "roll as unfinished, with no winner, and the match without its points",
                             number=k + 1))
    return losses


def _info_word(key: str) -> str:
    """An :data:`INFO` key in the user's words."""
    return {"event": tr("event"), "round": tr("round"), "place": tr("place"), "date": tr("date"),
            "annotator": tr("annotator"), "comment": tr("comment"), "rating 1": tr("rating 1"),
            "rating 2": tr("rating 2")}.get(key, key)


def _effective(rules: Rules) -> Rules:
    """``rules`` with the options that do not apply set to their defaults (Jacoby in a match,
    Crawford in money play), so that only differences that matter are reported."""
    default = Rules()
    if rules.is_money:
        return Rules(0, default.crawford, rules.jacoby, rules.beavers, rules.cube_limit,
                     rules.automatic_doubles, rules.use_cube)
    return Rules(rules.match_length, rules.crawford, default.jacoby, default.beavers, rules.cube_limit,
                 default.automatic_doubles, rules.use_cube)


def _core(history: list[Action]) -> list[Action]:
    """The actions every format keeps: no resignation offers and answers or abandons (the result
    says how the game ended), no tie dice."""
    return [Roll(a.player, a.dice, a.opening) if isinstance(a, Roll) else a for a in history
            if not isinstance(a, Resign | AcceptResignation | RejectResignation | Abandon)]


def _game_losses(ga: Game, gb: Game, k: int, names: tuple[str, str]) -> list[str]:
    ha, hb = _core(ga.history), _core(gb.history)
    if (ga.score, ga.crawford_game) != (gb.score, gb.crawford_game):
        raise GammonError(tr("game {number}: the score or Crawford game read back differs", number=k + 1))
    losses = []
    if _forced_play_added(ha, hb):
        # a .mat file writes a roll left unplayed as the roll alone, which its readers (gnubg's too)
        # play when it has one legal play
        losses.append(tr("the roll left unplayed before the game ended is read back as its only play "
                         "({play})", play=describe(hb[-1], names)))
    elif ha != hb:
        if gb.is_over or hb != ha[:len(hb)]:
            raise GammonError(tr("game {number}: the actions read back differ from action {action}",
                                 number=k + 1, action=_first_difference(ha, hb, names)))
        dropped = ", ".join(describe(x, names) for x in ha[len(hb):])
        losses.append(ntr("the unfinished game's last action ({actions})",
                          "the unfinished game's last actions ({actions})", len(ha) - len(hb),
                          actions=dropped))
    ra, rb = ga.result, gb.result
    if (ra is None) != (rb is None) or (ra and rb and (ra.winner, ra.points) != (rb.winner, rb.points)):
        raise GammonError(tr("game {number}: the result read back is {back}, not {read}", number=k + 1,
                             back=rb, read=ra))
    if ra and rb and (ra.reason, ra.kind) != (rb.reason, rb.kind):
        losses.append(tr("{ending} is read back as {back}", ending=_ending(ra), back=_ending(rb)))
    rejected = sum(isinstance(a, RejectResignation) for a in ga.history) - sum(
        isinstance(a, RejectResignation) for a in gb.history)
    if rejected > 0:
        losses.append(ntr("{n} rejected resignation offer", "{n} rejected resignation offers", rejected,
                          n=rejected))
    if ga.offered_resignation is not None and gb.offered_resignation is None:
        losses.append(tr("the resignation offer waiting for an answer"))
    return losses


def _forced_play_added(a: list[Action], b: list[Action]) -> bool:
    """``b`` is ``a`` and the play of ``a``'s last action, a roll."""
    return (len(b) == len(a) + 1 and b[:-1] == a and isinstance(a[-1], Roll) and isinstance(b[-1], PlayMade)
            and b[-1].player == a[-1].player)


def _first_difference(a: list[Action], b: list[Action], names: tuple[str, str]) -> str:
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return (f"{i}: {describe(a[i], names) if i < len(a) else 'none'} / "
            f"{describe(b[i], names) if i < len(b) else 'none'}")


def _ending(result: GameResult) -> str:
    kind = {1: ptr("game ending", "a single game"), 2: ptr("game ending", "a gammon"),
            3: ptr("game ending", "a backgammon")}[int(result.kind)]
    how = {"bear_off": tr("won by bearing off"), "pass": tr("won as the double is passed"),
           "resign": tr("resigned"), "abandon": tr("abandoned")}[result.reason]
    return ntr("{kind} {how} ({points} point)", "{kind} {how} ({points} points)", result.points, kind=kind,
               how=how, points=result.points)
