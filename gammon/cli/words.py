"""Words for the terminal game: typed text in messages (the game's own words are in gammon.words)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gammon.dice import Dice
from gammon.game import ActionKind
from gammon.refusal import Refusal, Refused
from gammon.words import WIN_WORDS, format_dice, points_text, said

if TYPE_CHECKING:
    from gammon.analysis.tutor import TutorWarning

__all__ = ["TUTOR_LEVELS", "WIN_WORDS", "format_dice", "object_form", "one_of", "points_text", "quote",
           "refusal_words", "said", "tidy", "tutor_question", "tutor_warning"]

QUOTE_LIMIT = 50  # typed text longer than this is cut in messages


def object_form(name: str) -> str:
    """A name after a preposition: "for you", "for pubeval"."""
    return "you" if name == "You" else name


def one_of(words: list[str]) -> str:
    """"a", "a or b", "a, b or c"."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Typed text in quotes for a message: control characters escaped, cut with an ellipsis
    past ``limit`` characters so a pasted page does not fill the screen."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    if len(text) > limit:
        text = text[:limit - 1] + "…"
    return f"'{text}'"


# A quote followed by the text it was taken from ("'13/7(5)' of '13/7(5)'", "'x' in the play
# '24/18 x'"): the part is what the player needs to see, the whole is what they just typed.
_PART_OF = re.compile(r"'([^'\n]+)' (?:of|in)(?: the play)? '([^'\n]+)'")
_LONG_QUOTE = re.compile(rf"'([^'\n]{{{QUOTE_LIMIT + 1},}})'")


def _part_of(part: str, whole: str) -> bool:
    """Whether the quoted ``part`` was taken from ``whole``; either may have been cut already
    (:func:`gammon.errors.cut`), and then only their starts can be compared."""
    part, whole = part.lower(), whole.lower()
    if part.endswith("...") or whole.endswith("..."):
        part, whole = part.removesuffix("...")[:20], whole.removesuffix("...")
    return part in whole


def tidy(message: str) -> str:
    """A lower layer's error message made fit for a player: typed text is quoted once, and long
    quotes (pasted input) are cut."""
    message = _PART_OF.sub(lambda m: f"'{m[1]}'" if _part_of(m[1], m[2]) else m[0], message)
    return _LONG_QUOTE.sub(lambda m: quote(m[1]), message)


# The game's reasons in the terminal's words (the rest: the game's own, tidied).
_REFUSAL_WORDS = {
    Refusal.NO_DOUBLE: "there is no double to answer",
    Refusal.NO_RESIGNATION: "there is no resignation to answer",
    Refusal.NOTHING_TO_UNDO: "there is no play to take back",
    Refusal.NOT_YOUR_PLAY: "there is no play of yours to take back",  # the computer's play stands
    Refusal.DICE_NOT_ROLLED: "roll first",
    Refusal.NO_CUBE: "this game is played without the cube",
    Refusal.CRAWFORD_GAME: "there is no doubling in the Crawford game",
    Refusal.BEAVER_MATCH_PLAY: "beavers are for money games only",
    Refusal.BEAVERS_OFF: "beavers are off in this game ('gammon play --beavers' allows them)",
    Refusal.GAME_OVER: "the game is over",
    Refusal.NOT_STARTED: "the game starts with the opening roll",
}


def refusal_words(refused: Refused, kind: ActionKind, names: tuple[str, str], answers: str,
                  dice: Dice | None) -> str:
    """Why the game refuses a ``kind`` request, in a player's words: ``answers`` are those the
    game waits for ("take or pass"), ``dice`` the roll to play."""
    r = refused.refusal
    if r is Refusal.RESIGNATION_PENDING:
        return f"first answer the resignation: {answers}"
    if r is Refusal.DOUBLE_PENDING:
        return f"first answer the double: {answers}"
    if r is Refusal.DICE_ROLLED:
        if kind == ActionKind.ROLL and dice is not None:
            return f"the dice are rolled: play the {format_dice(dice)}"
        return "a double is offered before rolling, not after"
    if r is Refusal.CUBE_OWNED and refused.player is not None:
        return f"{said(names[refused.player], 'owns')} the cube"
    if r in (Refusal.CUBE_LIMIT, Refusal.BEAVER_LIMIT):
        what = "the cube is at its limit" if r is Refusal.CUBE_LIMIT else "a beaver would pass the cube limit"
        return f"{what} of {refused.limit}"
    return _REFUSAL_WORDS.get(r) or tidy(refused.words())


# --- the tutor -----------------------------------------------------------------------------------

# The levels a player names (``gammon play --tutor LEVEL``, ``tutor LEVEL``) -> the analysis's
# mark (gammon.analysis.marks.Skill's value) from which the tutor warns.
TUTOR_LEVELS = {"doubtful": "doubtful", "bad": "bad", "very-bad": "very bad"}

# A cube action the tutor judged (gammon.analysis.decisions.CubeChoice.action), as a choice and
# as what the player is asked to confirm.
_CUBE_CHOICES = {"no double": ("not doubling", "Roll without doubling"), "double": ("doubling", "Double"),
                 "take": ("taking", "Take"), "pass": ("passing", "Pass"), "beaver": ("beavering", "Beaver")}


def tutor_warning(warning: TutorWarning) -> str:
    """What the tutor says of a choice it flags: the mark, what the choice gives up (in match
    winning chances in a match, as the analysis reports it) and the better choice."""
    mark = warning.skill.value
    article = "an" if mark[0] in "aeiou" else "a"
    if warning.chosen_words in _CUBE_CHOICES:
        what = f"{_CUBE_CHOICES[warning.chosen_words][0].capitalize()} is {article} {mark} cube decision"
    else:
        what = f"{warning.chosen_words} is {article} {mark} play"
    # as 'gammon analyse' reports an error: EMG, and in a match the match winning chances too
    loss = f"{warning.error:.3f} EMG"
    if warning.in_match:
        loss = f"{100 * warning.cost:.2f}% in match winning chances ({loss})"
    return f"Tutor: {what}: it loses {loss}. Better: {warning.best_words}."


def tutor_question(warning: TutorWarning) -> str:
    """The question after a warning: go on, take the better choice or go back (the default)."""
    verb = _CUBE_CHOICES[warning.chosen_words][1] if warning.chosen_words in _CUBE_CHOICES else "Play it"
    return f"{verb} anyway? [y/N, or b for {warning.best_words}] "
