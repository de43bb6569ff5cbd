"""Database tables: one row per match, one row per action of its games (the games' ``history``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, UniqueConstraint
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
