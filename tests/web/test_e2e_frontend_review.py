"""End to end, what a player does that the happy path does not: double clicks, dropped connections,
odd input, in headless Chromium against the real server (one server for the module)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.test_analysis_page_e2e import _analyse, _open, result  # noqa: F401  (a fixture)
from tests.web.test_e2e import (
    Server,
    _act_once,
    _page,
    _start,
    _state,
    _wait_change,
    browser,  # noqa: F401  (a fixture)
    module_server,
)
from tests.web.test_e2e_accounts import _sign

shared = module_server("review")


def _sent_actions(page) -> list[dict]:
    """The actions the page sends over its sockets, as they go (a list that grows)."""
    sent: list[dict] = []

    def watch(ws) -> None:
        ws.on("framesent", lambda payload: sent.append(json.loads(payload)))

    page.on("websocket", watch)
    return sent


def test_a_double_click_acts_once(shared: Server, browser) -> None:  # noqa: F811
    # A double click on Roll or Done sent the action twice: the second, on the version already
    # acted on, came back as "the game has moved on" under the board.
    errors: list[str] = []
    page = _page(browser, errors)
    sent = _sent_actions(page)
    _start(page, shared, "local")
    rng = random.Random(3)
    for _ in range(4):
        st = _state(page)
        if "play" in st["actions"]:
            for src, dst in rng.choice(st["sequences"])["steps"]:
                page.click(f'rect.target[data-target="{src}"]')
                page.click(f'rect.target[data-target="{dst}"]')
            page.dblclick('button[data-local="done"]')
        else:
            assert "roll" in st["actions"], st["actions"]
            page.dblclick('button[data-action="roll"]')
        _wait_change(page, st["version"])
    # the second click of a double click that comes after the answer, on whatever button is there
    page.dispatch_event('button[data-action="roll"]', "click", {"detail": 2})
    page.dispatch_event('button[data-local="done"]', "click", {"detail": 2})
    page.wait_for_timeout(300)
    versions = [m["version"] for m in sent if "action" in m]
    assert len(versions) == 4 and len(set(versions)) == 4, sent
    assert page.text_content("#error") == ""
    assert not errors


def test_a_bad_id_in_the_editor_keeps_the_position(shared: Server, browser) -> None:  # noqa: F811
    # A mistyped ID cleared the position the board still showed: its IDs went blank and Hint,
    # Evaluate and Rollout were disabled until the board was clicked again.
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(shared.url + "/editor")
    page.wait_for_function("() => ed.position")
    xgid = page.evaluate("() => ed.position.xgid")
    page.fill("#id-input", "XGID=garbage")
    page.press("#id-input", "Enter")
    page.wait_for_function("() => document.querySelector('#error').textContent !== ''")
    assert "'XGID=garbage'" in page.text_content("#error")  # quoted, to see what was read
    assert page.evaluate("() => ed.position && ed.position.xgid") == xgid
    assert page.text_content("#xgid") == xgid
    assert page.is_enabled("#hint") and page.is_enabled("#eval")
    assert not errors


LONG_MATCH = Path(__file__).resolve().parents[1] / "data/mat/real/galaxy/bglab-llabba-match1301058.mat"


def _job_status(page, job_id: str) -> str:
    return page.evaluate("id => fetch(`/api/jobs/${id}`).then(r => r.json()).then(j => j.status)", job_id)


def test_a_second_upload_cancels_the_first_analysis(shared: Server, browser) -> None:  # noqa: F811
    # Uploading another file left the first one's analysis running on the server, unfollowed: the
    # new one waited behind it ("waiting for a worker...") until it had ended.
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(shared.url + "/analysis")
    page.select_option("#plies", "2")  # minutes of work: the first is still under way at the second
    page.set_input_files("#mat-file", str(LONG_MATCH))
    page.click("#analyse")
    page.wait_for_function("() => study.job !== null")
    first = page.evaluate("() => study.job.id")
    page.set_input_files("#mat-file", str(LONG_MATCH))
    page.click("#analyse")
    page.wait_for_function("v => study.job && study.job.id !== v", arg=first)
    second = page.evaluate("() => study.job.id")
    for _ in range(100):  # the page tells the server at once; the server answers within moments
        if _job_status(page, first) != "running":
            break
        page.wait_for_timeout(100)
    assert _job_status(page, first) == "cancelled"
    page.click("#cancel")  # the test's own: no work left behind on the shared server
    page.wait_for_function("() => study.job.status === 'cancelled'")
    assert _job_status(page, second) == "cancelled"
    assert not errors


@pytest.fixture(scope="module")
def idle_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server where a player may claim a game its opponent has sat over for 2 s."""
    s = Server(f"sqlite:///{tmp_path_factory.mktemp('idle') / 'idle.sqlite3'}", "--idle-after", "2")
    s.start()
    yield s
    s.stop()


def test_a_seat_taken_over_stays_let_go(idle_server: Server, browser) -> None:  # noqa: F811
    # The page a seat was taken from asked for the state again when its opponent could be claimed
    # (the claim's timer): its buttons came back, and Claim said "Not connected; reconnecting..."
    # on a socket closed for good.
    errors: list[str] = []
    host = _page(browser, errors)
    _start(host, idle_server, "online")
    friend = _page(browser, errors)
    friend.goto(host.input_value("#invite-url"))
    _state(friend)
    rng = random.Random(1)
    while _act_once(host, rng):  # the host acts until the friend is to act
        pass
    host.wait_for_function("() => ui.state.claim_in > 0")  # its timer is set
    again = host.context.new_page()  # the same browser, another tab: it takes the seat over
    again.on("pageerror", lambda e: errors.append(str(e)))
    again.once("dialog", lambda dialog: dialog.accept())
    again.goto(host.url)
    host.wait_for_function("() => ui.ws.readyState === 3 && ui.state === null")
    assert host.text_content("#status") == ""  # not the turn it showed
    again.wait_for_function("() => ui.state && ui.state.actions.includes('claim')", timeout=30_000)
    host.wait_for_timeout(1500)  # past the host's own timer, set for the same moment
    assert host.evaluate("() => ui.state") is None
    assert host.is_hidden('button[data-action="claim"]') and host.is_hidden("#buttons2")
    assert "taken over in another browser" in host.text_content("#error")
    assert not errors


def test_moving_a_checker_two_steps_hits_only_when_asked(shared: Server, browser) -> None:  # noqa: F811
    # With 2-1, a checker on 24 clicked to 21 went 24/23*/21 where 24/21 was legal (the first of
    # the two orders the server listed): a hit the player had not asked for.
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, shared, "local")
    _state(page)
    # the board and the plays of that turn, in the order that picked the hit
    page.evaluate(
        """() => {
        const board = new Array(26).fill(0);
        board[24] = 2; board[23] = -1; board[6] = 13; board[1] = -14;
        Object.assign(ui.state, { board, dice: [2, 1], turn: ui.state.viewer, phase: 'move',
          plays: ['24/23*/21', '24/21'],
          sequences: [{ play: 0, steps: [[24, 23], [23, 21]] }, { play: 1, steps: [[24, 22], [22, 21]] }] });
        ui.partial = []; ui.chunks = []; ui.selected = null;
    }"""
    )
    page.click('rect.target[data-target="24"]')
    page.click('rect.target[data-target="21"]')
    assert page.evaluate("() => ui.partial") == [[24, 22], [22, 21]]
    page.click('button[data-local="undo"]')
    page.click('rect.target[data-target="24"]')  # the hit, chosen: to the blot, then on
    page.click('rect.target[data-target="23"]')
    page.click('rect.target[data-target="23"]')
    page.click('rect.target[data-target="21"]')
    assert page.evaluate("() => ui.partial") == [[24, 23], [23, 21]]
    assert not errors


def test_a_double_click_posts_or_cancels_one_invitation(shared: Server, browser) -> None:  # noqa: F811
    # A double click on "Post the invitation" posted two: the lobby listed the same invitation twice.
    # One on Cancel cancelled it, then said "no open invitation of yours, or to you, has this id".
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(shared.url + "/account")
    page.wait_for_selector("#sign-in:not([hidden])")
    _sign(page, "#do-sign-up", "poster")
    posts: list[str] = []

    def note(request) -> None:
        if request.method == "POST" and "/api/lobby/invitations" in request.url:
            posts.append(request.url)

    page.on("request", note)
    page.goto(shared.url + "/lobby")
    page.wait_for_selector("#post:not([hidden])")
    page.dblclick("#do-post")
    page.wait_for_function("() => [...lobby.invitations.values()].some(i => i.mine)")
    page.wait_for_selector("#do-post:enabled")  # the answer has come: the form may post again
    assert len([p for p in posts if p.endswith("/invitations")]) == 1, posts
    # A quick server answers between the two clicks, and the guard was off again for the second:
    # the second click of a double click (detail 2), after the answer, posts nothing either.
    page.dispatch_event("#do-post", "click", {"detail": 2})
    page.wait_for_timeout(300)
    assert len([p for p in posts if p.endswith("/invitations")]) == 1, posts
    assert page.evaluate("() => [...lobby.invitations.values()].filter(i => i.mine).length") == 1
    page.dblclick("#invitations li button")
    page.wait_for_selector("#no-invitations:not([hidden])")
    assert len([p for p in posts if p.endswith("/cancel")]) == 1, posts
    assert page.text_content("#error") == ""
    assert not errors


def test_a_double_click_on_start_makes_one_match(shared: Server, browser) -> None:  # noqa: F811
    # A double click on Start made two matches (two POSTs): the page opened one, the other stayed.
    errors: list[str] = []
    page = _page(browser, errors)
    made: list[str] = []

    def note(request) -> None:
        if request.method == "POST" and request.url.endswith("/api/matches"):
            made.append(request.url)

    page.on("request", note)
    page.goto(shared.url + "/")
    page.check('input[name=mode][value="local"]')
    page.dblclick("#start")
    page.wait_for_url("**/play/**")
    _state(page)
    assert len(made) == 1, made
    page.go_back()  # the lobby again, whether from the browser's cache or afresh: Start works
    page.wait_for_selector("#start:enabled")
    page.click("#start")
    page.wait_for_url("**/play/**")
    assert len(made) == 2, made
    assert not errors


def test_a_double_click_starts_one_job(shared: Server, browser) -> None:  # noqa: F811
    # A double click on Analyse started two analyses: the second was refused at the client's limit
    # ("you have 2 jobs running already") or ran on unfollowed. One on Roll out started two
    # rollouts, the first cancelled but holding the worker: the second waited behind it.
    errors: list[str] = []
    page = _page(browser, errors)
    started: list[str] = []

    def note(request) -> None:
        if request.method == "POST" and request.url.endswith(("/api/analyses", "/api/positions/rollout")):
            started.append(request.url)

    page.on("request", note)
    page.goto(shared.url + "/analysis")
    page.select_option("#plies", "2")
    page.set_input_files("#mat-file", str(LONG_MATCH))
    page.dblclick("#analyse")
    page.wait_for_function("() => study.job !== null && !study.starting")
    page.click("#cancel")
    page.wait_for_function("() => study.job.status === 'cancelled'")
    assert [u.rsplit("/", 1)[1] for u in started] == ["analyses"]
    assert page.text_content("#error") == ""
    page.goto(shared.url + "/editor")
    page.wait_for_function("() => ed.position")
    page.dblclick("#rollout")
    page.wait_for_function("() => ed.job !== null && !ed.starting")
    page.click("#cancel")
    page.wait_for_function("() => ed.job.status === 'cancelled'")
    assert [u.rsplit("/", 1)[1] for u in started] == ["analyses", "rollout"]
    assert not errors


def test_the_analysis_is_read_with_the_keyboard(browser, result, tmp_path) -> None:  # noqa: F811
    # The marked decisions and the plays of one were list items and table rows that only a mouse
    # could choose: Tab passed them by, Enter did nothing.
    page, errors = _open(browser, result)
    _analyse(page, tmp_path)
    move = next(i for i, d in enumerate(result["decisions"]) if d["mark"] and d["kind"] == "move")
    item = page.locator(f'#marked li[data-index="{move}"]')
    item.focus()
    assert page.evaluate("() => document.activeElement.dataset.index") == str(move)  # Tab reaches it
    page.keyboard.press("Enter")
    page.wait_for_selector("#decision:not([hidden])")
    assert page.evaluate("() => study.decision") == move
    played = page.evaluate("() => study.shown")
    other = 1 if played != 1 else 0  # an alternative not shown yet
    page.locator(f'#alternatives tr[data-row="{other}"]').focus()
    page.keyboard.press(" ")
    assert page.evaluate("() => study.shown") == other
    # the rows were drawn again: the keyboard is still on the one chosen, and goes on from it
    assert page.evaluate("() => document.activeElement.dataset.row") == str(other)
    assert not errors


def test_the_editors_hints_are_chosen_with_the_keyboard(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(shared.url + "/editor#id=" + "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
    page.wait_for_function("() => ed.position && ed.position.dice")
    page.click("#hint")
    page.wait_for_selector("#hints li")
    page.locator("#hints li >> nth=0").focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => ed.shown") == 0  # the board after the best play
    assert not errors


def test_a_huge_paste_in_the_editor_says_what_is_wrong(shared: Server, browser) -> None:  # noqa: F811
    # 100,000 characters pasted as an ID made an address longer than the server reads: the page
    # said only "the server answered HTTP 400".
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(shared.url + "/editor")
    page.wait_for_function("() => ed.position")
    page.evaluate("() => { document.querySelector('#id-input').value = 'x'.repeat(100000); }")
    page.press("#id-input", "Enter")
    page.wait_for_function("() => document.querySelector('#error').textContent !== ''")
    error = page.text_content("#error")
    assert "at most 80 characters" in error and "'xxxx" in error and len(error) < 300, error
    assert not errors


def test_the_invited_friends_new_match_keeps_their_own_name(shared: Server, browser) -> None:  # noqa: F811
    # "New match" on the invited friend's page filled the form with the host's name as theirs
    # ("Your name: Alice", "Your friend: Bob" on Bob's page).
    errors: list[str] = []
    host = _page(browser, errors)
    host.goto(shared.url + "/")
    host.check('input[name=mode][value="online"]')
    host.select_option("select[name=match_length]", "1")
    host.fill("input[name=name]", "Alice")
    host.fill("input[name=opponent_name]", "Bob")
    host.click("#start")
    host.wait_for_url("**/play/**")
    _state(host)
    friend = _page(browser, errors)
    friend.goto(host.input_value("#invite-url"))
    _state(friend)
    # the side on roll resigns the 1-point match; the other accepts
    mover, other = (host, friend) if "resign" in _state(host)["actions"] else (friend, host)
    mover.once("dialog", lambda dialog: dialog.accept())
    mover.click('button[data-action="resign"]')
    other.wait_for_function("() => ui.state.actions.includes('accept_resignation')")
    other.click('button[data-action="accept_resignation"]')
    for page, mine, theirs in ((friend, "Bob", "Alice"), (host, "Alice", "Bob")):
        page.wait_for_function("() => ui.state.match_over")
        page.click('button[data-local="new-match"]')
        page.wait_for_selector("#lobby:not([hidden])")
        assert page.is_checked('input[name=mode][value="online"]')
        names = (page.input_value("input[name=name]"), page.input_value("input[name=opponent_name]"))
        assert names == (mine, theirs)
    assert not errors


def test_an_analysis_goes_on_after_a_lost_connection(browser, result, tmp_path) -> None:  # noqa: F811
    # One poll of the job that got no answer (a phone between networks, the server restarting)
    # stopped the page's polling for good: the bar stood still and the report never came.
    page, errors = _open(browser, result)
    polls: list[str] = []

    def job(route) -> None:
        polls.append(route.request.url)
        if len(polls) == 1:
            route.fulfill(status=200, json={"id": "job1", "status": "running", "done": 1, "total": 9})
        elif len(polls) == 2:
            route.abort("internetdisconnected")
        else:
            done = {"id": "job1", "status": "done", "done": 9, "total": 9, "result": result}
            route.fulfill(status=200, json=done)

    page.route("http://gammon.test/api/jobs/job1", job)
    upload = tmp_path / "match.mat"
    upload.write_text("a match file (the answers are canned)\n")
    page.set_input_files("#mat-file", str(upload))
    page.click("#analyse")
    page.wait_for_function("() => document.querySelector('#error').textContent.includes('cannot be reached')")
    page.wait_for_selector("#report:not([hidden])")
    assert len(polls) == 3
    assert page.text_content("#error") == ""  # the connection is back: the line says so no more
    assert not errors


def test_a_game_link_without_its_key_says_so(shared: Server, browser) -> None:  # noqa: F811
    # A game's address cut before its #token=... showed the new game form and nothing else.
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(shared.url + "/play/abcdefgh12345678")
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.text_content("#lobby-error") == "This link is incomplete: it needs the match and its key."
    page.goto(shared.url + "/")  # the plain address: the form alone
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.text_content("#lobby-error") == ""
    assert not errors


def test_a_seat_taken_over_on_its_turn_leaves_the_title(shared: Server, browser) -> None:  # noqa: F811
    # The tab a seat was taken from on its turn kept the title "Your turn · gammon" for good.
    errors: list[str] = []
    host = _page(browser, errors)
    _start(host, shared, "online")
    friend = _page(browser, errors)
    friend.goto(host.input_value("#invite-url"))
    _state(friend)
    page = host if _state(host)["actions"] != ["abandon"] else friend  # the seat on turn
    page.wait_for_function("() => document.title === 'Your turn · gammon'")
    again = page.context.new_page()
    again.on("pageerror", lambda e: errors.append(str(e)))
    again.once("dialog", lambda dialog: dialog.accept())
    again.goto(page.url)
    page.wait_for_function("() => ui.ws.readyState === 3 && ui.state === null")
    assert page.title() == "gammon"
    assert not errors
