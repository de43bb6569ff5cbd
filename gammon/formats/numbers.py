"""Whole numbers read from the text fields of match files (SGF's ``MI`` and ``CV``, a ``.mat``
header's ``CubeLimit``)."""

from __future__ import annotations


def read_count(text: str, max_digits: int = 6) -> int | None:
    """The whole number ``text`` holds (spaces around it allowed), or None when it holds anything
    else: only ASCII digits, at most ``max_digits`` of them. ``str.isdigit`` passes digits that
    ``int`` refuses (``'²'``), and ``int`` refuses more than 4,300 digits: both raised a bare
    ValueError where the reader means to quote the field."""
    body = text.strip()
    if not body or len(body) > max_digits or not body.isascii() or not body.isdigit():
        return None
    return int(body)
