"""Database tables: one row per match, one row per action of its games (the games' ``history``);
player accounts, their sign-in sessions, the seats they hold and their rating changes; players'
profiles (analysed matches, their marked decisions, the analysis queue, drill cards); the lobby
(open invitations to a match, and who each server process has in it).

A table added here is made in an existing database by ``create_all`` when the store opens it; a
column added to an existing table needs the store to add it itself (see repository and check)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class MatchRow(Base):
    """A match: its rules and seats. Everything else is rebuilt by replaying its actions."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    mode: Mapped[str] = mapped_column(String(16))  # "computer", "local" or "online"
    level: Mapped[str | None] = mapped_column(String(32), nullable=True)  # computer level
    rules: Mapped[dict] = mapped_column(JSON)
    # SHA-256 of each seat's token: a copy of the database does not hand out the seats.
    seat0_hash: Mapped[str] = mapped_column(String(64))
    seat1_hash: Mapped[str] = mapped_column(String(64))
    # One more with every action stored or taken back: what stale-action checks compare and
    # notifications carry. Writers compare it to the version they started from, so two writers
    # racing for the same match cannot both store.
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The version of the last change that took actions back (an undo): a process holding an older
    # version must reload the match rather than only read the actions after its own.
    retracted_at: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # A summary kept up to date for listings and for checking a replay; never the source of truth.
    action_count: Mapped[int] = mapped_column(Integer, default=0)  # actions stored
    status: Mapped[str] = mapped_column(String(16), default="active")
    position_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    score0: Mapped[int] = mapped_column(Integer, default=0)
    score1: Mapped[int] = mapped_column(Integer, default=0)


class MatchActionRow(Base):
    """One action of a game of the match (:class:`gammon.records.MatchAction`'s JSON form, with its
    game's number and a roll's dice), in order: ``seq`` from 0 across the match's games."""

    __tablename__ = "match_actions"
    __table_args__ = (UniqueConstraint("match_id", "seq", name="match_actions_match_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ActionRow(Base):
    """The old format: one row per request a player made (``kind`` a method of Game/Match, with the
    dice the server rolled while applying it). Read only to convert a match stored so, once, into
    :class:`MatchActionRow`; nothing writes it any more."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("match_id", "seq", name="actions_match_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    player: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(24))
    args: Mapped[dict] = mapped_column(JSON)
    rolls: Mapped[list] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountRow(Base):
    """A player's account: a name, a password hash (Argon2id), a rating and its experience."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))  # as its player wrote it
    # The name folded to lower case: names differing only in case are one name.
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    rating: Mapped[float] = mapped_column(Float, default=1500.0)
    experience: Mapped[int] = mapped_column(Integer, default=0)  # sum of the rated matches' lengths


class AccountSessionRow(Base):
    """A signed-in client: only the SHA-256 of its token, so a copy of the database signs no one in."""

    __tablename__ = "account_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeatAccountRow(Base):
    """A seat of a match held by an account (a seat without a row is a guest's). The account's
    deletion leaves the row without an account: the game stays, its player anonymous."""

    __tablename__ = "match_seat_accounts"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )


class RatingChangeRow(Base):
    """What one rated match did to one player's rating: one row per player and match."""

    __tablename__ = "rating_changes"
    __table_args__ = (UniqueConstraint("match_id", "account_id", name="rating_changes_match_account"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    opponent_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    match_length: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    rating_before: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[float] = mapped_column(Float)
    experience_before: Mapped[int] = mapped_column(Integer)
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class ProfileMatchRow(Base):
    """An analysed match in an account's profile, from the seat that is the account's player.
    ``fingerprint`` (the hash of the games' dice and plays) makes a match count once per account,
    whichever file or format it came in."""

    __tablename__ = "profile_matches"
    __table_args__ = (
        UniqueConstraint("account_id", "fingerprint", name="profile_matches_account_fingerprint"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    fingerprint: Mapped[str] = mapped_column(String(64))
    source: Mapped[str] = mapped_column(String(16))  # "here" (played on this server) or "file"
    source_format: Mapped[str | None] = mapped_column(String(16), nullable=True)  # mat, sgf, xg
    source_name: Mapped[str] = mapped_column(String(255))  # the file's name, or the match's id
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    analysed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    plies: Mapped[int] = mapped_column(Integer)
    player_name: Mapped[str] = mapped_column(String(64))
    opponent_name: Mapped[str] = mapped_column(String(64))
    match_length: Mapped[int] = mapped_column(Integer)  # 0: a money session
    player_score: Mapped[int] = mapped_column(Integer)
    opponent_score: Mapped[int] = mapped_column(Integer)
    result: Mapped[str] = mapped_column(String(16))  # "won", "lost", "unfinished" (or "drawn" for money)
    # the player's statistics as gammon.analysis.stats defines them (EMG totals, mEMG rates)
    decisions: Mapped[int] = mapped_column(Integer)  # unforced moves + close or actual cube decisions
    error_total: Mapped[float] = mapped_column(Float)
    pr: Mapped[float] = mapped_column(Float)
    checker_error_rate: Mapped[float] = mapped_column(Float)
    cube_error_rate: Mapped[float] = mapped_column(Float)
    luck_total: Mapped[float] = mapped_column(Float)
    luck_rate: Mapped[float] = mapped_column(Float)


class ProfileDecisionRow(Base):
    """A marked decision (doubtful, bad, very bad) of the player in a profile match: the position
    as GNU Backgammon's ``PositionID:MatchID`` and XGID, the dice (None for a cube action), what
    was played and what was best, the error (EMG) and the mark. ``ranking`` is the engine's:
    ``[[play, equity], ...]`` best first for a checker play, the cube's equities for a cube action."""

    __tablename__ = "profile_decisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    profile_match_id: Mapped[int] = mapped_column(
        ForeignKey("profile_matches.id", ondelete="CASCADE"), index=True
    )
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    game: Mapped[int] = mapped_column(Integer)
    turn: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))  # "move" or "cube"
    position_id: Mapped[str] = mapped_column(String(16))  # from the player's view
    gnubg_id: Mapped[str] = mapped_column(String(40))
    xgid: Mapped[str] = mapped_column(String(80))
    dice: Mapped[str | None] = mapped_column(String(2), nullable=True)
    played: Mapped[str] = mapped_column(String(64))
    best: Mapped[str] = mapped_column(String(64))
    error: Mapped[float] = mapped_column(Float, index=True)
    mark: Mapped[str] = mapped_column(String(16))
    ranking: Mapped[list | dict] = mapped_column(JSON)


class ProfileMatchRecordRow(Base):
    """A profile match's games from the player's seat (``gammon.profile.source.match_record``) and
    the key of their start (``opening``): what finds the same match in a file of its first games
    only (a file saved mid-match), which the whole match's fingerprint cannot. A match stored
    before the records were kept has none: it is found by its fingerprint only."""

    __tablename__ = "profile_match_records"
    __table_args__ = (Index("profile_match_records_account_opening", "account_id", "opening"),)

    profile_match_id: Mapped[int] = mapped_column(
        ForeignKey("profile_matches.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    opening: Mapped[str] = mapped_column(String(64))
    games: Mapped[str] = mapped_column(Text)


class AnalysisJobRow(Base):
    """A queued analysis for an account's seat: a match played here (``match_id``) or a file (its
    bytes, name and format). Rows outlive the server: what was queued or running when it stopped
    is done when it starts again. ``status``: queued, running, done, duplicate or failed (with
    ``reason``); ``attempts`` counts the starts, so a job that kills its worker is not retried
    forever."""

    __tablename__ = "analysis_jobs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    file_name: Mapped[str | None] = mapped_column(String(255), nullable=True)
    file_format: Mapped[str | None] = mapped_column(String(16), nullable=True)
    file_data: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    plies: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), index=True)
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    profile_match_id: Mapped[int | None] = mapped_column(
        ForeignKey("profile_matches.id", ondelete="SET NULL"), nullable=True
    )


class DrillCardRow(Base):
    """A marked decision as a drill card: its spaced-repetition state (the ``fsrs`` library's
    card, as its own dict), when it is due next, and how often it was answered."""

    __tablename__ = "drill_cards"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    decision_id: Mapped[int] = mapped_column(
        ForeignKey("profile_decisions.id", ondelete="CASCADE"), unique=True
    )
    due: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    state: Mapped[str] = mapped_column(String(16))  # "new", "learning", "review", "relearning"
    scheduler_card: Mapped[dict] = mapped_column(JSON)
    reviews: Mapped[int] = mapped_column(Integer, default=0)
    correct: Mapped[int] = mapped_column(Integer, default=0)
    last_review: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class DrillReviewRow(Base):
    """One answer to a drill card: what the player answered, whether it was right, the grade."""

    __tablename__ = "drill_reviews"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("drill_cards.id", ondelete="CASCADE"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    reviewed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    answer: Mapped[str] = mapped_column(String(64))
    error: Mapped[float | None] = mapped_column(Float, nullable=True)  # EMG lost, when the engine ranked it
    grade: Mapped[int] = mapped_column(Integer)  # fsrs Rating: 1 again, 2 hard, 3 good, 4 easy


class LobbyInvitationRow(Base):
    """An invitation in the lobby: its poster's terms, open to anyone or to one named account.
    ``status`` "open" until accepted: "starting" while the accepting process makes the match (its
    guarded UPDATE from "open" is the claim: two accepts at once start one match), then
    "accepted", with the match and the poster's seat token, kept until the poster's browser takes
    it (once) or a few minutes pass. ``seen``: when the poster last had the lobby open."""

    __tablename__ = "lobby_invitations"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    poster_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    to_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True
    )
    terms: Mapped[dict] = mapped_column(JSON)  # match_length, crawford, jacoby, beavers, rated
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    acceptor_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True
    )
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # The poster's seat token until its browser takes it: a secret kept minutes at most.
    poster_token: Mapped[str | None] = mapped_column(String(128), nullable=True)
    accepted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class LobbyProcessRow(Base):
    """Who one server process has in the lobby, rewritten on each change and every few seconds:
    ``players`` {"lobby": [account ids with the lobby open], "playing": [name keys at an online
    game's seat], "guests": count}. A row not rewritten for a while is a process gone."""

    __tablename__ = "lobby_processes"

    process: Mapped[str] = mapped_column(String(32), primary_key=True)
    players: Mapped[dict] = mapped_column(JSON)
    seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
