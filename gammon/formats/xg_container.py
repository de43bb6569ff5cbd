"""The container of eXtreme Gammon's ``.xg`` / ``.xgp`` files: a RichGameFormat header, then a
ZLibArchive holding the inner files (``temp.xg`` the records, ``temp.xgi``, ``temp.xgr``
rollouts, ``temp.xgc`` comments).

Layout, as XG's published format description (``XG_format.pas`` and ``ZLibArchive.pas``, reachable
from https://www.extremegammon.com/xgformat.aspx) gives it; all numbers little-endian:

* The 8232-byte header: the magic ``RGMH``, a version, the header size, the thumbnail's offset
  and size (a JPEG of the board), a GUID and four UTF-16 strings of 1024 characters.
* The archive, found from the end of the file: its last 36 bytes are the archive record (CRC-32
  of the archive, file count, version, the size of the registry, the size of the file data, a flag
  saying the registry is zlib-compressed, 12 reserved bytes). The registry lies just before it and
  the file data just before the registry; the CRC covers both.
* The registry: one 532-byte entry per file: name and path (Pascal strings of at most 255
  characters), size, stored size, offset in the file data, CRC-32 of the contents, then a byte
  that is 0 when the file is zlib-compressed and the compression level.

:func:`unpack` checks the header, the archive record and the registry (and the archive's CRC);
each inner file is inflated and checked against its CRC only when it is read, so that a reader
pays only for the files it needs.

A file is small but may announce much: the entries' sizes together must stay within
:data:`MAX_RATIO` times the whole file (XG's files inflate about 12 times), an archive holds at most
:data:`MAX_FILES` files, and every entry's stored bytes are its own (entries may not overlap, so that
many entries cannot point at one compressed stream, and no bytes may follow a stream's end).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from gammon.errors import InvalidNotationError
from gammon.i18n import tr

HEADER_SIZE = 8232
MAGIC = b"RGMH"
ARCHIVE_RECORD_SIZE = 36
REGISTRY_ENTRY_SIZE = 532
# Inner files are a few MB even for long sessions; this bounds what a forged size can make us
# allocate.
MAX_INNER_SIZE = 256 << 20
# XG's files inflate about 12 times (a 7-point match: 150 KB to 1.8 MB); a file whose inner files
# would together inflate to far more is refused before anything is inflated (a small upload must not
# cost a server gigabytes). Below MIN_BOUND, any ratio is allowed (a tiny file of tiny records).
MAX_RATIO = 64
MIN_BOUND = 1 << 20
# XG writes at most four inner files (temp.xg, .xgi, .xgr, .xgc).
MAX_FILES = 16

_HEADER = struct.Struct("<4sIIqI")          # magic, version, header size, thumbnail offset, size
_ARCHIVE = struct.Struct("<IiiiiI12x")      # crc, file count, version, registry size, data size,
                                            # registry compressed
_ENTRY_NUMBERS = struct.Struct("<iiiIBB2x")  # size, stored size, start, crc, stored flag, level


@dataclass(frozen=True)
class Container:
    """An unpacked ``.xg`` / ``.xgp`` file: the header's names and the inner files by name."""

    game_name: str
    save_name: str
    level_name: str
    comments: str
    thumbnail_size: int
    files: Mapping[str, bytes]
    """The inner files by name, each inflated and checked as it is read (not kept)."""


def unpack(data: bytes, what: str | None = None) -> Container:
    """Check and unpack a RichGameFormat file; ``what`` names it in error messages ("the file")."""
    what = what or tr("the file")
    if len(data) < HEADER_SIZE or data[:4] != MAGIC:
        raise InvalidNotationError(
            tr("{file} is not an eXtreme Gammon file: it must start with the magic 'RGMH' and a {size}-byte "
               "header, it starts with {head} and has {n} bytes", file=what, size=HEADER_SIZE,
               head=repr(data[:8]), n=len(data)))
    _magic, _version, header_size, _thumb_offset, thumb_size = _HEADER.unpack_from(data)
    if header_size != HEADER_SIZE or thumb_size < 0:
        raise InvalidNotationError(
            tr("{file}: the header gives its size as {size} (must be {expected}) and a thumbnail of {thumb} "
               "bytes",
               file=what, size=header_size, expected=HEADER_SIZE, thumb=thumb_size))
    game_name, save_name, level_name, comments = (_utf16(data, 36 + 2048 * k, 1024) for k in range(4))
    content = header_size + thumb_size
    if len(data) < content + ARCHIVE_RECORD_SIZE:
        raise InvalidNotationError(
            tr("{file} is truncated: {n} bytes, but the header and thumbnail take {content} and the archive "
               "needs "
               "at least {more} more", file=what, n=len(data), content=content, more=ARCHIVE_RECORD_SIZE))
    return Container(game_name, save_name, level_name, comments, thumb_size,
                     _unpack_archive(data, content, what))


@dataclass(frozen=True)
class _Entry:
    name: str
    size: int
    stored: int
    offset: int
    crc: int
    deflated: bool


class _Files(Mapping[str, bytes]):
    """The archive's inner files, inflated on each read: a reader pays for what it reads."""

    def __init__(self, data: bytes, start: int, entries: list[_Entry], what: str) -> None:
        self._data, self._start, self._what = data, start, what
        self._entries = {e.name: e for e in entries}

    def __getitem__(self, name: str) -> bytes:
        e = self._entries[name]
        raw = self._data[self._start + e.offset:self._start + e.offset + e.stored]
        body = _inflate(raw, e.size, f"{self._what}: {name!r}") if e.deflated else raw
        if len(body) != e.size or zlib.crc32(body) != e.crc:
            raise InvalidNotationError(
                tr("{file} is corrupt: {name} does not match its size ({got} for {size}) or CRC-32",
                   file=self._what, name=repr(name), got=len(body), size=e.size))
        return body

    def __contains__(self, name: object) -> bool:  # Mapping's would inflate the file to answer
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


def _unpack_archive(data: bytes, content: int, what: str) -> Mapping[str, bytes]:
    end = len(data) - ARCHIVE_RECORD_SIZE
    crc, count, _version, registry_size, data_size, compressed = _ARCHIVE.unpack_from(data, end)
    start = end - registry_size - data_size
    if not 1 <= count <= MAX_FILES or registry_size < 0 or data_size < 0 or start < content:
        raise InvalidNotationError(
            tr("{file}: the archive record is damaged or the file truncated ({count} files, at most {most}, "
               "a "
               "{registry}-byte registry and {size} bytes of data in the {after} bytes after the header)",
               file=what, count=count, most=MAX_FILES, registry=registry_size, size=data_size,
               after=end - content))
    if zlib.crc32(data[start:end]) != crc:
        raise InvalidNotationError(tr("{file} is corrupt: the archive's CRC-32 does not match", file=what))
    registry = data[end - registry_size:end]
    size = count * REGISTRY_ENTRY_SIZE
    if compressed:
        registry = _inflate(registry, size, tr("{file}: the archive registry", file=what))
    if len(registry) != size:
        raise InvalidNotationError(
            tr("{file}: the archive registry has {n} bytes for {count} files of {size}",
               file=what, n=len(registry),
               count=count, size=REGISTRY_ENTRY_SIZE))
    entries = [_entry(registry, k * REGISTRY_ENTRY_SIZE, data_size, what) for k in range(count)]
    _check_layout(entries, len(data), what)
    return _Files(data, start, entries, what)


def _entry(registry: bytes, at: int, data_size: int, what: str) -> _Entry:
    name = _pascal(registry, at, 255)
    size, stored, offset, crc, stored_flag, _level = _ENTRY_NUMBERS.unpack_from(registry, at + 512)
    if not 0 <= size <= MAX_INNER_SIZE or stored < 0 or not 0 <= offset <= data_size - stored:
        raise InvalidNotationError(
            tr("{file}: the archive entry {name} is damaged (size {size}, stored as {stored} bytes at "
               "{offset} in "
               "{total})",
               file=what, name=repr(name), size=size, stored=stored, offset=offset, total=data_size))
    if not stored_flag:
        _check_ratio(size, stored, f"{what}: {name!r}")
    return _Entry(name, size, stored, offset, crc, not stored_flag)


def _check_layout(entries: list[_Entry], file_size: int, what: str) -> None:
    """Each entry's stored bytes are its own, its name is its own, and all of them together
    inflate to at most MAX_RATIO times the file."""
    names = [e.name for e in entries]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise InvalidNotationError(tr("{file}: the archive holds {name} more than once",
                                      file=what, name=repr(twice)))
    ordered = sorted(entries, key=lambda e: (e.offset, e.stored))
    for a, b in zip(ordered, ordered[1:]):
        if a.offset + a.stored > b.offset:
            raise InvalidNotationError(
                tr("{file}: the archive entries {name} and {other} share stored bytes ({stored} at {offset}, "
                   "{other_stored} at {other_offset})", file=what, name=repr(a.name), other=repr(b.name),
                   stored=a.stored, offset=a.offset, other_stored=b.stored, other_offset=b.offset))
    total = sum(e.size for e in entries)
    bound = max(MIN_BOUND, MAX_RATIO * file_size)
    if total > bound:
        raise InvalidNotationError(
            tr("{file}: its {n} inner files announce {total} bytes from {size}: more than {ratio} times, "
               "which "
               "XG's files never are",
               file=what, n=len(entries), total=total, size=file_size, ratio=MAX_RATIO))


def _check_ratio(size: int, stored: int, what: str) -> None:
    if size > max(MIN_BOUND, MAX_RATIO * stored):
        raise InvalidNotationError(
            tr("{file} announces {size} bytes from {stored} compressed: more than {ratio} times, which XG's "
               "files "
               "never are", file=what, size=size, stored=stored, ratio=MAX_RATIO))


def _inflate(raw: bytes, size: int, what: str) -> bytes:
    _check_ratio(size, len(raw), what)
    inflater = zlib.decompressobj()
    try:
        body = inflater.decompress(raw, size + 1)  # one byte more than announced shows a lie
    except zlib.error as e:
        raise InvalidNotationError(tr("{file} cannot be decompressed: {problem}",
                                      file=what, problem=e)) from None
    if len(body) > size or not inflater.eof:
        raise InvalidNotationError(tr("{file} does not decompress to the {size} bytes announced", file=what,
                                      size=size))
    if inflater.unused_data:
        raise InvalidNotationError(tr("{file} has {n} stored bytes after its compressed data", file=what,
                                      n=len(inflater.unused_data)))
    return body


def _utf16(data: bytes, offset: int, chars: int) -> str:
    """A #0-terminated UTF-16 string of at most ``chars`` characters."""
    text = data[offset:offset + 2 * chars].decode("utf-16-le", errors="replace")
    return text.split("\0", 1)[0]


def _pascal(data: bytes, offset: int, limit: int) -> str:
    """A Pascal ``string[limit]``: a length byte, then that many ANSI (Windows-1252) bytes."""
    n = min(data[offset], limit)
    return data[offset + 1:offset + 1 + n].decode("cp1252", errors="replace")
