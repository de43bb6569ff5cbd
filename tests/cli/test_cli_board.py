from gammon import Position
from gammon.cli.board import BoardView, board_text, render_board
from tests.helpers import pos

START_BOARD = """\
  match to 5, Crawford game
   13 14 15 16 17 18       19 20 21 22 23 24
 ┌───────────────────┬───┬───────────────────┬───┐
 │  X           O    │   │  O              X │   │ O pubeval
 │  X           O    │   │  O              X │   │   pips 167  off 0    score 4
 │  X           O    │   │  O                │   │
 │  X                │   │  O                │   │
 │  X                │   │  O                │   │
 │                   │BAR│                   │   │
 │  O                │   │  X                │   │   rolled 6-4
 │  O                │   │  X                │   │
 │  O           X    │   │  X                │   │
 │  O           X    │   │  X              O │   │   pips 167  off 0    score 2
 │  O           X    │   │  X              O │   │ X You  ◀ to play
 └───────────────────┴───┴───────────────────┴───┘
   12 11 10  9  8  7        6  5  4  3  2  1
  Position ID: 4HPwATDgc/ABMA"""

BEAROFF_BOARD = """\
  money game
   13 14 15 16 17 18       19 20 21 22 23 24
 ┌───────────────────┬───┬───────────────────┬───┐
 │                   │ X │  O                │ O │ O pubeval  ◀ on turn
 │                   │ X │  O                │ O │   pips 117  off 7    score 0
 │                   │   │  O                │ O │
 │                   │   │                   │ O │
 │                   │   │                   │ 7 │
 │                   │BAR│                   │   │
 │                   │   │                   │   │
 │                   │   │                   │   │
 │                   │   │  X  X  X          │   │   [4]  cube owned by You
 │  O                │   │  X  X  X  X  X  O │   │   pips 105  off 0    score 3
 │  O                │ O │  X  X  X  X  X  O │   │ X You
 └───────────────────┴───┴───────────────────┴───┘
   12 11 10  9  8  7        6  5  4  3  2  1"""


def test_starting_position_in_a_crawford_game():
    p = Position.initial()
    view = BoardView(p, names=("You", "pubeval"), on_turn=0, dice=(6, 4), position_id=p.id,
                     match_length=5, score=(2, 4), crawford=True, cube_in_use=False)
    assert board_text(view) == START_BOARD


def test_bar_borne_off_checkers_and_an_owned_cube():
    p = pos("x bar:2 6:3 5:3 4:3 3:2 2:2; o bar:1 24:2 13:2 6:3")
    view = BoardView(p, names=("You", "pubeval"), on_turn=1, cube_value=4, cube_owner=0, score=(3, 0))
    assert board_text(view) == BEAROFF_BOARD


def test_tall_stacks_show_their_count_and_the_cube_moves_to_its_owner():
    p = pos("x 1:15; o 1:14 2:1")
    text = board_text(BoardView(p, cube_value=2, cube_owner=1, on_turn=0, dice=(5, 5)))
    lines = text.splitlines()
    # Point 1 is the rightmost column of the bottom half; 15 checkers show "15" in the fifth row.
    assert lines[9].split("│")[3].rstrip().endswith("15")
    assert lines[13].split("│")[3].rstrip().endswith("X")
    assert "[2]  cube owned by O" in lines[5]
    assert "rolled 5-5" in lines[9]
    # The opponent's 14 checkers on its 1-point are the viewer's 24-point, top right.
    assert lines[7].split("│")[3].rstrip().endswith("14")


def test_colour_rendering_uses_the_same_layout_with_discs():
    p = Position.initial()
    plain = render_board(BoardView(p, on_turn=0, dice=(3, 1)), color=False)
    color = render_board(BoardView(p, on_turn=0, dice=(3, 1)), color=True)
    assert len(plain) == len(color)
    assert "●" in color[3].plain and "X" not in color[3].plain.split("│")[1]
    assert any(span.style for line in color for span in line.spans)
    assert not any(span.style for line in plain for span in line.spans)
    # The board columns line up: same width up to the tray in both.
    def widths(lines):
        return [len(line.plain.split("│ ")[0].rstrip()) for line in lines]

    assert widths(color) == widths(plain)
    # The playing area has its own background, so light checkers show on light terminals too.
    assert any("on #" in str(span.style) for span in color[3].spans)


def test_each_player_keeps_its_colour_and_letter_when_the_view_turns():
    from gammon.cli.board import CHECKER_STYLES

    p = Position.initial()
    turned = BoardView(p, names=("O", "X"), glyphs=("O", "X"), players=(1, 0), on_turn=0, dice=(2, 1))
    plain = board_text(turned).splitlines()
    assert plain[-3].endswith("│ O  ◀ to play")  # the viewer is player 1, drawn with O
    assert plain[3].split("│")[1].strip().startswith("O")  # its 13-point stack, top left
    color = render_board(turned, color=True)
    viewer_cells = [span.style for span in color[3].spans if "○" in color[3].plain[span.start:span.end]]
    assert viewer_cells and all(str(s).startswith(CHECKER_STYLES[1]) for s in viewer_cells)


def test_a_double_awaiting_its_answer_shows_the_value_offered_and_by_whom():
    p = Position.initial()
    lines = board_text(BoardView(p, names=("You", "pubeval"), on_turn=0, cube_value=2, cube_owner=0,
                                 cube_offered_by=1)).splitlines()
    assert lines[8].endswith("[4]  offered by pubeval")
    assert not any("owned" in line for line in lines)  # the cube is in the middle until it is taken


def test_the_side_panel_goes_under_the_board_where_it_would_pass_the_terminals_width():
    # in Polish the pips line made a row 83 columns wide: an 80-column terminal wrapped it
    from gammon.i18n import use_language

    view = BoardView(Position.initial(), names=("You", "engine-0ply"), on_turn=0, dice=(6, 4),
                     cube_owner=1, cube_value=2, score=(2, 4), match_length=25,
                     position_id="4HPwATDgc/ABMA")
    with use_language("pl"):
        beside = [line.plain.rstrip() for line in render_board(view)]
        fitted = [line.plain.rstrip() for line in render_board(view, width=80)]
    assert max(len(line) for line in beside) > 80  # as it was
    assert max(len(line) for line in fitted) <= 80
    panel = [line[51:].strip() for line in beside[3:14] if line[51:].strip()]
    # the same rows, the panel's lines under them, top to bottom
    assert [line[:50] for line in fitted[3:14]] == [line[:50] for line in beside[3:14]]
    assert [line.strip() for line in fitted[16:16 + len(panel)]] == panel
    assert fitted[16 + len(panel):] == beside[16:] and "4HPwATDgc/ABMA" in fitted[-1]
    wide = [line.plain.rstrip() for line in render_board(view, width=120)]
    assert wide == [line.plain.rstrip() for line in render_board(view)]  # room enough: beside
