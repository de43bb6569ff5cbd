"""The web's languages: the catalogue of a language for the pages' scripts, and the rules page.

A page's language is the ``gammon_lang`` cookie that its language switch sets (static/common.js),
else the browser's Accept-Language, else English; the scripts choose it the same way and fetch
``/i18n/<lang>.json`` to translate the page (docs/i18n.md). The games' logs come in the language of
the request or socket (:func:`request_language`), and so do the API's messages: :class:`Language`
makes it the current language while the app answers a request or serves a socket."""

from __future__ import annotations

from html import escape
from importlib.resources import files

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.requests import HTTPConnection
from fastapi.responses import HTMLResponse, JSONResponse
from markdown_it import MarkdownIt
from starlette.types import ASGIApp, Receive, Scope, Send

from gammon.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGE_NAMES,
    LANGUAGES,
    catalogue,
    from_accept_language,
    normalize,
    plural_sources,
    tr,
    use_language,
)

COOKIE = "gammon_lang"
"""The cookie that remembers the language a person chose (set by the pages' language switch)."""

# Which plural form a count takes, by language; static/common.js has the same rules as functions.
PLURAL_RULES = {"en": "en", "pl": "pl", "cs": "cs", "sk": "cs"}

router = APIRouter(include_in_schema=False)


def request_language(request: HTTPConnection, asked: str | None = None) -> str:
    """The language to answer ``request`` (or a WebSocket) in: ``asked`` (a ?lang=), the cookie,
    Accept-Language."""
    return (
        normalize(asked)
        or normalize(request.cookies.get(COOKIE))
        or from_accept_language(request.headers.get("accept-language"))
        or DEFAULT_LANGUAGE
    )


class Language:
    """Pure ASGI middleware: each request and each socket is served in its reader's language
    (:func:`request_language`), so that its errors are worded in it when they are raised, the
    middleware's refusals and the work it hands to threads (which copy the context) too."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        with use_language(request_language(HTTPConnection(scope))):
            await self.app(scope, receive, send)


@router.get("/i18n/{lang}.json")
async def language_catalogue(lang: str) -> JSONResponse:
    """Every message of ``lang`` for the pages' scripts: {msgid: msgstr, or its plural forms}, and
    the English plural of each message with plural forms (to read the server's English lines)."""
    if lang not in LANGUAGES:
        raise HTTPException(
            404, tr("no language {lang}; there are {langs}", lang=repr(lang[:8]), langs=", ".join(LANGUAGES))
        )
    body = {
        "lang": lang,
        "plural": PLURAL_RULES[lang],
        "messages": catalogue(lang),
        "plurals": plural_sources(lang),
    }
    return JSONResponse(body, headers={"Cache-Control": "public, max-age=300"})


def rules_text(lang: str) -> str:
    """The rules of the game in ``lang`` as markdown (package data, gammon/locale/<lang>/rules.md)."""
    return (files("gammon") / "locale" / lang / "rules.md").read_text(encoding="utf-8")


@router.get("/rules")
async def rules_page(request: Request, lang: str | None = Query(None, max_length=16)) -> HTMLResponse:
    """The rules of backgammon as gammon plays them, in the asked, remembered or browser's language."""
    chosen = request_language(request, lang)
    body = MarkdownIt("commonmark", {"html": False}).render(rules_text(chosen))
    with use_language(chosen):
        title = tr("Rules of backgammon")
        switch = " · ".join(
            f'<a href="/rules?lang={code}" hreflang="{code}" lang="{code}"'
            + (' aria-current="page"' if code == chosen else "")
            + f">{escape(name)}</a>"
            for code, name in LANGUAGE_NAMES.items()
        )
        page = (
            f'<!doctype html>\n<html lang="{chosen}">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>gammon: {escape(title)}</title>\n"
            '<link rel="stylesheet" href="/static/style.css">\n<link rel="icon" href="data:,">\n</head>\n'
            f'<body class="rules">\n<header><a href="/" class="brand">gammon</a>'
            f'<nav class="languages" aria-label="{escape(tr("Language"))}">{switch}</nav></header>\n'
            f'<main class="rules-text">\n{body}</main>\n</body>\n</html>\n'
        )
    return HTMLResponse(page, headers={"Content-Language": chosen})
