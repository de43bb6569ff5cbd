"""wildbg's HTTP API under ``/wildbg`` (``/wildbg/move``, ``/wildbg/eval``): gammon.protocols.wildbg
reads the query and shapes the answer; the engine's work runs in the server's engine workers.
Rate-limited as hints are (gammon.web.limits)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from gammon.errors import cut
from gammon.protocols.wildbg import PARAMETERS, WildbgError, read_query, worker_answer
from gammon.web.engine_pool import EngineUnavailableError
from gammon.web.routes.deps import HubDep

PREFIX = "/wildbg"
COSTLY_PATHS = (f"{PREFIX}/move", f"{PREFIX}/eval")

router = APIRouter(prefix=PREFIX, tags=["wildbg"])


_SCHEMAS: dict[str, dict[str, Any]] = {
    "cube_owner": {"type": "string", "enum": ["x", "o", "centred"]},
    "crawford": {"type": "boolean"},
}


def _parameters(dice: bool) -> list[dict[str, Any]]:
    """The query parameters as OpenAPI lists them (the route reads them from the raw query)."""
    names = [p for p in PARAMETERS if dice or p not in ("die1", "die2", "n")]
    return [
        {
            "name": name,
            "in": "query",
            "required": dice and name in ("die1", "die2"),
            "schema": _SCHEMAS.get(name, {"type": "integer"}),
        }
        for name in names
    ]


def _single(request: Request) -> dict[str, str]:
    """The query's fields, each given once (WildbgError, naming it, for one given twice: a dict
    would keep the last silently, where wildbg refuses the query)."""
    fields: dict[str, str] = {}
    for name, value in request.query_params.multi_items():
        if name in fields:
            raise WildbgError(f"{cut(repr(name), 40)} is given more than once")
        fields[name] = value
    return fields


async def _answer(kind: str, request: Request, hub: HubDep) -> JSONResponse:
    try:
        query = read_query(_single(request), dice=kind == "move")
    except WildbgError as e:
        # wildbg's error body is {"message": ...}; gammon's API says {"error": ...}: both here
        return JSONResponse({"message": str(e), "error": str(e)}, status_code=400)
    try:
        answer = await hub.pool.run(worker_answer, kind, query)
    except EngineUnavailableError as e:
        return JSONResponse({"message": str(e), "error": str(e)}, status_code=503)
    return JSONResponse(answer)


@router.get("/move", openapi_extra={"parameters": _parameters(True)})
async def wildbg_move(request: Request, hub: HubDep) -> JSONResponse:
    """wildbg's ``/move``: every legal play of ``die1``/``die2`` in the position ``p0``..``p25`` (x on
    roll moving from 24 to 1, positive; o negative; ``p25`` x's bar, ``p0`` o's), best first, with x's
    probabilities after each. ``x_away``/``o_away`` give a match score (0/0: money); gammon adds
    ``cube``, ``cube_owner`` (x, o), ``crawford``, ``plies`` (0-2) and ``n`` (how many plays)."""
    return await _answer("move", request, hub)


@router.get("/eval", openapi_extra={"parameters": _parameters(False)})
async def wildbg_eval(request: Request, hub: HubDep) -> JSONResponse:
    """wildbg's ``/eval``: x's probabilities before the roll, and the cube: should x double
    (``double``), should o take (``accept``)."""
    return await _answer("eval", request, hub)
