"""``GET /api/diagram``: a position drawn to share (gammon.diagram), as text, SVG or PNG. The answer
depends on the query alone, so it is cached for a day by browsers and proxies; it is rate-limited
as hints are (gammon.web.limits), each costing a drawing."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from gammon.diagram import MEDIA_TYPES, render
from gammon.situation import Situation
from gammon.web.routes.deps import error_responses
from gammon.web.schemas import error_response
from gammon.web.study import MAX_ID, BadInput, read_context

PATH = "/api/diagram"
COSTLY_PATHS = (PATH,)
CACHE = "public, max-age=86400"

router = APIRouter()


def _drawing(text: str, kind: Literal["text", "svg", "png"]) -> bytes:
    situation: Situation = read_context(text)
    return render(situation, kind)


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
    tag = '"' + hashlib.sha256(f"{format}\0{id}".encode()).hexdigest()[:32] + '"'
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers={"ETag": tag, "Cache-Control": CACHE})
    try:
        data = await asyncio.to_thread(_drawing, id, format)
    except BadInput as exc:
        return error_response(422, str(exc))
    return Response(data, media_type=MEDIA_TYPES[format], headers={"ETag": tag, "Cache-Control": CACHE})
