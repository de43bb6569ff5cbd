"""The study API: analyses of uploaded .mat files and of this server's matches run as jobs, with
their progress, limits and errors; the result is gammon.analysis's own JSON plus boards."""

from __future__ import annotations

import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from benchmarks.gnubg_harness import states_gnubg_reads
from gammon import Position
from gammon.analysis import analyse
from gammon.analysis.serialize import analysis_to_dict
from gammon.engine.rollout.rollouts import RolloutSettings
from gammon.formats.mat import read_mat, to_match
from gammon.situation import Situation
from gammon.store import Store
from gammon.web import create_app
from gammon.web.jobs import Jobs, ProcessRunner, Progress, Work
from gammon.web.settings import ServerSettings
from gammon.web.study import StudySettings
from tests.analysis.games import pip_engine
from tests.helpers import needs_gnubg, random_game_positions
from tests.web.conftest import auth, new_match, seeded_dice

MAT = Path(__file__).resolve().parents[1] / "data/mat/real/galaxy/bglab-lasse-match1112717.mat"


def _fast(plies: int) -> Any:
    return pip_engine()


@pytest.fixture
def study(store: Store):  # noqa: F811
    with TestClient(
        create_app(
            store,
            seeded_dice(),
            settings=ServerSettings(rate=1000, burst=1000, study=StudySettings(engine=_fast)),
        )
    ) as c:
        yield c


def _finish(client: TestClient, job: dict, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while job["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, job
        time.sleep(0.05)
        r = client.get(f"/api/jobs/{job['id']}")
        assert r.status_code == 200, r.text
        job = r.json()
    return job


def test_an_uploaded_mat_is_analysed_as_gammon_analyse_does(study: TestClient) -> None:
    text = MAT.read_text()
    r = study.post("/api/analyses", json={"mat": text})
    assert r.status_code == 202 and r.json()["kind"] == "analysis"
    job = _finish(study, r.json())
    assert job["status"] == "done" and job["done"] == job["total"] > 0
    result = job["result"]
    record = read_mat(text)
    expected = analysis_to_dict(analyse(to_match(record), pip_engine(), names=record.names))
    for key in ("match_length", "plies", "players", "games"):
        assert result[key] == expected[key]
    assert result["names"] == list(record.names)
    assert result["chart"].startswith("<svg") and record.names[0] in result["chart"]
    assert len(result["decisions"]) == len(expected["decisions"])
    moves = 0
    for got, want in zip(result["decisions"], expected["decisions"]):
        # the analysis's own fields, unchanged (boards are added)
        assert {k: got[k] for k in want if k != "alternatives"} == {
            k: v for k, v in want.items() if k != "alternatives"
        }
        for alt, alt_want in zip(got.get("alternatives", []), want.get("alternatives", []), strict=True):
            assert {k: alt[k] for k in alt_want} == alt_want
        position = Position.from_id(got["position_id"])
        assert got["board"] == list(position.board) and got["off"] == list(position.off)
        if got["kind"] == "move" and got["played"]:
            moves += 1
            played = [a for a in got["alternatives"] if a["played"]]
            assert [a["play"] for a in played] == [got["played"]]
            after = position.parse_play(got["played"], got["dice"]).after.flip()
            assert played[0]["board"] == list(after.board) and played[0]["off"] == list(after.off)
    assert moves > 10


def _play_some(client: TestClient, m: dict, plays: int) -> list[str]:
    """Make the first legal play ``plays`` times (both sides of a local game); the plays made."""
    made = []
    while len(made) < plays:
        s = client.get(f"/api/matches/{m['match_id']}", headers=auth(m["token"])).json()
        body: dict[str, Any] = (
            {"action": "roll"} if s["phase"] == "roll" else {"action": "play", "play": s["plays"][0]}
        )
        r = client.post(f"/api/matches/{m['match_id']}/actions", headers=auth(m["token"]), json=body)
        assert r.status_code == 200, r.text
        if body["action"] == "play":
            made.append(body["play"])
    return made


def test_a_finished_game_of_a_match_is_analysed_with_its_token(study: TestClient) -> None:
    m = new_match(study, mode="local", match_length=3)
    made = _play_some(study, m, 6)
    body = {"match_id": m["match_id"], "token": m["token"]}
    r = study.post("/api/analyses", json=body)
    assert r.status_code == 409 and "no game of this match is over" in r.json()["error"]
    r = study.post("/api/analyses", json={**body, "game": 1})
    assert r.status_code == 409 and "not over" in r.json()["error"]
    r = study.post(
        f"/api/matches/{m['match_id']}/actions", headers=auth(m["token"]), json={"action": "abandon"}
    )
    assert r.status_code == 200, r.text
    assert study.post("/api/analyses", json={**body, "token": "x" * 30}).status_code == 403
    assert study.post("/api/analyses", json={**body, "match_id": "nope"}).status_code == 404
    r = study.post("/api/analyses", json={**body, "game": 2})
    assert r.status_code == 409 and "no game 2" in r.json()["error"]
    job = _finish(study, study.post("/api/analyses", json={**body, "game": 1}).json())
    assert job["status"] == "done", job
    result = job["result"]
    assert result["names"] == ["White", "Black"] and result["match_length"] == 3
    assert [d["played"] for d in result["decisions"] if d["kind"] == "move"] == made
    # the default names in the request's language, in the result and its chart alike (a Polish
    # page showed "White" and "You" where the game page said "Biały" and "Ty")
    asked = study.post("/api/analyses", json={**body, "game": 1}, headers={"Accept-Language": "pl"})
    polish = _finish(study, asked.json())["result"]
    assert polish["names"] == ["Biały", "Czarny"] and "Biały" in polish["chart"]
    assert {d["name"] for d in polish["decisions"]} == {"Biały", "Czarny"}


class HeldRunner:
    """A runner of one worker whose work never starts: it and the jobs after it stay queued."""

    workers = 1

    def __init__(self) -> None:
        self.given: list[Work] = []

    def submit(self, work: Work, progress: Progress) -> Future[dict[str, Any]]:
        self.given.append(work)
        return Future()

    def shutdown(self) -> None:
        pass


def test_jobs_are_limited_per_client_and_can_be_cancelled(store: Store) -> None:  # noqa: F811
    settings = StudySettings(engine=_fast, jobs=Jobs(HeldRunner(), per_client=2, max_active=3))
    with TestClient(
        create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000, study=settings))
    ) as c:
        text = MAT.read_text()
        first, second = (c.post("/api/analyses", json={"mat": text}).json() for _ in range(2))
        assert first["status"] == second["status"] == "queued" and second["ahead"] == 0
        r = c.post("/api/analyses", json={"mat": text})
        assert r.status_code == 429 and r.json() == {
            "error": "you have 2 jobs running already (the limit); wait for one to finish or cancel it"
        }
        # the second waits: cancelled, it never starts and frees its place at once
        r = c.delete(f"/api/jobs/{second['id']}")
        assert r.status_code == 200 and r.json()["status"] == "cancelled"
        assert c.get(f"/api/jobs/{second['id']}").json()["status"] == "cancelled"
        third = c.post("/api/analyses", json={"mat": text})
        assert third.status_code == 202
        # the first holds the worker: cancelled, it counts until its work has stopped
        assert c.delete(f"/api/jobs/{first['id']}").json()["status"] == "cancelled"
        assert c.post("/api/analyses", json={"mat": text}).status_code == 429
        assert c.delete(f"/api/jobs/{third.json()['id']}").status_code == 200
        settings.jobs.per_client = 5  # the server's own bound, over all clients
        assert [c.post("/api/analyses", json={"mat": text}).status_code for _ in range(2)] == [202, 202]
        r = c.post("/api/analyses", json={"mat": text})
        assert r.status_code == 429 and "the server is busy with 3 jobs" in r.json()["error"]
        r = c.get("/api/jobs/" + "z" * 100)
        assert r.status_code == 404
        assert r.json()["error"] == f"no job {'z' * 40 + '...'!r} (finished jobs are kept an hour)"


def test_the_job_limit_counts_an_ipv6_64_as_one_client(store: Store) -> None:  # noqa: F811
    # rotating addresses within one's /64 (privacy addresses) earned new job places
    settings = StudySettings(engine=_fast, jobs=Jobs(HeldRunner(), per_client=2, max_active=10))
    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000, study=settings))
    text = MAT.read_text()
    with TestClient(app, client=("2001:db8:0:1::1", 50000)) as c:
        assert [c.post("/api/analyses", json={"mat": text}).status_code for _ in range(2)] == [202, 202]
        same = TestClient(app, client=("2001:db8:0:1::2", 50000))
        assert same.post("/api/analyses", json={"mat": text}).status_code == 429
        other = TestClient(app, client=("2001:db8:0:2::1", 50000))
        assert other.post("/api/analyses", json={"mat": text}).status_code == 202


def test_an_upload_is_read_in_the_worker_after_the_job_limits(
    store: Store,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Reading a large .mat takes seconds: the server checks the limits and hands the text to the
    job's worker; a refused upload is never read, an accepted one is read by its work."""
    import gammon.formats.convert

    reads: list[int] = []
    convert = gammon.formats.convert
    real = convert.read_mat  # what read_match reads a .mat text with
    monkeypatch.setattr(convert, "read_mat", lambda text: reads.append(len(text)) or real(text))
    runner = HeldRunner()
    settings = StudySettings(engine=_fast, jobs=Jobs(runner, per_client=2))
    with TestClient(
        create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000, study=settings))
    ) as c:
        text = MAT.read_text()
        replies = [c.post("/api/analyses", json={"mat": text}) for _ in range(6)]
        assert [r.status_code for r in replies] == [202, 202, 429, 429, 429, 429]
        assert reads == []
        result = runner.given[0](lambda *report: None)  # the worker's part
        assert reads == [len(text)] and result["names"] == list(read_mat(text).names)


def test_an_analysis_over_the_servers_bound_is_refused_saying_the_bound(store: Store) -> None:  # noqa: F811
    """An analysis is bounded in actions times depth (the match of MAT has 94 actions)."""
    settings = StudySettings(engine=_fast, max_actions=(200, 100, 90))
    with TestClient(
        create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000, study=settings))
    ) as c:
        text = MAT.read_text()
        job = _finish(c, c.post("/api/analyses", json={"mat": text, "plies": 2}).json())
        assert job["status"] == "failed" and job["error"] == (
            "94 actions to analyse at 2 ply is over this server's bound (200 at 0 ply, 100 at 1 ply, "
            "90 at 2 ply): choose a lower depth or fewer games"
        )
        assert _finish(c, c.post("/api/analyses", json={"mat": text, "plies": 1}).json())["status"] == "done"
        # a match of this server is refused at once
        m = new_match(c, mode="local")
        _play_some(c, m, 2)
        c.post(f"/api/matches/{m['match_id']}/actions", headers=auth(m["token"]), json={"action": "abandon"})
        settings.max_actions = (1, 1, 1)
        r = c.post("/api/analyses", json={"match_id": m["match_id"], "token": m["token"]})
        assert r.status_code == 422 and r.json()["error"].endswith(
            "is over this server's bound (1 at 0 ply, 1 at 1 ply, 1 at 2 ply): choose fewer games"
        )


def test_an_uploaded_sgf_is_analysed_as_the_same_match_in_mat(study: TestClient) -> None:
    """GNU Backgammon saves matches as SGF: its upload gives the analysis of the same games."""
    from gammon.formats.sgf import format_sgf

    record = read_mat(MAT.read_text())
    sgf = format_sgf(to_match(record), record.names)
    results = []
    for body in ({"mat": MAT.read_text()}, {"sgf": sgf}):
        r = study.post("/api/analyses", json=body)
        assert r.status_code == 202, r.text
        job = _finish(study, r.json())
        assert job["status"] == "done", job
        results.append(job["result"])
    assert results[1] == results[0]
    assert len(results[0]["decisions"]) > 50


@pytest.mark.slow
def test_an_uploaded_xg_is_analysed_as_the_same_match_in_mat(study: TestClient) -> None:
    """eXtreme Gammon's binary file (in base64) of a match of the .mat corpus: the same analysis."""
    import base64

    data = Path(__file__).resolve().parents[1] / "data"
    mat = (data / "mat/real/xg/gbf-hsbt-paris-2023-job-unger-7pt.mat").read_text(encoding="utf-8")
    xg = base64.b64encode((data / "xg/real/gbf-hsbt-paris-2023-job-unger-7pt.xg").read_bytes()).decode()
    results = []
    for body in ({"mat": mat}, {"xg": xg}):
        r = study.post("/api/analyses", json=body)
        assert r.status_code == 202, r.text
        job = _finish(study, r.json())
        assert job["status"] == "done", job
        results.append(job["result"])
    assert results[1] == results[0] and results[0]["names"] == ["Kévin Unger", "Maxence Job"]
    for bad, message in (("not base64!", "is not in base64"), (base64.b64encode(b"x" * 300).decode(), "")):
        error = _read_error(study, {"xg": bad})
        assert error.startswith("cannot read the .xg file: ") and message in error
        assert "x" * 41 not in error


def _read_error(client: TestClient, body: dict) -> str:
    """The error of an upload that cannot be read: the job reading it fails, saying why."""
    r = client.post("/api/analyses", json=body)
    assert r.status_code == 202, r.text
    job = _finish(client, r.json())
    assert job["status"] == "failed", job
    return job["error"]


def test_bad_uploads_get_the_error_shape_quoting_little(study: TestClient) -> None:
    error = _read_error(study, {"mat": "hello world"})
    assert error.startswith("cannot read the .mat file: line 1: 'hello world'")
    error = _read_error(study, {"mat": "1 point match\n\n Game 1\n x : 0   y : 0\n  1) 99: 8/1\n"})
    assert error.startswith("cannot read the .mat file")
    for bad in ("x" * 300, "3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: " + "x" * 200 + "\n"):
        error = _read_error(study, {"mat": bad})
        assert "'" + "x" * 40 + "...'" in error and "x" * 41 not in error, error
    r = study.post("/api/analyses", json={"mat": "x" * 300_000})
    error = r.json()["error"]
    assert r.status_code == 422 and "x" * 41 not in error and "at most 262144 characters" in error
    r = study.post("/api/analyses", json={"mat": MAT.read_text(), "match_id": "abc"})
    assert r.status_code == 422 and "give one of match_id" in r.json()["error"]
    r = study.post("/api/analyses", json={"mat": MAT.read_text(), "sgf": "(;GM[6])"})
    assert r.status_code == 422 and "give one of match_id" in r.json()["error"]
    error = _read_error(study, {"sgf": "(;GM[6]" + "x" * 300})
    assert error.startswith("cannot read the .sgf file: ") and "x" * 41 not in error
    r = study.post(
        "/api/analyses",
        content=b'{"mat": "' + b"x" * 600_000 + b'"}',
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 413
    assert r.json() == {"error": "request body of '600011' bytes is over the limit of 524288"}
    # the upload's larger limit is for the upload alone
    r = study.post(
        "/api/matches",
        content=b'{"mode": "' + b"x" * 20_000 + b'"}',
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 413


XG = "XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:2:4:0:7:10"  # top on roll, 52, cube 2 bottom's, 7 pts at 2-4


def test_an_id_reads_as_read_id_reads_it_and_the_editor_setup_round_trips(study: TestClient) -> None:
    from gammon.formats.ids import describe_situation, read_id

    r = study.get("/api/positions", params={"id": XG})
    assert r.status_code == 200, r.text
    p = r.json()
    given = read_id(XG)
    assert p["board"] == list(given.position.board) and p["dice"] == [5, 2]
    assert (p["match_length"], p["score"], p["cube_value"], p["cube_owner"]) == (7, [4, 2], 2, "opponent")
    assert p["description"] == describe_situation(given)
    # each of its IDs reads back to the same position, score and cube
    for key in ("gnubg_id", "xgid"):
        again = read_id(p[key])
        assert (again.position, again.dice, again.score, again.cube_value, again.cube_owner, again.match) == (
            given.position,
            given.dice,
            given.score,
            given.cube_value,
            given.cube_owner,
            given.match,
        )
    setup = {
        "board": p["board"],
        "dice": [5, 2],
        "cube_value": 2,
        "cube_owner": "opponent",
        "match_length": 7,
        "score": [4, 2],
    }
    assert study.post("/api/positions", json=setup).json() == p
    money = study.post(
        "/api/positions",
        json={**setup, "match_length": 0, "score": [0, 0], "beavers": True, "cube_owner": "you"},
    ).json()
    assert money["description"] == "money game, cube 2 owned by you, Jacoby rule, beavers"


def test_hint_and_evaluation_are_the_engines(study: TestClient) -> None:
    from gammon.advice import ranked_plays
    from gammon.formats.ids import read_id

    given = read_id(XG)
    h = study.get("/api/positions/hint", params={"id": XG, "n": 3}).json()
    want = ranked_plays(pip_engine(), given, (5, 2), 3)
    assert h["unit"] == "mwc" and [(x["play"], x["score"]) for x in h["plays"]] == [
        (str(w.play), s) for w, s in want
    ]
    assert h["plays"][0]["board"] == list(want[0][0].play.after.flip().board)
    h = study.get("/api/positions/hint", params={"id": XG, "dice": "66", "n": 1}).json()
    assert h["dice"] == [6, 6] and len(h["plays"]) == 1
    e = study.get("/api/positions/eval", params={"id": "4HPwATDgc/ABMA"}).json()
    d = pip_engine().cube_decision(read_id("4HPwATDgc/ABMA").position)
    assert e["cube"]["no_double"] == d.no_double and e["cube"]["action"] == d.action.value
    assert e["mwc"] is None and e["probabilities"]["win"] == d.probabilities.win


def test_a_position_in_a_match_longer_than_the_equity_table_is_judged(study: TestClient) -> None:
    """The editor sets up matches as long as an ID holds (32767 points: it reads such IDs, so its
    form must take them back), longer than the lobby's 99; the table stops at 25 away and goes on
    by its pattern (gammon.engine.cube.met), so the evaluation gives match chances."""
    setup = {"board": list(Position.initial().board), "match_length": 41, "score": [3, 12]}
    p = study.post("/api/positions", json=setup).json()
    assert (p["match_length"], p["score"]) == (41, [3, 12])
    e = study.get("/api/positions/eval", params={"id": p["xgid"]})
    assert e.status_code == 200, e.text
    assert 0.2 < e.json()["mwc"] < 0.4  # 38-away against 29-away: about 0.28 at the start of a game
    longer = study.post("/api/positions", json={**setup, "match_length": 150}).json()
    assert longer["match_length"] == 150
    assert longer == study.get("/api/positions", params={"id": longer["xgid"]}).json()
    too_long = study.post("/api/positions", json={**setup, "match_length": 32768})
    assert too_long.status_code == 422


def test_a_rollout_job_is_the_engines_rollout(study: TestClient) -> None:
    from gammon.formats.ids import read_id

    r = study.post("/api/positions/rollout", json={"id": XG, "trials": 36, "seed": 5, "truncate": 4})
    assert r.status_code == 202 and r.json()["kind"] == "rollout"
    job = _finish(study, r.json())
    assert job["status"] == "done" and job["done"] == job["total"] == 36
    given = read_id(XG)
    at = Situation.at(
        given.position, cube_value=2, cube_owner=given.cube_owner, match=given.match, jacoby=False
    )
    want = pip_engine().rollout(at, RolloutSettings(trials=36, seed=5, truncate=4), workers=1)
    result = job["result"]
    assert result["kind"] == "position" and result["trials"] == 36 and result["seed"] == 5
    assert result["equity"] == want.equity and result["standard_error"] == want.standard_error.equity
    assert job["detail"]["equity"] == [pytest.approx(want.equity, abs=1e-12)]  # the running mean
    r = study.post("/api/positions/rollout", json={"id": "4HPwATDgc/ABMA", "kind": "plays"})
    assert r.status_code == 422
    assert r.json() == {"error": "a rollout of the plays needs the dice: set them first"}


def test_bad_positions_get_the_error_shape_quoting_little(study: TestClient) -> None:
    r = study.get("/api/positions", params={"id": "garbage!"})
    assert r.status_code == 422 and r.json() == {"error": "Position ID 'garbage!' must have 14 characters"}
    r = study.get("/api/positions", params={"id": "x" * 81})
    assert r.status_code == 422 and "x" * 41 not in r.json()["error"]
    r = study.get("/api/positions", params={"id": XG.replace(":2:4:", ":9:4:")})
    assert r.status_code == 422 and r.json()["error"] == (
        "'XGID=-b----E-C---eE---c-e----B-:1:1:-...': the score 4-9 has already won the 7-point match"
    )
    r = study.get("/api/positions/hint", params={"id": "4HPwATDgc/ABMA"})
    assert r.status_code == 422 and r.json() == {"error": "no dice: set the dice for a hint"}
    r = study.post("/api/positions/rollout", json={"id": XG, "trials": 5000})
    assert r.status_code == 422 and r.json() == {"error": "at most 1296 trials on this server, not 5000"}
    board = [0] * 26
    board[1] = 16
    r = study.post("/api/positions", json={"board": board})
    assert r.status_code == 422 and r.json()["error"].startswith("not a position to study: ")
    over = [0] * 26
    over[24] = -1
    p = study.post("/api/positions", json={"board": over}).json()
    assert p["game_over"] is True
    assert study.get("/api/positions/eval", params={"id": p["xgid"]}).status_code == 422


def test_the_servers_shutdown_stops_its_jobs(store: Store) -> None:  # noqa: F811
    import threading

    settings = StudySettings(engine=_fast)
    with TestClient(
        create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000, study=settings))
    ) as c:
        # about 40 s of work with the fast engine, in batches of 216 trials
        job = c.post(
            "/api/positions/rollout", json={"id": "4HPwATDgc/ABMA", "trials": 1296, "truncate": 20}
        ).json()
        deadline = time.monotonic() + 60
        while c.get(f"/api/jobs/{job['id']}").json()["done"] == 0:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    assert settings.jobs.get(job["id"]).status == "cancelled"
    deadline = time.monotonic() + 30
    while any(t.name.startswith("gammon-job") for t in threading.enumerate()):
        assert time.monotonic() < deadline, "the job's worker thread did not stop"
        time.sleep(0.05)


def test_hints_and_evaluations_draw_on_the_hint_rate_limit(store: Store) -> None:  # noqa: F811
    with TestClient(
        create_app(
            store,
            seeded_dice(),
            settings=ServerSettings(rate=10, burst=10, study=StudySettings(engine=_fast)),
        )
    ) as c:
        start = {"id": "4HPwATDgc/ABMA"}
        assert c.get("/api/positions/eval", params=start).status_code == 200  # warms the engine up
        replies = [
            c.get(path, params={**start, "dice": "31"})
            for path in ("/api/positions/hint", "/api/positions/eval") * 2
        ]
        assert 429 in [r.status_code for r in replies]  # one a second, bursts of one
        assert {"error": "too many hints; slow down"} in [r.json() for r in replies]
        assert c.get("/api/positions", params=start).status_code == 200  # reading an ID is cheap


def test_every_job_runs_in_a_worker_process(store: Store) -> None:  # noqa: F811
    settings = StudySettings(engine=_fast, jobs=Jobs(ProcessRunner()))
    with TestClient(
        create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000, study=settings))
    ) as c:
        m = new_match(c, mode="local")
        _play_some(c, m, 2)
        c.post(f"/api/matches/{m['match_id']}/actions", headers=auth(m["token"]), json={"action": "abandon"})
        for path, body in (
            ("/api/analyses", {"mat": MAT.read_text()}),
            ("/api/analyses", {"match_id": m["match_id"], "token": m["token"]}),
            ("/api/positions/rollout", {"id": XG, "trials": 36, "truncate": 2, "kind": "plays"}),
        ):
            job = _finish(c, c.post(path, json=body).json())
            assert job["status"] == "done" and job["done"] == job["total"] > 0, job


@needs_gnubg
def test_the_editors_ids_mean_to_gnubg_what_the_editor_shows(study: TestClient) -> None:
    """Positions set up as in the editor: GNU Backgammon reads their GNU Backgammon ID and XGID
    (``set gnubgid`` / ``set xgid``) to the same position, player on roll, score, cube and owner,
    Crawford state, Jacoby rule and dice."""
    import random

    rng = random.Random(11)
    positions = random_game_positions(3, 3)
    shown, cases = [], []
    for _ in range(30):
        length = rng.choice([0, 0, 3, 5, 7])
        score = [rng.randrange(length), rng.randrange(length)] if length else [0, 0]
        crawford = (
            bool(length) and length - 1 in score and score != [length - 1, length - 1] and rng.random() < 0.5
        )
        setup = {
            "board": list(rng.choice(positions).board),
            "match_length": length,
            "score": score,
            "dice": None if rng.random() < 0.3 else [rng.randint(1, 6), rng.randint(1, 6)],
            "cube_value": 1 if crawford else 1 << rng.randrange(4),
            "crawford": crawford,
            "cube_owner": "centred" if crawford else rng.choice(["centred", "you", "opponent"]),
            "jacoby": rng.random() < 0.5,
        }
        r = study.post("/api/positions", json=setup)
        assert r.status_code == 200, (setup, r.text)
        p = r.json()
        shown.append(p)
        cases += [p["gnubg_id"], p["xgid"]]
    got = states_gnubg_reads(cases)
    assert len(got) == len(cases)
    for i, (position_id, move, score, length, cube, owner, crawford, jacoby, dice) in enumerate(got):
        p = shown[i // 2]
        assert position_id == p["position_id"], cases[i]
        assert (length, [score[move], score[1 - move]]) == (p["match_length"], p["score"]), cases[i]
        seen_owner = "centred" if owner == -1 else "you" if owner == move else "opponent"
        assert (cube, seen_owner) == (p["cube_value"], p["cube_owner"]), cases[i]
        assert bool(crawford) == p["crawford"], cases[i]
        if not length:
            assert bool(jacoby) == p["jacoby"], cases[i]
        assert dice == (sorted(p["dice"]) if p["dice"] else [0, 0]), cases[i]


def test_a_rollouts_refusals_come_in_the_readers_language(study: TestClient) -> None:
    polish = {"Accept-Language": "pl"}
    r = study.post("/api/positions/rollout", json={"id": XG, "trials": 5000}, headers=polish)
    assert r.status_code == 422
    assert r.json() == {"error": "ten serwer wykonuje co najwyżej 1296 prób, nie 5000"}
    r = study.post("/api/positions/rollout", json={"id": "4HPwATDgc/ABMA", "kind": "plays"}, headers=polish)
    assert r.status_code == 422 and r.json() == {"error": "rollout ruchów wymaga kostek: najpierw je ustaw"}


def test_a_cube_rollout_the_player_on_roll_cannot_double_in_is_refused_up_front(study: TestClient) -> None:
    """It was accepted (202) and failed in the worker, holding one of the client's job slots."""
    board = "-b----E-C---eE---c-e----B-"
    refused = {
        f"XGID={board}:1:1:-1:00:2:4:0:7:10": "the opponent owns the cube: the player on roll may not double",
        f"XGID={board}:0:0:-1:00:4:6:1:7:10": "the Crawford game has no cube: "
        "the player on roll may not double",
        f"XGID={board}:1:-1:-1:00:2:5:0:7:10": "the cube at 2 already wins the match for the player on roll, "
        "2 away: a double gains nothing",
    }
    for xgid, error in refused.items():
        r = study.post("/api/positions/rollout", json={"id": xgid, "kind": "cube", "trials": 36})
        assert (r.status_code, r.json()) == (422, {"error": error}), xgid
    r = study.post("/api/positions/rollout", json={"id": XG, "kind": "position", "trials": 36})
    assert r.status_code == 202  # the position of an opponent's cube may still be rolled out
    assert _finish(study, r.json())["status"] == "done"


def test_a_cubeful_rollout_under_a_cube_limit_is_refused_up_front(study: TestClient) -> None:
    """An XGID's highest cube other than XG's usual 1024 is a cube limit, which a cubeful rollout
    cannot keep to: it was accepted (202) and failed in the worker, holding a job slot."""
    limited = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:2"
    error = ("a cubeful rollout cannot keep to the cube limit of 4 (roll out with cubeful=False, "
             "or without the limit)")
    for body in ({"kind": "cube"}, {"kind": "position", "cubeful": True}):
        r = study.post("/api/positions/rollout", json={"id": limited, "trials": 36, **body})
        assert (r.status_code, r.json()) == (422, {"error": error}), body
    r = study.post("/api/positions/rollout", json={"id": limited, "kind": "position", "trials": 36})
    assert r.status_code == 202 and _finish(study, r.json())["status"] == "done"  # cubeless: no cube
