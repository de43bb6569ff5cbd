"""gammon.i18n.check.untranslated: English left on a page, not a word a language keeps as it is."""

from __future__ import annotations

from gammon.i18n.check import untranslated


def test_a_word_one_context_keeps_is_not_english_left_on_a_page() -> None:
    """Polish keeps the start button's "Start" while a replay's first frame, in a context of its
    own, is "Początek": the start page's "Start" was reported as untranslated."""
    assert untranslated(["Start"], "pl") == []
    assert untranslated(["Account", "Konto"], "pl") == ["Account"]  # "Konto" in Polish
