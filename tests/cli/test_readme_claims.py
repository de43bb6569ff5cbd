"""The README's claims about the terminal, held against what the programs do: every `gammon ...`
command it and docs/ show is one that gammon's parser takes, the board shows the ID it says, no command's
help says otherwise of the first run, and its wildbg examples are answered in the shapes it
describes."""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from gammon.cli.main import build_parser
from gammon.engine import Engine
from gammon.protocols.wildbg import eval_answer, move_answer, read_query

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
DOCS = [README] + [path.read_text() for path in sorted((ROOT / "docs").glob("*.md"))]
# the docs' synopses name their arguments (`gammon import DIR --player NAME [--plies N]`): each
# such word stands for a value of its kind, and an optional part [...] is taken as given
PLACEHOLDERS = {"NAME": "alice", "ACCOUNT": "alice", "DIR": "matches", "N": "2", "URL": "sqlite:///g.db",
                "ADDRESS": "local"}


def _commands() -> list[str]:
    """The gammon command lines of the README and docs/: in their shell blocks (continued lines
    joined) and in their text (`gammon ...` in backquotes), placeholders filled in."""
    found = []
    for text in DOCS:
        for block in re.findall(r"```(?:sh)?\n(.*?)```", text, re.DOTALL):
            for line in block.replace("\\\n", " ").splitlines():
                if line.startswith("gammon "):
                    found.append(line.split("  #")[0].strip())
        # in the text, a command with its arguments (`gammon hint` alone names the command)
        found += [" ".join(c.split()) for c in re.findall(r"`(gammon [^`]+)`", text) if len(c.split()) > 2]
    filled = (" ".join(PLACEHOLDERS.get(w, w) for w in c.replace("[", " ").replace("]", " ").split())
              for c in found if not c.endswith("..."))  # `gammon --lang pl ...`: any command
    return sorted(set(filled))


@pytest.mark.parametrize("command", _commands())
def test_every_command_the_docs_show_is_one_gammon_takes(command: str, capsys) -> None:
    args = shlex.split(command)[1:]
    try:
        build_parser().parse_args(args)
    except SystemExit as e:  # argparse's way of refusing (or of answering --help)
        assert e.code == 0, capsys.readouterr().err


def test_the_board_shows_one_gnubg_id_as_the_readme_says() -> None:
    assert "Under the board stands its GNU Backgammon ID\n(`PositionID:MatchID`" in README
    out = subprocess.run(
        [sys.executable, "-m", "gammon.cli.main", "play", "--seed", "5", "--level", "random"],
        input="quit\n",
        text=True,
        capture_output=True,
        timeout=300,
    ).stdout
    ids = re.findall(r"^  GNU Backgammon ID: (\S+)$", out, re.MULTILINE)
    assert ids and all(re.fullmatch(r"[A-Za-z0-9+/]{14}:[A-Za-z0-9+/]{12}", i) for i in ids), out
    assert "Position ID" not in out and "Match ID" not in out


def test_no_commands_help_says_the_first_run_compiles_the_engine() -> None:
    # the README: the kernels ship compiled, so a first run starts as fast as a later one (and
    # where they do not fit the computer, a note says so as the compiling happens)
    assert "first engine command after installing starts in a second or two, like later ones" in (
        " ".join(README.split()))
    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for name, command in commands.choices.items():
        assert "compile" not in command.format_help().lower(), name


def test_the_readmes_wildbg_examples_answer_in_the_shapes_it_describes() -> None:
    urls = re.findall(r"^curl '(http://\S+/wildbg/\S+)'$", README, re.MULTILINE)
    assert sorted(urlsplit(u).path for u in urls) == ["/wildbg/eval", "/wildbg/move"]
    five = {"win", "winG", "winBg", "loseG", "loseBg"}
    assert '"probabilities": {"win", "winG", "winBg", "loseG", "loseBg"}' in README
    engine = Engine(plies=0)
    for url in urls:
        path, query = urlsplit(url).path, dict(parse_qsl(urlsplit(url).query))
        if path.endswith("/move"):
            answer = move_answer(engine, read_query(query, dice=True))
            # the README names the answer's one key: a client reads the plays under it
            (key,) = answer
            assert f'`/move` answers `{{"{key}": [...]}}`' in README
            assert answer[key] and all(set(m) == {"play", "probabilities"} for m in answer[key])
            assert all(set(s) == {"from", "to"} for m in answer[key] for s in m["play"])
            assert all(set(m["probabilities"]) == five for m in answer[key])
        else:
            answer = eval_answer(engine, read_query(query, dice=False))
            assert '`/eval` gives `{"cube": {"double", "accept"}, "probabilities": {...}}`' in README
            assert set(answer) == {"cube", "probabilities"}
            assert set(answer["cube"]) == {"double", "accept"} and set(answer["probabilities"]) == five
