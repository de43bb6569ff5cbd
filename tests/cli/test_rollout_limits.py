"""``gammon rollout``'s numbers past what it can do are refused before any work, quoted."""

from __future__ import annotations

import pytest

from gammon.cli.main import build_parser

START = "4HPwATDgc/ABMA"


def test_more_local_processes_than_the_limit_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    # --workers 1000000 with 1,000,000 trials asked the process pool for 27,778 processes, one a batch
    parser = build_parser()
    for workers in ("257", "1000000", "9" * 500):
        with pytest.raises(SystemExit) as stop:
            parser.parse_args(["rollout", START, "--workers", workers])
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert f"argument --workers: '{workers[:20]}" in err and "processes is more than 256" in err
        assert len(err) < 1000
    assert parser.parse_args(["rollout", START, "--workers", "256"]).workers == 256
