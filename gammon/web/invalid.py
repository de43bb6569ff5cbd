"""What is wrong with one field of a request or a socket's message, in the reader's language.

pydantic words its validation errors in English; gammon words them itself from the error's
``type`` and ``ctx`` (the limits our request models set), so an "invalid request: ..." answer is in
the request's language (the :class:`gammon.web.routes.language.Language` middleware sets it). A
type our models cannot produce gets a generic sentence."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from gammon.errors import cut
from gammon.i18n import N_, ntr, tr

# The reasons that take no count; ``{limit}`` is the context's bound where the type has one.
REASONS = {
    "missing": N_("field required"),
    "extra_forbidden": N_("no such field is allowed"),
    "int_parsing": N_("should be a whole number"),
    "int_type": N_("should be a whole number"),
    "int_from_float": N_("should be a whole number"),
    "float_parsing": N_("should be a number"),
    "float_type": N_("should be a number"),
    "finite_number": N_("should be a number"),
    "bool_parsing": N_("should be true or false"),
    "bool_type": N_("should be true or false"),
    "string_type": N_("should be a text"),
    "list_type": N_("should be a list"),
    "dict_type": N_("should be an object"),
    "model_type": N_("should be an object"),
    "model_attributes_type": N_("should be an object"),
    "greater_than_equal": N_("should be at least {limit}"),
    "greater_than": N_("should be more than {limit}"),
    "less_than_equal": N_("should be at most {limit}"),
    "less_than": N_("should be less than {limit}"),
    "none_required": N_("should be null"),
}
# Which context entry holds the bound of each type that has one.
LIMIT_OF = {"greater_than_equal": "ge", "greater_than": "gt", "less_than_equal": "le", "less_than": "lt"}

# A literal's or an enum's choices as pydantic lists them: 'a', 'b' or 'c' (strings quoted, numbers not).
_CHOICE = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|-?\d+(?:\.\d+)?")


def reason(error: Mapping[str, Any]) -> str:
    """The problem of one pydantic error (an item of ``ValidationError.errors()``), worded in the
    current language."""
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    if kind == "value_error":  # our own validators' words, already in the language
        return cut(str(ctx.get("error", error.get("msg", ""))), 120)
    if kind in ("string_too_long", "string_too_short", "too_long", "too_short"):
        return _length(kind, ctx)
    if kind in ("literal_error", "enum"):
        choices = _CHOICE.findall(str(ctx.get("expected", "")))
        return tr("should be one of {choices}", choices=cut(", ".join(choices), 120))
    if kind in REASONS:
        return tr(REASONS[kind], limit=ctx.get(LIMIT_OF.get(kind, ""), ""))
    return tr("invalid value")


def _length(kind: str, ctx: Mapping[str, Any]) -> str:
    if kind == "string_too_long":
        n = int(ctx.get("max_length", 0))
        return ntr("should have at most {n} character", "should have at most {n} characters", n, n=n)
    if kind == "string_too_short":
        n = int(ctx.get("min_length", 0))
        return ntr("should have at least {n} character", "should have at least {n} characters", n, n=n)
    if kind == "too_long":
        n = int(ctx.get("max_length", 0))
        return ntr("should have at most {n} item", "should have at most {n} items", n, n=n)
    n = int(ctx.get("min_length", 0))
    return ntr("should have at least {n} item", "should have at least {n} items", n, n=n)


MAX_PROBLEMS = 5
"""Bad fields an answer names at most (a request may hold thousands)."""


def problems(errors: Sequence[Mapping[str, Any]], skip: int = 0, whole: str = "body") -> str:
    """The first :data:`MAX_PROBLEMS` of pydantic's errors in one line, each field's name and a cut
    of its input quoted, never the input whole (a request's body may be as long as the server
    reads). ``skip`` leaves out the start of each location (FastAPI's ``body``); ``whole`` names a
    problem of the whole input."""
    return "; ".join(_invalid(e, skip, whole) for e in errors[:MAX_PROBLEMS])


def _invalid(error: Mapping[str, Any], skip: int, whole: str) -> str:
    """One bad field: where, what is wrong (in the reader's language), and a cut of its input."""
    field = cut(".".join(str(x) for x in error.get("loc", ())[skip:]) or whole, 40)
    problem = reason(error)
    if "input" in error and error.get("type") != "missing":
        got = cut(repr(error["input"]), 40)
        return tr("{field}: {problem} (got {input})", field=field, problem=problem, input=got)
    return f"{field}: {problem}"
