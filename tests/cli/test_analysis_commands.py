"""`gammon hint`, `gammon eval` and `gammon serve --help` through the real console entry point."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gammon import Position


def gammon(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gammon.cli.main", *args], capture_output=True,
                          text=True, timeout=300)


def test_hint_lists_legal_plays_best_first():
    out = gammon("hint", "4HPwATDgc/ABMA", "31", "-n", "3", "--plies", "0")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 5 and "4HPwATDgc/ABMA" in lines[0] and "money game" in lines[1]
    legal = {str(p) for p in Position.initial().legal_plays((3, 1))}
    plays = [line.split(".", 1)[1].split("equity")[0].strip() for line in lines[2:]]
    assert set(plays) <= legal
    equities = [float(line.split("equity")[1].split()[0]) for line in lines[2:]]
    assert equities == sorted(equities, reverse=True)


def test_eval_prints_probabilities_and_cube_action():
    out = gammon("eval", "4HPwATDgc/ABMA", "--plies", "0")
    assert out.returncode == 0, out.stderr
    assert "cubeless equity" in out.stdout and "no double" in out.stdout


@pytest.mark.slow
def test_bad_input_is_quoted_and_exit_code_is_2():
    out = gammon("hint", "not-an-id!!", "31")
    assert out.returncode == 2
    assert "'not-an-id!!'" in out.stderr
    out = gammon("hint", "4HPwATDgc/ABMA", "71")
    assert out.returncode == 2 and "'71'" in out.stderr
    out = gammon("eval", "4HPwATDgc/ABM")
    assert out.returncode == 2 and "'4HPwATDgc/ABM'" in out.stderr


@pytest.mark.slow
def test_a_game_that_is_over_is_refused_by_hint_and_eval():
    for args in (("hint", "AAAAAgAAAAAAAA", "31"), ("eval", "AAAAAgAAAAAAAA")):
        out = gammon(*args, "--plies", "0")
        verb = "play" if args[0] == "hint" else "evaluate"
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr == f"gammon: the game is over in 'AAAAAgAAAAAAAA': nothing to {verb}\n"


@pytest.mark.slow
def test_json_is_one_object_with_what_the_text_says():
    """--json prints what the web's position editor gets (gammon.formats.ids, gammon.advice): the same
    plays and cube action as the text output, for scripts."""
    import json

    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:2:4:0:7:10"
    text = gammon("hint", xgid, "--plies", "0", "-n", "3")
    data = json.loads(gammon("hint", xgid, "--plies", "0", "-n", "3", "--json").stdout)
    assert data["dice"] == [5, 2] and data["unit"] == "mwc" and len(data["plays"]) == 3
    assert data["context"]["match_length"] == 7 and data["context"]["cube_value"] == 2
    for rank, play in enumerate(data["plays"], 1):
        assert f"{rank:3}. {play['play']} " in text.stdout
        assert f"MWC {play['score']:6.2%}" in text.stdout
    data = json.loads(gammon("eval", "4HPwATDgc/ABMA", "--plies", "0", "--json").stdout)
    text = gammon("eval", "4HPwATDgc/ABMA", "--plies", "0").stdout
    assert f"cube action: {data['cube']['action']}" in text
    assert f"cubeless equity {data['cubeless_equity']:+.3f}" in text
    assert data["context"]["gnubg_id"].startswith("4HPwATDgc/ABMA:") and data["mwc"] is None
    bad = gammon("eval", "AAAAAgAAAAAAAA", "--json")
    assert bad.returncode == 2 and bad.stdout == "" and "the game is over" in bad.stderr


def test_serve_is_wired():
    out = gammon("serve", "--help")
    assert out.returncode == 0 and "--port" in out.stdout and "--database-url" in out.stdout


MATCH = Path(__file__).resolve().parents[1] / "data/mat/real/galaxy/bglab-lasse-match1090480.mat"


@pytest.mark.parametrize("args", [
    ("eval", "4HPwATDgc/ABMA", "--json", "--plies", "0"),
    ("hint", "4HPwATDgc/ABMA", "31", "--plies", "0"),
    ("rollout", "4HPwATDgc/ABMA", "--trials", "36", "--workers", "1"),  # a rich table
    ("analyse", str(MATCH), "--plies", "0"),  # rich tables and boards, a progress bar on stderr
    ("analyse", str(MATCH), "--plies", "0", "--json"),
    ("diagram", "4HPwATDgc/ABMA:cAkAAAAAAAAA"),
    ("diagram", "4HPwATDgc/ABMA:cAkAAAAAAAAA", "--svg"),
    ("convert", str(MATCH), "{tmp}/out.sgf"),
    ("play", "--help"),
], ids=lambda args: " ".join(Path(a).name for a in args[:2]))
def test_a_reader_that_goes_away_ends_the_output_without_a_traceback(args, tmp_path):
    # `gammon eval ... --json | head -c 5`: the pipe is closed before gammon writes; every command
    # ends there, exit 0, nothing on stderr (rich's consoles exited 1 where print raised)
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    read, write = os.pipe()
    os.close(read)
    try:
        out = subprocess.run([sys.executable, "-m", "gammon.cli.main", *args], stdout=write,
                             stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(write)
    assert out.returncode == 0 and out.stderr == "", out.stderr
