"""The API's one error shape, ``{"error": ...}``, for every refusal: invalid requests (quoting little
of the input), unknown routes and methods, gammon's errors, and anything unexpected (whose details go
to the log, not to the client)."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from gammon.accounts.errors import (
    InvalidNameError,
    NotSignedInError,
    SignInError,
    ThrottledError,
    WeakPasswordError,
)
from gammon.errors import GammonError, NotAuthorizedError, StoreUnavailableError, UnknownMatchError, cut
from gammon.i18n import tr
from gammon.web.engine_pool import EngineUnavailableError
from gammon.web.invalid import problems
from gammon.web.schemas import error_response


def status_of(exc: Exception) -> int:
    """The HTTP status of a refusal: 404 an unknown match, 403 a wrong token, 401 no session or a
    failed sign-in, 429 too many failed sign-ins, 422 a name or password not allowed, 409 any other
    rule (a name taken too); 503 the database or the engine unavailable."""
    if isinstance(exc, UnknownMatchError):
        return 404
    if isinstance(exc, StoreUnavailableError | EngineUnavailableError):
        return 503  # the database is away, or the engine's workers keep dying: try again
    if isinstance(exc, NotSignedInError | SignInError):
        return 401
    if isinstance(exc, ThrottledError):
        return 429
    if isinstance(exc, InvalidNameError | WeakPasswordError):
        return 422
    if isinstance(exc, NotAuthorizedError):
        return 403
    if isinstance(exc, GammonError | ValueError):
        return 409
    return 500


async def bad_request(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        why = "; ".join(str(e.get("msg")) for e in errors)
        return error_response(400, tr("malformed JSON: {problems}", problems=why))
    return error_response(422, tr("invalid request: {problems}", problems=problems(errors, skip=1)))


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    # Unknown routes, wrong methods, unparsable bodies: the API's error shape, not {"detail": ...}.
    assert isinstance(exc, StarletteHTTPException)
    path = cut(repr(request.url.path), 80)
    if exc.status_code == 404:
        message = tr("nothing here: {path}", path=path)
    elif exc.status_code == 405:
        message = tr("method {method} is not allowed on {path}", method=cut(request.method, 10), path=path)
    elif exc.status_code == 400:
        # FastAPI's own, in English, for a body it cannot decode (not UTF-8, say): no route raises 400
        message = tr("the request's body cannot be read: it must be JSON in UTF-8")
    else:
        message = exc.detail if isinstance(exc.detail, str) else tr("bad request")
    return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)


async def internal_error(_request: Request, _exc: Exception) -> JSONResponse:
    return error_response(500, tr("internal server error"))  # the details go to the log, not to the client


async def gammon_error(_request: Request, exc: Exception) -> JSONResponse:
    response = error_response(status_of(exc), str(exc))
    if isinstance(exc, ThrottledError):
        response.headers["Retry-After"] = str(max(1, round(exc.retry_after)))
    return response


def add_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, bad_request)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, internal_error)
    app.add_exception_handler(GammonError, gammon_error)
