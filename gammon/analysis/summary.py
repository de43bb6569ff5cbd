"""The players' statistics as rows of text (label, player 0, player 1), shared by the terminal
report and the HTML report, in the current language (:mod:`gammon.i18n`). Errors are shown as
positive numbers."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gammon.analysis.decisions import CheckerPlay, CubeChoice, Decision, answer_equities, best_answer
from gammon.analysis.marks import Luck, Skill
from gammon.analysis.sgf_annotations import Comment, shown_text
from gammon.analysis.stats import ERROR_KINDS, ErrorSum, PlayerStatistics
from gammon.i18n import N_, format_number, tr

Row = tuple[str, str, str]
ERROR_LABELS = {
    "missed double below CP": N_("Missed doubles below CP"),
    "missed double above CP": N_("Missed doubles above CP"),
    "wrong double below DP": N_("Wrong doubles below DP"),
    "wrong double above TG": N_("Wrong doubles above TG"),
    "wrong take": N_("Wrong takes"),
    "wrong pass": N_("Wrong passes"),
}
# The marks of gammon.analysis.marks (Skill, Luck) and the cube actions, as they are said.
MARK_WORDS = {"doubtful": N_("doubtful"), "bad": N_("bad"), "very bad": N_("very bad"),
              "very lucky": N_("very lucky"), "lucky": N_("lucky"), "unlucky": N_("unlucky"),
              "very unlucky": N_("very unlucky")}
ACTION_WORDS = {"take": N_("take"), "pass": N_("pass"), "double": N_("double"), "no double": N_("no double"),
                "no double, too good": N_("no double, too good"), "beaver": N_("beaver")}


def mark_words(mark: str) -> str:
    """A mark's value ("very bad", "lucky") in the current language."""
    return tr(MARK_WORDS[mark]) if mark in MARK_WORDS else mark


def action_words(action: str) -> str:
    """A cube action ("no double", "take") in the current language."""
    return tr(ACTION_WORDS[action]) if action in ACTION_WORDS else action
Section = tuple[str, list[Row]]


def _total(emg: float, cost: float, match: bool) -> str:
    # MWC to 3 decimals of a percent, as gnubg: with 2, a small error at match play read 0.00%
    total = format_number(emg, ".3f")
    if match:
        return f"{total} ({format_number(cost, '.3%')})"
    return tr("{emg} ({points} pts)", emg=total, points=format_number(cost, "+.3f"))


def _rate(memg: float, cost_rate: float, match: bool) -> str:
    # cost_rate is in thousandths (of MWC or points) per decision
    rate = format_number(memg, ".1f")
    if match:
        return f"{rate} ({format_number(cost_rate / 1000, '.3%')})"
    return tr("{emg} ({points} pts)", emg=rate, points=format_number(cost_rate / 1000, "+.4f"))


def _errors(e: ErrorSum, match: bool) -> str:
    return f"{e.count} ({_total(e.error, e.cost, match)})" if e.count else "0"


def _ci(ci: tuple[float, float] | None) -> str:
    if ci is None:
        return ""
    # Translators: a 95% interval of two numbers; where a decimal comma is written, part them with
    # a semicolon ("[1,2; 3,4]"), so that the comma between them is not read as a decimal
    return " " + tr("[{low}, {high}]", low=format_number(ci[0], ".1f"), high=format_number(ci[1], ".1f"))


def _result(value: float, match: bool) -> str:
    return format_number(value, "+.2%") if match else tr("{points} pts", points=format_number(value, "+.3f"))


def summary_sections(stats: tuple[PlayerStatistics, PlayerStatistics], match: bool) -> list[Section]:
    """Sections of rows: checker play, cube, luck, overall. ``match``: MWC units (else points)."""
    a, b = stats

    def row(label: str, f: Callable[[PlayerStatistics], str]) -> Row:
        return (label, f(a), f(b))

    unit = tr("EMG (MWC)") if match else tr("EMG (points)")
    error_total, error_rate = tr("Error total {unit}", unit=unit), tr("Error rate m{unit}", unit=unit)
    checker = [
        row(tr("Total moves"), lambda s: str(s.checker.moves)),
        row(tr("Unforced moves"), lambda s: str(s.checker.unforced)),
        *[
            (tr("Moves marked {mark}", mark=mark_words(k.value)), str(a.checker.marks[k]),
             str(b.checker.marks[k]))
            for k in (Skill.DOUBTFUL, Skill.BAD, Skill.VERY_BAD)
        ],
        row(error_total, lambda s: _total(s.checker.error_total, s.checker.cost_total, match)),
        row(error_rate, lambda s: _rate(s.checker.error_rate, s.checker.cost_rate, match)),
    ]
    cube = [
        row(tr("Total cube decisions"), lambda s: str(s.cube.total)),
        row(tr("Close or actual cube decisions"), lambda s: str(s.cube.close_or_actual)),
        row(tr("Doubles"), lambda s: str(s.cube.doubles)),
        row(tr("Takes"), lambda s: str(s.cube.takes)),
        row(tr("Passes"), lambda s: str(s.cube.passes)),
        *[
            (tr(ERROR_LABELS[k]), _errors(a.cube.errors[k], match), _errors(b.cube.errors[k], match))
            for k in ERROR_KINDS
        ],
        row(error_total, lambda s: _total(s.cube.error_total, s.cube.cost_total, match)),
        row(error_rate, lambda s: _rate(s.cube.error_rate, s.cube.cost_rate, match)),
    ]
    luck = [
        *[
            (tr("Rolls marked {mark}", mark=mark_words(k.value)), str(a.luck.marks[k]), str(b.luck.marks[k]))
            for k in (Luck.VERY_LUCKY, Luck.LUCKY, Luck.UNLUCKY, Luck.VERY_UNLUCKY)
        ],
        row(tr("Luck total {unit}", unit=unit), lambda s: _total(s.luck.total, s.luck.cost_total, match)),
        row(tr("Luck rate m{unit}", unit=unit), lambda s: _rate(s.luck.rate, s.luck.cost_rate, match)),
    ]
    overall = [
        row(error_total, lambda s: _total(s.overall.error_total, s.overall.cost_total, match)),
        row(
            tr("Error rate mEMG [95% CI]"),
            lambda s: format_number(s.overall.error_rate, ".1f") + _ci(s.overall.error_rate_ci95),
        ),
        row(tr("PR (eXtreme Gammon) [95% CI]"),
            lambda s: format_number(s.overall.pr, ".2f") + _ci(s.overall.pr_ci95)),
        row(tr("Snowie error rate"), lambda s: format_number(s.overall.snowie_error_rate, ".1f")),
        row(tr("Actual result"), lambda s: _result(s.overall.actual_result, match)),
        row(tr("Luck adjusted result"), lambda s: _result(s.overall.luck_adjusted_result, match)),
    ]
    return [(tr("Checker play"), checker), (tr("Cube"), cube), (tr("Luck"), luck), (tr("Overall"), overall)]


def cube_rows(d: CubeChoice) -> list[tuple[str, float, float]]:
    """The cube decision as GNU Backgammon and eXtreme Gammon list it: no double, double/take and
    double/pass, each with its equity (EMG, the doubler's) and its difference to the right
    action's (0 for the right one); double/beaver too where the taker should beaver or did."""
    dec = d.decision
    answers = answer_equities(dec)
    best = max(dec.no_double, answers[best_answer(dec)])
    rows = [
        (tr("No double"), dec.no_double),
        (tr("Double, take"), dec.double_take),
        (tr("Double, pass"), dec.double_pass),
    ]
    if "beaver" in answers or d.action == "beaver":
        rows.append((tr("Double, beaver"), 2.0 * dec.double_take))
    return [(label, eq, eq - best) for label, eq in rows]


def describe(d: Decision, names: tuple[str, str]) -> str:
    """One line about a decision: where (the game and the move as the match file numbers them), who,
    what was done, what it lost."""
    c = d.context
    where = {"game": c.game, "move": c.move, "name": names[c.player]}
    if isinstance(d, CheckerPlay):
        # larger die first, as the match files say a roll (an opening roll holds player 0's die first)
        roll = f"{max(c.dice)}{min(c.dice)}" if c.dice else ""
        if d.played:
            head = tr("Game {game}, move {move}: {name} rolled {roll} and played {play}", roll=roll,
                      play=d.played, **where)
        else:
            head = tr("Game {game}, move {move}: {name} rolled {roll}, no play", roll=roll, **where)
    else:
        assert isinstance(d, CubeChoice)
        did = {
            "no double": N_("Game {game}, move {move}: {name} did not double (right: {best})"),
            "double": N_("Game {game}, move {move}: {name} doubled (right: {best})"),
            "take": N_("Game {game}, move {move}: {name} took (right: {best})"),
            "pass": N_("Game {game}, move {move}: {name} passed (right: {best})"),
            "beaver": N_("Game {game}, move {move}: {name} beavered (right: {best})"),
        }[d.action]
        head = tr(did, best=action_words(d.best_action), **where)
    mark = "" if d.skill is Skill.NONE else f" - {mark_words(d.skill.value)}"
    return tr("{what}: lost {error} EMG", what=head, error=format_number(d.error, ".3f")) + mark


def comment_places(match_comment: str, comments: Sequence[Comment], names: tuple[str, str]
                   ) -> list[tuple[str, str]]:
    """A file's comments, each after where it was made (the match, a game, a player's move)."""
    items = [(tr("Match"), shown_text(match_comment))] if match_comment.strip() else []
    for c in comments:
        if c.move == 0 or c.player is None:
            where = tr("Game {number}", number=c.game)
        else:
            where = tr("Game {game}, move {move}, {name}", game=c.game, move=c.move, name=names[c.player])
        items.append((where, c.text))
    return items
