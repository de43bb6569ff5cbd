"""Bad inputs to ``python -m gammon.train``: each ends with a message that quotes the input and
exit status 2, not a traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numba
import numpy as np
import pytest

from gammon.train.__main__ import main
from gammon.train.campaign import labels_of, load_shard

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "gammon" / "engine" / "net" / "weights" / "gammon.npz"


def _exit(argv: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    return capsys.readouterr().err


def _cut_shard(folder: Path) -> Path:
    folder.mkdir()
    shutil.copy(ROOT / "data" / "labels" / "campaign.json", folder)
    whole = (ROOT / "data" / "labels" / "shard-00000.npz").read_bytes()
    cut = folder / "shard-00000.npz"
    cut.write_bytes(whole[: len(whole) // 2])  # a copy that stopped half way
    return cut


def test_a_cut_shard_is_named_by_status_and_by_the_fit(tmp_path, capsys) -> None:
    cut = _cut_shard(tmp_path / "labels")
    with pytest.raises(ValueError, match="is not a label shard"):
        load_shard(cut)
    for argv in (
        ["campaign", str(tmp_path / "labels"), "--status"],
        ["fit", "--labels", str(tmp_path / "labels"), "--out", str(tmp_path / "x.npz")],
    ):
        err = _exit(argv, capsys)
        assert repr(str(cut)) in err and "not a label shard" in err and "Traceback" not in err


def test_a_missing_folder_is_named(tmp_path, capsys) -> None:
    nowhere = tmp_path / "nowhere"
    assert str(nowhere) in _exit(["campaign", str(nowhere), "--status"], capsys)
    assert str(nowhere) in _exit(["fit", "--labels", str(nowhere), "--out", str(tmp_path / "x.npz")], capsys)


def test_a_missing_shard_file_is_named(tmp_path, capsys) -> None:
    missing = tmp_path / "labels" / "shard-00007.npz"
    err = _exit(["fit", "--labels", str(missing), "--out", str(tmp_path / "x.npz")], capsys)
    assert repr(str(missing)) in err and "not a label shard" in err and "Traceback" not in err


def test_weights_of_the_wrong_shape_are_named(tmp_path, capsys) -> None:
    with np.load(SHIPPED) as data:
        arrays = {name: data[name] for name in data.files}
    arrays["contact_w1"] = arrays["contact_w1"][:200]  # another encoding's inputs
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, **arrays)
    labels = tmp_path / "labels"
    labels.mkdir()
    for name in ("campaign.json", "shard-00000.npz"):
        shutil.copy(ROOT / "data" / "labels" / name, labels)
    for argv in (
        ["check", str(wrong), "--pairs", "1"],
        ["fit", "--resume", str(wrong), "--labels", str(labels), "--out", str(tmp_path / "x.npz")],
        ["campaign", str(tmp_path / "c"), "--weights", str(wrong), "--shards", "1"],
        ["cube-head", "--resume", str(wrong), "--labels", str(labels), "--out", str(tmp_path / "x.npz")],
    ):
        err = _exit(argv, capsys)
        assert repr(str(wrong)) in err and "200 inputs" in err, argv


def test_a_shard_being_saved_is_not_counted_as_finished(tmp_path, capsys) -> None:
    # a shard is written as shard-NNNNN.npz.tmp.npz, then renamed: while a run saves shard 2, or
    # after one was killed mid-write, such a file lies there, half written or whole
    folder = tmp_path / "labels"
    folder.mkdir()
    for name in ("campaign.json", "shard-00000.npz", "shard-00001.npz"):
        shutil.copy(ROOT / "data" / "labels" / name, folder)
    whole = (folder / "shard-00001.npz").read_bytes()
    (folder / "shard-00002.npz.tmp.npz").write_bytes(whole)
    (folder / ".partial").mkdir()
    (folder / ".partial" / "shard-00003.npz.tmp.npz").write_bytes(whole[:100])
    main(["campaign", str(folder), "--status"])
    assert capsys.readouterr().out.startswith("2 shards finished, 500 positions")
    manifest = json.loads((folder / "manifest.json").read_text())
    assert [r["file"] for r in manifest["shards"]] == ["shard-00000.npz", "shard-00001.npz"]
    assert len(labels_of(folder)) == 500


@pytest.mark.parametrize("command", ["fit", "cube-head"])
def test_an_out_file_that_cannot_be_written_is_refused_before_the_work(tmp_path, capsys, command) -> None:
    labels = tmp_path / "labels"
    labels.mkdir()
    for name in ("campaign.json", "shard-00000.npz"):
        shutil.copy(ROOT / "data" / "labels" / name, labels)
    out = tmp_path / "missing" / "net.npz"
    with pytest.raises(SystemExit) as stop:
        main([command, "--labels", str(labels), "--out", str(out)])
    assert stop.value.code == 2
    said = capsys.readouterr()
    assert repr(str(out)) in said.err and "folder does not exist" in said.err
    assert said.out == ""  # refused before the fit began, not after it
    assert "is a folder" in _exit([command, "--labels", str(labels), "--out", str(labels)], capsys)


def test_more_threads_than_the_machine_runs_are_refused_quoting_the_number(tmp_path, capsys) -> None:
    too_many = str(numba.config.NUMBA_NUM_THREADS + 1)
    out = str(tmp_path / "x.npz")
    for argv in (
        ["selfplay", "--out", out, "--games", "1", "--threads", too_many],
        ["improve", "--resume", str(SHIPPED), "--out", out, "--games", "1", "--threads", too_many],
        ["fit", "--labels", str(tmp_path), "--out", out, "--method", "sgd", "--threads", too_many],
    ):
        err = _exit(argv, capsys)
        assert f"--threads {too_many}:" in err and "numba threads" in err, argv
    assert not (tmp_path / "x.npz").exists()
