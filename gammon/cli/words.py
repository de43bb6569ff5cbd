"""Words for the terminal game: typed text in messages (the game's own words are in gammon.words)."""

from __future__ import annotations

import re

from gammon.words import WIN_WORDS, format_dice, points_text, said

__all__ = ["WIN_WORDS", "format_dice", "object_form", "one_of", "points_text", "quote", "said", "tidy"]

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
