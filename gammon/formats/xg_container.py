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

:func:`unpack` checks all of it (the CRCs included) and returns the inner files.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

from gammon.errors import InvalidNotationError

HEADER_SIZE = 8232
MAGIC = b"RGMH"
ARCHIVE_RECORD_SIZE = 36
REGISTRY_ENTRY_SIZE = 532
# Inner files are a few MB even for long sessions; this bounds what a forged size can make us
# allocate.
MAX_INNER_SIZE = 256 << 20
# XG's files inflate about 12 times (a 7-point match: 150 KB to 1.8 MB); a file that would inflate
# far more is refused before it fills the memory (a small upload must not cost a server gigabytes).
MAX_RATIO = 64

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
    files: dict[str, bytes]


def unpack(data: bytes, what: str = "the file") -> Container:
    """Check and unpack a RichGameFormat file; ``what`` names it in error messages."""
    if len(data) < HEADER_SIZE or data[:4] != MAGIC:
        head = data[:8]
        raise InvalidNotationError(
            f"{what} is not an eXtreme Gammon file: it must start with the magic 'RGMH' and a "
            f"{HEADER_SIZE}-byte header, it starts with {head!r} and has {len(data)} bytes")
    _magic, _version, header_size, _thumb_offset, thumb_size = _HEADER.unpack_from(data)
    if header_size != HEADER_SIZE or thumb_size < 0:
        raise InvalidNotationError(f"{what}: the header gives its size as {header_size} (must be "
                                   f"{HEADER_SIZE}) and a thumbnail of {thumb_size} bytes")
    game_name, save_name, level_name, comments = (_utf16(data, 36 + 2048 * k, 1024) for k in range(4))
    content = header_size + thumb_size
    if len(data) < content + ARCHIVE_RECORD_SIZE:
        raise InvalidNotationError(
            f"{what} is truncated: {len(data)} bytes, but the header and thumbnail take {content} "
            f"and the archive needs at least {ARCHIVE_RECORD_SIZE} more")
    return Container(game_name, save_name, level_name, comments, thumb_size,
                     _unpack_archive(data, content, what))


def _unpack_archive(data: bytes, content: int, what: str) -> dict[str, bytes]:
    end = len(data) - ARCHIVE_RECORD_SIZE
    crc, count, _version, registry_size, data_size, compressed = _ARCHIVE.unpack_from(data, end)
    start = end - registry_size - data_size
    if count < 1 or registry_size < 0 or data_size < 0 or start < content:
        raise InvalidNotationError(
            f"{what}: the archive record is damaged or the file truncated ({count} files, a "
            f"{registry_size}-byte registry and {data_size} bytes of data in the "
            f"{end - content} bytes after the header)")
    if zlib.crc32(data[start:end]) != crc:
        raise InvalidNotationError(f"{what} is corrupt: the archive's CRC-32 does not match")
    registry = data[end - registry_size:end]
    size = count * REGISTRY_ENTRY_SIZE
    if compressed:
        registry = _inflate(registry, size, f"{what}: the archive registry")
    if len(registry) != size:
        raise InvalidNotationError(f"{what}: the archive registry has {len(registry)} bytes for "
                                   f"{count} files of {REGISTRY_ENTRY_SIZE}")
    files: dict[str, bytes] = {}
    for k in range(count):
        entry = registry[k * REGISTRY_ENTRY_SIZE:(k + 1) * REGISTRY_ENTRY_SIZE]
        name = _pascal(entry, 0, 255)
        size, stored, offset, file_crc, stored_flag, _level = _ENTRY_NUMBERS.unpack_from(entry, 512)
        if not 0 <= size <= MAX_INNER_SIZE or stored < 0 or not 0 <= offset <= data_size - stored:
            raise InvalidNotationError(
                f"{what}: the archive entry {name!r} is damaged (size {size}, stored as {stored} "
                f"bytes at {offset} in {data_size})")
        raw = data[start + offset:start + offset + stored]
        body = raw if stored_flag else _inflate(raw, size, f"{what}: {name!r}")
        if len(body) != size or zlib.crc32(body) != file_crc:
            raise InvalidNotationError(f"{what} is corrupt: {name!r} does not match its size "
                                       f"({len(body)} for {size}) or CRC-32")
        files[name] = body
    return files


def _inflate(raw: bytes, size: int, what: str) -> bytes:
    if size > max(1 << 20, MAX_RATIO * len(raw)):
        raise InvalidNotationError(f"{what} announces {size} bytes from {len(raw)} compressed: more "
                                   f"than {MAX_RATIO} times, which XG's files never are")
    inflater = zlib.decompressobj()
    try:
        body = inflater.decompress(raw, size + 1)  # one byte more than announced shows a lie
    except zlib.error as e:
        raise InvalidNotationError(f"{what} cannot be decompressed: {e}") from None
    if len(body) > size or not inflater.eof:
        raise InvalidNotationError(f"{what} does not decompress to the {size} bytes announced")
    return body


def _utf16(data: bytes, offset: int, chars: int) -> str:
    """A #0-terminated UTF-16 string of at most ``chars`` characters."""
    text = data[offset:offset + 2 * chars].decode("utf-16-le", errors="replace")
    return text.split("\0", 1)[0]


def _pascal(data: bytes, offset: int, limit: int) -> str:
    """A Pascal ``string[limit]``: a length byte, then that many ANSI (Windows-1252) bytes."""
    n = min(data[offset], limit)
    return data[offset + 1:offset + 1 + n].decode("cp1252", errors="replace")
