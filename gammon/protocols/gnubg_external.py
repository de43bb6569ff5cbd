"""GNU Backgammon as gammon's opponent, through its external player interface.

Started as ``gnubg -t`` and given the command ``external localhost:PORT``, GNU Backgammon listens
on that port and answers each FIBS board line (:mod:`gammon.protocols.fibs_board`) with its
action, judged under the game's rules (which follow each line: ``jacobyrule on crawfordrule on
beavers off``): ``roll`` or ``double`` before the roll, its play (``24/20* 13/11``: a ``from/to``
pair a checker step, 25 the bar, 0 off), ``take``, ``drop`` or ``beaver`` to a double; a line starting
``Error`` when it cannot read the board. It plays at its own evaluation settings (``set evaluation
chequerplay ...`` and ``cubedecision ...`` before the ``external`` command).

:class:`GnubgExternalPlayer` is a :class:`~gammon.engine.players.ComputerPlayer`: ``gammon play
--level gnubg-external:HOST:PORT``. Resignations offered to it are GNU Backgammon's to judge too
(``resignation 1``, 2 or 3 after the line: ``accept`` or ``reject``). That answer values playing on
with the resigner on roll before its roll, all a line can say (the dice of a line with a
resignation are not read). An offer made when GNU Backgammon rolls next is judged from its
evaluation of the position with GNU Backgammon on roll (``evaluation fibsboard LINE plies N
cubeful``: its cubeful equity per cube for money, its match winning chance in a match): after the
resigner's roll, once GNU Backgammon's play for it of those dice is made; before GNU Backgammon's
own roll, as it stands. One made instead of answering GNU Backgammon's double gives at least what
a pass would, and is accepted.
"""

from __future__ import annotations

import math
import re
import socket
import time
from typing import TYPE_CHECKING

from gammon.engine.cube.cubeful import mwc_after
from gammon.engine.cube.resignation import judged_situation
from gammon.engine.players import CubeAnswer, HeuristicCube, may_beaver
from gammon.errors import GammonError, IllegalActionError, cut
from gammon.protocols.fibs_board import fibs_board
from gammon.situation import CubeOwner, Situation

if TYPE_CHECKING:
    from gammon.game import Game
    from gammon.play import Play
    from gammon.rules import Rules, WinKind

LEVEL_PREFIX = "gnubg-external:"
TIMEOUT = 300.0
"""Seconds to wait for one answer (a deep evaluation of GNU Backgammon takes a while)."""
CONNECT_WAIT = 10.0
MAX_REPLY = 4096
"""The most bytes of one answer read before giving up on its newline."""
EVALUATION_PLIES = 2
"""The depth of the evaluations asked for (``evaluation fibsboard``): unlike a board line's answer,
they do not follow GNU Backgammon's own settings."""
_TIE = 1e-5  # GNU Backgammon writes its evaluations to six decimals

_STEP = re.compile(r"(\d+)/(\d+)\*?")


class GnubgError(GammonError):
    """GNU Backgammon could not be reached, or its answer makes no sense here."""


def parse_level(level: str) -> tuple[str, int]:
    """``gnubg-external:HOST:PORT`` as (host, port); ValueError when it is not one."""
    body = level[len(LEVEL_PREFIX) :] if level.startswith(LEVEL_PREFIX) else ""
    host, _, port = body.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"a GNU Backgammon level is {LEVEL_PREFIX}HOST:PORT, got {level!r}")
    return host, int(port)


def session_options(rules: Rules) -> str:
    """The rules as options after a board line (`` jacobyrule on crawfordrule on beavers off``):
    without them GNU Backgammon judges by its own defaults (Jacoby and beavers on)."""
    options = (("jacobyrule", rules.jacoby), ("crawfordrule", rules.crawford), ("beavers", rules.beavers))
    return "".join(f" {name} {'on' if value else 'off'}" for name, value in options)


def gnubg_steps(text: str) -> list[int]:
    """The (from, to) numbers of a play GNU Backgammon wrote (``24/20* 13/11``), flattened."""
    steps = _STEP.findall(text)
    if not steps or _STEP.sub("", text).strip():
        raise GnubgError(f"GNU Backgammon answered {text[:80]!r}, which is no play")
    return [int(n) for pair in steps for n in pair]


class GnubgExternalPlayer(HeuristicCube):
    """GNU Backgammon at ``host``:``port`` (its ``external`` command), asked over one connection."""

    def __init__(
        self, host: str, port: int, name: str = "gnubg", opponent: str = "gammon", timeout: float = TIMEOUT,
        plies: int = EVALUATION_PLIES,
    ) -> None:
        self.level = f"{LEVEL_PREFIX}{host}:{port}"
        self.address = (host, port)
        self.names = (name, opponent)
        self.timeout = timeout
        self.plies = plies
        self._socket: socket.socket | None = None
        self._buffer = b""

    @classmethod
    def from_level(cls, level: str) -> GnubgExternalPlayer:
        return cls(*parse_level(level))

    def ask(self, situation: Situation, options: str = "") -> str:
        """GNU Backgammon's answer to ``situation``, whose player on roll it is (or, with a double
        or a resignation on offer, whose opponent it is); ``options`` follow the line's rules."""
        line = f"{fibs_board(situation, *self.names)}{session_options(situation.rules)}{options}"
        return self._request(f"{line}\n")

    def evaluate(self, situation: Situation) -> float:
        """GNU Backgammon's cubeful value of ``situation`` (before the roll) to its player on roll:
        equity per cube for money, match winning chance in a match."""
        line = f"evaluation fibsboard {fibs_board(situation, *self.names)}{session_options(situation.rules)}"
        text = self._request(f"{line} plies {self.plies} cubeful\n")
        try:
            numbers = [float(word) for word in text.split()]
        except ValueError:
            numbers = []
        if len(numbers) != 6 or not all(map(math.isfinite, numbers)):
            raise GnubgError(f"GNU Backgammon answered {text[:80]!r}; expected six numbers")
        return numbers[-1]

    def _request(self, line: str) -> str:
        """GNU Backgammon's answer to ``line``, a command ending in a newline."""
        try:
            if self._socket is None:
                self._socket = self._connect()
            self._socket.sendall(line.encode("ascii"))
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_REPLY:  # no answer of GNU Backgammon's is near as long
                    start = cut(self._buffer[:80].decode("ascii", "replace"), 40)
                    self.close()
                    raise GnubgError(f"GNU Backgammon's answer has no end in {MAX_REPLY} bytes: {start!r}")
                chunk = self._socket.recv(4096)
                if not chunk:
                    self.close()
                    raise GnubgError("GNU Backgammon closed the connection")
                self._buffer += chunk
        except OSError as e:
            self.close()
            raise GnubgError(f"GNU Backgammon at {self.address[0]}:{self.address[1]}: {e}") from None
        reply, _, self._buffer = self._buffer.partition(b"\n")
        text = reply.decode("ascii", "replace").replace("\0", "").strip()
        if text.lower().startswith("error"):
            raise GnubgError(f"GNU Backgammon refused {line.strip()!r}: {cut(text, 200)!r}")
        return text

    def _connect(self) -> socket.socket:
        """A connection to GNU Backgammon, tried for :data:`CONNECT_WAIT` seconds (it may be
        starting, or listening again after its last connection)."""
        deadline = time.monotonic() + CONNECT_WAIT
        while True:
            try:
                sock = socket.create_connection(self.address, timeout=self.timeout)
                break
            except ConnectionRefusedError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None
        self._buffer = b""

    # --- ComputerPlayer -------------------------------------------------------------------------

    def choose_play(self, game: Game) -> Play | None:
        plays = game.legal_plays()
        if not plays:
            return None
        situation = game.situation()
        text = self.ask(situation)
        after = situation.position.after_gnubg_move(gnubg_steps(text))
        for play in plays:
            if play.after == after:
                return play
        raise IllegalActionError(f"GNU Backgammon's play {text!r} is not legal in {situation.position.id}")

    def wants_to_double(self, game: Game) -> bool:
        if not game.can_double():
            return False
        return self._cube_word(game, ("double", "roll")) == "double"

    def answer_double(self, game: Game) -> CubeAnswer:
        word = self._cube_word(game, ("take", "drop", "pass", "beaver"))
        if word == "beaver" and may_beaver(game):  # it is not told the cube limit nor the highest cube
            return "beaver"
        return "take" if word in ("take", "beaver") else "pass"

    def accepts_resignation(self, game: Game) -> bool:
        situation = game.situation()
        if situation.resignation is None:
            return False
        if situation.opponent_resigns:  # GNU Backgammon, the player on roll, is to roll next
            # instead of answering its double: resigning gives up at least what a pass would
            return situation.double_offered or self._accepts_on_roll(
                situation.replace(resignation=None, opponent_resigns=False), situation.resignation)
        if situation.dice is not None:  # the resigner has rolled
            return self._accepts_after_roll(situation)
        # "resignation N" (1 single, 2 gammon, 3 backgammon): GNU Backgammon judges the offer of the
        # line's player on roll, before its roll, as the opponent, and answers accept or reject
        word = self._word(situation, ("accept", "reject"), f" resignation {int(situation.resignation)}")
        return word == "accept"

    def _accepts_after_roll(self, s: Situation) -> bool:
        """An offer of the player on roll after its roll: playing on is GNU Backgammon's play for it
        of those dice (a line with the dice, no resignation), then GNU Backgammon on roll."""
        assert s.dice is not None
        plays = s.position.legal_plays(s.dice)
        play = None
        if plays:
            text = self.ask(s.replace(resignation=None))
            after = s.position.after_gnubg_move(gnubg_steps(text))
            play = next((p for p in plays if p.after == after), None)
            if play is None:
                raise IllegalActionError(f"GNU Backgammon's play {text!r} is not legal in {s.position.id}")
            if after.off[1] == 15:  # the play wins the game: resigning gives less than that
                return True
        return self._accepts_on_roll(judged_situation(s, play), s.resignation)

    def _accepts_on_roll(self, s: Situation, kind: WinKind | None) -> bool:
        """Whether resigning ``kind`` is no better for the opponent of ``s``'s player on roll (GNU
        Backgammon, before its roll) than playing on, by GNU Backgammon's evaluation of ``s``."""
        value = self.evaluate(s)
        kept = -value if s.match is None else 1.0 - value
        return _resigning(s, kind) <= kept + _TIE

    def _cube_word(self, game: Game, words: tuple[str, ...]) -> str:
        return self._word(game.situation(), words)

    def _word(self, situation: Situation, words: tuple[str, ...], options: str = "") -> str:
        text = self.ask(situation, options)
        word = text.split()[0].lower() if text else ""
        if word not in words:
            raise GnubgError(f"GNU Backgammon answered {text[:80]!r}; expected one of {', '.join(words)}")
        return word


def _resigning(s: Situation, kind: WinKind | None) -> float:
    """What resigning ``kind`` leaves the opponent of ``s``'s player on roll (the resigner): per
    cube for money, its match winning chance in a match (the table GNU Backgammon ships)."""
    assert kind is not None
    owner = None if s.cube_owner is CubeOwner.CENTRED else 0  # only a centred cube matters (Jacoby)
    points = s.rules.points(kind, s.cube_value, owner)
    match = s.match
    if match is None:
        return -points / s.cube_value
    return 1.0 - mwc_after(match, match.away - points, match.opponent_away)


__all__ = [
    "LEVEL_PREFIX",
    "GnubgError",
    "GnubgExternalPlayer",
    "gnubg_steps",
    "parse_level",
    "session_options",
]
