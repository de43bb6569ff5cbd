"""Real .mat files read by gammon and by GNU Backgammon: do they make the same matches?

Every file of the corpus ``tests/data/mat/real`` (files written by Backgammon Galaxy, Backgammon
Studio, eXtreme Gammon, GNU Backgammon... collected from public repositories, listed in its
MANIFEST.tsv) is imported by Debian's ``gnubg -t`` (``import mat``, one process for all files)
and read by gammon (``read_mat`` + ``to_match``). A file agrees when both give the same number
of games, the same score before each game, the same winner and points, and the same plays in
the same order: same player, dice, position before and position after (Position IDs).

    python benchmarks/mat_vs_gnubg.py [--verbose]

Prints the agreement per exporter and in total, then every difference, with what gnubg printed
while importing the file. Differences that are GNU Backgammon's own mistakes are listed in
KNOWN_GNUBG_BUGS with the reason; they are reported, not hidden.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.formats.mat_oracle import compare_files  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "mat" / "real"

# file (relative to the corpus) -> why gnubg, not gammon, is wrong there
KNOWN_GNUBG_BUGS: dict[str, str] = {}


def load_manifest() -> dict[str, dict[str, str]]:
    with open(CORPUS / "MANIFEST.tsv", newline="", encoding="utf-8") as f:
        return {row["file"]: row for row in csv.DictReader(f, delimiter="\t")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verbose", action="store_true", help="print gnubg's import messages too")
    args = parser.parse_args()

    manifest = load_manifest()
    paths = [CORPUS / name for name in sorted(manifest)]
    start = time.perf_counter()
    results = compare_files(paths)
    elapsed = time.perf_counter() - start

    by_exporter: dict[str, list[bool]] = defaultdict(list)
    for result in results:
        name = result.path.relative_to(CORPUS).as_posix()
        by_exporter[manifest[name]["exporter"]].append(result.agrees)
    print(f"{'exporter':<46} agree / files")
    for exporter, flags in sorted(by_exporter.items()):
        print(f"{exporter:<46} {sum(flags):5d} / {len(flags)}")
    total = sum(r.agrees for r in results)
    print(f"{'total':<46} {total:5d} / {len(results)}  ({100 * total / max(len(results), 1):.1f}%)"
          f"  in {elapsed:.1f} s")

    for result in results:
        if result.agrees:
            continue
        name = result.path.relative_to(CORPUS).as_posix()
        print(f"\n{name} ({manifest[name]['exporter']})")
        for problem in result.problems:
            print(f"  {problem}")
        if name in KNOWN_GNUBG_BUGS:
            print(f"  gnubg's mistake: {KNOWN_GNUBG_BUGS[name]}")
        if args.verbose and result.gnubg_printed:
            print("  gnubg printed: " + result.gnubg_printed.replace("\n", "\n                 "))
    return 0 if total == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
