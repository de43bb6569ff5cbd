"""``gammon serve --workers`` and ``--engine-workers``: a number of processes past the limit the
other commands keep is refused, quoted, before any starts (each loads an engine as the server
starts: 100000 were taken, and forked until memory ran out)."""

from __future__ import annotations

import argparse

import pytest

from gammon.cli.serve import add_serve_command
from gammon.engine.rollout.parallel import MAX_WORKERS


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    add_serve_command(parser.add_subparsers())
    return parser


@pytest.mark.parametrize("option", ["--workers", "--engine-workers"])
@pytest.mark.parametrize(("given", "said"), [
    (str(MAX_WORKERS + 1), f"'{MAX_WORKERS + 1}' processes is more than {MAX_WORKERS}"),
    ("100000", f"'100000' processes is more than {MAX_WORKERS}"),
    ("0", "expected a whole number of processes from 1, got '0'"),
    ("-2", "expected a whole number of processes from 1, got '-2'"),
])
def test_a_number_of_processes_past_the_limit_is_refused_quoted(
    option: str, given: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        _parser().parse_args(["serve", option, given])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: {said}" in err and len(err) < 1000


@pytest.mark.parametrize("option", ["--workers", "--engine-workers"])
def test_the_limit_itself_is_taken(option: str) -> None:
    args = _parser().parse_args(["serve", option, str(MAX_WORKERS)])
    assert getattr(args, option.removeprefix("--").replace("-", "_")) == MAX_WORKERS


@pytest.mark.parametrize("option", ["--workers", "--engine-workers", "--max-connections", "--ws-per-address"])
@pytest.mark.parametrize("given", ["9" * 5000, "\u00b2", "\u0663"])
def test_a_count_int_does_not_read_is_refused_cut(
    option: str, given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # int() refused these (5000 digits, digits not ASCII): argparse said "invalid _count value",
    # echoing all 5000 digits
    with pytest.raises(SystemExit) as stop:
        _parser().parse_args(["serve", option, given])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: expected a whole number of processes from 1, got {given[:3]!r}"[:-1] in err
    assert "_count" not in err and len(err) < 1000
