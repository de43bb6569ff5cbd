"""docs/training.md's commands as an engineer reproducing the shipped weights runs them: each
``python -m gammon.train`` command line parses with the real parser, and the sequence that makes
the shipped weights from the committed label shards runs and ships a file with every net and head
the shipped weights have."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

from gammon.engine.net.neural import NeuralEvaluator
from gammon.train.__main__ import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "training.md"
SHIPPED = "gammon/engine/net/weights/gammon.npz"
SEQUENCE = "### How to make the shipped weights from the committed shards"


def _shell_lines(text: str) -> list[str]:
    """The lines of the ``sh`` code blocks of ``text``, continuations joined, comments dropped."""
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                lines.append(line)
    return lines


def _train_args(line: str) -> list[str] | None:
    """The arguments after ``python -m gammon.train`` in ``line`` (a loop's shell variables read
    as 1), or None when the line runs no such command."""
    if "python -m gammon.train " not in line:
        return None
    rest = line.split("python -m gammon.train ", 1)[1]
    return shlex.split(re.sub(r"\$\{?\w+\}?", "1", rest))


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start)
    return text[start : end if end >= 0 else len(text)]


def test_every_documented_command_parses_with_the_real_parser() -> None:
    commands = [a for a in map(_train_args, _shell_lines(DOC.read_text())) if a is not None]
    assert len(commands) > 50  # the method's steps, the campaign, the shards' sequence
    parser = build_parser()
    refused = []
    for args in commands:
        try:
            parser.parse_args(args)
        except SystemExit:
            refused.append(shlex.join(args))
    assert refused == []


def _small(args: list[str], folder: Path) -> list[str]:
    """``args`` at small sizes, on ``folder`` in place of data/labels."""
    small = {"--epochs": "1", "--steps": "20", "--games": "2", "--positions": "60", "--anchor-games": "2"}
    out = [small.get(prev, a) for prev, a in zip([""] + args, args)]
    out = [str(folder) if a == "data/labels" else a for a in out]
    return out + {"fit": ["--check-pairs", "0"], "label": ["--workers", "1"]}.get(out[0], [])


def test_the_sequence_from_the_committed_shards_ships_every_net_and_head(
    tmp_path, monkeypatch, capsys
) -> None:
    # five committed shards stand for data/labels: shards 2 and 4 hold borne-off positions outside
    # the crashed net's, which the borne-off head serves
    folder = tmp_path / "labels"
    folder.mkdir()
    for name in ["campaign.json", *(f"shard-{k:05d}.npz" for k in range(5))]:
        shutil.copy(ROOT / "data" / "labels" / name, folder / name)
    lines = _shell_lines(_section(DOC.read_text(), SEQUENCE))
    shipped_from = [line.split()[1] for line in lines if line.startswith("cp ") and line.endswith(SHIPPED)]
    assert len(shipped_from) == 1
    monkeypatch.chdir(tmp_path)
    ran = []
    for line in lines:
        args = _train_args(line)
        if args is not None:
            main(_small(args, folder))
            ran.append(args[0])
    assert ran[:2] == ["campaign", "fit"]
    capsys.readouterr()
    shipped, made = NeuralEvaluator.default(), NeuralEvaluator.load(tmp_path / shipped_from[0])
    for part in ("crashed", "cube_head", "borne_head", "crashed_head", "cube", "borne", "zero_ply",
                 "zero_ply_crashed"):
        assert (getattr(made, part) is None) == (getattr(shipped, part) is None), part
    assert made.contact.w1.shape == shipped.contact.w1.shape


def test_no_command_block_makes_a_folder_an_earlier_line_made() -> None:
    # run in order, a second 'mkdir X && cp ... X/' fails at mkdir and skips its copy: the
    # commands after it would read the first copy's shards
    made: set[str] = set()
    again = []
    for line in _shell_lines(DOC.read_text()):
        words = line.split()
        if words[:1] == ["mkdir"] and "-p" not in words:
            folder = words[1]
            if folder in made:
                again.append(line)
            made.add(folder)
    assert again == []
