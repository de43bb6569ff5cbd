"""Words for the terminal game: typed text in messages (the game's own words are in gammon.words),
in the current language (:mod:`gammon.i18n`)."""

from __future__ import annotations

import errno
import re
import unicodedata
from typing import TYPE_CHECKING

from gammon.dice import Dice
from gammon.game import ActionKind
from gammon.i18n import DEFAULT_LANGUAGE, N_, current_language, format_number, ptr, tr
from gammon.refusal import Refusal, Refused, beaver_limit_words, cube_limit_words
from gammon.rules import WinKind
from gammon.words import WIN_WORDS, YOU, format_dice, points_text, said, say_of, shown_name

if TYPE_CHECKING:
    from gammon.analysis.tutor import TutorWarning
    from gammon.engine.cube.decision import CubeDecision

__all__ = ["CUBE_ACTION_WORDS", "TUTOR_LEVELS", "WIN_WORDS", "YOU", "better_words", "cube_advice", "fold",
           "format_dice", "local_commands", "local_resign_words", "mark_words", "no_words", "object_form",
           "one_of", "os_error_words", "points_text", "printable", "quote", "refusal_words", "said", "say_of",
           "shown_name", "tidy", "tutor_question", "tutor_warning", "yes_words"]

QUOTE_LIMIT = 50  # typed text longer than this is cut in messages

# The system's reasons a file cannot be read or written, as its C library says them in English
# (Python does not take the locale's messages), in the current language.
_OS_ERRORS = {
    errno.ENOENT: N_("No such file or directory"), errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"), errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"), errno.ENOSPC: N_("No space left on device"),
    errno.ENAMETOOLONG: N_("File name too long"), errno.EROFS: N_("Read-only file system"),
    errno.EFBIG: N_("File too large"),
}


def os_error_words(error: OSError) -> str:
    """Why the system refused a file, in the current language where it is a usual reason."""
    words = _OS_ERRORS.get(error.errno) if error.errno is not None else None
    return tr(words) if words else error.strerror or str(error)


def object_form(name: str) -> str:
    """A name after a preposition: "for you", "for pubeval"."""
    # Translators: "You" after a preposition ("Cube advice for you")
    return tr("you") if name == YOU else name


def one_of(words: list[str]) -> str:
    """"a", "a or b", "a, b or c"."""
    if len(words) == 1:
        return words[0]
    return tr("{some} or {last}", some=", ".join(words[:-1]), last=words[-1])


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Typed text in quotes for a message: control characters escaped (a byte that was no text
    in the terminal's encoding, kept as a surrogate, as that byte: '\\xe9'), cut with an ellipsis
    past ``limit`` characters so a pasted page does not fill the screen."""
    text = printable(text)
    if len(text) > limit:
        text = text[:limit - 1] + "…"
    return f"'{text}'"


def printable(text: str) -> str:
    """``text`` with its control characters escaped, as :func:`quote` shows them: typed text
    must not reach the terminal as an escape sequence that recolours or clears it."""
    return "".join(c if c.isprintable() else _escaped(c) for c in text)


def _escaped(c: str) -> str:
    if "\udc80" <= c <= "\udcff":  # surrogateescape's form of a byte >= 0x80
        return f"\\x{ord(c) - 0xDC00:02x}"
    return repr(c)[1:-1]


# A quote followed by the text it was taken from ("'13/7(5)' of '13/7(5)'", "'x' in the play
# '24/18 x'"): the part is what the player needs to see, the whole is what they just typed.
_PART_OF = re.compile(r"'([^'\n]+)' (?:of|in)(?: the play)? '([^'\n]+)'")
_REPR_BYTE = re.compile(r"\\udc([89a-f][0-9a-f])")
_LONG_QUOTE = re.compile(rf"'([^'\n]{{{QUOTE_LIMIT + 1},}})'")


def _part_of(part: str, whole: str) -> bool:
    """Whether the quoted ``part`` was taken from ``whole``; either may have been cut already
    (:func:`gammon.errors.cut`), and then only their starts can be compared."""
    part, whole = part.lower(), whole.lower()
    if part.endswith("...") or whole.endswith("..."):
        part, whole = part.removesuffix("...")[:20], whole.removesuffix("...")
    return part in whole


def tidy(message: str) -> str:
    """A lower layer's error message made fit for a player: typed text is quoted once, long
    quotes (pasted input) are cut, and a byte that was no text, which the lower layer quoted
    with repr() as a surrogate ('\\udce9'), is shown as that byte ('\\xe9'), as :func:`quote` does."""
    message = _REPR_BYTE.sub(r"\\x\1", message)
    message = _PART_OF.sub(lambda m: f"'{m[1]}'" if _part_of(m[1], m[2]) else m[0], message)
    return _LONG_QUOTE.sub(lambda m: quote(m[1]), message)


# The game's reasons in the terminal's words (the rest: the game's own, tidied).
_REFUSAL_WORDS = {
    Refusal.NO_DOUBLE: N_("there is no double to answer"),
    Refusal.NO_RESIGNATION: N_("there is no resignation to answer"),
    Refusal.NOTHING_TO_UNDO: N_("there is no play to take back"),
    Refusal.NOT_YOUR_PLAY: N_("there is no play of yours to take back"),  # the computer's play stands
    Refusal.DICE_NOT_ROLLED: N_("roll first"),
    Refusal.NO_CUBE: N_("this game is played without the cube"),
    Refusal.CRAWFORD_GAME: N_("there is no doubling in the Crawford game"),
    Refusal.BEAVER_MATCH_PLAY: N_("beavers are for money games only"),
    Refusal.BEAVERS_OFF: N_("beavers are off in this game ('gammon play --beavers' allows them)"),
    Refusal.GAME_OVER: N_("the game is over"),
    Refusal.NOT_STARTED: N_("the game starts with the opening roll"),
}


def refusal_words(refused: Refused, kind: ActionKind, names: tuple[str, str], answers: str,
                  dice: Dice | None) -> str:
    """Why the game refuses a ``kind`` request, in a player's words: ``answers`` are those the
    game waits for ("take or pass"), ``dice`` the roll to play."""
    r = refused.refusal
    if r is Refusal.RESIGNATION_PENDING:
        return tr("first answer the resignation: {answers}", answers=answers)
    if r is Refusal.DOUBLE_PENDING:
        return tr("first answer the double: {answers}", answers=answers)
    if r is Refusal.DICE_ROLLED:
        if kind == ActionKind.ROLL and dice is not None:
            return tr("the dice are rolled: play the {dice}", dice=format_dice(dice))
        return tr("a double is offered before rolling, not after")
    if r is Refusal.CUBE_OWNED and refused.player is not None:
        return say_of(names[refused.player], N_("{name} owns the cube"), N_("You own the cube"))
    if r is Refusal.CUBE_LIMIT and refused.limit is not None:
        return cube_limit_words(refused.limit)
    if r is Refusal.BEAVER_LIMIT and refused.limit is not None:
        return beaver_limit_words(refused.limit)
    words = _REFUSAL_WORDS.get(r)
    return tr(words) if words else tidy(refused.words())


# --- the tutor -----------------------------------------------------------------------------------

# The levels a player names (``gammon play --tutor LEVEL``, ``tutor LEVEL``) -> the analysis's
# mark (gammon.analysis.marks.Skill's value) from which the tutor warns.
TUTOR_LEVELS = {"doubtful": "doubtful", "bad": "bad", "very-bad": "very bad"}

# A cube action the tutor judged (gammon.analysis.decisions.CubeChoice.action), as a choice and
# as what the player is asked to confirm.
_CUBE_CHOICES = {"no double": (N_("Not doubling"), N_("Roll without doubling")),
                 "double": (N_("Doubling"), N_("Double")), "take": (N_("Taking"), N_("Take")),
                 "pass": (N_("Passing"), N_("Pass")), "beaver": (N_("Beavering"), N_("Beaver"))}

# The analysis's marks as the tutor says them ("a doubtful play").
_MARK_PLAYS = {"doubtful": N_("{play} is a doubtful play"), "bad": N_("{play} is a bad play"),
               "very bad": N_("{play} is a very bad play")}
_MARK_CUBE = {"doubtful": N_("{choice} is a doubtful cube decision"),
              "bad": N_("{choice} is a bad cube decision"),
              "very bad": N_("{choice} is a very bad cube decision")}


# The tutor's better cube action (gammon.analysis.decisions.CubeChoice.best_action) as it is said.
_BETTER_CUBE_ACTIONS = {"no double": N_("no double"), "no double, too good": N_("no double, too good"),
                        "double": N_("double"), "take": N_("take"), "pass": N_("pass"),
                        "beaver": N_("beaver")}


def better_words(warning: TutorWarning) -> str:
    """The tutor's better choice: a play as written, a cube action in the current language."""
    words = _BETTER_CUBE_ACTIONS.get(warning.best_words)
    return tr(words) if words else warning.best_words


def mark_words(mark: str) -> str:
    """The analysis's mark ("doubtful", "bad", "very bad") in the current language."""
    return tr({"doubtful": N_("doubtful"), "bad": N_("bad"), "very bad": N_("very bad")}.get(mark, mark))


def tutor_warning(warning: TutorWarning) -> str:
    """What the tutor says of a choice it flags: the mark, what the choice gives up (in match
    winning chances in a match, as the analysis reports it) and the better choice."""
    mark = warning.skill.value
    if warning.chosen_words in _CUBE_CHOICES:
        what = tr(_MARK_CUBE.get(mark, "{choice}"), choice=tr(_CUBE_CHOICES[warning.chosen_words][0]))
    else:
        what = tr(_MARK_PLAYS.get(mark, "{play}"), play=warning.chosen_words)
    # as 'gammon analyse' reports an error: EMG, and in a match the match winning chances too
    loss = f"{format_number(warning.error, '.3f')} EMG"
    if warning.in_match:  # the whole percent, as the browser's tutor says it ("16,56 %" in Czech)
        loss = tr("{pct} in match winning chances ({emg})", pct=format_number(warning.cost, ".2%"), emg=loss)
    return tr("Tutor: {what}: it loses {loss}. Better: {better}.", what=what, loss=loss,
              better=better_words(warning))


def tutor_question(warning: TutorWarning) -> str:
    """The question after a warning: go on, take the better choice or go back (the default)."""
    choice = _CUBE_CHOICES.get(warning.chosen_words)
    verb = tr(choice[1]) if choice else tr("Play it")
    return tr("{verb} anyway? [y/N, or b for {better}] ", verb=verb, better=better_words(warning))


# --- commands and answers in the current language ------------------------------------------------

def fold(word: str) -> str:
    """A typed word as commands are compared: lower case, without accents ("Rzuć" = "rzuc"), so
    a keyboard without the language's letters types every command too."""
    decomposed = unicodedata.normalize("NFKD", word.strip().lower())
    # Polish 'ł' is a letter of its own to Unicode, not 'l' with a mark: NFKD leaves it whole
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("ł", "l")


def _word_table(pairs: dict[str, str], folded: bool = True) -> dict[str, str]:
    """{word: meaning} from {meaning: its words in the current language, space-separated}, the
    words :func:`fold`-ed unless ``folded`` is False; empty in English, whose words the callers
    always know."""
    if current_language() == DEFAULT_LANGUAGE:
        return {}
    return {fold(word) if folded else word: meaning
            for meaning, words in pairs.items() for word in words.split()}


def local_commands() -> dict[str, str]:
    """The terminal's commands in the current language: {word: command}, the words as written
    (gammon.cli.session's COMMANDS names them in English). A catalogue may give a command several
    words, space-separated."""
    return _word_table({
        "roll": ptr("command", "roll"), "double": ptr("command", "double"), "take": ptr("command", "take"),
        "pass": ptr("command", "pass"), "resign": ptr("command", "resign"), "accept": ptr("command",
                                                                                          "accept"),
        "reject": ptr("command", "reject"), "undo": ptr("command", "undo"), "hint": ptr("command", "hint"),
        "board": ptr("command", "board"), "pips": ptr("command", "pips"), "save": ptr("command", "save"),
        "help": ptr("command", "help"), "quit": ptr("command", "quit"),
    }, folded=False)


def local_resign_words() -> dict[str, WinKind]:
    """What 'resign' may be followed by in the current language: {word: what is resigned}."""
    kinds = {"single": WinKind.SINGLE, "gammon": WinKind.GAMMON, "backgammon": WinKind.BACKGAMMON}
    table = _word_table({"single": ptr("resign", "single"), "gammon": ptr("resign", "gammon"),
                         "backgammon": ptr("resign", "backgammon")})
    return {word: kinds[meaning] for word, meaning in table.items()}


def yes_words() -> set[str]:
    """The answers that say yes: English's and the current language's."""
    return {"y", "yes"} | set(_word_table({"yes": ptr("answer", "y yes")}))


def no_words() -> set[str]:
    """The answers that say no: English's and the current language's."""
    return {"n", "no"} | set(_word_table({"no": ptr("answer", "n no")}))


# --- the engine's cube advice ----------------------------------------------------------------------

# gammon.engine.cube.decision.CubeAction's values, as they are said (the web's pages read them too).
CUBE_ACTION_WORDS = {
    "no double": N_("no double"), "double, take": N_("double, take"), "double, pass": N_("double, pass"),
    "too good to double, take": N_("too good to double, take"),
    "too good to double, pass": N_("too good to double, pass"),
    "no double (the cube is dead or not available)": N_("no double (the cube is dead or not available)"),
}


def cube_advice(decision: CubeDecision) -> str:
    """The engine's cube decision in the current language, as ``str(decision)`` says it in English."""
    answer = tr("beaver") if decision.beaver else tr("take") if decision.take else tr("pass")
    action = decision.action.value
    text = tr("{action} (opponent's answer to a double: {answer}); cubeful equity: no double {no_double}, "
              "double/take {take}, double/pass {drop}", action=tr(CUBE_ACTION_WORDS.get(action, action)),
              answer=answer, no_double=format_number(decision.no_double, "+.3f"),
              take=format_number(decision.double_take, "+.3f"),
              drop=format_number(decision.double_pass, "+.3f"))
    if decision.match_winning_chances:
        chances = " / ".join(format_number(v, ".1%") for v in decision.match_winning_chances)
        text += tr("; match winning chances {chances}", chances=chances)
    return text
