"""Uploaded match files to analyse (``.mat``, GNU Backgammon's SGF, eXtreme Gammon's ``.xg`` in
base64), read in the analysis job's worker: the server only checks the job limits and queues the
text, so an upload costs its process no parsing (a large ``.mat`` takes seconds to replay) and a
file made to fill the memory fills the worker's, not the server's.

An analysis is bounded in work: ``max_actions[plies]`` actions (rolls, plays and cube actions, as
its progress counts them) at each depth, so that one upload cannot hold a worker for long (at
2 ply an action takes tens of milliseconds)."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from gammon.errors import GammonError, InvalidNotationError, cut
from gammon.formats.convert import read_match
from gammon.i18n import format_number, tr

if TYPE_CHECKING:
    from gammon.engine.engine import Engine
    from gammon.game import Game
    from gammon.web.jobs import Progress

# About a minute of one worker at each depth (0, 1 and 2 ply): every real match of the test corpus
# (1,300 actions at most, a 13-point match) is analysed at 2 ply.
MAX_ACTIONS = (16_000, 12_000, 2_400)


class TooMuchWork(GammonError):
    """An analysis over the server's bound of actions at its depth."""


def check_work(actions: int, plies: int, max_actions: Sequence[int]) -> None:
    """Refuse the analysis of ``actions`` actions at ``plies`` ply over its bound, saying the bounds."""
    if actions <= max_actions[plies]:
        return
    bounds = ", ".join(tr("{n} at {plies} ply", n=format_number(n, ","), plies=p)
                       for p, n in enumerate(max_actions))
    lower = any(actions <= n for n in max_actions[:plies])
    values = {"n": format_number(actions, ","), "plies": plies, "bounds": bounds}
    raise TooMuchWork(
        tr(
            "{n} actions to analyse at {plies} ply is over this server's bound ({bounds}): "
            "choose a lower depth or fewer games",
            **values,
        )
        if lower
        else tr(
            "{n} actions to analyse at {plies} ply is over this server's bound ({bounds}): "
            "choose fewer games",
            **values,
        )
    )


def count_actions(games: Sequence[Game]) -> int:
    """The actions an analysis of ``games`` goes through (its progress's total)."""
    return sum(len(g.history) for g in games)


_QUOTED = re.compile(r"(['\"])([^'\"]{41,})\1")


def cut_quotes(message: str, limit: int = 200) -> str:
    """``message`` with every quoted piece of input cut to 40 characters (the .mat reader quotes
    whole lines), then the whole cut to ``limit``."""
    return cut(_QUOTED.sub(lambda m: f"{m[1]}{m[2][:40]}...{m[1]}", message), limit)


def read_upload(kind: str, text: str) -> tuple[list[Game], tuple[str, str]]:
    """The games and names of an uploaded file's text, ``kind`` "mat", "sgf" or "xg" (base64)."""
    data: bytes | str = text
    if kind == "xg":
        try:
            data = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise InvalidNotationError(tr("the .xg file is not in base64")) from None
    transcript = read_match(data, kind)
    return transcript.match.games, transcript.names


def analyse_upload(
    kind: str,
    text: str,
    engine: Callable[[int], Engine],
    plies: int,
    max_actions: Sequence[int],
    progress: Progress,
) -> dict[str, Any]:
    """In a job's worker: read the file, check its work, then analyse it as
    :func:`gammon.web.study_work.analyse_games` does. Errors quote little of the file."""
    try:
        games, names = read_upload(kind, text)
    except (GammonError, ValueError) as exc:
        raise InvalidNotationError(
            tr("cannot read the .{kind} file: {problem}", kind=kind, problem=cut_quotes(str(exc)))
        ) from None
    if not games:
        raise InvalidNotationError(tr("the .{kind} file has no games", kind=kind))
    check_work(count_actions(games), plies, max_actions)
    # deferred to the job's worker: it loads the engine, which the server process starts without
    from gammon.web.study_work import analyse_games

    return analyse_games(games, names, engine(plies), progress)


__all__ = [
    "MAX_ACTIONS",
    "TooMuchWork",
    "analyse_upload",
    "check_work",
    "count_actions",
    "cut_quotes",
    "read_upload",
]
