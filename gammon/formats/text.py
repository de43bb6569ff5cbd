"""The encoding a text match file's byte-order mark names: Windows Notepad saves "Unicode" as
UTF-16 with a mark, which a reader that expects UTF-8 or Latin-1 would take for binary data."""

from __future__ import annotations

import codecs

from gammon.errors import InvalidNotationError, cut
from gammon.i18n import tr

# UTF-32's marks first: UTF-32 LE's begins with UTF-16 LE's
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def wide_codec(data: bytes) -> str | None:
    """The UTF-16 or UTF-32 codec ``data``'s byte-order mark names, or None (no such mark)."""
    return next((name for bom, name in _BOMS if data.startswith(bom)), None)


def decode_wide(data: bytes) -> str | None:
    """``data`` decoded by its UTF-16 or UTF-32 byte-order mark (the mark dropped); None without
    one. Raises :class:`InvalidNotationError` for bytes that are not the encoding it names."""
    codec = wide_codec(data)
    if codec is None:
        return None
    try:
        return data.decode(codec)
    except UnicodeDecodeError as e:
        raise InvalidNotationError(tr("the file starts with a {codec} byte-order mark but is not "
                                      "{codec}: {problem}", codec=codec.upper(),
                                      problem=cut(str(e)))) from None
