"""eXtreme Gammon .xg / .xgp files: records as XG writes them, round trips through the test writer
(tests/formats/xg_writer.py), bad input, fuzzing, and .xgp positions against GNU Backgammon."""

from __future__ import annotations

import dataclasses
import io
import random
import struct
import zlib

import gnubg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gammon import InvalidNotationError, Position
from gammon.dice import ScriptedDice
from gammon.formats.matchid import GameState, MatchState
from gammon.formats.xg import XGMatch, read_xg, read_xg_match, read_xgp
from gammon.formats.xg_container import unpack
from gammon.formats.xg_records import XGMove, decode_records
from gammon.formats.xgid import parse_xgid
from gammon.game import Game, PlayMade, RejectResignation, Roll
from gammon.match import Match
from gammon.rules import Rules
from tests.formats import xg_writer as w
from tests.formats.random_play import play_match
from tests.helpers import random_game_positions

START = Position.initial().board


class _AlwaysMerge(random.Random):
    def random(self) -> float:
        return 0.0


def _recorded(game: Game) -> list:
    """A game's history as XG records it: no opening ties, no rejected resignations."""
    out: list = []
    for action in game.history:
        if isinstance(action, RejectResignation):
            out.pop()
        elif isinstance(action, Roll) and action.ties:
            out.append(dataclasses.replace(action, ties=()))
        else:
            out.append(action)
    return out


def _repack(data: bytes, change) -> bytes:
    """The file with its temp.xg records passed through ``change`` (a list of bytearrays)."""
    files = dict(unpack(data).files)
    body = files["temp.xg"]
    records = [bytearray(body[k:k + w.RECORD]) for k in range(0, len(body), w.RECORD)]
    change(records)
    return w.container(w.archive_files([bytes(r) for r in records]))


def _move_offsets(data: bytes) -> list[int]:
    """The indexes of the move entries in temp.xg."""
    body = unpack(data).files["temp.xg"]
    return [k for k in range(len(body) // w.RECORD) if body[k * w.RECORD + 8] == 3]


# --- records as real XG files have them --------------------------------------------------------

def _opening_game() -> bytes:
    """The start of a real XG match (values as XG wrote them): player 1 opens 51 with 13/8 24/23,
    player 2 answers 61 with 13/7 8/7, then player 1 rolls 63 and plays 24/15 as one pair, and
    player 2 rolls 33 and resigns without playing."""
    after_51 = (0, -2, 0, 0, 0, 0, 5, 0, 4, 0, 0, 0, -5, 4, 0, 0, 0, -3, 0, -5, 0, 0, 0, 1, 1, 0)
    # player 2's view after 13/7 8/7, and player 1's view of the same board
    p2_after = (0, -1, -1, 0, 0, 0, 5, 2, 2, 0, 0, 0, -4, 4, 0, 0, 0, -4, 0, -5, 0, 0, 0, 0, 2, 0)
    p1_view = tuple(-p2_after[25 - i] for i in range(26))
    p1_after_63 = (0, -2, 0, 0, 0, 0, 5, 0, 4, 0, 0, 0, -4, 4, 0, 1, 0, -2, -2, -5, 0, 0, 0, 1, 0, 0)
    records = [
        w.match_header(("Kévin", "Maxence"), Rules(match_length=7), event="HSBT"),
        w.game_header(1, (0, 0), False),
        w.cube_entry(0, START, 1, None, double=-2, dice="51"),
        w.move_entry(0, START, after_51, [12, 7, 23, 22], (5, 1), 1, None),
        w.cube_entry(1, after_51, 1, None, double=0, dice="61"),
        w.move_entry(1, after_51, p2_after, [12, 6, 7, 6], (6, 1), 1, None),
        w.cube_entry(0, p1_view, 1, None, double=0, dice="63"),
        w.move_entry(0, p1_view, p1_after_63, [23, 14], (6, 3), 1, None),
        w.cube_entry(1, p1_after_63, 1, None, double=0, dice="33"),
        w.move_entry(1, p1_after_63, (0,) * 26, [0] * 8, (3, 3), 1, None, played=False),
        w.game_footer((1, 0), 0, 1, 101),
    ]
    return w.container(w.archive_files(records))


def test_records_as_xg_writes_them() -> None:
    record = read_xg(_opening_game())
    assert record.names == ("Kévin", "Maxence") and record.match_length == 7
    assert record.header.event == "HSBT" and record.header.version == 30
    (game,) = record.games
    moves = [a for a in game.actions if isinstance(a, XGMove)]
    assert [m.steps for m in moves] == [((13, 8), (24, 23)), ((13, 7), (8, 7)), ((24, 15),), None]
    match = record.to_match()
    plays = [a for a in match.games[0].history if isinstance(a, PlayMade)]
    assert [(a.player, a.dice, str(a.play)) for a in plays] == [
        (0, (5, 1), "24/23 13/8"), (1, (6, 1), "13/7 8/7"), (0, (6, 3), "24/15")]
    result = match.games[0].result
    assert (result.winner, result.points, result.reason) == (0, 1, "resign")
    assert match.score == (1, 0)


def test_bar_and_bear_off_numbering() -> None:
    # XG counts points from 0: the bar is 24, and a checker borne off goes to ``from - die``.
    moves = struct.pack("<8i", 24, 19, 3, -2, -1, -1, -1, -1)
    raw = bytearray(w.RECORD)
    raw[8] = 3
    raw[68:100] = moves
    struct.pack_into("<i", raw, 64, -1)
    struct.pack_into("<2i", raw, 100, 5, 6)
    header = w.match_header(("a", "b"), Rules())
    (_, move) = decode_records(header + bytes(raw))
    assert (move.player, move.dice, move.steps) == (1, (5, 6), ((25, 20), (4, 0)))


# --- round trips through the writer ------------------------------------------------------------

@pytest.mark.parametrize("seed, rules", [
    (1, Rules(match_length=5, cube_limit=1024)), (2, Rules(match_length=1, cube_limit=1024)),
    (3, Rules(cube_limit=1024)), (4, Rules(beavers=True, jacoby=False, cube_limit=64)),
    (5, Rules(match_length=7, crawford=False, cube_limit=1024)), (6, Rules(match_length=9, cube_limit=8)),
])
def test_round_trip(seed: int, rules: Rules) -> None:
    match = play_match(seed, rules, games=8, double=0.12, resign=0.02)
    data = w.xg_bytes(match, ("Ann", "Bo Ek"), merge=random.Random(seed) if seed % 2 else None)
    record = read_xg(data)
    assert record.names == ("Ann", "Bo Ek")
    assert record.rules == rules  # XG always has a cube limit: the writer's default is 1024
    back = record.to_match()
    assert back.score == match.score and len(back.games) == len(match.games)
    for ours, theirs in zip(match.games, back.games):
        assert theirs.history == _recorded(ours)
        assert theirs.result == ours.result
    assert record.footer is None or back.is_over or rules.is_money


def test_every_kind_of_action_round_trips() -> None:
    seen: set[str] = set()
    for seed in range(40):
        rules = Rules(beavers=True, cube_limit=1024) if seed % 2 else Rules(match_length=5, cube_limit=1024)
        match = play_match(seed, rules, games=4, double=0.2, resign=0.03)
        back = read_xg_match(w.xg_bytes(match))
        assert [g.history for g in back.games] == [_recorded(g) for g in match.games]
        seen |= {type(a).__name__ for g in back.games for a in g.history}
        seen |= {g.result.reason for g in back.games if g.result}
        seen |= {"dance" for g in back.games for a in g.history
                 if isinstance(a, PlayMade) and a.play is None}
    assert {"Beaver", "Take", "Pass", "Resign", "bear_off", "pass", "resign", "dance"} <= seen


def _hides_a_hit(match: Match) -> bool:
    """Whether some play hits with a checker that goes on, so one merged pair hides the hit."""
    for game in match.games:
        for action in game.history:
            if isinstance(action, PlayMade) and action.play is not None:
                pairs = w.xg_pairs(action.play, _AlwaysMerge())
                steps = [(a + 1, max(b + 1, 0)) for a, b in zip(pairs[::2], pairs[1::2])]
                try:
                    naive = action.play.position.after_gnubg_move([n for s in steps for n in s])
                except ValueError:
                    continue
                if naive != action.play.after:
                    return True
    return False


def test_merged_pairs_are_told_apart_by_the_end_position() -> None:
    # XG writes a checker moved by both dice as one pair (24/15 for 63); if it hit on the way,
    # only the recorded end position says so.
    match = next(m for m in (play_match(s, Rules(cube_limit=1024), games=6) for s in range(50))
                 if _hides_a_hit(m))
    data = w.xg_bytes(match, merge=_AlwaysMerge())
    record = read_xg(data)
    pairs = [a.steps for g in record.games for a in g.actions if isinstance(a, XGMove) and a.steps]
    assert any(abs(a - b) > 6 for steps in pairs for a, b in steps if b)
    back = record.to_match()
    assert [g.history for g in back.games] == [_recorded(g) for g in match.games]


def test_capped_final_score_and_match_resignation() -> None:
    # XG may cap the score after the last game at the match length; it ends a match resigned in
    # its last game with termination 104, read by the points won.
    match = next(m for m in (play_match(s, Rules(match_length=3), resign=0.05) for s in range(80))
                 if m.games[-1].result.reason == "resign" and sum(m.score) > 3 + min(m.score))
    data = w.xg_bytes(match)

    def cap(records: list[bytearray]) -> None:
        footer, final = records[-2], records[-1]
        capped = [min(s, 3) for s in match.score]
        struct.pack_into("<ii", footer, 12, *capped)
        struct.pack_into("<i", footer, 32, 104)
        struct.pack_into("<ii", final, 12, *capped)

    back = read_xg(_repack(data, cap)).to_match()
    assert back.score == match.score and back.games[-1].result == match.games[-1].result


def test_names_before_unicode() -> None:
    # Files older than version 24 have only the ANSI names.
    records = [w.match_header(("Ren\xe9", "Zo\xeb"), Rules(match_length=1), version=22)]
    records += w.game_records(play_match(1, Rules(match_length=1)).games[0], 1)
    record = read_xg(w.container(w.archive_files(records)))
    assert record.names == ("Ren\xe9", "Zo\xeb") and record.header.version == 22


def test_unfinished_last_game() -> None:
    match = Match(Rules(match_length=3), ScriptedDice([(3, 1), (6, 4), (5, 2)]))
    match.game.roll()
    match.game.play("8/5 6/5")
    match.game.roll()
    match.game.play("24/18 13/9")
    data = w.xg_bytes(match)
    record = read_xg(data)
    assert record.games[0].footer is None and record.games[0].header.in_progress
    back = record.to_match()
    assert back.game.history == match.game.history and not back.game.is_over


def test_sources(tmp_path) -> None:
    data = w.xg_bytes(play_match(3, Rules(match_length=3)))
    path = tmp_path / "m.xg"
    path.write_bytes(data)
    first = read_xg(data)
    assert read_xg(path) == first and read_xg(str(path)) == first
    assert read_xg(io.BytesIO(data)) == first and read_xg(bytearray(data)) == first
    assert isinstance(read_xg_match(path), Match)
    with pytest.raises(InvalidNotationError, match="binary"):
        read_xg(io.StringIO("RGMH"))


# --- positions ---------------------------------------------------------------------------------

def _gnubg_board(board0: tuple[int, ...], on_roll: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """gnubg's (player not on roll, player on roll) board from XG's board in player 0's view."""
    zero = tuple(max(board0[i], 0) for i in range(1, 25)) + (board0[25],)
    one = tuple(max(-board0[25 - i], 0) for i in range(1, 25)) + (-board0[0],)
    return (one, zero) if on_roll == 0 else (zero, one)


def _states(rng: random.Random) -> MatchState:
    length = rng.choice([0, 0, 3, 5, 7, 11])
    on_roll = rng.randint(0, 1)
    owner = rng.choice([None, 0, 1])
    dice = rng.choice([None, (rng.randint(1, 6), rng.randint(1, 6))])
    top = length - 1 if length else 30
    score = (rng.randint(0, top), rng.randint(0, top))
    # the Crawford game: exactly one player 1-away, and no cube
    crawford = bool(length) and score.count(length - 1) == 1 and rng.random() < 0.5
    if crawford:
        owner = None
    cube = 1 if owner is None else 2 ** rng.randint(1, 6)
    return MatchState(match_length=length, score=score, cube_value=cube, cube_owner=owner,
                      player_on_roll=on_roll, turn=on_roll, crawford=crawford,
                      game_state=GameState.PLAYING, dice=dice, jacoby=not length and rng.random() < 0.5)


def test_positions_round_trip_and_agree_with_gnubg() -> None:
    rng = random.Random(7)
    positions = random_game_positions(11, 6)
    for position in rng.sample(positions, 150):
        state = _states(rng)
        data = w.xgp_bytes(position, state, ("Top", "Bottom"))
        xgp = read_xgp(data)
        assert xgp.position == position and xgp.state == state and xgp.names == ("Top", "Bottom")
        board0 = (position if state.player_on_roll == 0 else position.flip()).board
        assert gnubg.positionid(_gnubg_board(board0, state.player_on_roll)) == xgp.position.id
        assert xgp.gnubg_id == f"{position.id}:{state.id}"
        back = parse_xgid(str(xgp.xgid))
        assert (back.position, back.to_match_state()) == (position, state)


def test_position_file_of_a_real_layout() -> None:
    # As XG saves a checker play: the cube entry, then a move entry with the dice, not played.
    board0 = (0, -1, 0, 0, 0, 0, 5, 2, 3, 0, 0, 0, -6, 3, 0, 0, 0, -2, 0, -4, -2, 1, 0, 0, 1, 0)
    records = [w.match_header(("Player 1", "Player 2"), Rules(jacoby=True)),
               w.game_header(1, (0, 0), False, board0, in_progress=True),
               w.cube_entry(1, board0, 1, None, double=-2, dice="32"),
               w.move_entry(1, board0, (0,) * 26, [0] * 8, (6, 5), 1, None, played=False)]
    xgp = read_xgp(w.container(w.archive_files(records)))
    assert xgp.state.player_on_roll == 1 and xgp.state.dice == (6, 5) and xgp.state.match_length == 0
    assert xgp.position == Position(board0).flip()
    assert xgp.rules.jacoby and xgp.state.jacoby


def test_a_match_file_is_not_a_position_file() -> None:
    with pytest.raises(InvalidNotationError, match="not an XG position file"):
        read_xgp(w.xg_bytes(play_match(1, Rules(match_length=1))))


# --- bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("data, message", [
    (b"", "not an eXtreme Gammon file"),
    (b"PK\x03\x04" + bytes(9000), r"starts with b'PK\\x03\\x04"),
    (b"RGMH" + bytes(100), "8232-byte header"),
])
def test_not_an_xg_file(data: bytes, message: str) -> None:
    with pytest.raises(InvalidNotationError, match=message):
        read_xg(data)


def test_truncated_and_corrupt_files() -> None:
    data = w.xg_bytes(play_match(2, Rules(match_length=3)))
    for cut in (8232, 8300, len(data) // 2, len(data) - 37, len(data) - 1):
        with pytest.raises(InvalidNotationError):
            read_xg(data[:cut])
    damaged = bytearray(data)
    damaged[9000] ^= 0xFF
    with pytest.raises(InvalidNotationError, match="corrupt"):
        read_xg(bytes(damaged))


@pytest.mark.parametrize("days", [-800_000.0, -1e6 + 1, 999_999.0, float("nan")])
def test_a_date_out_of_range_is_no_date(days: float) -> None:
    def change(records: list[bytearray]) -> None:
        struct.pack_into("<d", records[0], 128, days)  # the match header's Delphi date

    record = read_xg(_repack(_opening_game(), change))
    assert record.header.date is None or 1 <= record.header.date.year <= 9999
    assert record.names == ("Kévin", "Maxence")


def test_truncated_record() -> None:
    data = w.xg_bytes(play_match(2, Rules(match_length=3)))
    body = unpack(data).files["temp.xg"]
    with pytest.raises(InvalidNotationError, match="truncated"):
        read_xg(w.container({"temp.xg": body[:-100]}))
    with pytest.raises(InvalidNotationError, match="not temp.xg"):
        read_xg(w.container({"temp.xgi": body[:5120]}))


def test_records_out_of_place() -> None:
    data = w.xg_bytes(play_match(2, Rules(match_length=3)))

    def drop_match_header(records: list[bytearray]) -> None:
        del records[0]

    with pytest.raises(InvalidNotationError, match="record 1: the first record must be the match header"):
        read_xg(_repack(data, drop_match_header))

    def bad_magic(records: list[bytearray]) -> None:
        records[0][556:560] = b"XXXX"

    with pytest.raises(InvalidNotationError, match="magic number"):
        read_xg(_repack(data, bad_magic))

    def unknown_type(records: list[bytearray]) -> None:
        records[3][8] = 9

    with pytest.raises(InvalidNotationError, match="record 4: unknown record type 9"):
        read_xg(_repack(data, unknown_type))


def test_illegal_play_names_game_and_move(tmp_path) -> None:
    match = play_match(4, Rules(match_length=5))
    data = w.xg_bytes(match)
    third = _move_offsets(data)[2]

    def from_an_empty_point(records: list[bytearray]) -> None:
        r = records[third]
        board = struct.unpack_from("<26b", r, 9)
        mover = struct.unpack_from("<i", r, 64)[0]
        empty = next(p for p in range(1, 24) if (board[p] if mover == 1 else -board[25 - p]) <= 0)
        struct.pack_into("<2i", r, 68, empty - 1, empty - 2)

    with pytest.raises(InvalidNotationError, match=r"^game 1, move 3: (Alice|Bob)'s play of \d\d"):
        read_xg(_repack(data, from_an_empty_point)).to_match()

    def wrong_end(records: list[bytearray]) -> None:
        records[third][35:61] = records[third][9:35]

    with pytest.raises(InvalidNotationError, match="game 1, move 3: the move entry's end position"):
        read_xg(_repack(data, wrong_end)).to_match()
    path = tmp_path / "bad.xg"
    path.write_bytes(_repack(data, wrong_end))
    with pytest.raises(InvalidNotationError, match=r"^'.*bad.xg': game 1, move 3: the move entry's end"):
        read_xg_match(path)

    def wrong_start(records: list[bytearray]) -> None:
        records[third][9:35] = bytes(struct.pack("<26b", *Position.initial().flip().board))

    with pytest.raises(InvalidNotationError, match="game 1, move 3: the move entry records the position"):
        read_xg(_repack(data, wrong_start)).to_match()


def test_unsupported_rules_are_named() -> None:
    data = w.xg_bytes(play_match(1, Rules(match_length=1)))

    def nackgammon(records: list[bytearray]) -> None:
        struct.pack_into("<i", records[0], 96, 1)

    with pytest.raises(InvalidNotationError, match="nackgammon is not supported"):
        read_xg(_repack(data, nackgammon)).to_match()

    def automatic_double(records: list[bytearray]) -> None:
        struct.pack_into("<i", records[1], 64, 1)

    with pytest.raises(InvalidNotationError, match="automatic double"):
        read_xg(_repack(data, automatic_double)).to_match()


def test_raccoon_and_refused_beaver() -> None:
    match = next(m for m in (play_match(s, Rules(beavers=True), games=3, double=0.3) for s in range(60))
                 if any(type(a).__name__ == "Beaver" for g in m.games for a in g.history))
    data = w.xg_bytes(match)
    for answer, message in ((2, "raccoon"), (0, "refused the beaver")):
        def change(records: list[bytearray], answer: int = answer) -> None:
            beaver = next(r for r in records if r[8] == 2 and struct.unpack_from("<i", r, 20)[0] == 2)
            struct.pack_into("<i", beaver, 24, answer)

        with pytest.raises(InvalidNotationError, match=message):
            read_xg(_repack(data, change)).to_match()


def test_footer_must_agree_with_the_plays() -> None:
    data = w.xg_bytes(play_match(5, Rules(match_length=3)))

    def more_points(records: list[bytearray]) -> None:
        footer = next(r for r in records if r[8] == 4)
        struct.pack_into("<i", footer, 28, struct.unpack_from("<i", footer, 28)[0] + 1)

    with pytest.raises(InvalidNotationError, match="the footer says (Alice|Bob) won"):
        read_xg(_repack(data, more_points)).to_match()


def test_resignation_must_be_last() -> None:
    data = w.xg_bytes(play_match(6, Rules(match_length=5)))
    first = _move_offsets(data)[0]

    def unplayed(records: list[bytearray]) -> None:
        records[first][68:100] = bytes(32)

    with pytest.raises(InvalidNotationError, match="game 1, move 1: (Alice|Bob) rolled .. and did not"):
        read_xg(_repack(data, unplayed)).to_match()


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.lists(st.tuples(st.integers(0, 10**9), st.integers(0, 255)),
                                       min_size=1, max_size=6))
def test_fuzz_records_only_raise_invalid_notation(seed: int, flips: list[tuple[int, int]]) -> None:
    data = _FUZZ_BASE[seed % len(_FUZZ_BASE)]

    def mutate(records: list[bytearray]) -> None:
        for where, value in flips:
            r = records[where % len(records)]
            r[(where // len(records)) % 140] = value  # the fields all records have in front

    try:
        result = read_xg(_repack(data, mutate))
        assert isinstance(result, XGMatch)
        result.to_match()
    except InvalidNotationError:
        pass


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200), st.integers(0, 10**9))
def test_fuzz_container_only_raises_invalid_notation(junk: bytes, where: int) -> None:
    data = _FUZZ_BASE[where % len(_FUZZ_BASE)]
    k = where % len(data)
    for reader in (read_xg, read_xgp):
        try:
            reader(data[:k] + junk + data[k + len(junk):])
        except InvalidNotationError:
            pass


_FUZZ_BASE = [w.xg_bytes(play_match(s, r, games=2)) for s, r in
              ((1, Rules(match_length=3)), (2, Rules(beavers=True)))]


def test_a_file_that_would_inflate_far_more_than_xg_files_do_is_refused() -> None:
    """A small file announcing a huge inner file (a decompression bomb) is refused before it is
    inflated; a real inner file of the same size, stored at XG's ratio, would be read."""
    bomb = w.container({"temp.xg": b"\0" * 20_000_000, "temp.xgi": b"\0" * 5120})
    assert len(bomb) < 100_000
    with pytest.raises(InvalidNotationError, match="announces 20000000 bytes from .* more than 64 times"):
        unpack(bomb)
    ordinary = random.Random(1).randbytes(3_000_000)  # barely compressible
    assert len(unpack(w.container({"temp.xg": ordinary})).files["temp.xg"]) == 3_000_000


# --- what an upload may make the reader allocate ------------------------------------------------

def _peak_while(read) -> int:
    """The most memory Python held at once (beyond what it held before) while ``read()`` ran."""
    import tracemalloc

    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        try:
            read()
        except InvalidNotationError:
            pass
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


_MIB = 1 << 20
_ZEROS = zlib.compress(b"\0" * _MIB, 9)  # about 1 KB that inflates to 1 MiB


def test_entries_pointing_at_one_compressed_stream_are_refused_before_any_is_inflated() -> None:
    """Twelve entries of 1 MiB share one compressed stream (padded with junk after its end, which
    the ratio check counted as the entry's): each would have been inflated and kept."""
    data = _ZEROS + b"j" * 16_000
    bomb = w.laid_out(data, [w.Entry(f"temp{k}.xg", _MIB, len(data), 0, zlib.crc32(b"\0" * _MIB))
                             for k in range(12)])
    assert len(bomb) < 30_000
    with pytest.raises(InvalidNotationError, match="'temp0.xg' and 'temp1.xg' share stored bytes"):
        unpack(bomb)
    assert _peak_while(lambda: read_xg(bomb)) < _MIB


def test_bytes_after_an_entrys_compressed_stream_are_refused() -> None:
    data = _ZEROS + b"j" * 16_000
    lone = w.laid_out(data, [w.Entry("temp.xg", _MIB, len(data), 0, zlib.crc32(b"\0" * _MIB))])
    with pytest.raises(InvalidNotationError, match="'temp.xg' has 16000 stored bytes after its compressed"):
        unpack(lone).files["temp.xg"]


def test_the_whole_archive_is_bounded_and_its_number_of_files() -> None:
    """Each entry within the ratio (1 MiB is allowed of any file), twelve of them not: refused as a
    whole before any is inflated. An archive of more files than XG writes is refused too."""
    files = {f"temp{k}.xg": b"\0" * _MIB for k in range(12)}
    bomb = w.container(files)
    assert len(bomb) < 50_000
    with pytest.raises(InvalidNotationError,
                       match=f"its 12 inner files announce {12 * _MIB} bytes from {len(bomb)}: more than 64"):
        unpack(bomb)
    assert _peak_while(lambda: read_xg(bomb)) < _MIB
    many = w.container({f"temp{k}.xg": b"x" for k in range(17)})
    with pytest.raises(InvalidNotationError, match=r"\(17 files, at most 16,"):
        unpack(many)


def test_only_the_inner_file_the_reader_needs_is_inflated(monkeypatch: pytest.MonkeyPatch) -> None:
    """read_xg needs temp.xg: the other inner files (rollouts may be large) are not inflated."""
    from gammon.formats import xg_container

    records = dict(unpack(_FUZZ_BASE[0]).files)
    data = w.container({**records, "temp.xgr": b"\0" * 500_000})
    inflated: list[int] = []
    real = xg_container._inflate

    def counting(raw: bytes, size: int, what: str) -> bytes:
        inflated.append(size)
        return real(raw, size, what)

    monkeypatch.setattr(xg_container, "_inflate", counting)
    read_xg(data)
    assert 500_000 not in inflated and len(records["temp.xgi"]) not in inflated
    assert len(records["temp.xg"]) in inflated


def test_blank_player_names_are_numbered_as_in_the_other_formats() -> None:
    from gammon.formats.sgf import format_sgf, read_sgf
    from tests.analysis.games import forced_game

    data = w.xg_bytes([forced_game(Rules(match_length=3))], names=("", " "))
    record = read_xg(data)
    assert record.names == ("Player 1", "Player 2") and record.header.names == ("", " ")
    assert read_sgf(format_sgf(record.to_match(), record.names)).names == record.names
