"""``gammon play --resume FILE``: a saved match or money session, continued in the terminal.

The file (GNU Backgammon's SGF or eXtreme Gammon's ``.xg`` by its extension, else ``.mat``) is
read by the match formats' own readers and its games replayed, roll by roll, into a Match whose
dice roll what comes next. Its rules are the file's; the rule options given beside ``--resume``
replace the file's (a ``.mat`` file does not record play without the cube or automatic doubles),
and the games so far must still replay under them. A roll not yet played is not in a ``.mat`` file
(which records a roll with its play): it is rolled again; SGF keeps it.

Which side the person plays: the one ``--name`` names, else the other side of the one named
after a computer level (a file ``gammon play`` saved), else the one called "You".
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gammon.cli.words import os_error_words
from gammon.dice import DiceSource
from gammon.errors import GammonError, cut, quoted_path, shown_path
from gammon.formats.convert import Transcript, read_match, reading_format
from gammon.i18n import tr
from gammon.match import Match
from gammon.records import match_actions, replay_match

DEFAULT_NAME = "You"


@dataclass(frozen=True)
class Saved:
    """A match read back from a file: the Match (its dice roll what comes next), the names, and
    what the file said (its match information and record, for saving it again)."""

    match: Match
    names: tuple[str, str]
    transcript: Transcript


def load_saved(path: str, dice: DiceSource, rules: dict[str, Any] | None = None) -> Saved:
    """The match saved in ``path``, replayed with ``dice`` for the rolls to come and the rules in
    ``rules`` (Rules fields) put in place of the file's. Raises ValueError, quoting the file, for
    a file that cannot be read, does not replay under those rules, or holds a match already won."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        why = os_error_words(e)
        raise ValueError(tr("cannot read {file}: {why}", file=quoted_path(path), why=why)) from None
    try:
        transcript = read_match(data, reading_format(path))
        old = transcript.match.rules
        new = dataclasses.replace(old, **(rules or {}))
        match = replay_match(new, match_actions(transcript.match), dice)
    except (GammonError, ValueError) as e:
        raise ValueError(f"{shown_path(path)}: {e}") from None
    names = transcript.names
    if match.is_over:
        winner = match.winner if match.winner is not None else 0
        score = match.score
        won = f"{score[winner]}-{score[1 - winner]}"
        raise ValueError(tr("the match in {file} is over: {name} won it {score}; there is nothing to play",
                            file=shown_path(path), name=names[winner], score=won))
    return Saved(match, names, transcript)


def person_side(names: tuple[str, str], person: str | None, levels: tuple[str, ...]) -> int:
    """The side (0 or 1) the person plays against the computer: the one named ``person`` when
    given; else the other side of the one named after a computer level (``levels``); else the
    one named "You". Raises ValueError, naming the players, when that does not decide it, or
    when ``person`` would leave the side named "You" to the computer."""
    quoted = tr("{first} and {second}", first=cut(repr(names[0])), second=cut(repr(names[1])))
    if person is not None:
        sides = [i for i in (0, 1) if names[i] == person]
        if len(sides) == 1 and names[1 - sides[0]] == DEFAULT_NAME:
            # the computer would play "You": its moves said as the person's ("You play 5-2 ...")
            raise ValueError(tr("--name {name} leaves the player named {you} to the computer, whose moves "
                                "would be told as yours; play both with --two-player",
                                name=cut(repr(person)), you=repr(DEFAULT_NAME)))
        if len(sides) == 1:
            return sides[0]
        if not sides:
            raise ValueError(tr("no player is named {name}: the players are {players}; "
                                "give --name one of them", name=cut(repr(person)), players=quoted))
        raise ValueError(tr("both players are named {name}; play them with --two-player",
                            name=cut(repr(person))))
    computers = [i for i in (0, 1) if names[i] in levels]
    if len(computers) == 1:
        return 1 - computers[0]
    yours = [i for i in (0, 1) if names[i] == DEFAULT_NAME]
    if len(yours) == 1:
        return yours[0]
    raise ValueError(tr("which player are you? The players are {players}: give --name one of them "
                        "(or --two-player)", players=quoted))
