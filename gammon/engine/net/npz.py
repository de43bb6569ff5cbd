"""Reading gammon's ``.npz`` files (weights, bear-off database, label sets) in one place.

numpy's own errors for a file that is no ``.npz`` archive (a refusal to unpickle a text file, a
``BadZipFile``, a ``KeyError`` for a missing array) name neither the file nor the problem;
:func:`load_npz` turns each into an :class:`~gammon.errors.InvalidNotationError` (a ``ValueError``)
that quotes the path. A file that cannot be opened keeps its ``OSError`` (``FileNotFoundError``
already names the path).
"""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path

import numpy as np

from gammon.errors import InvalidNotationError, cut

PATH_LIMIT = 200
"""The most characters of a path an error quotes (more than typed text: the file name is at the end)."""

_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")  # a zip's first entry, or an empty zip's directory
# what numpy and zipfile raise on a damaged archive or a pickled array (a bad seek in a file is an OSError)
_DAMAGED = (OSError, ValueError, EOFError, NotImplementedError, RuntimeError, zipfile.BadZipFile, zlib.error)


class NpzArrays(dict[str, np.ndarray]):
    """The arrays of an ``.npz`` file by name; a missing one is an error naming the file and the key."""

    def __init__(self, arrays: dict[str, np.ndarray], quoted: str, what: str) -> None:
        super().__init__(arrays)
        self.quoted, self.what = quoted, what

    def __missing__(self, key: str) -> np.ndarray:
        raise InvalidNotationError(f"{self.quoted} is not {self.what}: it has no array {key!r}")


def load_npz(path: str | Path, what: str) -> NpzArrays:
    """Every array of the ``.npz`` file ``path`` (``allow_pickle=False``), read at once so that a
    damaged archive fails here, not at the first array used; ``what`` is what the file should be,
    for the messages (``"a gammon weights file"``)."""
    quoted = repr(cut(str(path), PATH_LIMIT))
    with open(path, "rb") as f:
        head = f.read(8)
        if not head.startswith(_ZIP_MAGIC):
            found = "it is empty" if not head else f"an .npz archive starts with 'PK', it with {head!r}"
            raise InvalidNotationError(f"{quoted} is not {what}: {found}")
        f.seek(0)
        try:
            with np.load(f, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except _DAMAGED as e:
            raise InvalidNotationError(f"{quoted} is not {what}: it is not a readable .npz archive "
                                       f"({cut(str(e))})") from e
    for name, value in arrays.items():
        if not isinstance(value, np.ndarray):
            raise InvalidNotationError(f"{quoted} is not {what}: its {name!r} is not a numpy array")
    return NpzArrays(arrays, quoted, what)
