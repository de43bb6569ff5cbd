"""``gammon analyse FILE``: analyse every decision of a match file (``.mat``, ``.sgf`` or ``.xg``)
and report the players' statistics and the marked decisions, in the terminal, as one JSON object
(``--json``) or as a self-contained HTML page (``--html REPORT.html``); ``--sgf OUT.sgf`` also
writes the match with the analysis as GNU Backgammon SGF. A progress bar runs on stderr."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from gammon.cli.args import add_plies, not_negative_int, user_path
from gammon.cli.board import PLAIN_GLYPHS, BoardView, render_board
from gammon.cli.console import Console
from gammon.cli.files import unwritable, write_whole
from gammon.errors import GammonError, quoted_path, shown_path
from gammon.formats.convert import SGF_INFO, read_match, reading_format
from gammon.formats.sgf import SgfAnnotator, SgfMatch
from gammon.formats.xg import XGComments
from gammon.i18n import N_, format_number, ntr, tr

if TYPE_CHECKING:  # the analysis loads the engine: imported when the command runs
    from gammon.analysis import MatchAnalysis
    from gammon.analysis.sgf_annotations import Comment
    from gammon.match import Match


def add_analyse(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "analyse",
        help=tr("analyse a match file: errors, luck and statistics per player"),
        description=tr(
            "Analyse every checker play, cube action and roll of a match file (.mat, as the "
            "sites export it, also as .txt; GNU Backgammon's .sgf; eXtreme Gammon's .xg; "
            "money sessions too) with the engine, and report GNU Backgammon's statistics per "
            "player (error rates in mEMG, luck, PR) and the decisions marked doubtful, bad "
            "or very bad."
        ),
    )
    p.add_argument(
        "file", type=user_path, help=tr("the match file: .mat (or a .txt in that format), .sgf or .xg")
    )
    add_plies(p, tr("search depth of the analysis (default 2, as the browser's analysis)"))
    p.add_argument("--json", action="store_true", help=tr("print one JSON object on stdout"))
    p.add_argument(
        "--html",
        metavar="REPORT.html",
        type=user_path,
        default=None,
        help=tr("write a self-contained HTML report"),
    )
    p.add_argument(
        "--sgf",
        metavar="OUT.sgf",
        type=user_path,
        default=None,
        help=tr("write the match with its analysis as GNU Backgammon SGF (opens in gnubg)"),
    )
    p.add_argument("--force", action="store_true",
                   help=tr("overwrite the --html and --sgf files if they exist"))
    # refused before the analysis: numpy takes no negative seed, and would refuse it after
    p.add_argument("--seed", type=not_negative_int, default=0,
                   help=tr("seed of the bootstrap confidence intervals"))
    p.add_argument("--plain", action="store_true", help=tr("no colours, letters for checkers"))
    p.add_argument(
        "--partial",
        action="store_true",
        help=tr(
            "when a game of the file (.mat, .sgf or .xg) has errors, analyse the games before it "
            "(by default such a file is refused)"
        ),
    )
    p.set_defaults(func=run_analyse)


def run_analyse(args: argparse.Namespace) -> int:
    from gammon.analysis import DEFAULT_PLIES, analyse
    from gammon.analysis.sgf_annotations import file_comments
    from gammon.engine.engine import Engine

    err = Console(stderr=True, highlight=False)
    problem = _output_problem(args)
    if problem:
        print(f"gammon analyse: {problem}", file=sys.stderr)
        return 2
    try:
        data = Path(args.file).read_bytes()
    except OSError as e:
        why = tr("cannot read {file}: {why}", file=quoted_path(args.file), why=e.strerror or e)
        print(f"gammon analyse: {why}", file=sys.stderr)
        return 2
    try:
        match, names, info, record = _read_match(args.file, data, args.partial)
        engine = Engine(plies=DEFAULT_PLIES if args.plies is None else args.plies)
        with Progress(
            TextColumn(tr("analysing")),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(tr("actions")),
            TimeRemainingColumn(),
            console=err,
            transient=True,
            disable=not err.is_terminal,  # a bar in a log file is one blank line
        ) as bar:
            task = bar.add_task("analyse", total=None)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            analysis = analyse(match, engine, progress, names=names)
    except (GammonError, ValueError) as e:
        print(f"gammon analyse: {shown_path(args.file)}: {e}", file=sys.stderr)
        return 2
    written = _write_files(args, match, analysis, info, record)
    comments = [] if record is None else file_comments(record, match.games)
    if args.json:
        from gammon.analysis.serialize import analysis_to_dict

        print(json.dumps(analysis_to_dict(analysis, seed=args.seed)))
    else:
        console = Console(no_color=args.plain or None, highlight=False)
        print_report(analysis, console, color=not args.plain and console.is_terminal, seed=args.seed,
                     comments=comments, match_comment=info.get("comment", ""))
    return 0 if written else 2


def _same_file(a: str, b: str) -> bool:
    """Whether paths ``a`` and ``b`` name one file (the same path, or links to one file)."""
    try:
        # realpath, not Path.resolve: it raises on a symbolic link loop, which the write then says
        if os.path.realpath(a) == os.path.realpath(b):
            return True
        return Path(a).samefile(b)
    except (OSError, ValueError):  # one of them does not exist (yet), or cannot: not one file
        return False


def _output_problem(args: argparse.Namespace) -> str | None:
    """Why the output files asked for cannot be written, said before the analysis: one has no
    name (an empty shell variable: nothing would be written, and nothing said), one of them is
    the match file (the report would replace it), or both are one file. None when they can."""
    asked = (("--sgf", args.sgf), ("--html", args.html))
    for option, path in asked:
        if path is not None and not path.strip():
            return tr("{option} needs a file name, got {file}", option=option, file=quoted_path(path))
    outputs = [(option, path) for option, path in asked if path is not None]
    for option, path in outputs:
        if _same_file(path, args.file):
            return tr("{option} {file} is the match file being analysed: it would be overwritten",
                      option=option, file=quoted_path(path))
    if len(outputs) == 2 and _same_file(outputs[0][1], outputs[1][1]):
        return tr("--sgf and --html name the same file {file}: one would overwrite the other",
                  file=quoted_path(outputs[0][1]))
    for _, path in outputs:
        if os.path.lexists(path) and not args.force:  # as gammon convert: no silent overwrite
            return tr("{file} exists; add --force to overwrite it", file=quoted_path(path))
        why = unwritable(path)
        if why:
            return tr("cannot write {file}: {why}", file=quoted_path(path), why=why)
    return None


def _write_files(
    args: argparse.Namespace, match: Match, analysis: MatchAnalysis, info: dict[str, str],
    record: SgfAnnotator | None,
) -> bool:
    """Write the ``--sgf`` and ``--html`` files asked for, saying what was written and what could
    not be; False if one could not. Each is written whole or not at all (a write that fails, on a
    full disk, leaves no half file). The report is printed either way: the analysis, which may
    have taken long, is not lost for a file that cannot be written."""

    def sgf() -> str:
        from gammon.analysis.sgf_annotations import write_analysed_sgf

        # the file's event, date, place... go with the match, as gammon convert writes them
        sgf_info = {key: info[name] for key, name in SGF_INFO.items() if name in info}
        # and the file's comments, beside the analysis
        return write_analysed_sgf(match, analysis, info=sgf_info, comments=record)

    def html() -> str:
        from gammon.analysis.report_html import render_html
        from gammon.analysis.sgf_annotations import file_comments

        comments = [] if record is None else file_comments(record, match.games)
        return render_html(analysis, seed=args.seed, info=info, comments=comments)

    ok = True
    for path, write, done in (
        (args.sgf, sgf, N_("analysed match written to {file}")),
        (args.html, html, N_("report written to {file}")),
    ):
        if path is None:
            continue
        try:
            write_whole(path, write())
        except OSError as e:
            # said whole: the file is not half written (an existing one is as it was)
            why = tr("cannot write {file}: {why}; nothing of it was written, and the analysis is "
                     "printed all the same", file=quoted_path(path), why=e.strerror or e)
            print(f"gammon analyse: {why}", file=sys.stderr)
            ok = False
        else:
            print("gammon analyse: " + tr(done, file=shown_path(path)), file=sys.stderr)
    return ok


def _read_match(
    path: str, data: bytes, partial: bool
) -> tuple[Match, tuple[str, str], dict[str, str], SgfAnnotator | None]:
    """The match in a file, its players' names, its information (event, date...) and, for an SGF
    or XG file, its comments by game and action (they go with the analysis; an SGF file's other
    properties too, as what was read), in the format its extension names
    (``.mat`` for any other: the sites export it as ``.txt`` too); its
    warnings are printed, and with ``partial`` the problems of a damaged file (``.mat``, each
    quoting its line; ``.sgf`` and ``.xg``: the first game the rules refuse), whose games before
    the first bad one are kept (without, the first problem refuses the file: the caller prints it)."""
    transcript = read_match(data, reading_format(path), partial=partial)
    for warning in transcript.warnings:  # the path as the errors name it: cut, control characters escaped
        print(f"gammon analyse: warning: {shown_path(path)}: {warning}", file=sys.stderr)
    for problem in transcript.problems:  # the games before the first problem are analysed
        print(f"gammon analyse: {shown_path(path)}: {problem}", file=sys.stderr)
    if not any(game.history for game in transcript.match.games):  # else an all-zero report, "done"
        if transcript.problems:
            raise ValueError(tr("nothing could be analysed: the first game has errors"))
        raise ValueError(tr("nothing to analyse: the file holds no game"))
    info = transcript.info
    if isinstance(transcript.record, SgfMatch):
        return transcript.match, transcript.names, info, transcript.record
    if isinstance(transcript.record, XGComments):  # an .xg file's comments
        return transcript.match, transcript.names, info, transcript.record
    return transcript.match, transcript.names, info, None


def print_report(analysis: MatchAnalysis, console: Console, color: bool = False, seed: int = 0,
                 comments: Sequence[Comment] = (), match_comment: str = "") -> None:
    """The summary table and every marked decision with its board and what it was up against: the
    best plays (:attr:`AnalysisSettings.shown <gammon.analysis.AnalysisSettings>` of them, and the
    play made) or the cube decision's three equities, each with its difference to the best; the
    file's ``comments`` each under its decision, the others (and ``match_comment``) at the end."""
    from gammon.analysis import CheckerPlay
    from gammon.analysis.sgf_annotations import comments_beside
    from gammon.analysis.summary import action_words, comment_places, cube_rows, describe, summary_sections

    names = analysis.names
    length = analysis.match_length
    kind = ntr("{n}-point match", "{n}-point match", length, n=length) if length else tr("money session")
    title = tr(
        "{first} vs {second}: {kind}, analysed at {plies} ply",
        first=names[0],
        second=names[1],
        kind=kind,
        plies=analysis.plies,
    )
    console.print(Text(title, style="bold"))
    table = Table(show_header=True, header_style="bold")
    table.add_column("")
    # the names as text: a str header is read as rich's markup ('[/b]' raised, '[red]' coloured)
    table.add_column(Text(names[0]), justify="right")
    table.add_column(Text(names[1]), justify="right")
    for title, rows in summary_sections(analysis.statistics(seed), bool(analysis.match_length)):
        table.add_row(Text(title, style="bold underline"), "", "")
        for row in rows:
            table.add_row(*row)
    console.print(table)
    marked = analysis.marked()
    beside, others = comments_beside(marked, comments)
    console.print(Text("\n" + tr("Marked decisions: {count}", count=len(marked)), style="bold"))
    for d, notes in zip(marked, beside):
        c = d.context
        me = c.player
        owner = None if c.cube_owner is None else 0 if c.cube_owner == me else 1
        view = BoardView(
            c.position,
            names=(names[me], names[1 - me]),
            glyphs=(PLAIN_GLYPHS[me], PLAIN_GLYPHS[1 - me]),
            on_turn=0,
            dice=c.dice,
            cube_value=c.cube_value,
            cube_owner=owner,
            score=(c.score[me], c.score[1 - me]),
            match_length=c.match_length,
            crawford=c.crawford,
            position_id=c.position.id,
            # the moment's GNU Backgammon ID under the board, as gammon play shows it: gammon eval
            # and hint take it with the score, the cube and the dice
            match_id=c.gnubg_id.partition(":")[2] or None,
            players=(me, 1 - me),
        )
        console.print()
        console.print(Text(describe(d, names), style="bold"))
        for note in notes:  # the file's comment, as text (not rich's markup)
            console.print(Text("\n".join("  > " + line for line in note.splitlines()), style="italic"))
        for line in render_board(view, color=color):
            console.print(line)
        if isinstance(d, CheckerPlay):
            best = d.candidates[0].equity if d.candidates else 0.0
            if d.best is not None:
                console.print("  " + tr("played {played}, best {best}", played=d.played, best=d.best.play))
            played = "  " + tr("<- played")
            for rank, cand in enumerate(d.candidates, 1):
                flag = played if cand.play == d.played else ""
                win = tr("win {value}", value=format_number(cand.probabilities.win, ".1%"))
                shown = format_number(cand.equity, "+.3f"), format_number(cand.equity - best, "+.3f")
                console.print(
                    f"  {rank}. {str(cand.play):<28} {shown[0]} ({shown[1]})"
                    f"  {win}  {cand.plies} ply{flag}"
                )
        else:
            equities = cube_rows(d)
            width = max(14, *(len(label) for label, _, _ in equities))  # a column in every language
            for label, equity, diff in equities:
                console.print(f"  {label:<{width}} {format_number(equity, '+.3f')} "
                              f"({format_number(diff, '+.3f')})")
            console.print("  " + tr("right: {action}", action=action_words(d.best_action)))

    places = comment_places(match_comment, others, names)
    if places:
        console.print(Text("\n" + tr("Comments"), style="bold"))
        for where, text in places:
            console.print(Text(where + ":", style="bold"))
            console.print(Text("\n".join("  " + line for line in text.splitlines())))


__all__ = ["add_analyse", "print_report", "run_analyse"]
