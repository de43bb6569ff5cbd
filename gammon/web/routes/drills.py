"""Drills on the web: the signed-in account's deck (gammon.profile.drill: its own marked decisions,
scheduled by spaced repetition as ``gammon drill`` schedules them), the next due card and the
review of an answer. Only the account's own cards are reachable; a review needs the CSRF header
(gammon.web.auth) as every change made with the session cookie does."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from gammon.errors import GammonError
from gammon.formats.ids import board_json
from gammon.i18n import tr
from gammon.position import Position
from gammon.profile.drill import DrillCard, DrillProgress, Review, ranked_plays
from gammon.web.decisions import decision_json
from gammon.web.members import Members
from gammon.web.routes.accounts import MembersDep, signed_in_account
from gammon.web.routes.deps import error_responses
from gammon.web.schemas import Strict

router = APIRouter()
ERRORS = error_responses(401, 403, 404, 409, 422, 429)
RANKED = 5  # the engine's best plays shown with a review
_SECRET = ("played", "best", "error", "mark")  # what a card does not tell before it is answered


class Answer(Strict):
    answer: str = Field(max_length=80, description="a play ('24/18 13/11') or a cube action ('take')")


def progress_json(p: DrillProgress) -> dict[str, Any]:
    return {
        "cards": p.cards,
        "due": p.due,
        "reviews": p.reviews,
        "right": p.right,
        "accuracy": p.accuracy,
        "next_due": None if p.next_due is None else p.next_due.isoformat(),
    }


def card_json(card: DrillCard) -> dict[str, Any]:
    """The card as asked: its position and, for a play, the legal plays to choose among."""
    d = card.decision
    decision = {k: v for k, v in decision_json(d).items() if k not in _SECRET}
    plays: list[str] = []
    if card.asks_for == "play" and d.dice:
        dice = (int(d.dice[0]), int(d.dice[1]))
        plays = sorted({str(p) for p in Position.from_id(d.position_id).legal_plays(dice)})
    return {
        "id": card.id,
        "asks_for": card.asks_for,
        "names": list(card.names),
        "state": card.state,
        "reviews": card.reviews,
        "correct": card.correct,
        "due": card.due.isoformat(),
        "decision": decision,
        "plays": plays,
    }


def ranking_json(card: DrillCard) -> list[dict[str, Any]]:
    """The engine's best choices, best first, with their equities (the decider's, EMG) and errors."""
    r = card.ranking
    if isinstance(r, list):  # a play's error as the drill grades it (see ranked_plays)
        return [
            {"choice": c, "equity": round(e, 4), "error": round(error, 4)}
            for c, e, error in ranked_plays(r)[:RANKED]
        ]
    nd, dt, dp = float(r["no_double"]), float(r["double_take"]), float(r["double_pass"])
    if card.asks_for == "take":  # the stored equities are the doubler's
        ranked = [("take", -dt), ("pass", -dp)]
    else:
        ranked = [("no double", nd), ("double", min(dt, dp))]
    ranked.sort(key=lambda item: -item[1])
    best = ranked[0][1] if ranked else 0.0
    return [{"choice": c, "equity": round(e, 4), "error": round(best - e, 4)} for c, e in ranked]


def boards_after(card: DrillCard, plays: list[str]) -> dict[str, dict[str, Any]]:
    """For a play card, the board after each of ``plays`` (as the decider sees it), to show them."""
    d = card.decision
    if card.asks_for != "play" or not d.dice:
        return {}
    position, dice = Position.from_id(d.position_id), (int(d.dice[0]), int(d.dice[1]))
    found = {}
    for text in dict.fromkeys(plays):
        try:
            found[text] = board_json(position.parse_play(text, dice).after.flip())
        except GammonError:  # a ranked play written in a form that no longer reads: no board
            continue
    return found


def review_json(card: DrillCard, review: Review) -> dict[str, Any]:
    d = card.decision
    ranking = ranking_json(card)
    return {
        "answer": review.answer,
        "right": review.right,
        "error": review.error,
        "best": review.best,
        "grade": review.grade.name,
        "due": review.due.isoformat(),
        "ranking": ranking,
        "boards": boards_after(card, [review.answer, *(c["choice"] for c in ranking)]),
        "played": d.played,  # what the player chose in the match, and what it cost then
        "played_error": d.error,
        "mark": d.mark,
    }


def _next(members: Members, account_id: int) -> dict[str, Any]:
    members.drills.sync(account_id)
    card = members.drills.next_card(account_id)
    return {
        "progress": progress_json(members.drills.progress(account_id)),
        "card": None if card is None else card_json(card),
    }


@router.get("/api/account/drill", responses=ERRORS)
async def drill(request: Request, members: MembersDep) -> JSONResponse:
    """The account's deck (a card made for each marked decision analysed since): how many cards
    are due, how the player is doing, and the card due first (None when none is due)."""
    account = await signed_in_account(request, members)
    return JSONResponse(await asyncio.to_thread(_next, members, account.id))


def _review(members: Members, account_id: int, card_id: int, answer: str) -> dict[str, Any] | None:
    try:
        card = members.drills.card(card_id, account_id)
    except ValueError:
        return None
    review = members.drills.review(card_id, answer, account_id)
    return {**review_json(card, review), "progress": progress_json(members.drills.progress(account_id))}


CardId = Annotated[int, Path(ge=1, le=2**31 - 1)]
"""A card's row id: the database's integer (32 bits in PostgreSQL), so a larger one is no card."""


@router.post("/api/account/drill/{card_id}/review", responses=ERRORS)
async def review(card_id: CardId, body: Answer, request: Request, members: MembersDep) -> JSONResponse:
    """Grade the answer to one of the account's cards against the engine's ranking and reschedule
    the card (409 for an answer that is not a legal play or a cube action of the kind asked)."""
    account = await signed_in_account(request, members)
    found = await asyncio.to_thread(_review, members, account.id, card_id, body.answer)
    if found is None:
        return JSONResponse({"error": tr("no such drill card of yours")}, status_code=404)
    return JSONResponse(found)
