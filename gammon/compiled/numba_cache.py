"""Where numba keeps gammon's compiled kernels (every kernel is ``@njit(cache=True)``), set up on
``import gammon`` before any kernel is defined.

numba writes its cache beside the sources (``__pycache__``), or in the user's cache directory when
the package is installed read-only. Where neither is writable (a read-only install run by a user
without a home directory) numba refuses to define a cached kernel, so importing gammon would fail:
then, and only then, numba is pointed (``NUMBA_CACHE_DIR``) at a private directory under the
temporary directory. A ``NUMBA_CACHE_DIR`` set by the user is always left alone.

Then numba is pointed at the precompiled kernels shipped in the package where they fit this computer
(:mod:`gammon.compiled.shipped_kernels`), so that a fresh install need not compile them.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import platformdirs

from gammon.compiled.shipped_kernels import use_shipped_kernels


def ensure_cache_dir(package: Path | None = None, user_cache: Path | None = None) -> Path | None:
    """Set ``NUMBA_CACHE_DIR`` when numba has no writable cache of its own; return it, else None.
    ``package`` and ``user_cache`` replace numba's two places (for tests)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    package = package or Path(__file__).resolve().parent.parent  # gammon/: numba caches in its __pycache__
    user_cache = user_cache or Path(platformdirs.user_cache_dir("numba", appauthor=False))
    if _is_writable(package / "__pycache__") or _is_writable(user_cache):
        return None
    fallback = _private_dir(Path(tempfile.gettempdir()) / f"gammon-numba-{_user_id()}")
    os.environ["NUMBA_CACHE_DIR"] = str(fallback)
    return fallback


def _is_writable(path: Path) -> bool:
    """The test numba applies: the directory can be made and a file created in it."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return False
    return True


def _user_id() -> str:
    getuid = getattr(os, "getuid", None)
    return str(getuid()) if getuid else "user"


def _private_dir(path: Path) -> Path:
    """``path`` if it is (or can be made) a directory of ours that nobody else can write to (numba's
    index files are pickles), else a fresh temporary directory."""
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        st = path.lstat()
        getuid = getattr(os, "getuid", None)
        if (stat.S_ISDIR(st.st_mode) and not st.st_mode & 0o022 and getuid is not None
                and st.st_uid == getuid() and _is_writable(path)):
            return path
    except OSError:
        pass
    return Path(tempfile.mkdtemp(prefix="gammon-numba-"))


ensure_cache_dir()
use_shipped_kernels()
