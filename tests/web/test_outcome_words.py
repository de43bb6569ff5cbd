"""The words for a finished game or match (common.js ``outcomeText``, the game page's and the
spectators' status line), run in Node.js with each language's catalogue as the pages load it
(:func:`page_words`, which other tests use for other functions of the pages' modules)."""

from __future__ import annotations

import json
import shutil
import subprocess
from importlib.resources import files
from pathlib import Path

import pytest

from gammon.i18n import catalogue, plural_sources
from gammon.web.routes.language import PLURAL_RULES

NODE = """
globalThis.document = {
  documentElement: {}, querySelectorAll: () => [], querySelector: () => null, cookie: "",
};
globalThis.navigator = { languages: ["en"] };
const { readFileSync } = await import("node:fs");
const [module, name, cataloguePath, inputs] = process.argv.slice(2);
const catalogue = readFileSync(cataloguePath, "utf8");
globalThis.fetch = async () => ({ ok: true, json: async () => JSON.parse(catalogue) });
const common = await import(new URL("common.js", module).href);
await common.loadLanguage(JSON.parse(catalogue).lang);
const fn = (await import(module))[name];
console.log(JSON.stringify(JSON.parse(inputs).map(x => fn(x))));
"""


def page_words(tmp_path: Path, lang: str, module: str, name: str, inputs: list) -> list:
    """``name`` of the pages' ``module`` (static/<module>) applied to each of ``inputs`` in Node.js,
    common.js loaded with ``lang``'s catalogue as /i18n/<lang>.json serves it."""
    script = tmp_path / "words.mjs"
    script.write_text(NODE)
    body = {
        "lang": lang,
        "plural": PLURAL_RULES[lang],
        "messages": catalogue(lang),
        "plurals": plural_sources(lang),
    }
    cat = tmp_path / f"{lang}.json"
    cat.write_text(json.dumps(body), encoding="utf-8")
    url = (Path(str(files("gammon.web") / "static")) / module).as_uri()
    run = [shutil.which("node"), str(script), url, name, str(cat), json.dumps(inputs)]
    return json.loads(subprocess.run(run, capture_output=True, text=True, check=True, timeout=60).stdout)


# The computer's match as the page shows it: the names already in the page's language (app.js's
# render reads them with tLine), the player in seat 0, the computer winning 5 points to 0.
NAMES = {
    "en": ["You", "Computer"],
    "pl": ["Ty", "Komputer"],
    "cs": ["Ty", "Počítač"],
    "sk": ["Ty", "Počítač"],
}


def _states(lang: str) -> list[dict]:
    names = NAMES[lang]
    over = {"names": names, "seat": 0, "match_over": True, "score": [0, 5], "result": None}
    game = {"names": names, "seat": 0, "match_over": False, "score": [3, 0]}
    return [
        {**over, "match_winner": 0, "score": [5, 0]},
        {**over, "match_winner": 1},
        {**game, "result": {"winner": 0, "points": 2, "kind": 2}},
        {**game, "result": {"winner": 0, "points": 5, "kind": 1}},
        {**game, "result": {"winner": 1, "points": 1, "kind": 1}},
        {**over, "seat": None, "match_winner": 1},  # a spectator's page, or two players on one device
    ]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run common.js")
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            [
                "You won the match 5-0",
                "Computer won the match 5-0",
                "You won 2 points with a gammon",
                "You won 5 points",
                "Computer won 1 point",
                "Computer won the match 5-0",
            ],
        ),
        (
            "pl",
            [
                "Wygrywasz mecz 5-0",
                "Komputer wygrywa mecz 5-0",
                "Wygrywasz 2 punkty gammonem",
                "Wygrywasz 5 punktów",
                "Komputer wygrywa 1 punkt",
                "Komputer wygrywa mecz 5-0",
            ],
        ),
        (
            "cs",
            [
                "Vyhráváte zápas 5-0",
                "Počítač vyhrává zápas 5-0",
                "Vyhráváte 2 body gammonem",
                "Vyhráváte 5 bodů",
                "Počítač vyhrává 1 bod",
                "Počítač vyhrává zápas 5-0",
            ],
        ),
        (
            "sk",
            [
                "Vyhrávaš zápas 5-0",
                "Počítač vyhráva zápas 5-0",
                "Vyhrávaš 2 body gammonom",
                "Vyhrávaš 5 bodov",
                "Počítač vyhráva 1 bod",
                "Počítač vyhráva zápas 5-0",
            ],
        ),
    ],
)
def test_a_finished_game_is_said_to_the_player_and_the_winners_score_first(
    tmp_path: Path, lang: str, said: list[str]
) -> None:
    """The page's own seat won: 'You won', not the third person's words with its name ('Ty wygrywa
    mecz'); the match's score is the winner's first ('won 5-0', not 'won 0-5')."""
    assert page_words(tmp_path, lang, "common.js", "outcomeText", _states(lang)) == said
