"""The browser code is ES modules: each page loads its own module, which imports what it uses from
the shared ones (common.js, socket.js, board.js, jobs.js); each is served as JavaScript and allowed
by the pages' Content-Security-Policy."""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

from fastapi.testclient import TestClient

STATIC = Path(str(files("gammon.web") / "static"))
IMPORT = re.compile(r'^import \{([^}]*)\} from "\./([\w.]+)";', re.MULTILINE)
EXPORT = re.compile(r"^export (?:async )?(?:function|const) ([\w$]+)", re.MULTILINE)


def test_each_page_loads_module_scripts_only() -> None:
    for page in STATIC.glob("*.html"):
        tags = re.findall(r"<script[^>]*>", page.read_text())
        module = r'<script type="module" src="/static/\w+\.js">'
        assert tags and all(re.fullmatch(module, t) for t in tags), page


def test_every_import_names_an_export_of_a_module_here() -> None:
    exports = {p.name: set(EXPORT.findall(p.read_text())) for p in STATIC.glob("*.js")}
    for script in STATIC.glob("*.js"):
        for names, module in IMPORT.findall(script.read_text()):
            assert module in exports, (script.name, module)
            for name in (n.strip() for n in names.split(",")):
                assert name in exports[module], (script.name, name, module)


def test_the_modules_are_served_as_javascript_under_the_pages_policy(client: TestClient) -> None:
    policy = client.get("/").headers["content-security-policy"]
    assert "script-src 'self';" in policy  # module scripts and their imports, from this server only
    for script in STATIC.glob("*.js"):
        r = client.get(f"/static/{script.name}")
        assert r.status_code == 200
        assert r.headers["content-type"].split(";")[0] == "text/javascript", script.name
