"""The analysis page names a cube action as a noun in every language: "Ann: take; the right action:
pass" showed Polish's command "przyjmij" (the terminal's word for "take") next to the nouns
"podwojenie" and "bez podwojenia". The page (headless Chromium, on the canned analysis of
test_analysis_page_e2e) takes the words from the catalogue's context "cube action"."""

from __future__ import annotations

import copy
from pathlib import Path
from urllib.parse import urlparse

import pytest

from gammon.i18n import catalogue, plural_sources
from gammon.web.routes.language import PLURAL_RULES
from tests.web.test_analysis_page_e2e import _analyse, canned_routes, result  # noqa: F401  (fixture)
from tests.web.test_e2e import browser  # noqa: F401  (fixture)

# what the page shows for (action, the right action), by language
SAID = {
    "pl": {("take", "pass"): "Ann: przyjęcie, właściwie: odrzucenie",
           ("double", "no double, too good"): "Ann: podwojenie, właściwie: brak podwojenia, za dobra pozycja",
           ("no double", "double"): "Ann: brak podwojenia, właściwie: podwojenie"},
    "cs": {("take", "pass"): "Ann: přijetí, správně: odmítnutí",
           ("double", "no double, too good"): "Ann: zdvojení, správně: nezdvojení, příliš dobrá pozice",
           ("no double", "double"): "Ann: nezdvojení, správně: zdvojení"},
    "sk": {("take", "pass"): "Ann: prijatie, správne: odmietnutie",
           ("double", "no double, too good"): "Ann: zdvojenie, správne: nezdvojenie, príliš dobrá pozícia",
           ("no double", "double"): "Ann: nezdvojenie, správne: zdvojenie"},
}

NOUNS = {"pl": ("przyjęcie", "odrzucenie"), "cs": ("přijetí", "odmítnutí"), "sk": ("prijatie", "odmietnutie")}


def _catalogue_route(lang: str, serve):
    """``serve``'s routes, and the catalogue of ``lang`` as /i18n/<lang>.json gives it."""

    def route(r) -> None:
        if urlparse(r.request.url).path == f"/i18n/{lang}.json":
            body = {"lang": lang, "plural": PLURAL_RULES[lang], "messages": catalogue(lang),
                    "plurals": plural_sources(lang)}
            r.fulfill(status=200, json=body)
        else:
            serve(r)

    return route


@pytest.mark.parametrize("lang", ["pl", "cs", "sk"])
def test_the_analysis_page_names_cube_actions_as_nouns(browser, result, tmp_path: Path, lang: str) -> None:  # noqa: F811
    result = copy.deepcopy(result)
    cubes = [d for d in result["decisions"] if d["kind"] == "cube"][:3]
    assert len(cubes) == 3
    for d, (action, best) in zip(cubes, SAID[lang], strict=True):
        d.update(action=action, best=best, mark="doubtful", name="Ann")
    context = browser.new_context(locale=lang)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15_000)
    page.route("http://gammon.test/**", _catalogue_route(lang, canned_routes(result)))
    page.goto("http://gammon.test/analysis")
    _analyse(page, tmp_path)
    listed = page.locator("#marked li").all_inner_texts()
    for said in SAID[lang].values():
        assert any(said in line for line in listed), (said, listed)
    index = result["decisions"].index(cubes[0])
    page.click(f'#marked li[data-index="{index}"]')
    take, passed = NOUNS[lang]
    text = page.locator("#decision-text").inner_text()
    assert text.startswith(f"Ann: {take}; ") and f": {passed}. " in text, text
    assert not errors
    context.close()
