"""Picture-Puzzle's referee, one test per rule of issue 12: the dismantle, the restore, the judge
at each checking level, failures (wrong stone, wrong colour, wrong twist, the timer), the round
order with skipping, stages, k rising and capped, the winner, the stopwatch."""

import pytest

from controller.rules import IllegalMoveError, NotationError, Termination
from controller.rules.notation import hole_name
from controller.rules.puzzle.pictures import LETTERS, parse_picture
from controller.rules.puzzle import Check, Phase, PuzzleGame, PuzzleOptions, Reason

# W on a6 (block 1), R on e3 (block 4), W on f1 (block 4).
THREE = parse_picture("""Three
W . . . . .
. . . . . .
. . . . . .
. . . . R .
. . . . . .
. . . . . W
""")
ONE_COLOUR = parse_picture("Dots\nR . . . . .\n" + ". . . . . .\n" * 4 + ". . . . . R\n")


def game(players=2, picture=THREE, **options) -> PuzzleGame:
    return PuzzleGame(picture, PuzzleOptions(players=players, **options))


def play(g: PuzzleGame, *steps: str, t: float | None = None):
    """Play ``steps``; the last round that ended, if any."""
    ended = None
    for step in steps:
        ended = g.push_text(step, t) or ended
    return ended


PASS_K1 = ("-a6", "4R", "Wa6", "4L")  # W off a6, block 4 turned; put back, turned back
FAIL_K1 = ("-a6", "4R", "Wa6", "4R")  # the restorer turns block 4 the wrong way: a wrong twist


# -- the dismantle ------------------------------------------------------------------------------

def test_the_dismantle_takes_k_removals_and_k_twists_in_any_order():
    g = game(start_k=2)
    play(g, "4R", "-a6", "4R")
    assert g.phase is Phase.DISMANTLE and g.to_do() == (1, 0)
    play(g, "-d3")
    assert g.phase is Phase.PLACE and g.to_do() == (2, 2)  # the restore: 2 placements, 2 twists
    assert g.position.rows("WBRG") == ["......", "......", "......", "......", "......", "....R."]
    play(g, "Wa6")  # the restore's first placement: its twist, then one more pair, to go
    assert g.to_do() == (1, 2)


def test_a_block_twisted_twice_in_one_dismantle_is_restored_by_turning_it_back_twice():
    g = game(start_k=2)
    ended = play(g, "4R", "-a6", "4R", "-d3", "Wd3", "4L", "Wa6", "4L")
    assert ended.passed and ended.reason is Reason.RESTORED and ended.k == 2
    assert g.position == THREE.position


@pytest.mark.parametrize("steps, message", [
    (("-a6", "-e3"), "-e3: the dismantle has its 1 removal at k = 1; 1 twist to go"),
    (("4R", "1L"), "1L: the dismantle has its 1 twist at k = 1; 1 removal to go"),
    (("e5",), "e5: seat 2 is dismantling (1 removal and 1 twist to go); stones are placed in the restore"),
    (("-b2",), "-b2: hole b2 is empty; nothing to remove"),
])
def test_a_step_the_dismantle_does_not_allow_names_the_step_and_the_rule(steps, message):
    g = game()
    with pytest.raises(IllegalMoveError) as error:
        play(g, *steps)
    assert str(error.value) == message


# -- the restore --------------------------------------------------------------------------------

@pytest.mark.parametrize("steps, message", [
    (("-a6", "4R", "-e3"), "-e3: seat 1 is restoring (a placement then a twist, 1 time); a placed stone is never taken back"),
    (("-a6", "4R", "4L"), "4L: the restore places a stone before each twist; seat 1 places next"),
    (("-a6", "4R", "Wa6", "Wb6"), "Wb6: a twist follows each placement; seat 1 twists next"),
    (("-a6", "4R", "Wf2"), "Wf2: hole f2 is taken"),
    (("-a6", "4R", "a6"), "a6: the picture has the colours W, R: write the colour before the hole, e.g. Wa6"),
])
def test_a_step_the_restore_does_not_allow_names_the_step_and_the_rule(steps, message):
    g = game()
    with pytest.raises(IllegalMoveError) as error:
        play(g, *steps)
    assert str(error.value) == message


def test_a_refused_step_changes_nothing():
    g = game()
    play(g, "-a6", "4R")
    before = g.position
    with pytest.raises(IllegalMoveError):
        g.push_text("4L")
    assert g.position == before and g.phase is Phase.PLACE


def test_a_one_colour_picture_takes_placements_without_a_colour():
    g = game(picture=ONE_COLOUR)
    assert play(g, "-a6", "2R", "a6", "2L").passed


def test_a_restore_is_judged_only_after_its_k_pairs():
    g = game(start_k=2)
    play(g, "-a6", "1R", "-e3", "1R", "Wa6", "1R")  # the first pair already puts a6 wrong
    assert not g.rounds and g.phase is Phase.PLACE


def test_a_passed_restore_keeps_the_restorer_in_and_hands_on_the_roles():
    g = game(players=3)
    ended = play(g, *PASS_K1)
    assert (ended.restorer, ended.dismantler, ended.passed, ended.out) == (1, 2, True, None)
    assert (g.restorer, g.dismantler, g.eliminated) == (2, 3, [])


# -- failures -----------------------------------------------------------------------------------

def test_failure_by_a_wrong_stone_puts_the_restorer_out_and_sets_the_picture_back():
    g = game(players=3)
    ended = play(g, "-a6", "1R", "Wb6", "1L")  # the stone goes one hole off
    assert (ended.passed, ended.reason, ended.out) == (False, Reason.DIFFERS, 1)
    assert ended.differences == (24, 30)  # a5 holds the stone turned off b6; a6 is empty
    assert g.eliminated == [1] and g.position == THREE.position


def test_failure_by_a_wrong_colour():
    g = game(players=3)
    ended = play(g, "-a6", "4R", "Ra6", "4L")
    assert (ended.passed, ended.out, ended.differences) == (False, 1, (30,))


def test_failure_by_a_wrong_twist():
    g = game(players=3)
    ended = play(g, *FAIL_K1)
    assert (ended.passed, ended.out) == (False, 1)
    assert ended.differences == (4, 5, 15, 16)  # e1, f1, d3, e3: block 4 turned a half turn from the picture


def test_presence_checking_sees_where_stones_are_not_their_colour():
    g = game(players=3, check=Check.PRESENCE)
    assert play(g, "-a6", "4R", "Ra6", "4L").passed  # a red stone where the white was: unseen
    assert not play(g, *("-a6", "4R", "Wb6", "4L")).passed  # a stone in the wrong hole: seen


def test_polarity_checking_tells_white_from_black_but_not_red_from_green():
    g = game(players=4, check=Check.POLARITY)
    assert not play(g, "-a6", "4R", "Ba6", "4L").passed  # black for white: the other pole
    assert play(g, "-e3", "1R", "Ge3", "1L").passed  # green for red: no pole tells them apart


def test_failure_by_the_timer_when_a_step_comes_late():
    g = game(players=3, restore_limit_s=10)
    play(g, "-a6", "4R", t=100.0)  # the restore's clock starts with the dismantle's last step
    g.push_text("Wa6", t=105.0)
    ended = g.push_text("4L", t=110.5)
    assert (ended.passed, ended.reason, ended.out, ended.restore_s) == (False, Reason.RESTORE_TIME, 1, None)
    assert len(ended.steps) == 3  # the late twist was not played
    assert g.position == THREE.position and g.restorer == 2


def test_failure_by_the_timer_when_no_step_comes():
    g = game(players=3, restore_limit_s=10)
    play(g, "-a6", "4R")
    g.begin(50.0)  # the flow cues "restore now"
    assert g.expire(60.0) is None  # exactly at the limit is in time
    assert g.time_left(55.0) == 5.0
    ended = g.expire(60.1)
    assert ended.reason is Reason.RESTORE_TIME and g.eliminated == [1]


def test_a_dismantle_out_of_time_puts_the_dismantler_out_and_the_restorer_restores_next():
    g = game(players=3, dismantle_limit_s=20)
    g.begin(0.0)
    g.push_text("-a6", t=5.0)
    ended = g.expire(21.0)
    assert (ended.passed, ended.reason, ended.out) == (None, Reason.DISMANTLE_TIME, 2)
    assert (g.restorer, g.dismantler) == (1, 3) and g.position == THREE.position


def test_a_restore_in_time_records_its_time():
    g = game(players=2, restore_limit_s=30)
    play(g, "-a6", "4R", t=10.0)
    g.begin(12.0)
    g.push_text("Wa6", t=15.0)
    assert g.push_text("4L", t=19.5).restore_s == 7.5


# -- round order, stages and k ------------------------------------------------------------------

def test_round_order_is_seat_1_then_each_next_seat_restoring_with_the_seat_after_dismantling():
    g = game(players=4)
    roles = []
    for _ in range(4):
        roles.append((g.restorer, g.dismantler))
        play(g, *PASS_K1)
    assert roles == [(1, 2), (2, 3), (3, 4), (4, 1)]


def test_players_who_are_out_are_skipped_in_both_roles():
    g = game(players=4)
    play(g, *PASS_K1)  # 1 restores, 2 dismantles
    play(g, *FAIL_K1)  # 2 restores and goes out
    assert (g.restorer, g.dismantler) == (3, 4)
    play(g, *PASS_K1)
    assert (g.restorer, g.dismantler) == (4, 1)
    play(g, *PASS_K1)  # the stage ends: everyone in at its start has restored
    assert (g.restorer, g.dismantler, g.stage) == (1, 3, 2)
    assert [r.restorer for r in g.rounds] == [1, 2, 3, 4]


def test_k_rises_by_one_after_a_stage():
    g = game(players=2)
    play(g, *PASS_K1)
    assert (g.stage, g.k) == (1, 1)
    play(g, *PASS_K1)
    assert (g.stage, g.k) == (2, 2)
    assert g.to_do() == (2, 2)


def test_k_is_capped_by_the_pictures_stones():
    two = parse_picture("Two\nW . . . . .\n" + ". . . . . .\n" * 4 + ". . . . . W\n")
    g = game(players=2, picture=two, start_k=2)
    for _ in range(2):
        play(g, "-a6", "-f1", "2R", "2L", "Wa6", "2R", "Wf1", "2L")
    assert (g.stage, g.k) == (2, 2)


def test_a_starting_k_above_the_pictures_stones_is_refused():
    with pytest.raises(ValueError, match="^the starting k 4 is more than the picture's 3 stones$"):
        game(start_k=4)


def test_the_last_player_in_wins_with_the_others_in_reverse_order_of_going_out():
    g = game(players=3)
    play(g, *FAIL_K1)  # 1 out
    play(g, *PASS_K1)  # 2 restores, 3 dismantles
    play(g, *FAIL_K1)  # 3 out: 2 is the last player in
    assert g.is_over() and g.phase is Phase.OVER
    assert g.outcome.termination is Termination.LAST_PLAYER
    assert g.outcome.winners == (2,) and g.standings == ((2,), (3,), (1,))
    assert g.eliminated == [1, 3] and g.restorer is None and g.dismantler is None
    with pytest.raises(IllegalMoveError, match="^-a6: the game is over$"):
        g.push_text("-a6")


def test_a_stage_ends_even_when_a_player_went_out_before_restoring():
    g = game(players=3, dismantle_limit_s=5)
    g.begin(0.0)
    g.expire(6.0)  # seat 2, dismantling, goes out before their restore turn
    play(g, *PASS_K1)  # 1 restores (3 dismantles)
    play(g, *PASS_K1)  # 3 restores: everyone in at the stage's start is done or out
    assert (g.stage, g.k, g.restorer, g.dismantler) == (2, 2, 1, 3)


# -- stopwatch ------------------------------------------------------------------------------------

def test_the_fastest_restorer_is_quickest_per_stone():
    g = game(players=2)
    for restorer_s in (6.0, 4.0):  # stage 1: seat 1 takes 6 s, seat 2 takes 4 s for one stone
        play(g, "-a6", "4R", t=0.0)
        play(g, "Wa6", t=1.0)
        play(g, "4L", t=restorer_s)
    play(g, "-a6", "-e3", "4R", "4R", t=0.0)  # stage 2, k = 2: seat 1 takes 7 s, 3.5 s a stone
    play(g, "Re1", "4L", "Wa6", t=1.0)
    play(g, "4L", t=7.0)
    assert g.stopwatch() == [(1, 3.5), (2, 4.0)]
    assert g.fastest() == (1,)


def test_without_times_there_is_no_fastest_restorer():
    g = game()
    play(g, *PASS_K1)
    assert g.stopwatch() == [] and g.fastest() == ()


# -- options --------------------------------------------------------------------------------------

@pytest.mark.parametrize("options, message", [
    ({"players": 1}, "players must be 2 to 4, not 1"),
    ({"start_k": 0}, "the starting k must be a whole number of at least 1, not 0"),
    ({"restore_limit_s": 0}, "the restore time limit must be a number of seconds above 0, not 0"),
    ({"dismantle_limit_s": "5"}, "the dismantle time limit must be a number of seconds above 0, not '5'"),
])
def test_bad_options_are_refused_naming_them(options, message):
    with pytest.raises(ValueError) as error:
        PuzzleOptions(**options)
    assert str(error.value) == message


def test_options_round_trip_through_their_text():
    options = PuzzleOptions(players=4, start_k=3, restore_limit_s=12.5, dismantle_limit_s=20, check=Check.POLARITY)
    assert PuzzleOptions.parse(options.text()) == options
    with pytest.raises(ValueError, match="^option 'colour=on' is not one of"):
        PuzzleOptions.parse("colour=on")


def test_a_malformed_step_is_a_notation_error():
    with pytest.raises(NotationError, match="^'Xe5' is not a step"):
        game().push_text("Xe5")


def test_polarity_checking_takes_any_stone_for_a_red_or_green_one_and_the_other_way_round():
    g = game(players=4, check=Check.POLARITY)
    assert play(g, "-e3", "1R", "We3", "1L").passed  # white for red: red reads as one pole or the other
    assert not play(g, "-e3", "1R", "We2", "1L").passed  # but never a stone in the wrong hole


# -- practice (issue 13): the child restores, the computer dismantles as seat 2 -----------------

def practice(**options) -> PuzzleGame:
    return PuzzleGame(THREE, PuzzleOptions(players=1, practice=True, **options))


def test_practice_is_one_child_restoring_and_the_computer_seat_2_dismantling():
    g = practice()
    assert (g.restorer, g.dismantler, g.k, g.playing()) == (1, 2, 1, (1,))


def test_practice_raises_k_after_every_passed_restore_and_ends_at_the_first_failure():
    g = practice()
    play(g, *_pass_round(g))
    assert (g.restorer, g.dismantler, g.k, g.stage, g.is_over()) == (1, 2, 2, 2, False)
    play(g, *_dismantle(g), *_wrong_restore(g))
    assert g.is_over() and g.outcome.termination is Termination.PRACTICE_OVER
    assert g.standings == ((1,),) and [r.passed for r in g.rounds] == [True, False]


def test_practice_ends_after_the_restore_at_k_equal_to_the_pictures_stones():
    g = practice(start_k=THREE.stone_count)
    play(g, *_pass_round(g))
    assert g.is_over() and g.rounds[-1].passed and g.outcome.termination is Termination.PRACTICE_OVER


@pytest.mark.parametrize("options, message", [
    ({"players": 2, "practice": True}, "practice is for 1 player"),
    ({"players": 1}, "players must be 2 to 4"),
    ({"players": 1, "practice": True, "dismantle_limit_s": 10}, "no dismantle time limit"),
    ({"players": 1, "practice": "yes"}, "practice must be true or false"),
])
def test_practice_options_are_checked(options, message):
    with pytest.raises(ValueError, match=message):
        PuzzleOptions(**options)


def test_practice_travels_in_the_options_text_and_back():
    options = PuzzleOptions(players=1, practice=True)
    assert options.text().endswith(" practice=on") and PuzzleOptions.parse(options.text()) == options
    assert "practice" not in PuzzleOptions().text()


def _holes(g: PuzzleGame) -> list[int]:
    return [h for h in range(g.geometry.hole_count) if g.picture.position.occupied >> h & 1][:g.k]


def _dismantle(g: PuzzleGame) -> list[str]:
    """k of the picture's stones out, then block 2 (empty in THREE) turned k times."""
    return [f"-{hole_name(h, g.geometry)}" for h in _holes(g)] + ["2R"] * g.k


def _pass_round(g: PuzzleGame) -> list[str]:
    """A dismantle and the restore that undoes it: each stone back, block 2 turned back."""
    picture = g.picture.position
    restore = [step for h in _holes(g) for step in (f"{LETTERS[picture.colour_at(h)]}{hole_name(h, g.geometry)}", "2L")]
    return _dismantle(g) + restore


def _wrong_restore(g: PuzzleGame) -> list[str]:
    """Stones in holes the picture leaves empty."""
    empty = [h for h in range(g.geometry.hole_count) if not g.picture.position.occupied >> h & 1]
    return [step for h in empty[:g.k] for step in (f"W{hole_name(h, g.geometry)}", "2L")]
