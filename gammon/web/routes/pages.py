"""The HTML pages (the lobby and a match's table, the position editor, the analysis page, the account
page, the drill page) and the API docs, Swagger UI with its assets from this server (FastAPI's own
loads them from a CDN)."""

from __future__ import annotations

import mimetypes
from importlib.resources import files

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse

from gammon.web.security import policy_with_scripts

STATIC = files("gammon.web") / "static"
DOCS_ASSETS = files("fastapi_offline") / "static"  # Swagger UI 5 (OpenAPI 3.1), shipped as a package

# The pages' scripts are ES modules, which a browser runs only when served as JavaScript; some
# systems' MIME tables map .js to text/plain (the static files' type comes from that table).
mimetypes.add_type("text/javascript", ".js")

router = APIRouter(include_in_schema=False)


@router.get("/")
async def index() -> FileResponse:
    return FileResponse(str(STATIC / "index.html"))


@router.get("/play/{match_id}")
async def play_page(match_id: str) -> FileResponse:
    return FileResponse(str(STATIC / "index.html"))


@router.get("/editor")
async def editor_page() -> FileResponse:
    return FileResponse(str(STATIC / "editor.html"))


@router.get("/analysis")
@router.get("/analysis/{match_id}")
async def analysis_page(match_id: str = "") -> FileResponse:
    return FileResponse(str(STATIC / "analysis.html"))


@router.get("/docs")
async def docs(request: Request) -> HTMLResponse:
    """Swagger UI with its assets from this server, so the API docs work offline."""
    root = request.scope.get("root_path", "").rstrip("/")
    page = get_swagger_ui_html(
        openapi_url=f"{root}{request.app.openapi_url}",
        title="gammon API",
        swagger_js_url=f"{root}/docs-assets/swagger-ui-bundle.js",
        swagger_css_url=f"{root}/docs-assets/swagger-ui.css",
        swagger_favicon_url=f"{root}/docs-assets/favicon.png",
        swagger_ui_parameters={"validatorUrl": None},
    )  # no badge from validator.swagger.io
    page.headers["Content-Security-Policy"] = policy_with_scripts(bytes(page.body).decode())
    return page


@router.get("/account")
async def account_page() -> FileResponse:
    return FileResponse(str(STATIC / "account.html"))


@router.get("/drill")
async def drill_page() -> FileResponse:
    return FileResponse(str(STATIC / "drill.html"))
