"""A live match on the server: the domain Match, its seats, its computer opponent and its stored
actions (its games' ``history``, :mod:`gammon.records`).

The caller holds :attr:`LiveMatch.lock` around :meth:`LiveMatch.act`, so the requests of one match
are applied one at a time. The actions they make are queued in :attr:`LiveMatch.unsaved` (an undo
takes the last one back); the caller stores them (:meth:`LiveMatch.save`, or the server's batched
writer) before acknowledging anything, and a failed write puts the match back to what is stored
(:meth:`LiveMatch.reload`). Another process's changes are caught up with by making only the actions
it added (:meth:`LiveMatch.catch_up`).
The computer's actions at engine levels are not made here: the server asks its engine pool for
them (:meth:`LiveMatch.computer_due`, :meth:`LiveMatch.computer_acts`), off the event loop.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
from collections.abc import Callable

from gammon.accounts.games import RATED_KEY, UNRATED_KEY
from gammon.dice import DiceSource, RandomDice
from gammon.engine.players import ComputerAction, ComputerPlayer, available_levels, computer_player
from gammon.errors import GammonError, IllegalActionError, NotAuthorizedError, StoreConflictError
from gammon.game import ActionKind, GamePhase, PlayMade, Request
from gammon.i18n import tr
from gammon.match import Match, NewGame
from gammon.records import MatchAction, extend_match, match_actions, replay_match
from gammon.rules import Rules
from gammon.store import LogChange, MatchRecord, Store, StoredLog
from gammon.store.repository import MatchSummary, hash_token
from gammon.web.actions import NAMES_KEY, core_request, rules_from_dict, rules_to_dict
from gammon.web.engine_pool import INLINE_LEVELS
from gammon.web.old_log import replay_requests
from gammon.web.schemas import ActionRequest, PlayerAccount

MODES = ("computer", "local", "online")
COMPUTER_SEAT = 1
# Far more actions than any game needs: a guard against a computer that never ends its turn.
_MAX_AUTOMATIC = 10_000
StoreMatch = Callable[[MatchRecord, list[str]], None]
"""Stores a new match's record, given its seats' tokens (the lobby binds its seats with it)."""


def new_token() -> str:
    return secrets.token_urlsafe(24)


class LiveMatch:
    """One match being played. ``seat`` arguments: 0, 1, or None for a local game's shared seat."""

    def __init__(
        self, record: MatchRecord, match: Match, dice: DiceSource, store: Store, log: StoredLog
    ) -> None:
        self.record = record
        self.match = match
        self.dice = dice
        self.store = store
        # One more with each action made or taken back (the stored version once saved): what a
        # client's request names, so that one made on a board since changed is refused.
        self.version = log.version
        self._saved_version = log.version
        self._stored = log.first + len(log.actions)  # actions stored: the seq of the next
        self._retract_from: int | None = None  # stored actions from this seq on are taken back
        self.lock = asyncio.Lock()
        # (game number, language) -> (actions seen, lines)
        self.log_cache: dict[tuple[int, str], tuple[int, list[str]]] = {}
        self.unsaved: list[MatchAction] = []  # made in memory, not yet stored
        # A write failed and the reload after it too (the database was away): memory may hold an
        # action that was never stored, so the match is replayed from the store before its next use.
        self.stale = False
        self.level = (record.level or "random") if record.mode == "computer" else None
        # The computer plays here only at the levels that need no engine; else the engine pool does.
        self.computer: ComputerPlayer | None = (
            computer_player(self.level) if self.level in INLINE_LEVELS else None
        )
        # The accounts at the seats with their ratings, as the server last read them (for the views)
        self.accounts: tuple[PlayerAccount | None, PlayerAccount | None] = (None, None)

    @property
    def rated(self) -> bool:
        """Made to be rated, and not judged unrated at its end (a seat without an account)."""
        rules = self.record.rules
        return bool(rules.get(RATED_KEY)) and rules.get(UNRATED_KEY) is None

    @property
    def id(self) -> str:
        return self.record.id

    @classmethod
    def create(
        cls,
        store: Store,
        mode: str,
        rules: Rules,
        level: str | None,
        dice: DiceSource | None = None,
        names: tuple[str | None, str | None] = (None, None),
        rated: bool = False,
        store_match: StoreMatch | None = None,
    ) -> tuple[LiveMatch, list[str]]:
        """A new stored match and the tokens of its seats (one for computer and local games);
        ``names`` are the players' (None: the default; the computer's is its own); ``rated``: made
        to be rated (online, to a length). ``store_match`` stores the new record, given its seats'
        tokens (default: :meth:`Store.create_match`); if it raises, nothing is made."""
        if mode not in MODES:
            raise ValueError(
                tr("mode must be one of {modes}, got {mode}", modes=", ".join(MODES), mode=repr(mode))
            )
        if mode == "computer":
            check_level(level or "random")  # a bad level fails here, before anything is stored
        tokens = [new_token()] if mode == "local" else [new_token(), new_token()]
        hashes = (hash_token(tokens[0]), hash_token(tokens[-1]))
        given = [names[0], names[1] if mode != "computer" else None]
        stored = rules_to_dict(rules) | ({NAMES_KEY: given} if any(given) else {})
        if rated:
            if mode != "online" or rules.match_length < 1:
                raise ValueError(tr("only an online match to a length may be rated"))
            stored[RATED_KEY] = True
        record = MatchRecord(
            id=secrets.token_urlsafe(12),
            mode=mode,
            rules=stored,
            seat_hashes=hashes,
            level=level if mode == "computer" else None,
        )
        if store_match is None:
            store.create_match(record)
        else:
            store_match(record, tokens)
        dice = dice or RandomDice()
        live = cls(record, Match(rules, dice), dice, store, StoredLog(0, 0, 0, []))
        live.advance()
        live.save()
        if mode == "computer":
            tokens = tokens[:1]  # nobody may act for the computer
        return live, tokens

    @classmethod
    def load(cls, store: Store, match_id: str, dice: DiceSource | None = None) -> LiveMatch:
        """Rebuild a match by replaying its stored actions."""
        record = store.load_match(match_id)
        rules, dice = rules_from_dict(record.rules), dice or RandomDice()
        log = _stored_log(store, match_id, rules)
        live = cls(record, replay_match(rules, log.actions, dice), dice, store, log)
        live.advance()  # finishes automatic actions a crash may have interrupted
        live.save()
        return live

    def seat_of(self, token: str) -> int | None:
        """The seat ``token`` opens: 0 or 1, or None for the shared seat of a local game."""
        found = [
            s for s, h in enumerate(self.record.seat_hashes) if hmac.compare_digest(h, hash_token(token))
        ]
        if not found or (self.level is not None and found == [COMPUTER_SEAT]):
            raise NotAuthorizedError(tr("this token does not open a seat of this match"))
        return found[0] if len(found) == 1 else None

    def players_who_moved(self) -> set[int]:
        """Seats that have made a play in this match."""
        return {a.player for g in self.match.games for a in g.history if isinstance(a, PlayMade)}

    def play_texts(self) -> list[str]:
        """The legal plays' notation, in ``legal_plays`` order (the index ``sequences`` refer to);
        made once per roll, however many views show it."""
        return self.match.game.legal_play_texts()

    def acting_player(self) -> int | None:
        """Who must act now (None before the opening roll and once the game is over)."""
        game = self.match.game
        return None if game.phase in (GamePhase.OPENING, GamePhase.OVER) else game.turn

    def act(self, seat: int | None, request: ActionRequest) -> None:
        """Make ``request`` for ``seat``, then the automatic actions (queued unsaved)."""
        kind = request.action
        if kind == "undo" and self.record.mode == "online":
            # The opponent is shown each play at once and may act on it (double, roll): no take-backs.
            raise IllegalActionError(tr("no undo in online games: your opponent has been shown the play"))
        if kind == "new_game" or (kind == "undo" and seat is None):
            player = None  # a local game's shared seat takes back the last play, whoever made it
        elif seat is None:  # a local game: the shared seat acts for whoever must act
            player = self.acting_player()
            if player is None:
                raise IllegalActionError(
                    tr("nobody can {action} now: {reason}", action=kind, reason=self.match.game.awaiting())
                )
        else:
            player = seat
        self._apply(core_request(request, player))
        self.advance()

    def computer_due(self) -> bool:
        """Whether the game waits on a computer whose action the engine pool must find."""
        game = self.match.game
        return (
            self.level is not None
            and self.computer is None
            and game.turn == COMPUTER_SEAT
            and game.phase not in (GamePhase.OPENING, GamePhase.OVER)
        )

    def computer_acts(self, action: ComputerAction) -> None:
        """Apply the computer's ``action`` (found by the engine pool), then the automatic actions."""
        self._apply(action.request(COMPUTER_SEAT))
        self.advance()

    def advance(self) -> None:
        """Opening rolls, rolls of a player who cannot double, and the computer's actions at the
        levels played here (the engine pool's wait: see :meth:`computer_due`)."""
        for _ in range(_MAX_AUTOMATIC):
            game = self.match.game
            if game.phase is GamePhase.OPENING:
                self._apply(Request(ActionKind.ROLL))
            elif game.phase is GamePhase.OVER:
                return
            elif self.level is not None and game.turn == COMPUTER_SEAT:
                if self.computer is None:
                    return
                self._apply(self.computer.next_action(game).request(COMPUTER_SEAT))
            elif game.phase is GamePhase.ROLL and not game.can_double():
                self._apply(Request(ActionKind.ROLL, game.turn))
            else:
                return
        raise IllegalActionError(f"match {self.id!r}: more than {_MAX_AUTOMATIC} automatic actions in a row")

    def _apply(self, request: Request | NewGame) -> None:
        match = self.match
        game = match.game
        done = len(game.history)
        match.apply(request)  # a refused request changes nothing
        if match.game is not game:  # the next game: every action of it is new
            game, done = match.game, 0
        history = game.history
        number = len(match.games) - 1
        if len(history) < done:  # an undo took the last play back
            for key in [k for k in self.log_cache if k[0] == number + 1]:
                del self.log_cache[key]
            for _ in range(done - len(history)):
                self._take_back()
        for action in history[done:]:
            self.unsaved.append(MatchAction(number, action))
            self.version += 1

    def _take_back(self) -> None:
        if self.unsaved:
            self.unsaved.pop()
        else:
            self._stored -= 1
            self._retract_from = self._stored
        self.version += 1

    def take_unsaved(self) -> LogChange | None:
        """The change to store since the last save (None: nothing changed), with the summary."""
        if self.version == self._saved_version:
            return None
        change = LogChange(
            base=self._saved_version,
            version=self.version,
            first=self._stored,
            actions=self.unsaved,
            retract_from=self._retract_from,
            summary=self.summary(),
        )
        self._stored += len(self.unsaved)
        self.unsaved, self._retract_from, self._saved_version = [], None, self.version
        return change

    def save(self) -> None:
        """Store the unsaved change (in one transaction); on failure go back to what is stored."""
        change = self.take_unsaved()
        if change is None:
            return
        try:
            self.store.append(self.id, change)
        except Exception:
            self.reload()  # memory ran ahead of the database: go back to what is stored
            raise

    def summary(self) -> MatchSummary:
        return summarize(self.match)

    def reload(self) -> None:
        """Replay the match from the store: after a failed write, or when another server process
        took actions back. Until it succeeds the match is :attr:`stale`."""
        self.stale = True
        log = self.store.load_log(self.id)
        self.match = replay_match(rules_from_dict(self.record.rules), log.actions, self.dice)
        self._caught_up(log)
        self.log_cache.clear()
        self.stale = False

    def catch_up(self) -> None:
        """Another server process stored changes of this match: make the actions it added here
        (the caller holds the lock, so nothing is unsaved), or reload if it took actions back."""
        if self.version != self._saved_version:
            self.reload()
            return
        log = self.store.load_log(self.id, self._stored)
        if log.version <= self.version:
            return
        if log.retracted_at > self.version:
            self.reload()
            return
        try:
            extend_match(self.match, log.actions)
        except GammonError:
            self.reload()  # what is stored does not continue this match: start again from it
            return
        self._caught_up(log)

    def _caught_up(self, log: StoredLog) -> None:
        self.unsaved, self._retract_from = [], None
        self.version = self._saved_version = log.version
        self._stored = log.first + len(log.actions)
        if self.rated and self.match.is_over:
            self.reread_record()  # the end was judged where it was made: unrated, maybe

    def reread_record(self) -> None:
        """Read the record again: the process that ended the match judged it there (unrated, and
        why), and this one caught up with the end, or was told of the judgment."""
        self.record = self.store.load_match(self.id)


def summarize(match: Match) -> MatchSummary:
    game = match.game
    status = "over" if match.is_over else "active"
    return MatchSummary(status=status, position_id=game.position_for(0).id, score=match.score)


def _stored_log(store: Store, match_id: str, rules: Rules) -> StoredLog:
    """The match's stored actions; a match stored in the old format (one row per request) is
    replayed from its requests and stored as its actions first, once."""
    log = store.load_log(match_id)
    if log.actions:
        return log
    requests = store.load_requests(match_id)
    if not requests:
        return log
    match = replay_requests(rules, requests)
    # The version clients were given counted the requests; the state is the same, so it stays.
    change = LogChange(
        base=log.version,
        version=max(log.version, len(requests)),
        first=0,
        actions=match_actions(match),
        summary=summarize(match),
    )
    try:
        store.convert_requests(match_id, change)
    except StoreConflictError:
        pass  # another process converted it meanwhile
    return store.load_log(match_id)


def check_level(level: str) -> None:
    """Raise ValueError for a computer level this server cannot play (before anything is stored)."""
    if level not in available_levels():
        computer_player(level)  # the error that names the levels
        raise ValueError(tr("unknown computer level {level}", level=repr(level)))
