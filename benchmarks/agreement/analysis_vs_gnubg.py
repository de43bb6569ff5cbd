"""gammon's match analysis against GNU Backgammon's own, on matches GNU Backgammon plays against
itself at several noise levels.

GNU Backgammon (the Debian program, ``gnubg -t``) plays ``--matches`` matches to 3 and 5 points,
each player at 0 ply with a checker and cube noise drawn from ``--noise``, exports each as ``.mat``,
then runs its ``analyse match`` at its default settings (timed) and reads its statistics (the
per-game statistics of ``gnubg.match(analysis, statistics)``, summed as ``show statistics match``
sums them; the printed ``show statistics match`` of the first match is checked against the sum).
gammon reads every exported file and analyses it with ``Engine(plies=--plies)`` (timed). Printed:
how many players' unforced-move counts agree, the correlation of checker error rates and of luck
rates over all players, the mean absolute difference of the error rates of players under 15 mEMG
(GNU Backgammon's figure), the decision-by-decision agreement, and the time per match of both.
GNU Backgammon is the judge only: nothing from it goes into the package.

    python -m benchmarks.agreement.analysis_vs_gnubg [--matches 32] [--plies 2] [--seed 1] [--workdir DIR]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from benchmarks.gnubg_harness import run_gnubg  # noqa: E402
from gammon.analysis import CheckerPlay, analyse  # noqa: E402
from gammon.engine.engine import Engine  # noqa: E402
from gammon.formats import read_mat  # noqa: E402

# Runs inside gnubg: plays, exports and analyses every match of CONFIG, emitting each one's results.
GNUBG_SCRIPT = r'''
import time
CONFIG = json.loads(%(config)r)

gnubg.command("set player 0 gnubg")
gnubg.command("set player 1 gnubg")
for m in CONFIG["matches"]:
    for p, noise in enumerate(m["noise"]):
        for what in ("chequerplay", "cubedecision"):
            gnubg.command("set player %%d %%s evaluation plies 0" %% (p, what))
            gnubg.command("set player %%d %%s evaluation noise %%.3f" %% (p, what, noise))
    gnubg.command("set seed %%d" %% m["seed"])
    gnubg.command("new match %%d" %% m["length"])
    gnubg.command("set player 0 name %%s" %% m["names"][0])
    gnubg.command("set player 1 name %%s" %% m["names"][1])
    gnubg.command("export match mat %%s" %% m["file"])
    start = time.perf_counter()
    gnubg.command("analyse match")
    seconds = time.perf_counter() - start
    data = gnubg.match(1, 0, 1, 0)
    printed = capture("show statistics match") if m.get("print") else None
    games = []
    for g in data["games"]:
        moves = []
        for rec in g["game"]:
            an = rec.get("analysis") or {}
            if rec.get("action") == "move" and rec.get("move"):
                scores = [x["score"] for x in an.get("moves", [])]
                i = an.get("imove", -1)
                error = scores[0] - scores[i] if scores and 0 <= i < len(scores) else None
                moves.append([rec["player"], len(scores), error, an.get("luck-value")])
        games.append({"stats": g["stats"], "moves": moves})
    emit({"file": m["file"], "seconds": seconds, "games": games, "printed": printed})
'''


def gnubg_matches(matches: list[dict], workdir: Path) -> list[dict]:
    """GNU Backgammon plays, exports and analyses ``matches`` in ``workdir``: its results of each."""
    script = GNUBG_SCRIPT % {"config": json.dumps({"matches": matches})}
    return run_gnubg(script, workdir=workdir, timeout=7200, expect=len(matches))


CUBE_ERRORS = ("missed-double-below-cp", "missed-double-above-cp", "wrong-double-below-dp",
               "wrong-double-above-tg", "wrong-take", "wrong-drop")


def gnubg_player(games: list[dict], side: str) -> dict:
    """One player's statistics over a match, summed over its games as gnubg sums them. (The
    python module's cube "error-skill" is the per-decision rate: the total is the sum of the six
    kinds of cube error.)"""
    t = {"moves": 0, "unforced": 0, "checker": 0.0, "cube": 0.0, "close": 0, "luck": 0.0, "cube_total": 0}
    for g in games:
        s = g["stats"][side]
        t["moves"] += s["moves"]["total-moves"]
        t["unforced"] += s["moves"]["unforced-moves"]
        t["checker"] += s["moves"]["error-skill"]
        t["cube"] += sum(s["cube"][f"err-{kind}-skill"] for kind in CUBE_ERRORS)
        t["close"] += s["cube"]["close-cube"]
        t["cube_total"] += s["cube"]["total-cube"]
        t["luck"] += s["dice"]["luck"]
    return {"moves": t["moves"], "unforced": t["unforced"], "checker_total": t["checker"],
            "checker_rate": 1000 * t["checker"] / max(t["unforced"], 1),
            "cube_error": t["cube"], "close": t["close"], "cube_total": t["cube_total"],
            "overall_rate": 1000 * (t["checker"] + t["cube"]) / max(t["unforced"] + t["close"], 1),
            "luck_total": t["luck"], "luck_rate": 1000 * t["luck"] / max(t["moves"], 1)}


def check_printed(printed: str, summed: list[dict]) -> str:
    """Compare what ``show statistics match`` printed with the figures summed from the games."""
    lines = printed.splitlines()

    def numbers(label: str, nth: int = 0) -> list[float]:
        found = [ln for ln in lines if ln.startswith(label)][nth]
        words = found[len(label):].replace("(", " ").replace(")", " ").split()
        return [float(w.rstrip("%")) for w in words if w.rstrip("%").lstrip("+-").replace(".", "").isdigit()]

    got = {"unforced": numbers("Unforced moves")[:2],
           "checker": numbers("Error total EMG", 0)[0::2][:2],
           "cube": numbers("Error total EMG", 1)[0::2][:2],
           "luck": numbers("Luck total EMG")[0::2][:2]}
    want = {"unforced": [s["unforced"] for s in summed],
            "checker": [-s["checker_total"] for s in summed],
            "cube": [-s["cube_error"] for s in summed],
            "luck": [s["luck_total"] for s in summed]}
    bad = [k for k in got if not np.allclose(got[k], want[k], atol=2e-3)]
    return "agrees (unforced moves, checker, cube and luck totals)" if not bad else \
        f"differs in {bad}: printed {got}, summed {want}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=32)
    parser.add_argument("--plies", type=int, default=2, choices=(0, 1, 2))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--noise", type=float, nargs="+", default=[0.0, 0.01, 0.02, 0.04, 0.08, 0.16])
    parser.add_argument("--workdir", type=Path, default=None, help="keep the .mat files here")
    parser.add_argument("--reuse", action="store_true",
                        help="reuse GNU Backgammon's results saved in --workdir by an earlier run with the "
                             "same settings (for trying gammon's side only; the gnubg times are then old)")
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="analysis_vs_gnubg_"))
    workdir.mkdir(parents=True, exist_ok=True)
    matches = []
    for i in range(args.matches):
        noise = [float(x) for x in rng.choice(args.noise, size=2)]
        matches.append({"seed": int(rng.integers(1, 2**31)), "length": 3 if i % 2 == 0 else 5,
                        "noise": noise, "names": [f"A{i}", f"B{i}"], "file": str(workdir / f"m{i:03d}.mat"),
                        "print": i == 0})
    saved = workdir / "gnubg_results.json"
    if args.reuse and saved.exists() and json.loads(saved.read_text())["matches"] == matches:
        judged = json.loads(saved.read_text())["results"]
        print(f"gnubg: reusing the results saved in {saved} (times from that run)", flush=True)
    else:
        t0 = time.perf_counter()
        judged = gnubg_matches(matches, workdir)
        gnubg_wall = time.perf_counter() - t0
        saved.write_text(json.dumps({"matches": matches, "results": judged}))
        print(f"gnubg: {len(judged)} matches played, exported and analysed in {gnubg_wall:.0f} s "
              f"(files in {workdir})", flush=True)

    engine = Engine(plies=args.plies)
    rows = []  # (noise, ours, gnubg) per player
    pairs = []  # (gnubg error, our error) per unforced decision
    ours_seconds = []
    for m, g in zip(matches, judged):
        record = read_mat(Path(m["file"]).read_text())
        start = time.perf_counter()
        analysis = analyse(record, engine)
        ours_seconds.append(time.perf_counter() - start)
        stats = analysis.statistics()
        theirs = [gnubg_player(g["games"], "X"), gnubg_player(g["games"], "O")]
        if g["printed"]:
            print(f"printed 'show statistics match' of {Path(m['file']).name}: "
                  f"{check_printed(g['printed'], theirs)}")
        for p in (0, 1):
            s = stats[p]
            rows.append((m["noise"][p], {"unforced": s.checker.unforced, "moves": s.checker.moves,
                                         "checker_rate": s.checker.error_rate,
                                         "overall_rate": s.overall.error_rate,
                                         "luck_rate": s.luck.rate, "close": s.cube.close_or_actual},
                         theirs[p]))
        for game, gg in zip(analysis.games, g["games"]):
            mine = [d for d in game.decisions if isinstance(d, CheckerPlay) and d.played is not None]
            their = gg["moves"]
            if len(mine) == len(their):
                pairs += [(t[2], d.error) for d, t in zip(mine, their)
                          if d.unforced and t[1] > 1 and t[2] is not None]
        print(f"  {Path(m['file']).name}: {m['length']}-point, noise {m['noise']}, "
              f"gnubg {g['seconds']:.1f} s, gammon {ours_seconds[-1]:.1f} s; checker mEMG "
              f"{stats[0].checker.error_rate:.1f}/{theirs[0]['checker_rate']:.1f} and "
              f"{stats[1].checker.error_rate:.1f}/{theirs[1]['checker_rate']:.1f} (gammon/gnubg)", flush=True)

    n = len(rows)
    agree = sum(1 for _, o, t in rows if o["unforced"] == t["unforced"])
    moves_agree = sum(1 for _, o, t in rows if o["moves"] == t["moves"])
    ours_rate = np.array([o["checker_rate"] for _, o, _ in rows])
    their_rate = np.array([t["checker_rate"] for _, _, t in rows])
    ours_overall = np.array([o["overall_rate"] for _, o, _ in rows])
    their_overall = np.array([t["overall_rate"] for _, _, t in rows])
    ours_luck = np.array([o["luck_rate"] for _, o, _ in rows])
    their_luck = np.array([t["luck_rate"] for _, _, t in rows])
    low = their_rate < 15.0
    low_overall = their_overall < 15.0
    print()
    print(f"players: {n} ({len(matches)} matches), gammon at {args.plies} ply, gnubg at its defaults")
    print(f"unforced-move counts agree: {agree}/{n}; total moves agree: {moves_agree}/{n}")
    corr = np.corrcoef(ours_rate, their_rate)[0, 1]
    print(f"checker error rate (mEMG per unforced move): correlation {corr:.4f} "
          f"(target >= 0.97); mean gammon {ours_rate.mean():.2f}, gnubg {their_rate.mean():.2f}")
    print(f"  players under 15 mEMG (gnubg): {int(low.sum())}, mean |difference| "
          f"{np.abs(ours_rate - their_rate)[low].mean():.2f} mEMG (target <= 3)")
    corr = np.corrcoef(ours_overall, their_overall)[0, 1]
    print(f"overall error rate: correlation {corr:.4f}; under 15 mEMG: "
          f"{int(low_overall.sum())} players, mean |difference| "
          f"{np.abs(ours_overall - their_overall)[low_overall].mean():.2f} mEMG")
    corr = np.corrcoef(ours_luck, their_luck)[0, 1]
    print(f"luck rate (mEMG per move): correlation {corr:.4f} (target >= 0.90); "
          f"mean |difference| {np.abs(ours_luck - their_luck).mean():.2f}")
    if pairs:
        a = np.array(pairs)
        same_best = np.mean((a[:, 0] < 1e-4) == (a[:, 1] < 1e-4))
        print(f"unforced decisions compared one by one: {len(a)}; error correlation "
              f"{np.corrcoef(a[:, 0], a[:, 1])[0, 1]:.3f}; agree on whether the play made was best: "
              f"{same_best:.1%}")
    by_noise = {}
    for noise, o, t in rows:
        by_noise.setdefault(noise, []).append((o["checker_rate"], t["checker_rate"]))
    for noise in sorted(by_noise):
        v = np.array(by_noise[noise])
        print(f"  noise {noise:.2f}: {len(v)} players, checker mEMG gammon {v[:, 0].mean():6.2f}, "
              f"gnubg {v[:, 1].mean():6.2f}")
    g_time = np.array([g["seconds"] for g in judged])
    o_time = np.array(ours_seconds)
    print(f"time per match: gnubg analyse match {g_time.mean():.2f} s, gammon analyse ({args.plies} ply) "
          f"{o_time.mean():.2f} s = {o_time.mean() / g_time.mean():.2f}x")


if __name__ == "__main__":
    main()
