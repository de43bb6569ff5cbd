"""The errors of the dice and of a set-up position that reach the terminal (gammon hint, gammon rollout)
and the browser (the position editor's hint and set-up) are said in the user's language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import uvicorn
from fastapi.testclient import TestClient

from gammon import Position
from gammon.cli.main import main
from gammon.dice import check_dice
from gammon.engine import players
from gammon.errors import IllegalMoveError
from gammon.i18n import use_language
from gammon.store import Store
from gammon.web import create_app
from gammon.web.settings import ServerSettings
from gammon.web.study import StudySettings
from tests.analysis.games import pip_engine
from tests.web.conftest import seeded_dice

BAD_ROLL = {
    "en": "dice '77' must be two digits from 1 to 6, e.g. '31'",
    "pl": "kostki '77' muszą być dwiema cyframi od 1 do 6, np. '31'",
    "cs": "kostky '77' musí být dvě číslice od 1 do 6, např. '31'",
    "sk": "kocky '77' musia byť dve číslice od 1 do 6, napr. '31'",
}


@pytest.mark.parametrize("lang", ["pl", "cs", "sk"])
@pytest.mark.parametrize("args", [["hint", "4HPwATDgc/ABMA", "77"],
                                  ["rollout", "4HPwATDgc/ABMA", "--dice", "77"]])
def test_a_bad_roll_at_the_terminal_is_refused_in_its_language(args, lang, capsys):
    assert main(["--lang", lang, *args]) == 2
    assert capsys.readouterr().err.strip().endswith(": " + BAD_ROLL[lang])


def test_dice_that_are_not_a_roll_are_refused_in_the_language():
    with use_language("cs"), pytest.raises(IllegalMoveError) as e:
        check_dice((7, 1))
    assert str(e.value) == "kostky musí být dvě čísla od 1 do 6, zadáno (7, 1)"


@pytest.fixture
def study(tmp_path) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path / 'test.sqlite3'}")
    app = create_app(store, seeded_dice(), settings=ServerSettings(
        rate=1000, burst=1000, study=StudySettings(engine=lambda plies: pip_engine())))
    with TestClient(app) as client:
        yield client
    store.close()


@pytest.mark.parametrize("lang", ["en", "pl", "cs", "sk"])
def test_the_editors_hint_refuses_a_bad_roll_in_the_readers_language(study, lang):
    r = study.get("/api/positions/hint", params={"id": "4HPwATDgc/ABMA", "dice": "77"},
                  headers={"Accept-Language": lang})
    assert r.status_code == 422 and r.json() == {"error": BAD_ROLL[lang]}


SET_UP = {
    "pl": ("to nie jest pozycja do analizy: niepoprawny XGID: kostki (7, 7) to nie dwie liczby od 1 do 6",
           "to nie jest pozycja do analizy: niepoprawny XGID: kostka dublująca na 3 to nie potęga dwójki",
           "to nie jest pozycja do analizy: twój wynik -1 nie może być ujemny"),
    "cs": ("to není pozice ke studiu: neplatné XGID: kostky (7, 7) nejsou dvě čísla od 1 do 6",
           "to není pozice ke studiu: neplatné XGID: zdvojovací kostka na 3 není mocnina dvou",
           "to není pozice ke studiu: vaše skóre -1 nemůže být záporné"),
    "sk": ("to nie je pozícia na štúdium: neplatné XGID: kocky (7, 7) nie sú dve čísla od 1 do 6",
           "to nie je pozícia na štúdium: neplatné XGID: zdvojovacia kocka na 3 nie je mocnina dvoch",
           "to nie je pozícia na štúdium: tvoje skóre -1 nemôže byť záporné"),
}


@pytest.mark.parametrize("lang", ["pl", "cs", "sk"])
def test_the_editors_set_up_is_refused_in_the_readers_language(study, lang):
    board = list(Position.initial().board)
    bad = ({"dice": [7, 7]}, {"cube_value": 3}, {"match_length": 5, "score": [-1, 0]})
    for setup, want in zip(bad, SET_UP[lang], strict=True):
        r = study.post("/api/positions", json={"board": board, **setup}, headers={"Accept-Language": lang})
        assert r.status_code == 422 and r.json() == {"error": want}, setup


@pytest.mark.parametrize(("lang", "want"), [
    ("pl", "nieznany poziom komputera 'mistrz'; do wyboru: "),
    ("cs", "neznámá úroveň počítače 'mistrz'; na výběr: "),
    ("sk", "neznáma úroveň počítača 'mistrz'; na výber: "),
])
def test_the_start_pages_unknown_level_is_refused_in_the_readers_language(study, lang, want):
    r = study.post("/api/matches", json={"mode": "computer", "level": "mistrz", "match_length": 3},
                   headers={"Accept-Language": lang})
    assert r.status_code == 422
    assert want + "random, pubeval" in r.json()["error"]


def test_an_engine_level_without_the_net_is_refused_in_the_language(monkeypatch):
    monkeypatch.setattr(players, "engine_available", lambda: False)
    with use_language("sk"), pytest.raises(ValueError) as e:
        players.computer_player("engine")
    assert str(e.value) == "úroveň 'engine' potrebuje natrénovanú sieť enginu, ktorá nie je nainštalovaná"


@pytest.mark.parametrize(("lang", "want"), [
    ("pl", "gammon serve: rate musi być liczbą dodatnią, podano -5.0"),
    ("cs", "gammon serve: rate musí být kladné číslo, zadáno -5.0"),
    ("sk", "gammon serve: rate musí byť kladné číslo, zadané -5.0"),
])
def test_serve_refuses_a_rate_limit_that_is_no_positive_number_in_its_language(tmp_path, capsys, monkeypatch,
                                                                                 lang, want):
    """--rate-limit -5 started a server that answered every request 429, and nan one without a
    limit; it is refused at the terminal, before the server starts."""
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: None)  # no server, were it to start
    database = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    argv = ["--lang", lang, "serve", "--port", "0", "--database-url", database, "--rate-limit", "-5"]
    assert main(argv) == 2
    assert capsys.readouterr().err.strip() == want


@pytest.mark.parametrize("rate", [0.0, -5.0, float("nan")])
def test_server_settings_refuse_a_rate_or_burst_that_is_no_positive_number(rate):
    with pytest.raises(ValueError, match=r"^rate must be a positive number, got "):
        ServerSettings(rate=rate)
    with pytest.raises(ValueError, match=r"^burst must be a positive number, got "):
        ServerSettings(burst=rate)
