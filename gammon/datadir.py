"""Where gammon keeps its files: the user's data directory (``~/.local/share/gammon`` on Linux,
``$XDG_DATA_HOME/gammon`` when that is set), made on first use: the web server's SQLite database
and the matches the terminal saves by itself when its input ends."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_dir


def data_dir() -> Path:
    """The directory, created if it does not exist."""
    folder = Path(user_data_dir("gammon", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
