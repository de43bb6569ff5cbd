"""What `gammon play` saves: names a .mat file can hold, the format the file's name asks for, the
file's own information kept, and a match that never becomes unsavable."""

from __future__ import annotations

import io
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from gammon.cli.main import main
from gammon.formats import read_mat, read_sgf, write_sgf
from tests.cli.test_cli_resume import doubled_match
from tests.formats.test_mat_gnubg import walk_in_gnubg
from tests.helpers import needs_gnubg


def run(args: list[str], stdin: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main([*args[:1], "--plain", *args[1:]] if args[0] == "play" else args)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("name", ["Ann  Lee", "A : 7", "", "tab\there"])
def test_a_name_no_match_file_can_hold_is_refused_before_play(name, capsys, monkeypatch):
    status, out, err = run(["play", "--name", name, "--level", "random", "--seed", "2"], "\n\n",
                           capsys, monkeypatch)
    assert status == 2 and out == ""
    assert err.startswith("gammon play: --name must be a name a match file can hold") and repr(name) in err
    with_pl = run(["--lang", "pl", "play", "--name", name, "--level", "random"], "", capsys, monkeypatch)
    assert with_pl[0] == 2 and "--name" in with_pl[2] and "must be" not in with_pl[2]


def test_a_name_longer_than_gnubg_keeps_is_refused_before_play(capsys, monkeypatch):
    # saved cut to 31 bytes, it could not be found again: --resume with --name would name no player
    name = "Maximilian Alexander von Hohenberg"
    status, out, err = run(["play", "--name", name, "--level", "random"], "", capsys, monkeypatch)
    assert status == 2 and out == ""
    assert err == (f"gammon play: --name must be a name a match file can hold: '{name}' is longer than "
                   f"the 31 bytes (UTF-8) of a name GNU Backgammon keeps, and would be saved as "
                   f"'{name[:31]}'\n")
    assert run(["play", "--name", name[:31], "--level", "random"], "", capsys, monkeypatch)[0] == 0
    with_cs = run(["--lang", "cs", "play", "--name", "ř" * 16, "--level", "random"], "", capsys, monkeypatch)
    assert with_cs[0] == 2 and "31 bajtů" in with_cs[2] and repr("ř" * 15) in with_cs[2]


def test_a_long_name_is_quoted_cut(capsys, monkeypatch):
    status, _, err = run(["play", "--name", "a\tb" * 1000, "--level", "random"], "", capsys, monkeypatch)
    assert status == 2 and len(err) < 300


def test_names_from_another_format_are_made_fit_for_mat(tmp_path, capsys, monkeypatch):
    sgf, mat = tmp_path / "m.sgf", tmp_path / "m.mat"
    write_sgf(doubled_match(), names=("Mr. L:labba", "Ann  Lee"), file=sgf)
    status, out, err = run(["play", "--resume", str(sgf), "--two-player"], f"save {mat}\nquit\n",
                           capsys, monkeypatch)
    assert status == 0, err
    assert f"Saved to {mat}." in out and "saved as 'Mr. L labba' and 'Ann Lee'" in out
    assert read_mat(mat.read_text()).names == ("Mr. L labba", "Ann Lee")
    # input ending after a play: the autosave too
    status, out, err = run(["play", "--resume", str(sgf), "--two-player"], "take\n", capsys, monkeypatch)
    assert status == 0, err
    [auto] = (Path(os.environ["XDG_DATA_HOME"]) / "gammon").glob("gammon-*.mat")
    assert "Input ended: the match is saved in" in out and "saved as 'Mr. L labba'" in out
    assert read_mat(auto.read_text()).names == ("Mr. L labba", "Ann Lee")


@needs_gnubg
def test_names_longer_than_gnubg_keeps_are_cut_at_a_character(tmp_path, capsys, monkeypatch):
    sgf, mat = tmp_path / "m.sgf", tmp_path / "m.mat"
    # 31 bytes of the first name end inside its last character: gnubg crashed on it
    write_sgf(doubled_match(), names=("x" * 30 + "é", "  Ann"), file=sgf)
    status, out, err = run(["play", "--resume", str(sgf), "--two-player"], f"save {mat}\nquit\n",
                           capsys, monkeypatch)
    assert status == 0, err
    assert f"saved as '{'x' * 30}' and 'Ann'" in out
    (walked,) = walk_in_gnubg([mat])
    assert walked["names"] == ["x" * 30, "Ann"] == list(read_mat(mat.read_text()).names)


def test_save_writes_the_format_the_file_name_asks_for(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sgf, xg, plain = Path("s1.sgf"), Path("s1.xg"), Path("plain")
    status, out, err = run(["play", "--two-player", "--seed", "1"],
                           f"13/8 13/11\nsave {sgf}\nsave {xg}\nsave {plain}\n", capsys, monkeypatch)
    assert status == 0, err
    assert f"Saved to {sgf}." in out and f"Saved to {plain}." in out
    assert f"Could not save to '{xg}': gammon cannot write xg files: name it .mat or .sgf." in out
    assert not xg.exists()
    assert read_sgf(sgf.read_text()).names == ("X", "O")
    assert read_mat(plain.read_text()).names == ("X", "O")  # no extension: .mat
    # the SGF file goes on
    status, out, err = run(["play", "--resume", str(sgf), "--two-player"], f"save {sgf}\nquit\n",
                           capsys, monkeypatch)
    assert status == 0, err
    assert f"Resumed a money session from {sgf}" in out and f"Saved to {sgf}." in out
    game = read_sgf(sgf.read_text()).match.games[0]
    assert [str(a.play) for a in game.history if hasattr(a, "play")] == ["13/11 13/8"]


SITE_FILE = Path(__file__).parents[1] / "data/mat/real/bgstudio/bglab-adidan-llabba-7pt-2023_09_27.mat"


def test_saving_a_resumed_file_keeps_its_header_tags(tmp_path, capsys, monkeypatch):
    path = tmp_path / "t1copy.mat"
    path.write_text("".join(SITE_FILE.read_text().splitlines(keepends=True)[:25]))
    before = read_mat(path.read_text()).tags
    site_tags = {"Site", "Match ID", "Event", "Round", "EventDate", "EventTime", "Unrated", "ClockType"}
    assert site_tags <= set(before)
    status, out, err = run(["play", "--resume", str(path), "--two-player"], "save\n", capsys, monkeypatch)
    assert status == 0 and f"Saved to {path}." in out, err
    assert read_mat(path.read_text()).tags == before
    # and in the autosave when input ends after a play
    status, out, err = run(["play", "--resume", str(path), "--two-player", "--seed", "1"],
                           "\n10/8 7/2\n", capsys, monkeypatch)
    [auto] = (Path(os.environ["XDG_DATA_HOME"]) / "gammon").glob("gammon-*.mat")
    assert read_mat(auto.read_text()).tags == before


@pytest.mark.parametrize(("name", "level"), [("random", "random"), ("pubeval", "random"),
                                             ("gnubg", "gnubg-external:localhost:1")])
def test_a_name_a_saved_match_would_take_for_the_computer_is_refused(name, level, capsys, monkeypatch):
    status, out, err = run(["play", "--name", name, "--level", level], "", capsys, monkeypatch)
    assert status == 2 and out == ""
    assert err == (f"gammon play: --name cannot be '{name}', a computer player's name: a saved match could "
                   "not tell you from the computer\n")
    pl = run(["--lang", "pl", "play", "--name", name, "--level", level], "", capsys, monkeypatch)
    assert pl[0] == 2 and "nazwą gracza komputerowego" in pl[2]


def test_another_name_resumes_against_the_computer(tmp_path, capsys, monkeypatch):
    saved = tmp_path / "same.mat"
    status, _, err = run(["play", "--name", "Ann", "--level", "random", "--seed", "2"],
                         f"\nsave {saved}\nquit\n", capsys, monkeypatch)
    assert status == 0, err
    status, out, err = run(["play", "--resume", str(saved)], "quit\n", capsys, monkeypatch)
    assert status == 0 and "Ann against random" in out, err


@pytest.mark.parametrize("lang", ["en", "pl", "cs", "sk"])
def test_help_and_the_save_usage_say_what_save_writes(lang, capsys, monkeypatch):
    status, out, err = run(["play", "--lang", lang, "--two-player"], "help\nsave\n", capsys, monkeypatch)
    assert status == 0, err
    # both name SGF for .sgf, and .xg as refused: not only .mat any more
    assert out.count("FILE.sgf" if lang == "en" else ".sgf") >= 2 and out.count(".xg") >= 2
    assert "as a .mat file, at any time" not in out and "(a .mat file name)" not in out


def test_a_home_folder_tilde_is_expanded_where_no_shell_expands_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    # typed at the prompt: no shell between
    status, out, err = run(["play", "--two-player", "--seed", "1"], "13/8 13/11\nsave ~/t.mat\n",
                           capsys, monkeypatch)
    assert status == 0 and f"Saved to {tmp_path / 't.mat'}." in out, err
    # '--resume=~/...' is not expanded by a shell either
    status, out, err = run(["play", "--resume=~/t.mat", "--two-player"], "save\nquit\n", capsys, monkeypatch)
    assert status == 0 and f"Saved to {tmp_path / 't.mat'}." in out, err
    status, out, err = run(["convert", "~/t.mat", "~/t.sgf"], "", capsys, monkeypatch)
    assert status == 0 and read_sgf((tmp_path / "t.sgf").read_text()).names == ("X", "O"), err
    status, out, err = run(["analyse", "~/missing.mat"], "", capsys, monkeypatch)
    assert status == 2 and repr(str(tmp_path / "missing.mat")) in err


def test_a_name_typed_in_quotes_is_saved_without_them(tmp_path, capsys, monkeypatch):
    # as a shell would take them: the quotes were kept, and '"my match.sgf"' did not end in .sgf,
    # so a .mat file was written under a name with quotes in it
    monkeypatch.chdir(tmp_path)
    typed = "13/8 13/11\nsave \"my match.sgf\"\nsave 'x y.mat'\n\nquit\n'q.sgf'\n"  # then asked at 'quit'
    status, out, err = run(["play", "--two-player", "--seed", "1"], typed, capsys, monkeypatch)
    assert status == 0, err
    assert "Saved to my match.sgf." in out and "Saved to x y.mat." in out and "Saved to q.sgf." in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my match.sgf", "q.sgf", "x y.mat"]
    assert read_sgf((tmp_path / "my match.sgf").read_text()).names == ("X", "O")
    assert read_mat((tmp_path / "x y.mat").read_text()).names == ("X", "O")


def test_save_asks_before_overwriting_another_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    other = tmp_path / "other.mat"
    other.write_text("someone's file")
    status, out, err = run(["play", "--two-player", "--seed", "1"],
                           "13/8 13/11\nsave other.mat\nn\nsave other.mat\n\nsave other.mat\ny\n"
                           "save other.mat\nquit\n", capsys, monkeypatch)
    assert status == 0, err
    assert out.count("'other.mat' exists: overwrite it? [y/N] ") == 3  # not once saved to: its own file now
    assert out.count("Not saved: 'other.mat' is left as it was.") == 2
    assert out.count("Saved to other.mat.") == 2
    assert read_mat(other.read_text()).names == ("X", "O")
    # the file resumed from is the match's own: no question
    status, out, err = run(["play", "--resume", "other.mat", "--two-player"], "save other.mat\nquit\n",
                           capsys, monkeypatch)
    assert status == 0 and "overwrite" not in out and "Saved to other.mat." in out, err
    # in Polish, 't' (tak) says yes
    third = tmp_path / "third.mat"
    third.write_text("keep")
    status, out, err = run(["play", "--lang", "pl", "--two-player", "--seed", "1"],
                           "13/8 13/11\nzapisz third.mat\nt\nkoniec\n", capsys, monkeypatch)
    assert status == 0 and "'third.mat' istnieje: nadpisać go? [t/N] " in out, err
    assert read_mat(third.read_text()).names == ("X", "O")


def test_input_ending_at_the_overwrite_question_keeps_the_file_and_autosaves(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    other = tmp_path / "other.mat"
    other.write_text("someone's file")
    status, out, err = run(["play", "--two-player", "--seed", "1"], "13/8 13/11\nsave other.mat\n",
                           capsys, monkeypatch)
    assert status == 0, err
    assert other.read_text() == "someone's file"
    [auto] = (Path(os.environ["XDG_DATA_HOME"]) / "gammon").glob("gammon-*.mat")
    assert "Input ended: the match is saved in" in out and read_mat(auto.read_text()).names == ("X", "O")


def test_a_name_with_outer_spaces_is_stripped_as_files_read_it_back(tmp_path, capsys, monkeypatch):
    saved = tmp_path / "sp.mat"
    status, out, err = run(["play", "--name", " sp ", "--level", "random", "--seed", "2"],
                           f"\nsave {saved}\nquit\n", capsys, monkeypatch)
    assert status == 0, err
    assert read_mat(saved.read_text()).names[0] == "sp"
    status, out, err = run(["play", "--resume", str(saved), "--name", " sp "], "quit\n", capsys, monkeypatch)
    assert status == 0 and "sp against random" in out, err


def test_saving_a_mat_file_with_the_dice_rolled_says_the_roll_is_not_kept(tmp_path, capsys, monkeypatch):
    mat, sgf = tmp_path / "m.mat", tmp_path / "m.sgf"
    # O opens 3-1: its roll waits to be played, which a .mat file cannot hold and SGF can
    status, out, err = run(["play", "--two-player", "--seed", "2"], f"save {mat}\nsave {sgf}\n8/5 6/5\n"
                           f"save {mat}\nquit\n", capsys, monkeypatch)
    assert status == 0, err
    note = "A .mat file keeps a roll only with its play: resumed from this one, the game rolls again"
    assert f"Saved to {mat}.\n{note} instead of playing the 3-1 (a .sgf file keeps them).\n" in out
    assert out.count(note) == 1  # not for the SGF file, nor once the roll is played


def test_saving_while_an_offer_to_resign_waits_says_the_offer_is_not_kept(tmp_path, capsys, monkeypatch):
    # the file was saved without a word of the offer, which a resumed game no longer had
    mat, sgf = tmp_path / "r.mat", tmp_path / "r.sgf"
    status, out, err = run(["play", "--two-player", "--seed", "2"], f"8/5 6/5\nresign gammon\nsave {mat}\n"
                           f"save {sgf}\nreject\nsave {mat}\nquit\n", capsys, monkeypatch)
    assert status == 0, err
    note = ("A saved file does not keep an offer to resign: resumed from this one, the game goes on from "
            "before the offer.")
    assert f"Saved to {mat}.\n{note}\n" in out and f"Saved to {sgf}.\n{note}\n" in out
    assert out.count(note) == 2  # not once the offer is answered
    for path in (mat, sgf):
        status, out, err = run(["play", "--two-player", "--resume", str(path)], "quit\n", capsys, monkeypatch)
        assert status == 0 and "X (roll or double) > " in out, err


def _file_size_limit(limit: int) -> None:
    """In the child: writes past ``limit`` bytes fail (EFBIG), as on a full disk."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_a_save_that_fails_leaves_the_file_saved_before_whole(tmp_path):
    saved = tmp_path / "m.mat"
    proc = subprocess.run([sys.executable, "-m", "gammon", "play", "--plain", "--two-player", "--seed", "2"],
                          input="8/5 6/5\nsave m.mat\nquit\n", text=True, capture_output=True,
                          cwd=tmp_path, timeout=120)
    assert proc.returncode == 0 and saved.exists(), proc.stderr
    before = saved.read_text()
    # resumed, played on, and saved again where the file cannot grow past 100 bytes
    proc = subprocess.run([sys.executable, "-m", "gammon", "play", "--plain", "--two-player", "--seed", "3",
                           "--resume", "m.mat"], input="\n\nsave\nquit\n\n", text=True,
                          capture_output=True, cwd=tmp_path, timeout=120,
                          preexec_fn=lambda: _file_size_limit(100))
    assert "Could not save to 'm.mat': File too large." in proc.stdout, proc.stdout + proc.stderr
    assert saved.read_text() == before  # was cut to its first 100 bytes, the match unreadable
    assert [p.name for p in tmp_path.iterdir()] == ["m.mat"]  # no temporary file left beside it


def test_a_save_through_a_link_writes_the_file_it_names_with_its_permissions(tmp_path, capsys, monkeypatch):
    real, link = tmp_path / "real.mat", tmp_path / "link.mat"
    real.write_text("")
    real.chmod(0o640)
    link.symlink_to(real)
    status, out, err = run(["play", "--two-player", "--seed", "2"], f"8/5 6/5\nsave {link}\ny\n", capsys,
                           monkeypatch)
    assert status == 0 and f"Saved to {link}." in out, err
    assert link.is_symlink() and "31: 8/5 6/5" in real.read_text()
    assert real.stat().st_mode & 0o777 == 0o640


def test_why_a_file_cannot_be_saved_or_read_is_said_in_the_language(tmp_path, capsys, monkeypatch):
    # the system's reason stayed English: "Nie udało się zapisać do '...': No such file or directory."
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    status, out, err = run(["--lang", "pl", "play", "--two-player", "--seed", "2"],
                           "save none/m.mat\nsave folder\nquit\n\n", capsys, monkeypatch)
    assert status == 0, err
    assert "Nie udało się zapisać do 'none/m.mat': Nie ma takiego pliku ani katalogu." in out
    assert "Nie udało się zapisać do 'folder': Jest katalogiem." in out
    status, _, err = run(["--lang", "cs", "play", "--resume", "none/m.mat"], "", capsys, monkeypatch)
    assert status == 2 and err == "gammon play: nelze přečíst 'none/m.mat': Soubor nebo adresář neexistuje\n"
    _, out, _ = run(["play", "--two-player", "--seed", "2"], "save none/m.mat\nquit\n\n", capsys, monkeypatch)
    assert "Could not save to 'none/m.mat': No such file or directory." in out  # English: the system's


def test_a_file_that_cannot_be_saved_is_named_whole(tmp_path, capsys, monkeypatch):
    # a path past 50 characters was cut: "Could not save to '/tmp/pytest-of-root/pytest-1431/test_a_fi…'"
    long = f"{tmp_path}/no/such/folder/for/the/matches/of/this/season/m"
    status, out, err = run(["play", "--two-player", "--seed", "2"],
                           f"save {long}.mat\nsave {long}.xg\nquit\n\n", capsys, monkeypatch)
    assert status == 0, err
    assert f"Could not save to '{long}.mat': No such file or directory." in out
    assert f"Could not save to '{long}.xg': gammon cannot write xg files: name it .mat or .sgf." in out
