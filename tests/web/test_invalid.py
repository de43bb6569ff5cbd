"""pydantic's validation errors worded by gammon (gammon.web.invalid): each kind our request models
can produce has its own sentence in every language, with the model's limits in it."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from gammon.i18n import LANGUAGES, tr, use_language
from gammon.web.invalid import reason


class Inner(BaseModel):
    a: int = 0


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid")

    n: int = Field(1, ge=1, le=5)
    x: float = Field(0.5, gt=0, lt=1)
    b: bool = True
    s: str = Field("ab", min_length=2, max_length=3)
    items: list[int] = Field([1], min_length=1, max_length=2)
    kind: Literal["a", "b"] = "a"
    inner: Inner = Inner()
    named: str = "x"

    @field_validator("named")
    @classmethod
    def _no_z(cls, value: str) -> str:
        if "z" in value:
            raise ValueError(tr("a name may not hold control characters (such as line breaks)"))
        return value


BAD = {
    "n": ("many", "should be a whole number"),
    "x": ("much", "should be a number"),
    "b": ("maybe", "should be true or false"),
    "s": (5, "should be a text"),
    "items": (7, "should be a list"),
    "inner": (3, "should be an object"),
    "kind": ("c", "should be one of 'a', 'b'"),
    "named": ("zz", "a name may not hold control characters (such as line breaks)"),
    "other": (1, "no such field is allowed"),
}
BOUNDS = {
    "n": ((0, "should be at least 1"), (6, "should be at most 5")),
    "x": ((0, "should be more than 0.0"), (1, "should be less than 1.0")),
    "s": (("a", "should have at least 2 characters"), ("abcd", "should have at most 3 characters")),
    "items": (([], "should have at least 1 item"), ([1, 2, 3], "should have at most 2 items")),
}


def _reasons(data: dict[str, object]) -> dict[str, str]:
    with pytest.raises(ValidationError) as info:
        Model.model_validate(data)
    return {str(e["loc"][0]): reason(e) for e in info.value.errors()}


def test_each_kind_of_error_has_its_english_sentence() -> None:
    assert _reasons({k: v for k, (v, _) in BAD.items()}) == {k: want for k, (_, want) in BAD.items()}
    for field, cases in BOUNDS.items():
        for value, want in cases:
            assert _reasons({field: value}) == {field: want}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_each_kind_of_error_is_worded_in_the_language(lang: str) -> None:
    english = _reasons({k: v for k, (v, _) in BAD.items()})
    with use_language(lang):
        worded = _reasons({k: v for k, (v, _) in BAD.items()})
        bounds = [_reasons({field: value})[field] for field, cases in BOUNDS.items() for value, _ in cases]
    assert all(worded[k] != english[k] for k in BAD), worded
    assert not any(text.startswith("should") for text in bounds), bounds
    assert worded["kind"].endswith("'a', 'b'") and any("5" in text for text in bounds)


def test_a_kind_no_model_of_ours_makes_is_still_worded() -> None:
    error = {"type": "url_parsing", "loc": ("body", "u"), "msg": "Input should be a valid URL", "ctx": {}}
    assert reason(error) == "invalid value"
    with use_language("pl"):
        assert reason(error) == "nieprawidłowa wartość"
