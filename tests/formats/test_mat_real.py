"""Real .mat files, as real exporters wrote them, read as GNU Backgammon reads them.

The corpus ``tests/data/mat/real`` (MANIFEST.tsv says where each file comes from, under which
licence, and which program wrote it) is imported by Debian's ``gnubg -t`` and read by gammon;
every file must give the same games, scores, plays and positions (see mat_oracle.py), except the
few whose difference is known and written down in ``KNOWN_DIFFERENCES`` - and those must still
differ in exactly the known way, so that a fix or a new mistake shows."""

from __future__ import annotations

import pytest

from benchmarks.agreement.mat_oracle import CORPUS, KNOWN_DIFFERENCES, compare_files, corpus_manifest
from tests.helpers import needs_gnubg


def test_the_manifest_lists_every_corpus_file_with_its_source():
    manifest = corpus_manifest()
    on_disk = {p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*.mat")}
    assert set(manifest) == on_disk
    assert len(manifest) >= 150
    for name, row in manifest.items():
        assert row["repo"].count("/") == 1 and row["path"], name
        assert row["licence"] and row["exporter"], name
    assert set(KNOWN_DIFFERENCES) <= set(manifest)


@pytest.mark.slow
@needs_gnubg
def test_every_real_file_reads_as_gnubg_reads_it():
    manifest = corpus_manifest()
    results = compare_files([CORPUS / name for name in sorted(manifest)])
    wrong = []
    for result in results:
        name = result.path.relative_to(CORPUS).as_posix()
        known = KNOWN_DIFFERENCES.get(name)
        if known is None and not result.agrees:
            wrong.append(f"{name}: {'; '.join(result.problems)}")
        elif known is not None and (result.agrees or known.problem not in result.problems[0]):
            wrong.append(f"{name}: the known difference ({known.problem!r}) changed: "
                         f"{'; '.join(result.problems) or 'the readings now agree'}")
    assert not wrong, "\n".join(wrong)
