"""What a seat sees: step orders in the viewer's numbering, the readable log."""

from __future__ import annotations

from gammon.dice import ScriptedDice
from gammon.formats.ids import read_id
from gammon.formats.matchid import gnubg_id
from gammon.i18n import use_language
from gammon.rules import Rules
from gammon.situation import CubeOwner
from gammon.store import Store
from gammon.web.frames import game_frames
from gammon.web.schemas import ActionRequest, PlayerAccount
from gammon.web.session import LiveMatch
from gammon.web.views import match_view


def _live(store: Store, mode: str, rolls: list[tuple[int, int]], level: str | None = None) -> LiveMatch:
    live, _ = LiveMatch.create(store, mode, Rules(), level, ScriptedDice(rolls))
    return live


def test_steps_of_the_far_side_are_in_the_viewers_numbering(tmp_path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'v.sqlite3'}")
    # opening 3-5: player 1 (die 5) moves first; local games show player 0's side
    live = _live(store, "local", [(3, 5)])
    v = match_view(live, None)
    assert (v.viewer, v.turn, v.phase, v.dice) == (0, 1, "move", (3, 5))
    for seq in v.sequences:
        first = seq.steps[0][0]
        assert first == "bar" or v.board[first] < 0  # player 1's checkers are negative for viewer 0
    # 8/3 6/3 for player 1 is 17/22 19/22 in player 0's numbering
    index = v.plays.index("8/3 6/3")
    assert {tuple(map(tuple, s.steps)) for s in v.sequences if s.play == index} == {
        ((17, 22), (19, 22)),
        ((19, 22), (17, 22)),
    }


def test_the_log_reads_as_sentences(tmp_path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'v.sqlite3'}")
    live = _live(store, "computer", [(5, 3), (6, 6)], level="random")
    live.act(0, ActionRequest(action="play", play="8/3 6/3"))
    v = match_view(live, 0)
    assert v.log[:3] == [
        "Game 1",
        "You throw 5, Computer (random) throws 3: You play first",
        "You play 5-3: 8/3 6/3",
    ]
    assert v.log[3].startswith("Computer (random) plays 6-6: ")
    live.act(0, ActionRequest(action="resign", kind=3))  # the computer accepts a backgammon at once
    v = match_view(live, 0)
    # money play with Jacoby and a centred cube: the backgammon counts one point
    assert v.log[4:] == [
        "You offer to resign a backgammon",
        "Computer (random) accepts the resignation",
        "Computer (random) wins 1 point (backgammon)",
    ]
    assert v.result is not None and (v.result.winner, v.result.points, v.result.reason) == (1, 1, "resign")
    assert v.actions == ["new_game"]


def _replay_steps(board: list[int], off: tuple[int, int], steps, mover_is_viewer: bool):
    """Apply wire steps as the browser does: a hit blot goes to its owner's bar."""
    b, off_ = list(board), list(off)
    s = 1 if mover_is_viewer else -1
    for src, dst in steps:
        if src == "bar":
            b[25 if mover_is_viewer else 0] -= s
        else:
            b[src] -= s
        if dst == "off":
            off_[0 if mover_is_viewer else 1] += 1
            continue
        if b[dst] == -s:  # a blot of the other side is hit
            b[dst] = 0
            b[0 if mover_is_viewer else 25] -= s
        b[dst] += s
    return b, tuple(off_)


def test_the_latest_play_is_shown_from_the_board_before_it(tmp_path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'v.sqlite3'}")
    # You open with 6-1; the computer (random) answers 5-5, then you roll 4-2
    live = _live(store, "computer", [(6, 1), (5, 5), (4, 2)], level="random")
    assert match_view(live, 0).last_play is None
    live.act(0, ActionRequest(action="play", play="13/7 8/7"))
    v = match_view(live, 0)
    lp = v.last_play
    # history: opening roll, your move, the computer's roll, its move
    assert lp is not None and lp.player == 1 and lp.dice == (5, 5) and lp.key == "1:3"
    assert lp.text == v.log[-1] and len(lp.steps) == 4
    board, off = _replay_steps(lp.board, lp.off, lp.steps, mover_is_viewer=False)
    assert (board, off) == (v.board, v.off)
    # the same play seen by the far side (viewer 1) is numbered from its side
    far = match_view(live, 1).last_play
    assert far is not None and far.key == lp.key
    assert _replay_steps(far.board, far.off, far.steps, mover_is_viewer=True)[0] == match_view(live, 1).board


def test_a_hit_in_the_latest_play_sends_the_blot_to_the_bar(tmp_path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'v.sqlite3'}")
    # two people at one device: player 0 opens 6-2 with 24/18 13/11; player 1's 6-6 can hit on 18
    live = _live(store, "local", [(6, 2), (6, 1)])
    live.act(None, ActionRequest(action="play", play="24/18 13/11"))
    live.act(None, ActionRequest(action="roll"))
    v = match_view(live, None)
    index = next(i for i, p in enumerate(v.plays) if "*" in p and p.startswith("13/7*"))
    live.act(None, ActionRequest(action="play", play=v.plays[index]))
    v = match_view(live, None)
    lp = v.last_play
    assert lp is not None and lp.player == 1
    board, off = _replay_steps(lp.board, lp.off, lp.steps, mover_is_viewer=False)
    assert board == v.board and board[25] == 1  # player 0's blot is on the bar


def test_the_wire_action_names_are_the_game_action_kinds() -> None:
    # The wire schema is its own type (a Literal), kept equal to the domain's kinds by this test.
    from typing import get_args

    from gammon.game import ActionKind
    from gammon.web.actions import ACTIONS
    from gammon.web.schemas import ActionName

    assert set(get_args(ActionName)) == {k.value for k in ActionKind} | {"new_game", "claim"}
    assert set(ACTIONS) == set(get_args(ActionName)) - {"claim"}  # a claim is an abandon, logged so


def test_an_old_logs_drop_is_read_as_a_pass() -> None:
    from gammon.game import ActionKind, Pass, Request
    from gammon.rules import Rules
    from gammon.store.repository import RequestRecord
    from gammon.web.actions import core_request, stored_request
    from gammon.web.old_log import replay_requests

    assert core_request(stored_request("drop", {}), 1) == Request(ActionKind.PASS, 1)
    requests = [
        RequestRecord(seq=0, kind="roll", rolls=((3, 1),)),
        RequestRecord(seq=1, kind="play", player=0, args={"play": "8/5 6/5"}),
        RequestRecord(seq=2, kind="double", player=1),
        RequestRecord(seq=3, kind="drop", player=0),
    ]  # how a pass was stored
    match = replay_requests(Rules(), requests)
    assert match.game.history[-1] == Pass(0) and match.game.result.reason == "pass"


def test_the_gnubg_id_reads_back_to_the_game_as_it_stands(tmp_path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'v.sqlite3'}")
    live, _ = LiveMatch.create(store, "local", Rules(match_length=5), None, ScriptedDice([(3, 5), (6, 4)]))
    live.act(None, ActionRequest(action="play", play="8/3 6/3"))  # player 1 opens; player 0 to roll
    live.act(None, ActionRequest(action="double"))
    for seat in (None, 0, 1):
        v = match_view(live, seat)
        assert v.gnubg_id == gnubg_id(live.match)
        s = read_id(v.gnubg_id)
        # the doubler waits on the answer: the ID is from its side, the cube not yet turned
        assert (s.position, s.double_offered, s.cube_value) == (live.match.game.position_for(0), True, 1)
        assert (s.match_length, s.score) == (5, (0, 0))
    live.act(None, ActionRequest(action="pass"))
    assert match_view(live, 0).gnubg_id == ""  # the game is over: nothing to analyse


def test_each_frame_has_the_gnubg_id_of_its_board(tmp_path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'v.sqlite3'}")
    live, _ = LiveMatch.create(store, "local", Rules(match_length=5), None, ScriptedDice([(3, 5), (6, 4)]))
    live.act(None, ActionRequest(action="play", play="8/3 6/3"))
    live.act(None, ActionRequest(action="double"))
    live.act(None, ActionRequest(action="take"))
    live.act(None, ActionRequest(action="play", play="24/18 13/9"))
    live.act(None, ActionRequest(action="resign", kind=1))
    live.act(None, ActionRequest(action="accept_resignation"))
    for viewer in (0, 1):
        frames = game_frames(live.match.games[0], viewer, ("A", "B"))
        assert [f.gnubg_id != "" for f in frames] == [True] * (len(frames) - 1) + [False]  # not the result
        for f in frames[:-1]:
            s = read_id(f.gnubg_id)
            assert s.position.id == f.position_id and s.dice is None
            assert s.double_offered == f.cube_offered
            assert s.cube_value == (f.cube_value // 2 if f.cube_offered else f.cube_value)
            assert s.match_length == 5
        taken = read_id(frames[3].gnubg_id)  # player 0 doubled, player 1 took: player 0 rolls next
        assert (taken.cube_value, taken.cube_owner) == (2, CubeOwner.OPPONENT)


def test_the_log_is_worded_in_the_current_language_and_kept_per_language(tmp_path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'v.sqlite3'}")
    live = _live(store, "computer", [(5, 3), (6, 6)], level="random")
    live.act(0, ActionRequest(action="play", play="8/3 6/3"))
    with use_language("pl"):
        polish = match_view(live, 0)
    english = match_view(live, 0)
    assert polish.log[:3] == [
        "Gra 1",
        "Wyrzucasz 5, Komputer (random) wyrzuca 3: Zaczynasz",
        "Grasz 5-3: 8/3 6/3",
    ]
    assert polish.last_play is not None and polish.last_play.text.startswith("Komputer (random) gra 6-6: ")
    assert english.log[:3] == [
        "Game 1",
        "You throw 5, Computer (random) throws 3: You play first",
        "You play 5-3: 8/3 6/3",
    ]
    assert set(live.log_cache) == {(1, "pl"), (1, "en")}


def test_a_seat_of_a_rated_match_no_account_holds_is_offered_no_action(tmp_path) -> None:
    # The server refuses such a seat's every action (403) until an account holds it: buttons
    # offered to it would all fail.
    store = Store(f"sqlite:///{tmp_path / 'v.sqlite3'}")
    dice = ScriptedDice([(3, 5)])
    live, _ = LiveMatch.create(store, "online", Rules(match_length=3), None, dice, rated=True)
    live.accounts = (PlayerAccount(name="alice", rating=1500.0), None)
    assert live.acting_player() == 1  # the guest's seat is to move
    guest = match_view(live, 1)
    assert (guest.rated, guest.actions, guest.plays, guest.sequences) == (True, [], [], [])
    assert match_view(live, 0).actions == ["abandon"]  # the account's seat, waiting
    live.accounts = (live.accounts[0], PlayerAccount(name="bob", rating=1500.0))
    claimed = match_view(live, 1)
    assert "play" in claimed.actions and "abandon" in claimed.actions and claimed.plays
