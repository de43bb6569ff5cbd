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
from gammon.web.schemas import error_response


def status_of(exc: Exception) -> int:
    """The HTTP status of a refusal: 404 an unknown match, 403 a wrong token, 401 no session or a
    failed sign-in, 429 too many failed sign-ins, 422 a name or password not allowed, 409 any other
    rule (a name taken too); 503 the database unavailable."""
    if isinstance(exc, UnknownMatchError):
        return 404
    if isinstance(exc, StoreUnavailableError):
        return 503  # the database is away: try again
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
        return error_response(400, "malformed JSON: " + "; ".join(str(e.get("msg")) for e in errors))
    # Quote a short cut of each bad input, never the input whole (it may be as long as MAX_BODY).
    parts = [
        f"{cut('.'.join(str(x) for x in e.get('loc', ())[1:]) or 'body', 40)}: "
        f"{cut(str(e.get('msg')), 120)}"
        + (f" (got {cut(repr(e['input']), 40)})" if "input" in e and e.get("type") != "missing" else "")
        for e in errors[:5]
    ]
    return error_response(422, "invalid request: " + "; ".join(parts))


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    # Unknown routes, wrong methods, unparsable bodies: the API's error shape, not {"detail": ...}.
    assert isinstance(exc, StarletteHTTPException)
    path = cut(repr(request.url.path), 80)
    if exc.status_code == 404:
        message = f"nothing here: {path}"
    elif exc.status_code == 405:
        message = f"method {cut(request.method, 10)} is not allowed on {path}"
    else:
        message = exc.detail if isinstance(exc.detail, str) else "bad request"
    return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)


async def internal_error(_request: Request, _exc: Exception) -> JSONResponse:
    return error_response(500, "internal server error")  # the details go to the log, not to the client


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
