"""The players' statistics as rows of text (label, player 0, player 1), shared by the terminal
report and the HTML report. Errors are shown as positive numbers."""

from __future__ import annotations

from collections.abc import Callable

from gammon.analysis.decisions import CheckerPlay, CubeChoice, Decision
from gammon.analysis.marks import Luck, Skill
from gammon.analysis.stats import ERROR_KINDS, ErrorSum, PlayerStatistics

Row = tuple[str, str, str]
ERROR_LABELS = {
    "missed double below CP": "Missed doubles below CP",
    "missed double above CP": "Missed doubles above CP",
    "wrong double below DP": "Wrong doubles below DP",
    "wrong double above TG": "Wrong doubles above TG",
    "wrong take": "Wrong takes",
    "wrong pass": "Wrong passes",
}
Section = tuple[str, list[Row]]


def _total(emg: float, cost: float, match: bool) -> str:
    return f"{emg:.3f} ({100 * cost:.2f}%)" if match else f"{emg:.3f} ({cost:+.3f} pts)"


def _rate(memg: float, cost_rate: float, match: bool) -> str:
    # cost_rate is in thousandths (of MWC or points) per decision
    return f"{memg:.1f} ({cost_rate / 10:.3f}%)" if match else f"{memg:.1f} ({cost_rate / 1000:+.4f} pts)"


def _errors(e: ErrorSum, match: bool) -> str:
    return f"{e.count} ({_total(e.error, e.cost, match)})" if e.count else "0"


def _ci(ci: tuple[float, float] | None) -> str:
    return "" if ci is None else f" [{ci[0]:.1f}, {ci[1]:.1f}]"


def _result(value: float, match: bool) -> str:
    return f"{100 * value:+.2f}%" if match else f"{value:+.3f} pts"


def summary_sections(stats: tuple[PlayerStatistics, PlayerStatistics], match: bool) -> list[Section]:
    """Sections of rows: checker play, cube, luck, overall. ``match``: MWC units (else points)."""
    a, b = stats

    def row(label: str, f: Callable[[PlayerStatistics], str]) -> Row:
        return (label, f(a), f(b))

    unit = "EMG (MWC)" if match else "EMG (points)"
    checker = [
        row("Total moves", lambda s: str(s.checker.moves)),
        row("Unforced moves", lambda s: str(s.checker.unforced)),
        *[
            (f"Moves marked {k.value}", str(a.checker.marks[k]), str(b.checker.marks[k]))
            for k in (Skill.DOUBTFUL, Skill.BAD, Skill.VERY_BAD)
        ],
        row(f"Error total {unit}", lambda s: _total(s.checker.error_total, s.checker.cost_total, match)),
        row(f"Error rate m{unit}", lambda s: _rate(s.checker.error_rate, s.checker.cost_rate, match)),
    ]
    cube = [
        row("Total cube decisions", lambda s: str(s.cube.total)),
        row("Close or actual cube decisions", lambda s: str(s.cube.close_or_actual)),
        row("Doubles", lambda s: str(s.cube.doubles)),
        row("Takes", lambda s: str(s.cube.takes)),
        row("Passes", lambda s: str(s.cube.passes)),
        *[
            (ERROR_LABELS[k], _errors(a.cube.errors[k], match), _errors(b.cube.errors[k], match))
            for k in ERROR_KINDS
        ],
        row(f"Error total {unit}", lambda s: _total(s.cube.error_total, s.cube.cost_total, match)),
        row(f"Error rate m{unit}", lambda s: _rate(s.cube.error_rate, s.cube.cost_rate, match)),
    ]
    luck = [
        *[
            (f"Rolls marked {k.value}", str(a.luck.marks[k]), str(b.luck.marks[k]))
            for k in (Luck.VERY_LUCKY, Luck.LUCKY, Luck.UNLUCKY, Luck.VERY_UNLUCKY)
        ],
        row(f"Luck total {unit}", lambda s: _total(s.luck.total, s.luck.cost_total, match)),
        row(f"Luck rate m{unit}", lambda s: _rate(s.luck.rate, s.luck.cost_rate, match)),
    ]
    overall = [
        row(f"Error total {unit}", lambda s: _total(s.overall.error_total, s.overall.cost_total, match)),
        row(
            "Error rate mEMG [95% CI]",
            lambda s: f"{s.overall.error_rate:.1f}{_ci(s.overall.error_rate_ci95)}",
        ),
        row("PR (eXtreme Gammon) [95% CI]", lambda s: f"{s.overall.pr:.2f}{_ci(s.overall.pr_ci95)}"),
        row("Snowie error rate", lambda s: f"{s.overall.snowie_error_rate:.1f}"),
        row("Actual result", lambda s: _result(s.overall.actual_result, match)),
        row("Luck adjusted result", lambda s: _result(s.overall.luck_adjusted_result, match)),
    ]
    return [("Checker play", checker), ("Cube", cube), ("Luck", luck), ("Overall", overall)]


def cube_rows(d: CubeChoice) -> list[tuple[str, float, float]]:
    """The cube decision as GNU Backgammon and eXtreme Gammon list it: no double, double/take and
    double/pass, each with its equity (EMG, the doubler's) and its difference to the right
    action's (0 for the right one)."""
    dec = d.decision
    best = max(dec.no_double, min(dec.double_take, dec.double_pass))
    return [
        (label, eq, eq - best)
        for label, eq in (
            ("No double", dec.no_double),
            ("Double, take", dec.double_take),
            ("Double, pass", dec.double_pass),
        )
    ]


def describe(d: Decision, names: tuple[str, str]) -> str:
    """One line about a decision: where (the game and the move as the match file numbers them), who,
    what was done, what it lost."""
    c = d.context
    head = f"Game {c.game}, move {c.move}: {names[c.player]}"
    if isinstance(d, CheckerPlay):
        roll = f"{c.dice[0]}{c.dice[1]}" if c.dice else ""
        what = f"rolled {roll} and played {d.played}" if d.played else f"rolled {roll}, no play"
    else:
        assert isinstance(d, CubeChoice)
        what = {
            "no double": "did not double",
            "double": "doubled",
            "take": "took",
            "pass": "passed",
            "beaver": "beavered",
        }[d.action] + f" (right: {d.best_action})"
    mark = "" if d.skill is Skill.NONE else f" - {d.skill.value}"
    return f"{head} {what}: lost {d.error:.3f} EMG{mark}"
