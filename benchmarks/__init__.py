"""gammon's benchmarks: speed, strength, agreement with GNU Backgammon and the web server under load,
run on demand, never in the test suite. Each is a module run from the repository root,
``python -m benchmarks.<group>.<name> ...``; ``benchmarks/README.md`` lists them with their commands.

:mod:`benchmarks.gnubg_harness` runs the GNU Backgammon program for the benchmarks and the tests
alike; it needs only the standard library.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "data"  # the benchmarks' own data: the judge set, GNU Backgammon's cube answers
WILDBG = ROOT / "tests" / "data" / "wildbg"  # the wildbg benchmark positions, kept with the tests' data
