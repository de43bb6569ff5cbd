"""What one seat sees of a live match: the wire MatchView and a readable game log, worded in the
current language (gammon.i18n.use_language: the hub sets each socket's, the API each request's)."""

from __future__ import annotations

from typing import NamedTuple

from gammon.formats.matchid import gnubg_id
from gammon.game import Action, ActionKind, Game, GamePhase, PlayMade, Roll
from gammon.i18n import N_, current_language, tr
from gammon.rules import HIGHEST_CUBE, Rules
from gammon.steps import step_sequences
from gammon.web.actions import NAMES_KEY
from gammon.web.schemas import GameResultView, LastPlay, MatchView, RulesView, StepSequence
from gammon.web.session import COMPUTER_SEAT, LiveMatch
from gammon.words import describe, points_text, say_of

# What the browser offers as buttons; the rest of legal_actions (undo of a finished turn) stays API-only.
_SEAT_ACTIONS = frozenset(ActionKind) - {ActionKind.UNDO, ActionKind.ABANDON}


class Absence(NamedTuple):
    """An online opponent the game waits on: seconds away (None: connected or never came) and
    seconds until the game may be claimed (0: now; None: it may not be); and whether the opponent
    has come to the game at all (None: not an online game)."""

    seconds: float | None
    claim_in: float | None
    joined: bool | None = None


PRESENT = Absence(None, None)


def player_names(live: LiveMatch) -> tuple[str, str]:
    """The names the players chose, else "You" and the computer, or "White" and "Black"."""
    given = live.record.rules.get(NAMES_KEY) or (None, None)
    # marked for the catalogues: the pages show these names in their language (common.js tLine)
    if live.record.mode == "computer":
        return (given[0] or N_("You"), N_("Computer ({level})").format(level=live.record.level))
    return (given[0] or N_("White"), given[1] or N_("Black"))


def log_names(live: LiveMatch) -> tuple[str, str]:
    """:func:`player_names` as the log says them: the default names in the current language ("You"
    stays, so the log says "You roll" in the language's own words)."""
    return _names_in_language(live, N_("You"))


def shown_names(live: LiveMatch) -> tuple[str, str]:
    """:func:`player_names` with the default names in the current language, "You" too: for what
    the server draws or writes out for a reader (an analysis, its chart), where the page cannot put
    the names into its language."""
    return _names_in_language(live, tr("You"))


def _names_in_language(live: LiveMatch, you: str) -> tuple[str, str]:
    given = live.record.rules.get(NAMES_KEY) or (None, None)
    if live.record.mode == "computer":
        return (given[0] or you, tr("Computer ({level})", level=live.record.level))
    return (given[0] or tr("White"), given[1] or tr("Black"))


def match_view(
    live: LiveMatch, seat: int | None, absence: Absence = PRESENT, steps: bool = True, plays: bool = True
) -> MatchView:
    """What ``seat`` sees; the legal plays go only to the seat to move, when ``plays`` asks for them,
    and their step orders (``sequences``, up to hundreds for doubles) when ``steps`` does too."""
    match, game = live.match, live.match.game
    viewer = 0 if seat is None else seat
    names = player_names(live)
    position = game.position_for(viewer)
    acting = live.acting_player()
    # A rated match's seat acts once an account holds it (the server refuses it before): it is
    # offered nothing, and the page says to sign in, which claims the seat.
    unheld = live.rated and seat is not None and live.accounts[seat] is None
    mine = acting is not None and (seat is None or seat == acting) and not unheld
    actions = sorted(str(a) for a in game.legal_actions() if a in _SEAT_ACTIONS) if mine else []
    if unheld:
        pass  # not even "abandon": refused too
    elif game.phase is not GamePhase.OVER:
        actions.append("abandon")
        if absence.claim_in == 0:
            actions.append("claim")
    elif not match.is_over:
        actions.append("new_game")
    texts: list[str] = []
    sequences: list[StepSequence] = []
    if mine and (plays or steps) and game.phase is GamePhase.MOVE and game.dice is not None:
        texts = live.play_texts()
        if steps:
            same_side = acting == viewer
            sequences = [
                StepSequence.model_construct(play=i, steps=[_wire_step(s, same_side) for s in order])
                for i, order in step_sequences(game.position, game.dice)[1]
            ]
    result = game.result
    opening = next((a.dice for a in game.history if isinstance(a, Roll) and a.opening), None)
    # Built without validation: every field comes from the domain objects, already checked.
    return MatchView.model_construct(
        match_id=live.id,
        mode=live.record.mode,
        level=live.record.level,
        seat=seat,
        viewer=viewer,
        names=names,
        version=live.version,
        match_length=match.rules.match_length,
        score=match.score,
        match_over=match.is_over,
        match_winner=match.winner,
        crawford_game=game.crawford_game,
        use_cube=match.rules.use_cube,
        rules=_rules_view(match.rules),
        game_number=len(match.games),
        phase=game.phase.value,
        turn=game.turn,
        dice=game.dice,
        opening_dice=opening,
        cube_value=game.cube_value,
        cube_owner=game.cube_owner,
        offered_resignation=int(game.offered_resignation) if game.offered_resignation else None,
        board=list(position.board),
        off=position.off,
        pips=position.pip_counts,
        position_id=game.position.id,
        gnubg_id=_gnubg_id(game),
        actions=actions,
        plays=texts,
        sequences=sequences,
        result=None
        if result is None
        else GameResultView.model_construct(
            winner=result.winner,
            kind=int(result.kind),
            points=result.points,
            cube_value=result.cube_value,
            reason=result.reason,
        ),
        log=match_log(live),
        last_play=last_play(game, len(match.games), viewer, log_names(live)),
        opponent_away=absence.seconds,
        claim_in=absence.claim_in,
        opponent_joined=absence.joined,
        rated=live.rated,
        accounts=live.accounts,
    )


def _gnubg_id(game: Game) -> str:
    """The game's GNU Backgammon ID; '' once it is over, or for a cube past the highest (a game
    stored before the cube stopped there), which no Match ID holds: the game still shows."""
    if game.phase is GamePhase.OVER or game.cube_value > HIGHEST_CUBE:
        return ""
    return gnubg_id(game)


def _rules_view(rules: Rules) -> RulesView:
    return RulesView(
        crawford=rules.crawford, jacoby=rules.jacoby, beavers=rules.beavers, cube_limit=rules.cube_limit
    )


def last_play(game: Game, number: int, viewer: int, names: tuple[str, str]) -> LastPlay | None:
    """The game's latest play (game ``number``) from ``viewer``'s side; None before one, or when
    the latest turn had no legal play."""
    history = game.history
    for index in range(len(history) - 1, -1, -1):
        move = history[index]
        if isinstance(move, PlayMade):
            break
    else:
        return None
    if move.play is None:
        return None
    same_side = move.player == viewer
    before = move.play.position if same_side else move.play.position.flip()
    return LastPlay.model_construct(
        key=f"{number}:{index}",
        player=move.player,
        dice=move.dice,
        text=action_line(move, names) or "",
        board=list(before.board),
        off=before.off,
        steps=[_wire_step(s, same_side) for s in move.play.steps],
    )


def _wire_step(step: tuple[int, int], same_side: bool) -> tuple[int | str, int | str]:
    """A mover's step in the viewer's numbering; the bar and off are named, not numbered."""

    def point(p: int) -> int | str:
        if p == 25:
            return "bar"
        if p == 0:
            return "off"
        return p if same_side else 25 - p

    return (point(step[0]), point(step[1]))


def match_log(live: LiveMatch) -> list[str]:
    """The match's log in the current language."""
    names = log_names(live)
    lang = current_language()
    lines: list[str] = []
    for number, game in enumerate(live.match.games, start=1):
        if game.crawford_game:
            lines.append(tr("Game {number} (Crawford)", number=number))
        else:
            lines.append(tr("Game {number}", number=number))
        # Lines already made are kept on the live match, per language: a view costs one line per
        # new action and language read, however many sockets watch.
        done, made = live.log_cache.get((number, lang), (0, []))
        history = game.history
        made = made + [line for action in history[done:] if (line := action_line(action, names))]
        live.log_cache[(number, lang)] = (len(history), made)
        lines.extend(made)
        if game.result is not None:
            lines.append(result_line(game, names))
    return lines


def game_log(game: Game, names: tuple[str, str]) -> list[str]:
    """The readable log of one game."""
    lines = [line for action in game.history if (line := action_line(action, names))]
    return lines + ([result_line(game, names)] if game.result is not None else [])


def result_line(game: Game, names: tuple[str, str]) -> str:
    r = game.result
    assert r is not None
    third, second = {
        1: (N_("{name} wins {points}"), N_("You win {points}")),
        2: (N_("{name} wins {points} (gammon)"), N_("You win {points} (gammon)")),
        3: (N_("{name} wins {points} (backgammon)"), N_("You win {points} (backgammon)")),
    }[int(r.kind)]
    return say_of(names[r.winner], third, second, points=points_text(r.points))


def action_line(action: Action, names: tuple[str, str]) -> str | None:
    """One history action as a line of the log (None for a roll but the opening one: the play's
    line shows the dice)."""
    if isinstance(action, Roll) and not action.opening:
        return None
    return describe(action, names)


__all__ = ["COMPUTER_SEAT", "match_view", "match_log", "game_log", "log_names", "player_names", "shown_names"]
