"""Drills: marked decisions as cards, answers graded against the engine's ranking, rescheduled."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Rating, Scheduler
from sqlalchemy import func, select

from gammon.accounts import Accounts
from gammon.errors import GammonError, InvalidNotationError, StaleActionError
from gammon.profile import AnalysisQueue
from gammon.profile.drill import DrillCard, Drills, grade_answer, ranked_plays
from gammon.profile.summary import MarkedDecision
from gammon.store import Store
from gammon.store.models import DrillReviewRow
from tests.profile.conftest import LASSE_1, Clock, add


@pytest.fixture
def deck(store: Store, accounts: Accounts, queue: AnalysisQueue, clock: Clock) -> tuple[Drills, int]:
    me = accounts.sign_up("lasse", "password1")
    add(queue, me.id, LASSE_1, seat=0)
    assert [o.status for o in queue.work_all()] == ["done"]
    drills = Drills(store, clock=clock, scheduler=Scheduler(enable_fuzzing=False))
    return drills, me.id


def _first(drills: Drills, account: int, asks_for: str) -> DrillCard:
    return next(c for c in drills.due(account) if c.asks_for == asks_for)


def test_every_marked_decision_becomes_a_card_due_now(deck: tuple[Drills, int]) -> None:
    drills, me = deck
    made = drills.sync(me)
    assert made > 0 and drills.sync(me) == 0  # once
    progress = drills.progress(me)
    assert (progress.cards, progress.due, progress.reviews, progress.next_due) == (made, made, 0, None)
    card = drills.next_card(me)
    assert card is not None and card.state == "new" and card.names == ("lasse", "earl")


def test_the_best_play_is_right_and_comes_back_later(deck: tuple[Drills, int], clock: Clock) -> None:
    drills, me = deck
    drills.sync(me)
    card = _first(drills, me, "play")
    review = drills.review(card.id, card.decision.best)
    assert (review.right, review.error, review.grade) == (True, 0.0, Rating.Good)
    assert review.answer == review.best == card.decision.best
    assert review.due > clock()
    assert card.id not in [c.id for c in drills.due(me)]
    progress = drills.progress(me)
    assert (progress.reviews, progress.right, progress.accuracy) == (1, 1, 1.0)
    assert progress.next_due == review.due
    clock.advance(timedelta(days=1))
    assert card.id in [c.id for c in drills.due(me)]
    assert drills.card(card.id).state == "learning"


def test_the_play_made_in_the_match_is_wrong(deck: tuple[Drills, int]) -> None:
    drills, me = deck
    drills.sync(me)
    card = _first(drills, me, "play")
    review = drills.review(card.id, card.decision.played)
    assert not review.right and review.grade == Rating.Again
    assert review.error == pytest.approx(card.decision.error, abs=1e-9)
    assert drills.progress(me).accuracy == 0.0


def test_an_illegal_play_is_refused_and_not_counted(deck: tuple[Drills, int]) -> None:
    drills, me = deck
    drills.sync(me)
    card = _first(drills, me, "play")
    with pytest.raises(GammonError):
        drills.review(card.id, "24/1")
    assert drills.progress(me).reviews == 0


def _cube_card(played: str, no_double: float, double_take: float, double_pass: float) -> DrillCard:
    decision = MarkedDecision(
        1,
        1,
        1,
        5,
        "cube",
        "4HPwATDgc/ABMA",
        "4HPwATDgc/ABMA:cAkAAAAAAAAA",
        "XGID=",
        None,
        played,
        "",
        0.1,
        "bad",
    )
    ranking = {
        "action": played,
        "no_double": no_double,
        "double_take": double_take,
        "double_pass": double_pass,
    }
    return DrillCard(1, decision, ranking, ("me", "you"), datetime(2026, 1, 1, tzinfo=UTC), "new", 0, 0)


def test_cube_answers_are_graded_by_the_stored_equities() -> None:
    # a double and a take: doubling gains 0.1, taking loses 0.2 less than passing
    doubler = _cube_card("no double", 0.4, 0.5, 1.0)
    assert doubler.asks_for == "double"
    assert grade_answer(doubler, "D") == ("double", 0.0, "double")
    assert grade_answer(doubler, "no double") == ("no double", pytest.approx(0.1), "double")
    taker = _cube_card("pass", 0.4, 0.8, 1.0)
    assert taker.asks_for == "take"
    assert grade_answer(taker, "take") == ("take", 0.0, "take")
    assert grade_answer(taker, "drop") == ("pass", pytest.approx(0.2), "take")
    with pytest.raises(InvalidNotationError, match="answer take or pass"):
        grade_answer(taker, "double")
    with pytest.raises(InvalidNotationError, match="answer double or no double"):
        grade_answer(doubler, "24/18")


def test_a_long_cube_answer_is_quoted_cut_short() -> None:
    # the terminal takes a whole pasted page as an answer: the error must not print it back
    pasted = "x" * 5000
    for card, kind in (
        (_cube_card("pass", 0.4, 0.8, 1.0), "take or pass"),
        (_cube_card("no double", 0.4, 0.5, 1.0), "double"),
    ):
        with pytest.raises(InvalidNotationError, match=f"answer {kind}") as refused:
            grade_answer(card, pasted)
        assert "xxx..." in str(refused.value) and len(str(refused.value)) < 150


def test_a_card_answered_twice_at_once_is_reviewed_once(deck: tuple[Drills, int], clock: Clock) -> None:
    # a double click sends the answer twice: the second must not count as a second right answer
    # (it moved a new card from ten minutes to two days) nor be graded on the first one's schedule
    drills, me = deck
    drills.sync(me)
    card = _first(drills, me, "play")
    first = drills.review(card.id, card.decision.best)
    with pytest.raises(StaleActionError, match="not due until"):
        drills.review(card.id, card.decision.best)
    after = drills.card(card.id)
    assert (after.reviews, after.correct, after.due) == (1, 1, first.due)
    assert drills.progress(me).reviews == 1
    clock.advance(first.due - clock() + timedelta(seconds=1))  # due again: answered as usual
    assert drills.review(card.id, card.decision.best).right and drills.card(card.id).reviews == 2


def test_answers_sent_at_the_same_moment_count_once(deck: tuple[Drills, int]) -> None:
    drills, me = deck
    drills.sync(me)
    card = _first(drills, me, "play")
    start = threading.Barrier(4)
    outcomes: list[str] = []

    def answer() -> None:
        start.wait()
        try:
            drills.review(card.id, card.decision.best)
            outcomes.append("graded")
        except StaleActionError:
            outcomes.append("refused")

    threads = [threading.Thread(target=answer) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["graded", "refused", "refused", "refused"]
    with drills.sessions() as s:
        stored = s.scalar(
            select(func.count()).select_from(DrillReviewRow).where(DrillReviewRow.card_id == card.id)
        )
    assert (drills.card(card.id).reviews, stored) == (1, 1)


def test_a_play_listed_below_another_never_loses_less_than_it() -> None:
    # the analysis lists the plays it evaluated at its depth first, then the next best at 0 ply,
    # whose equity may be higher than a deeper one's: 13/2 is listed last, its 0-ply +0.04 above
    # the plays listed before it; graded on that figure it lost only 0.01, a right answer
    ranking = [["24/13", 0.05], ["24/18 13/8", 0.0], ["13/8 13/7", -0.1], ["13/2", 0.04]]
    decision = MarkedDecision(
        1, 1, 1, 1, "move", "4HPwATDgc/ABMA", "4HPwATDgc/ABMA:cAkAAAAAAAAA", "XGID=", "65",
        "13/8 13/7", "24/13", 0.15, "very bad",
    )  # fmt: skip
    card = DrillCard(1, decision, ranking, ("me", "you"), datetime(2026, 1, 1, tzinfo=UTC), "new", 0, 0)
    assert grade_answer(card, "24/18 13/8") == ("24/18 13/8", pytest.approx(0.05), "24/13")
    text, error, best = grade_answer(card, "13/2")
    assert (text, best) == ("13/2", "24/13") and error == pytest.approx(0.15)  # as 13/8 13/7 above it
    assert [round(e, 3) for _, _, e in ranked_plays(ranking)] == [0.0, 0.05, 0.15, 0.15]


def test_the_deck_opened_twice_at_once_makes_each_card_once(deck: tuple[Drills, int]) -> None:
    # two pages (or a page and the terminal) open the deck at the same moment: each sync would make
    # a card of the same decisions, and all but one failed on the unique decision
    drills, me = deck
    start = threading.Barrier(4)
    made: list[int | str] = []

    def open_deck() -> None:
        start.wait()
        try:
            made.append(drills.sync(me))
        except Exception as e:  # noqa: BLE001 - what went wrong is the test's failure
            made.append(type(e).__name__)

    threads = [threading.Thread(target=open_deck) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    cards = drills.progress(me).cards
    assert cards > 0 and sorted(made, key=str) == sorted([cards, 0, 0, 0], key=str)


def test_making_the_cards_waits_for_nothing(
    deck: tuple[Drills, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # fsrs's Card() without a card_id sleeps a millisecond to make its id unique: a sync of 2,002
    # decisions took 3.5 s (0.55 s without the sleeps), all of it holding the database's write lock
    drills, me = deck
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)
    assert drills.sync(me) > 0
    assert slept == []
