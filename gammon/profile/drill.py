"""Drills: a player's marked decisions as a deck of cards, scheduled by spaced repetition (the
``fsrs`` library's scheduler). A review takes the player's answer (a play in gammon's notation,
or a cube action), compares it with the engine's ranking stored with the decision, grades it and
reschedules the card.

Grades: the best play or cube action is ``Good``; an answer within the doubtful mark (0.03 EMG,
:data:`gammon.analysis.marks.DOUBTFUL`) of the best is ``Hard``; anything worse, or a legal play
the analysis did not rank, is ``Again`` (shown again soon)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from fsrs import Card, Rating, Scheduler, State
from sqlalchemy import func, select
from sqlalchemy.orm import sessionmaker

from gammon.accounts.clock import Clock, as_utc, utc_now
from gammon.analysis.marks import DOUBTFUL
from gammon.errors import InvalidNotationError, StaleActionError, cut
from gammon.i18n import tr
from gammon.position import Position
from gammon.profile.summary import MarkedDecision, marked_decision
from gammon.store import Store
from gammon.store.models import AccountRow, DrillCardRow, DrillReviewRow, ProfileDecisionRow, ProfileMatchRow
from gammon.store.repository import lock_for_writing

BEST = 0.001  # EMG: an answer this close to the best is the best (equities are rounded in files)

_CUBE_ANSWERS = {
    "double": "double", "d": "double", "dbl": "double",
    "no double": "no double", "nd": "no double", "no": "no double", "roll": "no double",
    "take": "take", "t": "take", "beaver": "take",
    "pass": "pass", "p": "pass", "drop": "pass",
}  # fmt: skip


@dataclass(frozen=True)
class DrillCard:
    """A card: its decision, the names of the player and the opponent, when it is due, its state
    ("new", "learning", "review" or "relearning"), how often it was answered and answered right."""

    id: int
    decision: MarkedDecision
    ranking: list[Any] | dict[str, Any]
    names: tuple[str, str]
    due: datetime
    state: str
    reviews: int
    correct: int

    @property
    def asks_for(self) -> str:
        """What the answer is: "play", "double" (double or no double) or "take" (take or pass)."""
        if self.decision.kind == "move":
            return "play"
        return "take" if self.decision.played in ("take", "pass", "beaver") else "double"


@dataclass(frozen=True)
class Review:
    """A graded answer: the answer as understood, whether it was right (the best, or within the
    doubtful mark), what it lost against the best (None: not in the engine's ranking), the best,
    the grade and when the card is due next."""

    answer: str
    right: bool
    error: float | None
    best: str
    grade: Rating
    due: datetime


@dataclass(frozen=True)
class DrillProgress:
    """The deck: how many cards, how many are due now, how many reviews and right answers so far,
    and when the next card not yet due will be (None if none)."""

    cards: int
    due: int
    reviews: int
    right: int
    next_due: datetime | None

    @property
    def accuracy(self) -> float:
        return self.right / self.reviews if self.reviews else 0.0


class Drills:
    """The drill cards of ``store``'s accounts; ``clock`` and ``scheduler`` injectable for tests
    (the default scheduler fuzzes its intervals a little, as Anki does)."""

    def __init__(self, store: Store, *, clock: Clock = utc_now, scheduler: Scheduler | None = None) -> None:
        self.store = store
        self.clock = clock
        self.scheduler = scheduler or Scheduler()
        self.sessions = sessionmaker(store.engine, expire_on_commit=False)

    def sync(self, account_id: int) -> int:
        """Make a card, due now, for each of the account's marked decisions without one; returns
        how many were made."""
        now = self.clock()
        carded = select(DrillCardRow.decision_id).where(DrillCardRow.account_id == account_id)
        uncarded = select(ProfileDecisionRow.id).where(
            ProfileDecisionRow.account_id == account_id, ProfileDecisionRow.id.not_in(carded)
        )
        with self.sessions() as s:
            if s.scalar(uncarded.limit(1)) is None:  # most opens of the deck: no lock taken
                return 0
        with self.sessions.begin() as s:
            # one sync of an account at a time (two pages, or a page and the terminal, open the
            # deck at once): each would make a card of the same decision, and one would fail
            lock_for_writing(s)
            s.execute(select(AccountRow.id).where(AccountRow.id == account_id).with_for_update())
            new = s.scalars(uncarded).all()
            for decision_id in new:
                # an id given: without one, Card() sleeps a millisecond to make its own unique,
                # seconds for a large deck with the database locked
                card = Card(card_id=decision_id, due=now)
                s.add(
                    DrillCardRow(
                        account_id=account_id,
                        decision_id=decision_id,
                        due=now,
                        state="new",
                        scheduler_card=dict(card.to_dict()),
                        reviews=0,
                        correct=0,
                    )
                )
            return len(new)

    def next_card(self, account_id: int) -> DrillCard | None:
        """The card due first among those due now (the worst error first among equals)."""
        cards = self.due(account_id, limit=1)
        return cards[0] if cards else None

    def due(self, account_id: int, limit: int | None = None) -> list[DrillCard]:
        """The cards due now, the longest due first."""
        with self.sessions() as s:
            query = (
                select(DrillCardRow, ProfileDecisionRow, ProfileMatchRow)
                .join(ProfileDecisionRow, ProfileDecisionRow.id == DrillCardRow.decision_id)
                .join(ProfileMatchRow, ProfileMatchRow.id == ProfileDecisionRow.profile_match_id)
                .where(DrillCardRow.account_id == account_id, DrillCardRow.due <= self.clock())
                .order_by(DrillCardRow.due, ProfileDecisionRow.error.desc(), DrillCardRow.id)
            )
            if limit is not None:
                query = query.limit(limit)
            return [_card(c, d, m) for c, d, m in s.execute(query).all()]

    def card(self, card_id: int, account_id: int | None = None) -> DrillCard:
        """The card ``card_id`` (of the account ``account_id`` only, where given): ValueError when
        there is none."""
        with self.sessions() as s:
            query = (
                select(DrillCardRow, ProfileDecisionRow, ProfileMatchRow)
                .join(ProfileDecisionRow, ProfileDecisionRow.id == DrillCardRow.decision_id)
                .join(ProfileMatchRow, ProfileMatchRow.id == ProfileDecisionRow.profile_match_id)
                .where(DrillCardRow.id == card_id)
            )
            if account_id is not None:
                query = query.where(DrillCardRow.account_id == account_id)
            row = s.execute(query).first()
            if row is None:
                raise ValueError(f"no drill card {card_id}")
            return _card(*row)

    def review(self, card_id: int, answer: str, account_id: int | None = None) -> Review:
        """Grade ``answer`` to the card (of the account ``account_id`` only, where given: else
        ValueError, as for no card) and reschedule it. A GammonError (nothing stored) for an
        answer that is not a legal play (InvalidNotationError, IllegalMoveError, AmbiguousMoveError)
        or not a cube action of the kind asked for (InvalidNotationError); StaleActionError for a
        card not due now (answered already: a second answer sent at once is not a second review)."""
        card = self.card(card_id, account_id)
        understood, error, best = grade_answer(card, answer)
        right = error is not None and error <= DOUBTFUL
        grade = (
            Rating.Again if not right else Rating.Good if error is not None and error <= BEST else Rating.Hard
        )
        now = self.clock()
        with self.sessions.begin() as s:
            lock_for_writing(s)  # two answers at once: the second reads the first one's schedule
            row = s.scalars(select(DrillCardRow).where(DrillCardRow.id == card_id).with_for_update()).first()
            if row is None:
                raise ValueError(f"no drill card {card_id}")
            if as_utc(row.due) > now:
                raise StaleActionError(
                    tr(
                        "this card is not due until {when}: it was answered already",
                        when=f"{as_utc(row.due):%Y-%m-%d %H:%M} UTC",
                    )
                )
            scheduled, _ = self.scheduler.review_card(Card.from_dict(row.scheduler_card), grade, now)  # type: ignore[arg-type]
            due = as_utc(scheduled.due)
            row.scheduler_card = dict(scheduled.to_dict())
            row.due, row.state, row.last_review = due, State(scheduled.state).name.lower(), now
            row.reviews += 1
            row.correct += right
            s.add(
                DrillReviewRow(
                    card_id=card_id,
                    account_id=row.account_id,
                    reviewed_at=now,
                    answer=understood[:64],
                    error=error,
                    grade=int(grade),
                )
            )
        return Review(understood, right, error, best, grade, due)

    def progress(self, account_id: int) -> DrillProgress:
        now = self.clock()
        with self.sessions() as s:
            mine = DrillCardRow.account_id == account_id
            cards = s.scalar(select(func.count()).select_from(DrillCardRow).where(mine)) or 0
            due = (
                s.scalar(select(func.count()).select_from(DrillCardRow).where(mine, DrillCardRow.due <= now))
                or 0
            )
            next_due = s.scalar(select(func.min(DrillCardRow.due)).where(mine, DrillCardRow.due > now))
            reviews = s.scalar(select(func.sum(DrillCardRow.reviews)).where(mine)) or 0
            right = s.scalar(select(func.sum(DrillCardRow.correct)).where(mine)) or 0
        return DrillProgress(cards, due, reviews, right, None if next_due is None else as_utc(next_due))


def grade_answer(card: DrillCard, answer: str) -> tuple[str, float | None, str]:
    """The answer as gammon writes it, what it lost against the engine's best (None: a legal play
    the analysis did not rank) and the best."""
    d = card.decision
    if card.asks_for == "play":
        if not d.dice:
            raise InvalidNotationError(tr("this card has no dice"))
        play = Position.from_id(d.position_id).parse_play(answer, (int(d.dice[0]), int(d.dice[1])))
        text = str(play)
        ranking = ranked_plays(card.ranking) if isinstance(card.ranking, list) else []
        errors = {p: e for p, _, e in ranking}
        return text, errors.get(text), ranking[0][0] if ranking else d.best
    action = _CUBE_ANSWERS.get(" ".join(answer.lower().replace("/", " ").split()))
    allowed = ("take", "pass") if card.asks_for == "take" else ("double", "no double")
    if action not in allowed:
        raise InvalidNotationError(
            tr("answer take or pass, not {answer}", answer=cut(repr(answer)))
            if card.asks_for == "take"
            else tr("answer double or no double, not {answer}", answer=cut(repr(answer)))
        )
    r = card.ranking if isinstance(card.ranking, dict) else {}
    nd, dt, dp = float(r["no_double"]), float(r["double_take"]), float(r["double_pass"])
    if card.asks_for == "take":  # the taker's equities are the doubler's, negated
        values = {"take": -dt, "pass": -dp}
    else:
        values = {"double": min(dt, dp), "no double": nd}
    best = max(values, key=lambda k: values[k])
    return action, values[best] - values[action], best


def ranked_plays(ranking: list[Any]) -> list[tuple[str, float, float]]:
    """A play card's stored ranking as (play, equity, error against the first), in the analysis's
    order. The analysis lists the plays it evaluated at its depth first, then the next best at 0
    ply (:attr:`gammon.analysis.decisions.AnalysisSettings.shown`), whose equities are not
    comparable with the deeper ones: one listed lower may show a higher equity. A play's error is
    never less than that of a play listed above it."""
    ranked = [(str(p), float(e)) for p, e in ranking]
    best = ranked[0][1] if ranked else 0.0
    out, error = [], 0.0
    for play, equity in ranked:
        error = max(error, best - equity)
        out.append((play, equity, error))
    return out


def _card(c: DrillCardRow, d: ProfileDecisionRow, m: ProfileMatchRow) -> DrillCard:
    return DrillCard(
        c.id,
        marked_decision(d),
        d.ranking,
        (m.player_name, m.opponent_name),
        as_utc(c.due),
        c.state,
        c.reviews,
        c.correct,
    )
