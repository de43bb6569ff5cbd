"""The analysis as one self-contained HTML file: the players' statistics, a chart of the winning
chances through every game, and every marked decision with its board and ranked alternatives.

Nothing in the page refers outside it (styles and drawings are inline), so it opens without a
network. The markup is also well-formed XML (every element closed, text escaped)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path

from gammon.analysis.decisions import CheckerPlay, CubeChoice, Decision
from gammon.analysis.sgf_annotations import Comment, comments_beside, shown_text
from gammon.analysis.summary import action_words, comment_places, cube_rows, describe, summary_sections
from gammon.analysis.svg import board_svg, chart_svg
from gammon.analysis.walk import MatchAnalysis
from gammon.engine.cube.met import equity_after, match_equity
from gammon.i18n import N_, current_language, format_number, ntr, tr

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #ddd; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.section th { background: #eee; }
tr.made td { font-weight: bold; background: #fff4d6; }
.decision { border-top: 2px solid #ccc; padding-top: 1em; }
.decision-body { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 1.5em; align-items: start; }
@media (max-width: 56em) { .decision-body { grid-template-columns: minmax(0, 1fr); } }
svg { max-width: 100%; height: auto; }
.mark-doubtful { color: #9a7d0a; } .mark-bad { color: #c0392b; } .mark-very-bad { color: #7b241c; }
.note { color: #666; font-size: 0.9em; }
blockquote.comment { margin: 0.5em 0; padding: 0.3em 0.8em; border-left: 4px solid #8bb; background: #f4f9f9;
  white-space: pre-wrap; }
"""


def _summary_table(analysis: MatchAnalysis, seed: int) -> str:
    stats = analysis.statistics(seed)
    names = analysis.names
    out = [
        "<table>",
        f'<tr><th></th><th class="num">{escape(names[0])}</th><th class="num">{escape(names[1])}</th></tr>',
    ]
    for title, rows in summary_sections(stats, bool(analysis.match_length)):
        out.append(f'<tr class="section"><th colspan="3">{escape(title)}</th></tr>')
        for label, a, b in rows:
            out.append(
                f'<tr><td>{escape(label)}</td><td class="num">{escape(a)}</td>'
                f'<td class="num">{escape(b)}</td></tr>'
            )
    out.append("</table>")
    return "".join(out)


def chance_series(analysis: MatchAnalysis) -> tuple[list[float], list[tuple[int, str]]]:
    """Player 0's chance through the match: at each game's start, after every play, at its end."""
    series: list[float] = []
    breaks: list[tuple[int, str]] = []
    length = analysis.match_length
    for g in analysis.games:
        post = False
        breaks.append((len(series), tr("Game {number}", number=g.number)))
        if length:
            away = (length - g.score[0], length - g.score[1])
            post = not g.crawford and 1 in away
            series.append(match_equity(away[0], away[1], post_crawford=post))
        else:
            series.append(0.5)
        series += [d.chance for d in g.checker_plays if d.chance is not None]
        if g.winner is not None:
            if length:
                won = list(g.score)
                won[g.winner] += g.points
                # without the Crawford rule no game is the Crawford game: one away is post-Crawford
                done = g.crawford or post or not analysis.crawford
                series.append(equity_after(length - won[0], length - won[1], crawford_done=done))
            else:
                series.append(1.0 if g.winner == 0 else 0.0)
    return series, breaks


def _checker_table(d: CheckerPlay) -> str:
    best = d.candidates[0].equity if d.candidates else 0.0
    heads = [tr("equity"), tr("diff"), tr("win"), tr("gammon"), tr("lose gammon"), tr("ply")]
    out = [f"<table><tr><th>#</th><th>{escape(tr('play'))}</th>"
           + "".join(f'<th class="num">{escape(h)}</th>' for h in heads) + "</tr>"]
    for rank, c in enumerate(d.candidates, 1):
        p = c.probabilities
        made = ' class="made"' if c.play == d.played else ""
        out.append(
            f"<tr{made}><td>{rank}</td><td>{escape(str(c.play))}</td>"
            f'<td class="num">{format_number(c.equity, "+.3f")}</td>'
            f'<td class="num">{format_number(c.equity - best, "+.3f")}</td>'
            f'<td class="num">{format_number(p.win, ".1%")}</td>'
            f'<td class="num">{format_number(p.win_gammon, ".1%")}</td>'
            f'<td class="num">{format_number(p.lose_gammon, ".1%")}</td><td class="num">{c.plies}</td></tr>'
        )
    out.append("</table>")
    return "".join(out)


def _cube_table(d: CubeChoice) -> str:
    dec = d.decision
    action, equity, diff = tr("cube action"), tr("equity (EMG)"), tr("diff")
    out = [f'<table><tr><th>{escape(action)}</th><th class="num">{escape(equity)}</th>'
           f'<th class="num">{escape(diff)}</th></tr>']
    for label, eq, change in cube_rows(d):
        out.append(f'<tr><td>{escape(label)}</td><td class="num">{format_number(eq, "+.3f")}</td>'
                   f'<td class="num">{format_number(change, "+.3f")}</td></tr>')
    p = dec.probabilities
    words = tr("Right action: {action}; chances of the doubler: win {win}, gammon {gammon}, "
               "lose gammon {lose}.",
               action=action_words(d.best_action), win=format_number(p.win, ".1%"),
               gammon=format_number(p.win_gammon, ".1%"), lose=format_number(p.lose_gammon, ".1%"))
    out.append(f"</table><p>{escape(words)}</p>")
    return "".join(out)


def _decision(d: Decision, analysis: MatchAnalysis, notes: Sequence[str] = ()) -> str:
    c = d.context
    me, them = c.player, 1 - c.player
    owner = None if c.cube_owner is None else 0 if c.cube_owner == me else 1
    caption = tr("{id}  {name} to play", id=c.position.id, name=analysis.names[me])
    board = board_svg(c.position, (me, them), c.dice, c.cube_value, owner, caption)
    mark = d.skill.value.replace(" ", "-")
    head = (
        f'<h3 class="mark-{mark}">{escape(describe(d, analysis.names))}</h3>'
        '<p class="note">'
        + escape(tr("GNU Backgammon ID {id}; cube {cube}; score {score}", id=c.gnubg_id, cube=c.cube_value,
                    score=f"{c.score[0]}-{c.score[1]}"))
        + "</p>"
    )
    text = []
    if isinstance(d, CheckerPlay):
        if d.best is not None:
            # the catalogues' text holds no markup; the plays are escaped
            played = tr("Played {played}; best {best}.", played=f"<b>{escape(str(d.played))}</b>",
                        best=f"<b>{escape(str(d.best.play))}</b>")
            text.append(f"<p>{played}</p>")
        text.append(_checker_table(d))
    else:
        text.append(_cube_table(d))
    # the file's comments on the decision, under its heading, as text
    quoted = "".join(f'<blockquote class="comment">{escape(note)}</blockquote>' for note in notes)
    # the heading first, then the alternatives with the board beside them, or below when narrow
    return (
        f'<div class="decision">{head}{quoted}<div class="decision-body"><div>{"".join(text)}</div>'
        f"<div>{board}</div></div></div>"
    )


# The match information shown under the title (keys of gammon.formats.convert.INFO), in order.
INFO_LABELS = (("event", N_("Event")), ("place", N_("Place")), ("date", N_("Date")), ("round", N_("Round")))


def _match_info(info: Mapping[str, str]) -> str:
    rows = [f"<tr><th>{escape(tr(label))}</th><td>{escape(shown_text(info[key]))}</td></tr>"
            for key, label in INFO_LABELS if info.get(key, "").strip()]
    return f"<table>{''.join(rows)}</table>" if rows else ""


def _comments(info: Mapping[str, str], comments: Sequence[Comment], names: tuple[str, str]) -> str:
    """The file's comments, each with where it was made: the match's, a game's, a move's."""
    items = comment_places(info.get("comment", ""), comments, names)
    if not items:
        return ""
    rows = "".join(f'<tr><th>{escape(where)}</th><td style="white-space: pre-wrap">{escape(text)}</td></tr>'
                   for where, text in items)
    return f"<h2>{escape(tr('Comments'))}</h2><table>{rows}</table>"


def render_html(analysis: MatchAnalysis, seed: int = 0, info: Mapping[str, str] | None = None,
                comments: Sequence[Comment] = ()) -> str:
    """The report as a string; ``info`` the match information (event, place, date, round and the
    match's comment, :data:`gammon.formats.convert.INFO` keys) and ``comments`` the file's
    comments on its games and moves, shown as text: each beside its decision where that is shown,
    the others (the match's, the games', those on decisions not shown) under their own heading."""
    info = info or {}
    names = analysis.names
    length = analysis.match_length
    kind = ntr("{n}-point match", "{n}-point match", length, n=length) if length else tr("money session")
    title = tr("{first} vs {second}: {kind}", first=names[0], second=names[1], kind=kind)
    series, breaks = chance_series(analysis)
    what = tr("Match winning chances") if length else tr("Chances to win the game")
    marked = analysis.marked()
    beside, others = comments_beside(marked, comments)
    note = tr("Analysed by gammon at {plies} ply; equities in EMG (equivalent to money game), rates in mEMG "
              "(thousandths of EMG per decision); PR = 500 x mean error per decision; intervals are 95% "
              "bootstrap intervals (seed {seed}).", plies=analysis.plies, seed=seed)
    statistics = tr("Statistics")
    marked_title = tr("Marked decisions ({count})", count=len(marked))
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{current_language()}"><head><meta charset="utf-8"/>',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        _match_info(info),
        f'<p class="note">{escape(note)}</p>',
        f"<h2>{escape(statistics)}</h2>",
        _summary_table(analysis, seed),
        f"<h2>{escape(what)}</h2>",
        chart_svg(series, breaks, names),
        f"<h2>{escape(marked_title)}</h2>",
        *[_decision(d, analysis, notes) for d, notes in zip(marked, beside)],
        _comments(info, others, names),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def write_html(analysis: MatchAnalysis, path: str | Path, seed: int = 0,
               info: Mapping[str, str] | None = None, comments: Sequence[Comment] = ()) -> None:
    """Write :func:`render_html`'s page to ``path``."""
    Path(path).write_text(render_html(analysis, seed, info, comments), encoding="utf-8")
