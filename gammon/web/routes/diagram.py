"""``GET /api/diagram``: a position drawn to share (gammon.diagram), as text, SVG or PNG. The text
depends on the query alone; an SVG's or PNG's description is worded in the reader's language too
(its cookie, else Accept-Language), so their ETag holds the language and caches are told so (Vary).
Each is cached for a day by browsers and proxies; it is rate-limited as hints are
(gammon.web.limits), each costing a drawing."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from gammon.diagram import MEDIA_TYPES, render
from gammon.formats.ids import gnubg_player_on_roll
from gammon.i18n import current_language
from gammon.situation import Situation
from gammon.web.routes.deps import error_responses
from gammon.web.schemas import error_response
from gammon.web.study import MAX_ID, BadInput, read_context

PATH = "/api/diagram"
COSTLY_PATHS = (PATH,)
CACHE = "public, max-age=86400"
WORDED = ("svg", "png")
"""The formats that carry a description in the reader's language."""

router = APIRouter()


def _drawing(text: str, kind: Literal["text", "svg", "png"]) -> bytes:
    situation: Situation = read_context(text)
    # the GNU Backgammon ID drawn names the player on roll as the ID asked for does
    return render(situation, kind, gnubg_player_on_roll(text))


@router.get(
    PATH, responses={200: {"content": {t: {} for t in MEDIA_TYPES.values()}}, **error_responses(422, 429)}
)
async def diagram(
    request: Request,
    id: str = Query(max_length=MAX_ID, description="a Position ID, GNU Backgammon ID or XGID"),
    format: Literal["text", "svg", "png"] = Query(
        "svg", description="text (GNU Backgammon's board), svg or png"
    ),
) -> Response:
    """The position of ``id`` (with its dice, cube and score) drawn as ``format``."""
    headers = {"Cache-Control": CACHE}
    language = ""
    if format in WORDED:
        language = current_language()  # the request's (the Language middleware chose it)
        headers |= {"Vary": "Accept-Language, Cookie", "Content-Language": language}
    headers["ETag"] = '"' + hashlib.sha256(f"{format}\0{language}\0{id}".encode()).hexdigest()[:32] + '"'
    if _matches(request.headers.get("if-none-match"), headers["ETag"]):
        return Response(status_code=304, headers=headers)
    try:
        data = await asyncio.to_thread(_drawing, id, format)
    except BadInput as exc:
        return error_response(422, str(exc))
    return Response(data, media_type=MEDIA_TYPES[format], headers=headers)


def _matches(if_none_match: str | None, tag: str) -> bool:
    """Whether an If-None-Match header names ``tag`` (in a list of tags, weak or not): a cache that
    keeps several languages' copies asks with all their tags. (``*`` is not taken: an ID may be
    bad, and that is told only by drawing it.)"""
    if if_none_match is None:
        return False
    return tag in (t.strip().removeprefix("W/") for t in if_none_match.split(","))
