"""GNU Backgammon SGF files: the syntax, reading gnubg's conventions, errors, writing, round trips,
the analysis hook and fuzzing. test_sgf_gnubg.py checks the same against the gnubg program."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gammon import InvalidNotationError
from gammon.dice import ScriptedDice
from gammon.formats.sgf import (
    SgfMatch,
    format_sgf,
    parse_sgf,
    read_sgf,
    write_sgf,
)
from gammon.game import (
    Abandon,
    AcceptResignation,
    Beaver,
    Double,
    Pass,
    PlayMade,
    RejectResignation,
    Resign,
    Roll,
)
from gammon.match import Match
from gammon.rules import Rules
from tests.formats.random_play import play_match

# Written in gnubg's way (its plays and conventions, shortened): a 3-point match; game 1 Black
# opens, doubles, White drops; game 2 White opens, Black rolls and resigns a gammon.
GNUBG_STYLE = """\
(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:3][game:0][ws:0][bs:0]PW[Alice]PB[Bob]\
DT[2024-02-03]EV[Open \\] Cup]RU[Crawford]RE[B+1]GS[M:1 2]
;B[21lnab]A[0][lnab E ver 3 0.49 0.13 0.007 0.14 0.006 -0.008 0C 0 1 0.000000 1]MR[]
;W[52mhxv]C[a comment]
;B[double]DA[E ver 3 0C 1 0.000000 1 0.5 0.1 0.0 0.1 0.0 0.0 0.5 0.5 0.1 0.0 0.1 0.0 0.0 0.4]
;W[drop])
(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:3][game:1][ws:0][bs:1]PW[Alice]PB[Bob]\
RU[Crawford]RE[W+2R]
;W[31hefe]
;PL[B]DI[64])
"""


def _core(history: list) -> list:
    """What SGF keeps of a game: rolls without the tied throws' dice, plays, cube actions."""
    return [Roll(a.player, a.dice, a.opening) if isinstance(a, Roll) else a for a in history
            if not isinstance(a, Resign | AcceptResignation | RejectResignation | Abandon)]


# --- syntax ----------------------------------------------------------------------------------


def test_parse_values_escapes_and_main_line() -> None:
    text = "(;FF[4]GM[6]C[a \\] b \\\\ c\\\nd]AB[a][b]\n ;W[52] ; B[31](;X[1];Y[2])(;Z[3]))\n(;GaMe[6]XY [1])"
    first, second = parse_sgf(text)
    root, w, b, x, y = first.nodes
    assert root.properties == {"FF": ("4",), "GM": ("6",), "C": ("a ] b \\ cd",), "AB": ("a", "b")}
    assert (w.value("W"), b.value("B"), x.value("X"), y.value("Y")) == ("52", "31", "1", "2")
    assert w.line == 3 and first.variations == 1  # the second variation (Z) is passed over
    assert second.nodes[0].properties == {"GM": ("6",), "XY": ("1",)}  # FF[3] lower-case letters ignored


@pytest.mark.parametrize("text, what", [
    ("", "empty"),
    ("x(;GM[6])", "line 1, column 1: expected '('"),
    ("(;GM[6]", "expected ')'"),
    ("(;GM[6]C[open", "no closing ']'"),
    ("(GM[6])", "must start with a node"),
    ("(;GM)", "has no value"),
    ("(;GM[6]\n;W[52]]\n)", "line 2, column 7: expected ')'"),
    ("(;GM[6]" * 200 + ")" * 200, "nested more than"),
])
def test_syntax_errors_say_where(text: str, what: str) -> None:
    with pytest.raises(InvalidNotationError, match=re.escape(what)):
        parse_sgf(text)


# --- reading ---------------------------------------------------------------------------------


def test_read_gnubg_style_match() -> None:
    record = read_sgf(GNUBG_STYLE)
    match = record.match
    assert match.rules == Rules(match_length=3)
    assert record.names == ("Alice", "Bob")
    assert record.info == {"DT": "2024-02-03", "EV": "Open ] Cup"}
    assert record.application == "GNU Backgammon:1.07.001" and record.warnings == ()
    g1, g2 = match.games
    opening, black, white = g1.history[0], g1.history[1], g1.history[3]
    # Black (player 1) won the opening 2-1 (dice are player 0's die, player 1's die)
    assert opening == Roll(1, (1, 2), opening=True)
    assert str(black.play) == "24/23 13/11" and black.player == 1
    assert str(white.play) == "24/22 13/8" and white.player == 0
    assert g1.history[4:] == [Double(1, 2), Pass(0)]
    assert (g1.result.winner, g1.result.points, g1.result.reason) == (1, 1, "pass")
    # game 2: White opens 31, Black rolls 64 and resigns a gammon
    assert str(g2.history[1].play) == "8/5 6/5"
    assert g2.history[2] == Roll(1, (6, 4))
    assert g2.history[3:] == [Resign(1, 2), AcceptResignation(0)]
    assert (g2.result.winner, g2.result.points, g2.result.kind) == (0, 2, 2)
    assert match.score == (2, 1) and not match.is_over
    # every property gammon does not read is kept with its action or game
    assert record.game_properties(0) == {"GS": ("M:1 2",)}
    assert set(record.action_properties(0, 1)) == {"A", "MR"}
    assert record.action_properties(0, 3) == {"C": ("a comment",)}
    assert set(record.action_properties(0, 4)) == {"DA"}
    assert record.note_names() == {"GS", "A", "MR", "C", "DA"}


def _decode(letters: str, player: int) -> list[tuple[int, int]]:
    """gnubg's step letters, decoded by the table of its sgf.c: for White 'a'-'x' are its points
    1-24, for Black its points 24-1; 'y' is the bar (25) and 'z' off (0)."""
    table = {"y": 25, "z": 0}
    for i, c in enumerate("abcdefghijklmnopqrstuvwx"):
        table[c] = i + 1 if player == 0 else 24 - i
    return [(table[letters[i]], table[letters[i + 1]]) for i in range(0, len(letters), 2)]


def test_every_step_is_written_in_gnubg_letters() -> None:
    seen = set()
    for seed in range(6):
        match = play_match(seed, Rules(match_length=5), games=4, double=0.02, resign=0.0)
        trees = parse_sgf(format_sgf(match))
        for game, tree in zip(match.games, trees, strict=True):
            moves = [a for a in game.history if isinstance(a, PlayMade)]
            nodes = [n for n in tree.nodes[1:]
                     if re.fullmatch(r"\d\d[a-z]*", n.value("W") or n.value("B") or "")]
            assert len(nodes) == len(moves)
            for move, node in zip(moves, nodes):
                player = 0 if "W" in node.properties else 1
                value = node.value("W" if player == 0 else "B")
                assert player == move.player and sorted(int(d) for d in value[:2]) == sorted(move.dice)
                steps = list(move.play.steps) if move.play else []
                assert _decode(value[2:], player) == steps
                seen.update(p for step in steps for p in step if p in (0, 25))
    assert seen == {0, 25}  # entering from the bar and bearing off were written


def test_beaver_and_its_take() -> None:
    text = ("(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]PW[a]PB[b]RU[Jacoby]\n;W[41hdfe]\n;B[double]"
            "\n;W[double]\n;B[take]\n;PL[B]DI[65]\n;B[65])")
    match = read_sgf(text).match
    assert match.rules == Rules(beavers=True)
    game = match.game
    assert [type(a) for a in game.history] == [Roll, PlayMade, Double, Beaver, Roll]
    assert game.history[3] == Beaver(0, 4)
    # the last node repeats the roll without a play (gnubg's node for a hint): rolled, not played
    assert (game.cube_value, game.cube_owner, game.turn, game.dice) == (4, 0, 1, (6, 5))
    assert game.phase.name == "MOVE"
    with pytest.raises(InvalidNotationError, match="drops a beaver"):
        read_sgf(text.replace(";B[take]", ";B[drop]"))


def test_automatic_doubles() -> None:
    text = "(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]CV[4]RE[B+4]\n;W[31hefe]\n;B[double]\n;W[drop])"
    match = read_sgf(text).match
    assert match.rules.automatic_doubles == 2
    game = match.game
    assert len(game.history[0].ties) == 2 and (game.result.points, game.result.cube_value) == (4, 4)
    assert "CV[4]" in format_sgf(match)
    with pytest.raises(InvalidNotationError, match="CV"):
        read_sgf(text.replace("length:0", "length:5").replace("RE[W+4]", ""))


@pytest.mark.parametrize("change, what", [
    (("GM[6]", "GM[1]"), "not a backgammon game"),
    (("B[21lnab]", "B[21lnac]"), "not a legal play of 21"),
    (("B[21lnab]", "B[22lnab]"), "cannot be a double"),
    (("B[21lnab]", "B[21lnzb]"), "cannot start from off"),
    (("B[21lnab]", "B[21ln]"), "not a legal play"),
    (("B[21lnab]", "B[21]"), "no play written"),
    (("B[21lnab]", "B[2x]"), "expected the dice"),
    (("W[drop])", "W[take])"), "cannot win 1 points with the cube at 2"),
    (("W[drop])", "W[drop]\n;B[31qtst])"), "cannot roll"),
    (("RE[B+1]", "RE[W+1]"), "RE says White wins 1 points, the game gives Black 1 points (pass)"),
    (("RE[B+1]", "RE[B+1R]"), "the loser resigned, but the game ended by pass"),
    (("RE[B+1]", "RE[Bob]"), "expected the winner and points"),
    (("[ws:0][bs:1]", "[ws:1][bs:0]"), "disagrees with the games before it"),
    (("RU[Crawford]RE[W+2R]", "RU[Crawford:CrawfordGame]RE[W+2R]"), "Crawford game"),
    (("RU[Crawford]RE[W+2R]", "RU[Jacoby]RE[W+2R]"), "rules (MI, RU) differ"),
    (("RU[Crawford]RE[B+1]", "RU[Crawford:Nackgammon]RE[B+1]"), "Nackgammon is not supported"),
    (("RE[W+2R]", "RE[W+5R]"), "cannot win 5 points"),
    (("RE[W+2R]", "RE[B+1R]"), "only the player to act resign"),
    (("RU[Crawford]", "RU[Jacoby]", "MI[length:3]", "MI[length:0]"), "under the Jacoby rule gammons count"),
    (("\n;PL[B]DI[64]", "\n;AB[a][b]"), "position set-up"),
    (("RE[B+1]GS[M:1 2]", "GS[M:1 2]"), "more games follow"),
    (("MI[length:3][game:0]", "MI[length:x][game:0]"), "MI[length:x]"),
])
def test_read_errors_quote_the_node(change: tuple[str, ...], what: str) -> None:
    text = GNUBG_STYLE
    for old, new in zip(change[::2], change[1::2]):
        text = text.replace(old, new)
    if "more games" in what:  # a game that does not end: no drop either
        text = text.replace("\n;W[drop]", "")
    assert text != GNUBG_STYLE
    with pytest.raises(InvalidNotationError, match=re.escape(what)) as e:
        read_sgf(text)
    message = str(e.value)
    assert re.search(r"game \d, SGF line \d+: '", message) or "not a backgammon game" in message
    assert len(message) < 400


def test_bytes_follow_the_charset() -> None:
    text = GNUBG_STYLE.replace("CA[UTF-8]", "CA[ISO-8859-1]").replace("PW[Alice]", "PW[José]")
    assert read_sgf(text.encode("latin-1")).names[0] == "José"
    assert read_sgf(GNUBG_STYLE.replace("PW[Alice]", "PW[José]").encode("utf-8")).names[0] == "José"
    with pytest.raises(InvalidNotationError, match="unknown character set"):
        read_sgf(text.replace("ISO-8859-1", "klingon").encode())


@pytest.mark.parametrize("charset", ["rot13", "hex", "zlib", "base64", "bz2", "uu", "quopri"])
def test_a_codec_that_is_no_character_set_is_refused(charset: str) -> None:
    with pytest.raises(InvalidNotationError, match=re.escape(f"unknown character set CA[{charset}]")):
        read_sgf(f"(;FF[4]GM[6]CA[{charset}]MI[length:1])".encode())


@pytest.mark.parametrize("charset", ["punycode", "idna"])
def test_a_file_its_charset_cannot_decode_is_refused(charset: str) -> None:
    with pytest.raises(InvalidNotationError, match=re.escape(f"the file is not valid {charset}")):
        read_sgf(f"(;FF[4]GM[6]CA[{charset}]MI[length:1])".encode() + b"\xff" * 100)


# --- writing ---------------------------------------------------------------------------------


def test_write_exact_text() -> None:
    match = Match(Rules(match_length=3), ScriptedDice([(3, 1), (6, 4), (5, 2)]))
    game = match.game
    game.roll()
    game.play("8/5 6/5")
    game.roll()
    game.play("24/14")
    game.double()
    game.take()
    game.roll()
    game.resign(1)
    game.reject_resignation()
    game.resign(2)
    game.accept_resignation()
    text = format_sgf(match, ("Al]ce", "B\\b"), info={"EV": "Club", "DT": "2025-01-02"})
    from gammon import __version__

    assert text == (
        f"(;FF[4]GM[6]CA[UTF-8]AP[gammon:{__version__}]MI[length:3][game:0][ws:0][bs:0]"
        "PW[Al\\]ce]PB[B\\\\b]DT[2025-01-02]EV[Club]RU[Crawford]RE[B+4R]\n"
        ";W[31hefe]\n;B[64aggk]\n;W[double]\n;B[take]\n;PL[W]DI[52])\n")
    record = read_sgf(text)
    assert record.names == ("Al]ce", "B\\b") and record.info == {"EV": "Club", "DT": "2025-01-02"}
    back = record.match.game
    assert _core(back.history) == _core(game.history)
    assert (back.result.points, back.result.kind) == (4, 2)


def test_round_trips_of_random_matches() -> None:
    rules = [Rules(match_length=5), Rules(beavers=True, automatic_doubles=2),
             Rules(match_length=7, crawford=False), Rules(jacoby=False, use_cube=False),
             Rules(match_length=1), Rules(match_length=3, cube_limit=4)]
    seen: set[str] = set()
    for seed in range(36):
        rule = rules[seed % len(rules)]
        match = play_match(seed, rule, games=6, double=0.1, resign=0.02)
        back = read_sgf(format_sgf(match)).match
        expected = Rules(rule.match_length, rule.crawford if rule.match_length else True,
                         rule.jacoby if not rule.match_length else True, rule.beavers,
                         None, rule.automatic_doubles, rule.use_cube)
        if rule.beavers and not any(isinstance(a, Beaver) for g in match.games for a in g.history):
            expected = Rules(0, True, rule.jacoby, False, None, rule.automatic_doubles, rule.use_cube)
        ties = max((len(g.history[0].ties) for g in match.games if g.history), default=0)
        if rule.automatic_doubles:  # the file holds the doubles that happened, not the limit
            expected = Rules(**{**expected.__dict__, "automatic_doubles": min(ties, rule.automatic_doubles)})
        assert back.rules == expected, seed
        assert len(back.games) == len(match.games) and back.score == match.score
        for a, b in zip(match.games, back.games):
            assert _core(a.history) == _core(b.history), seed
            assert (a.score, a.crawford_game, a.cube_value, a.cube_owner) == (
                b.score, b.crawford_game, b.cube_value, b.cube_owner)
            if a.result:
                assert (a.result.winner, a.result.points) == (b.result.winner, b.result.points)
                seen.add(a.result.reason)
            seen.update(type(x).__name__ for x in a.history)
            seen.update("dance" for x in a.history if isinstance(x, PlayMade) and x.play is None)
    assert {"bear_off", "pass", "resign", "Beaver", "RejectResignation", "dance"} <= seen


def test_an_abandoned_game_reads_back() -> None:
    match = Match(Rules(), ScriptedDice([(3, 1)]))
    match.game.roll()
    match.game.abandon(1)
    text = format_sgf(match)
    assert "RE[W+3R]" in text
    game = read_sgf(text).match.game
    assert (game.result.winner, game.result.points, game.result.reason) == (0, 3, "abandon")


def test_notes_and_the_annotator_hook() -> None:
    record = read_sgf(GNUBG_STYLE)
    again = format_sgf(record)  # the notes read go back on the same nodes
    original = [n.properties for t in parse_sgf(GNUBG_STYLE) for n in t.nodes]
    rewritten = [n.properties for t in parse_sgf(again) for n in t.nodes]
    mine = {"AP"}
    assert [{k: v for k, v in p.items() if k not in mine} for p in rewritten] == [
        {k: v for k, v in p.items() if k not in mine} for p in original]

    class Comments:
        def game_properties(self, game: int) -> dict[str, list[str]]:
            return {"GC": [f"game {game + 1}"]} if game else {}

        def action_properties(self, game: int, action: int) -> dict[str, list[str]]:
            return {"C": [f"action {action}]"]} if (game, action) == (0, 3) else {}

    text = format_sgf(record.match, record.names, annotator=Comments())
    assert ";W[52mhxv]C[action 3\\]]\n" in text and "GC[game 2]" in text
    back = read_sgf(text)
    assert back.action_properties(0, 3) == {"C": ("action 3]",)} and "A" not in back.note_names()

    class Bad:
        def game_properties(self, game: int) -> dict[str, list[str]]:
            return {}

        def action_properties(self, game: int, action: int) -> dict[str, list[str]]:
            return {"W": ["52"]}

    with pytest.raises(ValueError, match="cannot add the property 'W'"):
        format_sgf(record.match, annotator=Bad())


def test_write_checks_its_arguments(tmp_path) -> None:
    match = play_match(1, Rules(match_length=1), games=1)
    with pytest.raises(ValueError, match="unknown match information 'Event'"):
        format_sgf(match, info={"Event": "x"})
    with pytest.raises(ValueError, match="no games"):
        format_sgf([])
    path = tmp_path / "m.sgf"
    assert write_sgf(match, ("A", "B"), path) == path.read_text(encoding="utf-8")
    buffer = io.StringIO()
    write_sgf(match.games, file=buffer)
    assert read_sgf(buffer.getvalue()).names == ("Player 1", "Player 2")
    assert isinstance(read_sgf(path.read_bytes()), SgfMatch)


# --- fuzzing ---------------------------------------------------------------------------------

_VALID = format_sgf(play_match(5, Rules(match_length=3), games=3, double=0.2, resign=0.02)) + GNUBG_STYLE


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from("();[]\\:+ \nBWABGMDIPLRECVxyz0123456abcdlnqt"), max_size=120))
def test_fuzz_text(text: str) -> None:
    try:
        read_sgf(text)
    except InvalidNotationError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32))
def test_fuzz_mutations(seed: int) -> None:
    rng = random.Random(seed)
    text = list(_VALID)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(text))
        what = rng.random()
        if what < 0.4:
            del text[i]
        elif what < 0.7:
            text.insert(i, rng.choice("()[];\\abyz0123456789WB:R+"))
        else:
            text[i] = rng.choice("abcxyz16]")
    try:
        read_sgf("".join(text))
    except InvalidNotationError:
        pass
    try:
        read_sgf("".join(text).encode("utf-8"))
    except InvalidNotationError:
        pass


def test_positions_are_checked_not_trusted() -> None:
    # a play from a point without a checker, quoting the position
    text = GNUBG_STYLE.replace("W[52mhxv]", "W[52kfxv]")
    with pytest.raises(InvalidNotationError, match=r"11/6 24/22: no checker to move on 11 in position "
                       + re.escape(read_sgf(GNUBG_STYLE).match.games[0].history[1].play.after.id)):
        read_sgf(text)


def test_a_game_after_the_match_is_over_is_refused_in_words() -> None:
    match = play_match(3, Rules(match_length=1), games=5)
    text = format_sgf(match)
    assert text.count("(;FF[4]") == 1  # a 1-point match: one game
    with pytest.raises(InvalidNotationError) as caught:
        read_sgf(text + text)  # the same game again, after the match has been won
    message = str(caught.value)
    assert message.startswith("game 2, SGF line ")
    assert message.endswith(f"cannot start a new game: the match is over, {match.score[0]}-{match.score[1]}")
    assert "Error" not in message  # no class names


def test_a_resignation_by_the_player_not_on_roll_reads_back() -> None:
    # Game lets either player resign before the roll (Backgammon Galaxy's files do so)
    match = Match(Rules(match_length=3), dice=ScriptedDice([(3, 1)]))
    game = match.game
    game.roll()
    game.play("8/5 6/5")
    game.resign(1, player=0)
    game.accept_resignation(player=1)
    read = read_sgf(format_sgf(match)).match.game
    assert (read.result.winner, read.result.points, read.result.reason) == (1, 1, "resign")
    assert read.history[-2] == Resign(0, 1)


@pytest.mark.parametrize("root, what", [
    ("MI[length:\u00b2]", "MI[length:\u00b2]: expected 'key:number'"),
    ("MI[length:" + "1" * 5000 + "]", "MI[length:111"),
    ("MI[length:0]CV[\u00b2]", "CV[\u00b2]: the cube value must be a power of two"),
    ("MI[length:0]CV[" + "1" * 5000 + "]", "CV[111"),
])
def test_numbers_that_are_not_ascii_digits_or_too_long_are_refused_quoting_them(root: str, what: str) -> None:
    with pytest.raises(InvalidNotationError, match=re.escape(what)) as e:
        read_sgf(f"(;FF[4]GM[6]{root})".encode())
    assert len(str(e.value)) < 400


_MANY_NODES = """
from gammon.formats.sgf import parse_sgf
(tree,) = parse_sgf("(;FF[4]GM[6]MI[length:1]" + ";\\n" * 250_000 + "\\n(;C[a])(;C[b]))")
assert len(tree.nodes) == 250_002 and tree.variations == 1
assert tree.nodes[-2].line == 250_000 and tree.nodes[-1].line == 250_002
(tree,) = parse_sgf("(;FF[4]GM[6]MI[length:1]C[x]" + "C[y]" * 100_000 + ")")
assert len(tree.nodes[0].properties["C"]) == 100_001
"""


def test_many_nodes_and_values_are_read_in_one_pass() -> None:
    # the timeout guards against counting the lines from the start for each node (minutes here)
    subprocess.run([sys.executable, "-c", _MANY_NODES], check=True, timeout=20)
    with pytest.raises(InvalidNotationError, match="SGF line 3, column 2: expected"):
        parse_sgf("(;FF[4]\n;\n;]")


@pytest.mark.parametrize("side", ["B", "W"])
def test_a_bad_move_is_quoted_with_its_own_side(side: str) -> None:
    with pytest.raises(InvalidNotationError, match=re.escape(f"{side}[xx]: expected the dice")):
        read_sgf(f"(;FF[4]GM[6];{side}[xx])")
