"""``python -m gammon.train label --ray`` and the ``--workers`` of label and campaign: an address
no cluster answers at, or where something else listens, is refused before any position is played
(Ray retried it for minutes once they were), Ray not installed is a message, not a traceback, and a
bad number of processes is refused quoted; each with exit status 2 and nothing written."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn

import pytest

from gammon.engine.net.neural import NeuralEvaluator
from gammon.engine.rollout import parallel
from gammon.engine.rollout.parallel import MAX_WORKERS
from gammon.train import labels
from gammon.train.__main__ import main
from gammon.train.labels import LabelSet, LabelSettings, Sampling, Work, make_labels
from tests.engine.test_parallel_limits import free_port, http_server, listener

LABEL = ["--games", "1", "--every", "12", "--plies", "1"]


class ReachedRay(Exception):
    pass


def reached_ray() -> NoReturn:
    raise ReachedRay


def no_ray() -> NoReturn:
    raise ImportError("a Ray address was given but Ray is not installed: pip install 'gammon[cluster]'")


def _exit(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_an_address_nothing_listens_at_is_refused_quoted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(parallel, "_ray", reached_ray)
    port = free_port()
    out = tmp_path / "labels.npz"
    err = _exit(["label", "--out", str(out), *LABEL, "--ray", f"127.0.0.1:{port}"], capsys)
    assert err.startswith(f"python -m gammon.train label: no Ray cluster answers at '127.0.0.1:{port}': ")
    assert not out.exists()


@pytest.mark.parametrize("server", ["silent", "http"])
def test_a_listener_that_is_not_ray_is_refused_quoted(
    tmp_path: Path, server: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(parallel, "_ray", reached_ray)
    monkeypatch.setattr(parallel, "RAY_CONNECT_SECONDS", 0.5)
    out = tmp_path / "labels.npz"
    with (listener(None) if server == "silent" else http_server()) as address:
        err = _exit(["label", "--out", str(out), *LABEL, "--ray", address], capsys)
    assert err.startswith(f"python -m gammon.train label: no Ray cluster answers at '{address}': something")
    assert err.endswith("(not a Ray cluster?)\n")
    assert not out.exists()


def test_ray_not_installed_is_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(parallel, "_ray", no_ray)  # it ended in a traceback, exit status 1
    out = tmp_path / "labels.npz"
    err = _exit(["label", "--out", str(out), *LABEL, "--ray", "local"], capsys)
    assert "python -m gammon.train label: a Ray address was given but Ray is not installed" in err
    assert not out.exists()


@pytest.mark.parametrize("given", ["0", "-1", str(MAX_WORKERS + 1), "100000"])
def test_a_bad_number_of_processes_is_refused_quoted(
    tmp_path: Path, given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # 100000 was taken: a shard forked a process for each of its pieces of work
    for argv in (["label", "--out", str(tmp_path / "labels.npz"), *LABEL],
                 ["campaign", str(tmp_path / "campaign"), "--shards", "1"]):
        err = _exit([*argv, "--workers", given], capsys)
        assert f"workers must be a positive number of processes, at most {MAX_WORKERS}, got {given}" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("given", ["0", "-1"])
def test_a_piece_of_work_of_no_positions_is_refused(
    tmp_path: Path, given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # 0 ended in "range() arg 3 must not be zero" once the positions were played; -1 wrote a label
    # file of none (exit status 0), and a campaign went through shard after shard labelling none
    for argv in (["label", "--out", str(tmp_path / "labels.npz"), *LABEL],
                 ["campaign", str(tmp_path / "campaign"), "--shards", "1"],
                 ["selfplay", "--out", str(tmp_path / "net.npz"), "--games", "1"]):
        err = _exit([*argv, "--chunk", given], capsys)
        assert err.endswith(f": --chunk {given}: a piece of work is at least 1 (position, or game for "
                            "selfplay)\n")
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_keeps_the_pieces_labelled_and_a_rerun_resumes_after_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the file was rewritten once a minute only: Ctrl-C lost the pieces done since (all of them in
    # a run's first minute)
    ev = NeuralEvaluator.random(hidden=8, race_hidden=4, seed=2)
    settings, sampling = LabelSettings(plies=1), Sampling(games=2, every=12)
    real, pieces = labels.label_chunk, []

    def stopped_at_the_third(job: Any, start: int, stop: int) -> Any:
        if len(pieces) == 2:
            raise KeyboardInterrupt
        pieces.append(start)
        return real(job, start, stop)

    monkeypatch.setattr(labels, "label_chunk", stopped_at_the_third)
    out = tmp_path / "labels.npz"
    with pytest.raises(KeyboardInterrupt):
        make_labels(ev, out, settings, sampling, note=lambda _: None, work=Work(chunk=1))
    assert len(LabelSet.load(out)) == 2
    monkeypatch.setattr(labels, "label_chunk", real)
    said: list[str] = []
    resumed = make_labels(ev, out, settings, sampling, note=said.append, work=Work(chunk=1))
    assert "; 2 labelled already" in said[0]
    fresh = make_labels(ev, tmp_path / "fresh.npz", settings, sampling, note=lambda _: None)
    assert len(fresh) > 2 and (resumed.targets == fresh.targets).all()


def test_ctrl_c_is_said_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def stopped(job: Any, start: int, stop: int) -> NoReturn:
        raise KeyboardInterrupt

    monkeypatch.setattr(labels, "label_chunk", stopped)
    with pytest.raises(SystemExit) as stop:
        main(["label", "--out", str(tmp_path / "labels.npz"), *LABEL, "--workers", "1"])
    assert stop.value.code == 130
    assert capsys.readouterr().err == "python -m gammon.train label: stopped\n"
