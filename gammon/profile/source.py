"""Reading a match file for the profile, and the fingerprint that makes a match count once.

:func:`read_match_file` is the one place the profile reads match files: the format registry's
reader for the file's extension (``.mat`` for any other, as ``gammon analyse`` does)."""

from __future__ import annotations

import hashlib
import json
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gammon.errors import InvalidArgumentError
from gammon.formats.convert import Transcript, read_match, reading_format
from gammon.game import Beaver, Double, Pass, PlayMade, Roll, Take
from gammon.i18n import tr
from gammon.match import Match

MATCH_FILE_EXTENSIONS = (".mat", ".txt", ".sgf", ".xg")

MAX_MATCH_FILE_BYTES = 16 << 20
"""The most bytes of a match file read (a long match with gnubg's analysis in SGF has a few MB):
the readers hold a file's text and its lines at once, 5 GB for 200 MB of short lines."""


@dataclass(frozen=True)
class MatchFile:
    """A match read from a file: the Match, its players' names (player 0's first), the format's
    name and the date the file gives (None if none)."""

    match: Match
    names: tuple[str, str]
    format: str
    date: datetime | None


def read_match_file(data: bytes, file_name: str) -> MatchFile:
    """The match in ``data``, a file named ``file_name`` (its extension tells the format).
    Raises InvalidNotationError (a GammonError) quoting what does not read."""
    fmt = reading_format(file_name)
    transcript = read_match(data, fmt)
    return MatchFile(transcript.match, transcript.names, fmt.name, _date(transcript))


def read_file(path: Path) -> bytes:
    """The bytes of the file at ``path``, refused (InvalidArgumentError) past
    :data:`MAX_MATCH_FILE_BYTES` without reading the rest."""
    with path.open("rb") as f:
        data = f.read(MAX_MATCH_FILE_BYTES + 1)
    if len(data) > MAX_MATCH_FILE_BYTES:
        raise InvalidArgumentError(tr("the file has more than {most} MB, more than a match file has: "
                                      "left unread", most=MAX_MATCH_FILE_BYTES >> 20))
    return data


def _date(transcript: Transcript) -> datetime | None:
    text = transcript.info.get("date")
    if not text:
        return None
    try:
        return datetime.strptime(text.strip()[:10], "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        return None


def fingerprint(match: Match) -> str:
    """The SHA-256 of the match's games as the players made them: the match length and, game by
    game, each roll's dice, play and cube action with its player. What differs between files of
    one match is left out: the file's bytes and names, tied opening throws (no format keeps
    them), resignations and the rest of the bookkeeping. The same match with its players listed
    the other way round has the same fingerprint."""
    records = [_record(match, swap) for swap in (False, True)]
    return min(hashlib.sha256(r.encode()).hexdigest() for r in records)


def _record(match: Match, swap: bool) -> str:
    games: list[list[list[Any]]] = []
    for game in match.games:
        moves: list[list[Any]] = []
        for action in game.history:
            player = 1 - action.player if swap else action.player
            if isinstance(action, Roll):
                moves.append([player, "roll", sorted(action.dice, reverse=True)])
            elif isinstance(action, PlayMade):
                moves.append([player, "play", str(action.play) if action.play is not None else None])
            elif isinstance(action, Double | Beaver | Take | Pass):
                moves.append([player, action.kind.value])
        games.append(moves)
    return json.dumps([match.rules.match_length, games], separators=(",", ":"))


def match_record(match: Match, seat: int) -> str:
    """The match's games as the players made them, from ``seat``'s view (its player is player 0):
    what :func:`fingerprint` hashes, written so that the record of a match's first games (a file
    saved mid-match, cut anywhere, even within a turn's roll and play) is a prefix of the whole
    match's: the match length, then each game's mark and each action closed by ``;``."""
    parts = [f"L{match.rules.match_length};"]
    for game in match.games:
        parts.append("G;")
        for action in game.history:
            player = action.player if seat == 0 else 1 - action.player
            if isinstance(action, Roll):
                high, low = sorted(action.dice, reverse=True)
                parts.append(f"r{player}:{high}{low};")
            elif isinstance(action, PlayMade):
                parts.append(f"p{player}:{'' if action.play is None else action.play};")
            elif isinstance(action, Double | Beaver | Take | Pass):
                parts.append(f"{action.kind.value}{player};")
    return "".join(parts)


def extends(longer: str, shorter: str) -> bool:
    """Whether the :func:`match_record` ``longer`` is the match of ``shorter`` played further: its
    first games are ``shorter``'s (the last of them perhaps played on)."""
    return len(longer) > len(shorter) and longer.startswith(shorter)


def opening(record: str, opponent: str) -> str:
    """The key that a match's record shares with the record of each of its prefixes (a match with
    a roll): the opponent's name (:func:`name_key`) and the record to its first roll.
    Two different matches begin alike often enough (a short match abandoned after the opening
    roll) that the opponent is part of it."""
    start = record.find(";r")
    head = record if start < 0 else record[: record.index(";", start + 1) + 1]
    key = json.dumps([name_key(opponent), head])
    return hashlib.sha256(key.encode()).hexdigest()


def name_key(name: str) -> str:
    """A player's name as the profile compares names: without regard to case, to spaces around it
    (or doubled inside it) and to how its accents are written (a file may write "é" as "e" and a
    combining accent, which looks the same as the "é" typed: "'José' is neither of its players
    (José, earl)")."""
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()
