"""The commands that read a position ID, as the command line gives it."""

from __future__ import annotations

import pytest

from gammon.cli.main import main

BARE_XGID = "-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"  # an empty bar: argparse took it for options


@pytest.mark.parametrize("argv", [
    ["diagram", BARE_XGID],
    ["diagram", "--svg", BARE_XGID, "-o", "-"],
    ["--lang", "pl", "diagram", BARE_XGID, "--text"],
    ["hint", BARE_XGID, "-n", "2", "--plies", "0"],
    ["hint", BARE_XGID, "52", "--plies", "0"],
    ["eval", "--plies", "0", BARE_XGID],
    ["rollout", BARE_XGID, "--trials", "1", "--plies", "0", "--seed", "1"],
])
def test_an_xgid_without_its_prefix_is_the_position(argv, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "4HPwATDgc/ABMA" in captured.out + "".join(p.read_text() for p in tmp_path.iterdir())
    assert captured.err == ""


def test_a_bare_xgid_that_does_not_read_is_quoted_as_given(capsys):
    assert main(["diagram", BARE_XGID + "x"]) == 2
    assert f"'{BARE_XGID}x'" in capsys.readouterr().err


def test_options_are_still_options(capsys):
    # an option given where the ID should be is still refused as an option, not read as an ID
    with pytest.raises(SystemExit) as e:
        main(["diagram", BARE_XGID, "--bogus"])
    assert e.value.code == 2
    assert "--bogus" in capsys.readouterr().err
