"""End to end: a position with an offer to resign in the editor, which no XGID holds: the page
showed an XGID without the offer and asked about it (hint, evaluation, rollout, its link)."""

from __future__ import annotations

from urllib.parse import parse_qs, unquote, urlparse

from tests.web.test_e2e import Server, _page, browser, module_server  # noqa: F401  (a fixture)

shared = module_server("editor-resignation")
RESIGNING = "4HPwATDgc/ABMA:cMEFAAAAAAAA"  # money game, 31 rolled, the player on roll offers a gammon


def test_the_editor_asks_about_the_offer_by_its_gnubg_id(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(f"{shared.url}/editor#id={RESIGNING}")
    page.wait_for_function("() => ed.position !== null")
    gnubg_id = page.evaluate("() => ed.position.gnubg_id")
    assert page.text_content("#xgid") == "no XGID: it cannot hold the offer to resign"
    assert unquote(page.evaluate("() => location.hash")) == f"#id={gnubg_id}"
    with page.expect_request(lambda r: "/api/positions/eval" in r.url) as asked:
        page.click("#eval")
    assert parse_qs(urlparse(asked.value.url).query)["id"] == [gnubg_id]
    assert not errors
