"""Writing a file the person names, whole or not at all."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import tempfile

__all__ = ["unwritable", "write_whole"]


def write_whole(path: str, text: str | bytes) -> None:
    """Write ``text`` (UTF-8, or bytes as they are: an image) to ``path`` whole or not at all:
    into a temporary file beside it, renamed onto it once complete, so that a failed write (a full
    disk, a file size limit) leaves no half file, and a file already there (a match saved before)
    as it was. A path that is not a regular file (``/dev/stdout``, a pipe) is written as it is:
    renaming onto it would replace the device. Raises OSError."""
    try:
        # the path's own stat: /dev/stdout's real path names a pipe as 'pipe:[...]', which is no file
        regular = stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        regular = True
    target = os.path.realpath(path)  # through a symbolic link, as an ordinary write goes
    data = text.encode("utf-8") if isinstance(text, str) else text
    if not regular:
        with open(path, "wb") as device:
            device.write(data)
        return
    if os.path.exists(target) and not os.access(target, os.W_OK):
        # a plain write would be refused; renaming onto the file would replace it all the same
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
    folder, name = os.path.split(target)
    # the name cut: a long one with the additions could pass the longest name the system allows
    fd, temporary = tempfile.mkstemp(prefix=f".{name[:100]}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        try:
            shutil.copymode(target, temporary)  # a file already there keeps its permissions
        except FileNotFoundError:
            mask = os.umask(0)  # a new file gets the usual ones, not mkstemp's owner-only
            os.umask(mask)
            os.chmod(temporary, 0o666 & ~mask)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def unwritable(path: str) -> str | None:
    """Why :func:`write_whole` could not write ``path`` (its folder missing or read-only, a folder
    of that name, a file it may not write, a link loop), found before the work that makes the text
    rather than after it; None when it can. Nothing is written."""
    try:
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:  # not there yet (or a link to a file not made yet): the write makes it
            mode = stat.S_IFREG
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if os.path.exists(path) and not os.access(path, os.W_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        if stat.S_ISREG(mode):
            # a file can be made in the folder: the write makes its temporary file there
            with tempfile.TemporaryFile(dir=os.path.dirname(os.path.realpath(path))):
                pass
    except OSError as e:
        return e.strerror or str(e)
    return None
