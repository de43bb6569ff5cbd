"""A match file may come from anyone: the players' names it holds are shown in the terminal as
they are, so the readers replace control characters (terminal escape sequences above all) in
them, and the writers refuse names that hold any."""

from __future__ import annotations

import subprocess
import sys

from gammon import Match, RandomDice, Rules
from gammon.formats import read_mat, read_sgf, read_xg, write_mat
from gammon.formats.sgf import format_sgf
from gammon.words import printable
from tests.formats.xg_writer import xg_bytes

EVIL = "Eve\x1b]0;pwned\x07\x1b[2J\u202e"  # a window title, a cleared screen, a right-to-left override


def played() -> Match:
    match = Match(Rules(match_length=3), RandomDice(3))
    g = match.game
    g.roll()
    g.play(g.legal_plays()[0])
    return match


def test_printable_replaces_every_control_character() -> None:
    assert printable("Anné Zoë 山田") == "Anné Zoë 山田"
    assert printable(EVIL) == "Eve\ufffd]0;pwned\ufffd\ufffd[2J\ufffd"
    assert printable("a\tb\nc\x00") == "a\ufffdb\ufffdc\ufffd"


def test_the_readers_replace_control_characters_in_names() -> None:
    good = write_mat(played(), names=("Eve", "Bob"))
    mat = good.replace('"Eve"', f'"{EVIL}"').replace(" Eve :", f" {EVIL} :")
    assert read_mat(mat).names == (printable(EVIL), "Bob")
    sgf = format_sgf(played(), names=(EVIL, "Bob"))
    assert read_sgf(sgf).names == (printable(EVIL), "Bob")
    xg = xg_bytes(played(), names=(EVIL, "Bob"))
    assert read_xg(xg).names == (printable(EVIL), "Bob")


def test_gammon_analyse_prints_no_escape_from_a_file(tmp_path) -> None:
    good = write_mat(played(), names=("Eve", "Bob"))
    path = tmp_path / "evil.mat"
    path.write_text(good.replace('"Eve"', f'"{EVIL}"').replace(" Eve :", f" {EVIL} :"))
    out = subprocess.run([sys.executable, "-m", "gammon.cli.main", "analyse", str(path), "--plies", "0"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "Eve\ufffd]0;pwned" in out.stdout
    assert "\x1b" not in out.stdout + out.stderr and "\x07" not in out.stdout


def test_names_with_control_characters_are_not_written() -> None:
    text = write_mat(played(), names=(EVIL, "Bob"))
    assert "\x1b" not in text and "\x07" not in text
    assert read_mat(text).names == (printable(EVIL), "Bob")
    out = subprocess.run([sys.executable, "-m", "gammon.cli.main", "play", "--name", "a\x1b[2Jb"],
                         capture_output=True, text=True, timeout=300, input="")
    assert out.returncode == 2 and "--name must be a name a match file can hold" in out.stderr
    assert "control characters" in out.stderr and "\x1b" not in out.stderr  # quoted escaped, never raw


def test_mat_header_tags_are_read_without_control_characters(tmp_path) -> None:
    good = write_mat(played(), names=("Eve", "Bob"))
    path = tmp_path / "evil.mat"
    path.write_text(f'; [Site\x1b[2J\x07 "{EVIL}"]\n; [Event "{EVIL}"]\n' + good)
    tags = read_mat(path.read_text()).tags
    assert tags["Site\ufffd[2J\ufffd"] == tags["Event"] == printable(EVIL)
    # gammon convert names the header tags SGF cannot hold
    out = subprocess.run([sys.executable, "-m", "gammon.cli.main", "convert", str(path),
                          str(tmp_path / "e.sgf")], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "header tags (Site\ufffd[2J\ufffd)" in out.stdout
    assert "\x1b" not in out.stdout + out.stderr and "\x07" not in out.stdout
