"""``gammon drill``: the player's marked decisions, asked again in the terminal on a
spaced-repetition schedule (see gammon.profile.drill): the board, the question, the grade."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from rich.text import Text

from gammon.cli.board import PLAIN_GLYPHS, BoardView, render_board
from gammon.cli.console import Console
from gammon.errors import GammonError, StaleActionError, cut
from gammon.formats.matchid import parse_gnubg_id
from gammon.i18n import format_number, ntr, tr
from gammon.position import Position

if TYPE_CHECKING:
    from gammon.profile.drill import DrillCard, DrillProgress, Drills, Review

QUIT = ("q", "quit", "exit")
SKIP: Literal["skip"] = "skip"  # a card answered elsewhere meanwhile: on to the next


def add_drill(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "drill",
        help=tr("practise the decisions you got wrong in your analysed matches"),
        description=tr(
            "Show the positions of your marked decisions (from gammon import) when they are "
            "due, ask for your play or cube action, grade it against the engine's ranking and schedule "
            "the card again (spaced repetition). Type q to stop."
        ),
    )
    p.add_argument("--account", default=None, metavar="NAME",
                   help=tr("whose decisions (default: the only account with a profile)"))  # fmt: skip
    p.add_argument(
        "--database-url",
        default=None,
        help=tr(
            "SQLAlchemy URL, e.g. postgresql://user@host/db (default: the SQLite file "
            "in the user's data directory)"
        ),
    )
    p.add_argument("--plain", action="store_true", help=tr("no colours, letters for checkers"))
    p.set_defaults(func=run_drill)


def run_drill(args: argparse.Namespace) -> int:
    from gammon.accounts import Accounts
    from gammon.profile.drill import Drills
    from gammon.profile.summary import profile_accounts
    from gammon.store import Store

    console = Console(no_color=args.plain or None, highlight=False, emoji=False, soft_wrap=True)
    color = not args.plain and console.is_terminal
    try:
        store = Store(args.database_url, check=True)
    except GammonError as e:
        print(f"gammon drill: {e}", file=sys.stderr)
        return 2
    try:
        if args.account is None:
            profiles = profile_accounts(store)
            if len(profiles) != 1:
                names = ", ".join(n for _, n in profiles) or tr("none has a profile yet (gammon import)")
                print(
                    "gammon drill: " + tr("name the account with --account ({names})", names=names),
                    file=sys.stderr,
                )
                return 2
            account_id, name = profiles[0]
        else:
            account = Accounts(store).by_name(args.account)
            if account is None:
                print(
                    "gammon drill: " + tr("no account is named {name}", name=cut(repr(args.account))),
                    file=sys.stderr,
                )
                return 2
            account_id, name = account.id, account.name
        drills = Drills(store)
        drills.sync(account_id)
        console.print(Text(f"{name}: {_standing(drills.progress(account_id))}", style="bold"))
        answered = right = 0
        while (card := drills.next_card(account_id)) is not None:
            console.print()
            _show(card, console, color)
            review = _ask(drills, card, console)
            if review is None:
                break
            if review == SKIP:
                continue
            answered += 1
            right += review.right
            _tell(card, review, console)
        console.print()
        if answered:
            console.print(
                ntr(
                    "This session: {right} of {n} right.",
                    "This session: {right} of {n} right.",
                    answered,
                    right=right,
                    n=answered,
                )
            )
        progress = drills.progress(account_id)
        console.print(_standing(progress))
        if not progress.due and progress.next_due is not None:
            console.print(tr("The next card is due {when}.", when=_when(progress.next_due)))
    finally:
        store.close()
    return 0


def _standing(p: DrillProgress) -> str:
    if not p.cards:
        return tr("no marked decisions to drill yet (gammon import analyses your matches)")
    due = ntr("{due} of {n} cards due", "{due} of {n} cards due", p.cards, due=p.due, n=p.cards)
    if not p.reviews:
        return due
    return (
        due
        + "; "
        + ntr(
            "{right} of {n} answers right ({accuracy})",
            "{right} of {n} answers right ({accuracy})",
            p.reviews,
            right=p.right,
            n=p.reviews,
            accuracy=format_number(p.accuracy, ".0%"),
        )
    )


def _when(moment: datetime) -> str:
    return tr("at {time} UTC", time=f"{moment:%Y-%m-%d %H:%M}")


def _show(card: DrillCard, console: Console, color: bool) -> None:

    d = card.decision
    _, state = parse_gnubg_id(d.gnubg_id)
    me = state.turn  # the player deciding: on roll, or answering a double
    owner = None if state.cube_owner is None else 0 if state.cube_owner == me else 1
    view = BoardView(
        Position.from_id(d.position_id),
        names=card.names,
        glyphs=(PLAIN_GLYPHS[0], PLAIN_GLYPHS[1]),
        on_turn=0,
        dice=(int(d.dice[0]), int(d.dice[1])) if d.dice else None,
        cube_value=state.cube_value,
        cube_owner=owner,
        cube_offered_by=1 if card.asks_for == "take" else None,
        score=(state.score[me], state.score[1 - me]),
        match_length=state.match_length,
        crawford=state.crawford,
        position_id=d.position_id,
    )
    for line in render_board(view, color=color):
        console.print(line)
    console.print(
        tr(
            "{mark} in your match (game {game}, turn {turn}); {xgid}",
            mark=d.mark,
            game=d.game,
            turn=d.turn,
            xgid=d.xgid,
        ),
        markup=False,
    )


def example_play(dice: str | None) -> str:
    """The prompt's example of a play for ``dice`` ("32"), in gammon's notation, made of the roll
    and legal in the starting position (13/10 8/6; 13/10(2) 8/5(2)). Not a hint: it need not be legal
    in the card's position. A fixed example (13/8 6/3) contradicted every other roll."""
    if dice is None or len(dice) != 2 or not all(c in "123456" for c in dice):
        return "13/10 8/6"  # no roll to follow (a play is asked only with one)
    high, low = sorted((int(dice[0]), int(dice[1])), reverse=True)
    if (high, low) == (1, 1):  # 13/12 is the opponent's point
        return "8/7(2) 6/5(2)"
    if high == low:
        return f"13/{13 - high}(2) 8/{8 - high}(2)"
    return f"13/{13 - high} 8/{8 - low}"


def _ask(drills: Drills, card: DrillCard, console: Console) -> Review | Literal["skip"] | None:
    """Ask until the answer is one the card takes; None when the player stops, SKIP when the card
    was answered meanwhile elsewhere (another terminal, the web page)."""

    question = {
        # Translators: the answers stay English: 'double' / 'no double', 'take' / 'pass', 'q'
        "play": tr("Your play with {dice} (e.g. {example}), q to stop: ", dice=card.decision.dice,
                   example=example_play(card.decision.dice)),
        "double": tr("Double or no double? (q to stop) "),
        "take": tr("Take or pass? (q to stop) "),
    }[card.asks_for]
    while True:
        try:
            answer = console.input(question).strip()
        except EOFError:
            return None
        if answer.lower() in QUIT:
            return None
        if not answer:
            continue
        try:
            return drills.review(card.id, answer)
        except StaleActionError as e:
            console.print(f"  {e}", markup=False)
            return SKIP
        except GammonError as e:
            console.print(f"  {e}", markup=False)


def _tell(card: DrillCard, review: Review, console: Console) -> None:
    if review.error is None:
        console.print(
            "  "
            + tr(
                "Wrong: {answer} is not among the plays the engine ranked; its best is {best}.",
                answer=review.answer,
                best=review.best,
            ),
            markup=False,
        )
    elif review.error <= 0.001:
        console.print("  " + tr("Right: {answer}.", answer=review.answer), markup=False)
    elif review.right:
        console.print(
            "  "
            + tr(
                "Close: {answer} loses {error} against {best}.",
                answer=review.answer,
                error=format_number(review.error, ".3f"),
                best=review.best,
            ),
            markup=False,
        )
    else:
        console.print(
            "  "
            + tr(
                "Wrong: {answer} loses {error}; the best is {best}.",
                answer=review.answer,
                error=format_number(review.error, ".3f"),
                best=review.best,
            ),
            markup=False,
        )
    from gammon.profile.drill import ranked_plays

    if isinstance(card.ranking, list):  # each play's error as the drill grades it
        for rank, (play, equity, error) in enumerate(ranked_plays(card.ranking)[:4], 1):
            console.print(f"  {rank}. {play:<28} {equity:+.3f} ({-error:+.3f})", markup=False)
    console.print("  " + tr("Next time {when}.", when=_when(review.due)), markup=False)


__all__ = ["add_drill", "run_drill"]
