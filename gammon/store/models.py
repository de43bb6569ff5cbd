"""Database tables: one row per match, one row per action in an append-only log."""

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
    # A summary kept up to date for listings and for checking a replay; never the source of truth.
    action_count: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="active")
    position_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    score0: Mapped[int] = mapped_column(Integer, default=0)
    score1: Mapped[int] = mapped_column(Integer, default=0)


class ActionRow(Base):
    """One action, in order (``seq`` from 0), with the dice the server rolled while applying it."""

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
