"""Real .mat files read by gammon and by GNU Backgammon: do they make the same matches?

Every file of the corpus ``tests/data/mat/real`` (files written by Backgammon Galaxy, Backgammon
Studio, eXtreme Gammon, GNU Backgammon... collected from public repositories, listed in its
MANIFEST.tsv) is imported by Debian's ``gnubg -t`` (``import mat``, one process for all files)
and read by gammon (``read_mat`` + ``to_match``). A file agrees when both give the same number
of games, the same score before each game, the same winner and points, and the same plays in
the same order: same player, dice, position before and position after (Position IDs).

    python -m benchmarks.agreement.mat_vs_gnubg [--verbose]

Prints the agreement per exporter and in total, then every difference, with what gnubg printed
while importing the file. Differences whose cause is known are listed, with the reason, in
``KNOWN_DIFFERENCES`` (benchmarks/agreement/mat_oracle.py); they still count as differences. Today:

- other/gammonview-5nqfGw9bWG3deTaU-7pt.mat, GNU Backgammon's mistake: the file plays
  "13: 14/10 13/12" (the 1 used twice). gnubg's import never checks a play against the dice
  (IsValidMove checks only 1-6 pips per step onto an open point), takes it, and then drops later
  plays as invalid; gammon refuses the line.
- galaxy/bglab-lasse-match11926267.mat and 12168993.mat, gammon's limit: Backgammon Galaxy lets a
  player resign on the opponent's roll (an unnumbered " Losses 1 point" line after the loser's
  dance); gammon's Game (game.py) takes a resignation only from the player to act. gnubg imports
  the resignation but also repeats the loser's dance as an extra play record.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict

from benchmarks.agreement.mat_oracle import CORPUS, KNOWN_DIFFERENCES, compare_files, corpus_manifest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verbose", action="store_true", help="print gnubg's import messages too")
    args = parser.parse_args()

    manifest = corpus_manifest()
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
    differing = [r.path.relative_to(CORPUS).as_posix() for r in results if not r.agrees]
    faults = [KNOWN_DIFFERENCES[name].fault for name in differing if name in KNOWN_DIFFERENCES]
    print(f"differences: {len(differing)}: {faults.count('gnubg')} gnubg's mistakes, "
          f"{faults.count('gammon')} gammon limits outside the .mat reader (explained below), "
          f"{len(differing) - len(faults)} unexplained")

    for result in results:
        if result.agrees:
            continue
        name = result.path.relative_to(CORPUS).as_posix()
        print(f"\n{name} ({manifest[name]['exporter']})")
        for problem in result.problems:
            print(f"  {problem}")
        known = KNOWN_DIFFERENCES.get(name)
        if known is not None:
            print(f"  known, {known.fault}'s side: {known.reason}")
        if args.verbose and result.gnubg_printed:
            print("  gnubg printed: " + result.gnubg_printed.replace("\n", "\n                 "))
    return 0 if total == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
