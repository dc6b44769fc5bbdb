"""Picture-Puzzle's flow, table by table: build with the holes lit, show for the teacher's time,
look away and dismantle, restore with a countdown, pass, fail (the difference shown, the seat
out, the picture guided back), the timer, the winner; how a settled board is read at each step;
the journal replays to the same game; the teacher's summary."""

import pytest

from controller.board import Diff
from controller.games.puzzle.flow import STEPS, PuzzleFlow, explain, scene
from controller.games.puzzle.summary import summary, summary_csv
from controller.flow.steps import Action
from controller.games.puzzle import SPEC
from controller.rules import Twist, parse_hole
from controller.rules.geometry import geometry

G = geometry(9)


class Catalogue:
    """The registry's call the flow makes (a start record's check), for the puzzle alone."""

    def options(self, args, size):
        return SPEC.options(args, size)


def h(name):
    return parse_hole(name, G)


def flow_for(**options) -> PuzzleFlow:
    flow = PuzzleFlow(Catalogue(), ("white", "black"), 9)
    flow.new_game(SPEC.options({"picture": "h", "players": 3, "show_s": 5, **options}, 9), 0.0)
    return flow


def built(flow: PuzzleFlow, t: float = 1.0) -> list:
    holes = [hole for hole, _ in flow.game.picture.holes()]
    return flow.accept(tuple(Action("place", hole, colour=1) for hole in holes), t)


PASS = ((Action("remove", h("c2")),), (Action("twist", twist=Twist(5, True)),),
        (Action("place", h("c2"), colour=1), Action("twist", twist=Twist(5, False))))
FAIL = ((Action("remove", h("c2")),), (Action("twist", twist=Twist(5, True)),),
        (Action("place", h("d2"), colour=1), Action("twist", twist=Twist(5, False))))


def play(flow: PuzzleFlow, steps, t: float = 10.0) -> list:
    records = []
    for i, actions in enumerate(steps):
        records += flow.accept(actions, t + i)
    return records


def test_the_build_lights_each_missing_hole_in_its_colour_then_the_picture_is_shown():
    flow = flow_for()
    assert flow.state == "building" and flow.published_state() == "awaiting_placement" and flow.game.step == "build"
    assert len(scene(flow, None, []).holes) == 17  # every stone of the H, in black
    flow.accept((Action("place", h("c2"), colour=1),), 0.5)
    view = scene(flow, None, [])
    assert len(view.holes) == 16 and {light.colour for light in view.holes} == {"black"}
    records = built(flow)
    assert records[-1]["kind"] == "build" and flow.game.step == "show"
    assert flow.take_news()[-1] == "look at the picture, Seat 1 (5 s)"


def test_a_stone_off_the_picture_is_no_build_step():
    flow = flow_for()
    assert explain(flow.game, Diff(added=((h("a1"), 1),)), None, None) is None
    assert explain(flow.game, Diff(added=((h("c2"), 2),)), None, None) is None  # red where black is due
    assert explain(flow.game, Diff(added=((h("c2"), 1), (h("c3"), None))), None, None) == (
        Action("place", h("c2"), colour=1), Action("place", h("c3")))


def test_the_show_lasts_the_teachers_time_then_the_restorer_looks_away():
    flow = flow_for()
    built(flow)
    assert flow.tick(5.9) == [] and flow.game.step == "show"
    assert flow.tick(6.0) == [{"t": 6.0, "kind": "dismantle"}]
    assert flow.game.step == "dismantle" and flow.game.to_move == 2
    assert flow.take_news()[-1] == "Seat 1: look away! Seat 2: dismantle now (1 stone out, 1 twist)"


def test_without_a_show_the_dismantle_starts_once_the_picture_stands():
    flow = flow_for(show_s=0)
    assert built(flow)[-1] == {"t": 1.0, "kind": "build", "hole": "g8", "dismantle": True}
    assert flow.game.step == "dismantle"


def test_a_passed_round_shows_the_picture_again_for_the_next_restorer():
    flow = flow_for(show_s=0)
    built(flow)
    records = play(flow, PASS)
    assert [r["kind"] for r in records] == ["remove", "twist", "place", "twist"]  # one record per step
    assert records[3] == {"t": 12.0, "kind": "twist", "twist": "5L", "dismantle": True,
                          "round": {"passed": True, "reason": "restored", "out": None}}
    assert (flow.game.restorer, flow.game.dismantler, flow.game.step) == (2, 3, "dismantle")


def test_a_failed_round_shows_the_difference_puts_the_seat_out_and_guides_the_picture_back():
    flow = flow_for()
    built(flow)
    flow.tick(6.0)
    records = play(flow, FAIL)
    assert records[-1]["round"] == {"passed": False, "reason": "the board differs from the picture", "out": 1}
    assert flow.state == "guiding" and flow.published_state() == "repair" and flow.game.step == "guide"
    assert flow.expected() == flow.game.picture.position
    view = scene(flow, None, [])
    assert {light.hole for light in view.holes} == {h("d2"), h("c2")} and view.status[0] == "white"  # seat 1 out, in its colour
    assert flow.take_news()[-1] == "2 holes differ: Seat 1 is out"
    flow.mended()  # the repair guidance put the picture back
    assert flow.game.step == "show" and flow.tick(20.0) == [] and flow.tick(25.0)[0]["kind"] == "dismantle"
    assert (flow.game.restorer, flow.game.dismantler) == (2, 3)


def test_the_restore_counts_down_on_the_status_pixels_and_fails_when_time_runs_out():
    flow = flow_for(show_s=0, restore_limit_s=20)
    built(flow)
    play(flow, PASS[:2], t=10.0)  # the restore's clock starts at 11
    flow.tick(16.0)  # 15 s of 20 left: three of four pixels
    assert scene(flow, None, []).status == ("white", "white", "white", "off")
    assert flow.tick(31.0) == []  # exactly the limit is in time
    records = flow.tick(31.5)
    assert [r["kind"] for r in records] == ["time"] and records[0]["round"]["reason"] == "the restore ran out of time"
    assert flow.game.eliminated == [1] and flow.state == "guiding"


def test_the_last_player_in_wins_and_the_game_is_over():
    flow = flow_for(show_s=0, players=2)
    built(flow)
    records = play(flow, FAIL)
    assert records[-1]["kind"] == "end" and records[-1]["winners"] == [2]
    assert flow.state == "game_over" and flow.take_news()[-1] == "Seat 2 wins: the last player in"
    assert scene(flow, None, []).turn == "black"  # seat 2's colour


@pytest.mark.parametrize("step, diff, actions", [
    ("dismantle", Diff(removed=(h("c2"),)), (Action("remove", h("c2")),)),
    ("dismantle", Diff(turns=((5, 1),)), (Action("twist", twist=Twist(5, True)),)),
    ("dismantle", Diff(turns=((5, -1),), removed=(h("e4"),)), (Action("twist", twist=Twist(5, False)), Action("remove", h("e4")))),
    ("dismantle", Diff(added=((h("a1"), 1),)), None),
    ("dismantle", Diff(turns=((5, 2),)), (Action("twist", twist=Twist(5, True)),) * 2),  # the same block twice
    ("restore", Diff(added=((h("c2"), 1),)), (Action("place", h("c2"), colour=1),)),
    ("restore", Diff(turns=((5, -1),)), (Action("twist", twist=Twist(5, False)),)),
    ("restore", Diff(removed=(h("g2"),)), None),
    ("restore", Diff(turns=((5, 2),)), None),  # a half turn is two steps, never one
])
def test_how_a_settled_board_is_read(step, diff, actions):
    flow = flow_for()
    flow.machine.set_state({word: state for state, word in STEPS.items()}[step])  # the phase of that step
    assert explain(flow.game, diff, None, None) == actions


def test_a_restore_placement_and_its_twist_settling_together_is_read_in_order():
    flow = flow_for()
    flow.machine.set_state("restoring")
    # d5 turns to e6 on a clockwise quarter of the middle block: the stone was put on d5 first
    assert explain(flow.game, Diff(turns=((5, 1),), added=((h("e6"), 1),)), None, None) == (
        Action("place", h("d5"), colour=1), Action("twist", twist=Twist(5, True)))


def test_the_journal_replays_to_the_same_game():
    flow = flow_for(show_s=0)
    records = [{"t": 0.0, "kind": "start", "game": "puzzle", "picture": "h", "players": 3, "show_s": 0}]
    records += built(flow) + play(flow, PASS) + play(flow, FAIL, t=20.0)
    again, resume = PuzzleFlow.resumed(records, Catalogue(), ("white", "black"), 9)
    assert resume.problem is None, resume.problem
    assert again.game.eliminated == flow.game.eliminated == [2]
    assert again.game.position == flow.game.position and again.game.step == flow.game.step == "guide"
    assert again.move_texts() == flow.move_texts() == ["-c2 5R Bc2 5L", "-c2 5R Bd2 5L"]


def test_the_teachers_summary_names_the_order_out_each_restore_time_and_the_fastest():
    flow = flow_for(show_s=0, players=2)
    built(flow)
    play(flow, PASS, t=10.0)  # Ada restores from 11 to 12
    play(flow, FAIL, t=20.0)  # Bo fails: Ada wins
    names = ["Ada", "Bo"]
    done = summary(flow.game, names)
    assert done["eliminated"] == ["Bo"] and done["winner"] == "Ada" and done["fastest"] == ["Ada"]
    assert summary_csv(flow.game, names).splitlines() == [
        "round,stage,k,restorer,dismantler,result,seconds,out",
        "1,1,1,Ada,Bo,passed,1,",
        "2,1,1,Bo,Ada,the board differs from the picture,,Bo",
        "",
        "order of elimination,Bo",
        "winner,Ada",
        "",
        "fastest restorer,Ada,1 s a stone",
    ]


def test_a_presence_board_says_before_the_game_that_it_checks_only_where_stones_are():
    flow = flow_for(check="presence")
    assert flow.take_news()[0] == "this board checks only where stones are, not every colour"


@pytest.mark.parametrize("bad, problem", [
    ({"kind": "build", "hole": 5}, "field 'hole' = 5 must be text"),
    ({"kind": "remove"}, "field 'hole' = None must be text"),
    ({"kind": "place", "hole": "c2", "colour": "Q"}, "field 'colour' = 'Q' must be a colour letter (W, B, R, G)"),
    ({"kind": "time"}, "no dismantle or restore is running out of time while the board is at 'build'"),
    ({"kind": "twist", "twist": "5R"}, "the board is showing the picture: wait for the cue"),
])
def test_a_journal_record_the_flow_cannot_use_stops_the_resume_naming_it(bad, problem):
    records = [{"t": 0.0, "kind": "start", "game": "puzzle", "picture": "h", "players": 3}, {"t": 1.0, **bad}]
    if bad["kind"] == "twist":  # the picture stands and is shown: no step is due yet
        flow = flow_for(show_s=5)
        records = [records[0] | {"show_s": 5}] + built(flow) + [records[1]]
    flow, resume = PuzzleFlow.resumed(records, Catalogue(), ("white", "black"), 9)
    assert resume.used == len(records) - 1 and problem in resume.problem
    assert flow.game is not None  # the game before the bad record stands


def test_a_board_is_captured_as_a_picture_with_its_colours_or_white_where_the_sensors_see_none():
    from controller.games.puzzle.flow import captured

    readings = ["empty"] * 36
    readings[30], readings[35], readings[0] = "red", "marble", "black"  # a6 red, f6 unknown, a1 black
    picture, guessed = captured("Three", readings, 6)
    assert picture.rows()[0] == "R....W" and picture.rows()[-1] == "B....." and guessed == 1
    with pytest.raises(ValueError, match="the board is empty"):
        captured("Nothing", ["empty"] * 36, 6)


def test_the_flow_asks_for_ticks_at_the_end_of_the_show_and_at_each_countdown_step():
    flow = flow_for(show_s=5, restore_limit_s=20)
    built(flow, t=1.0)
    assert flow.deadline() == 6.0  # the show ends
    flow.tick(6.0)
    play(flow, PASS[:2], t=10.0)  # the restore's clock starts at 11: a pixel goes out every 5 s
    flow.tick(12.0)
    assert flow.deadline() == pytest.approx(16.001)


def test_a_restore_run_out_of_time_replays_from_the_journal():
    flow = flow_for(show_s=0, restore_limit_s=20)
    records = [{"t": 0.0, "kind": "start", "game": "puzzle", "picture": "h", "players": 3, "show_s": 0,
                "restore_limit_s": 20}]
    records += built(flow) + play(flow, PASS[:2], t=10.0) + flow.tick(40.0)
    flow.mended()  # the lights guided the picture back (no record says so)
    records += play(flow, PASS, t=50.0)
    again, resume = PuzzleFlow.resumed(records, Catalogue(), ("white", "black"), 9)
    assert resume.problem is None, resume.problem
    assert again.game.eliminated == [1] and [r.reason.value for r in again.game.rounds] == [
        "the restore ran out of time", "restored"]


def test_a_board_that_cannot_tell_colours_is_judged_by_where_stones_are():
    flow = flow_for(show_s=0, picture="house")  # four colours
    journal = [{"t": 0.0, "kind": "start", "game": "puzzle", "picture": "house", "players": 3, "show_s": 0}]
    holes = [hole for hole, _ in flow.game.picture.holes()]
    journal += flow.accept(tuple(Action("place", hole) for hole in holes), 1.0)  # a presence board: no colours
    assert flow.game.step == "dismantle"
    journal += flow.accept((Action("remove", h("e9")),), 2.0)
    journal += flow.accept((Action("twist", twist=Twist(1, True)),), 3.0)
    records = flow.accept((Action("place", h("e9")), Action("twist", twist=Twist(1, False))), 4.0)
    assert "colour" not in records[0] and records[-1]["round"]["passed"] is True  # taken for the roof's red
    assert "this board cannot tell the stones' colours: the judge checks where stones are" in flow.take_news()
    assert flow.game.options.check.value == "presence"
    again, resume = PuzzleFlow.resumed(journal + records, Catalogue(), ("white", "black"), 9)
    assert resume.problem is None and again.game.options.check.value == "presence"
    assert [r.passed for r in again.game.rounds] == [True]


def test_a_practice_game_replays_from_the_journal_with_the_same_computer_dismantles():
    flow = flow_for(show_s=0, players=1, practice=True)
    records = [{"t": 0.0, "kind": "start", "game": "puzzle", "picture": "h", "players": 1, "practice": True, "show_s": 0}]
    records += built(flow)
    for _ in range(2):  # two computer dismantles, each followed by the lit steps and no restore yet
        plan = list(flow.game.plan)
        records += flow.accept(tuple(_action(step) for step in plan), 5.0)
        assert flow.game.step == "restore"
        restore = _undo(flow.game, plan)
        records += flow.accept(restore, 6.0)
    assert flow.game.k == 3 and [r.passed for r in flow.game.rounds] == [True, True]
    again, resume = PuzzleFlow.resumed(records, Catalogue(), ("white", "black"), 9)
    assert resume.problem is None, resume.problem
    assert again.game.plan == flow.game.plan and again.move_texts() == flow.move_texts()


def _action(step) -> Action:
    if step.kind.value == "twist":
        return Action("twist", twist=step.twist)
    return Action("remove", step.hole)


def _undo(game, plan) -> tuple[Action, ...]:
    """The restore that undoes a removals-then-twists dismantle: each twist turned back, a stone
    put first where the twists still to undo have taken its hole."""
    twists = [step.twist for step in plan if step.kind.value == "twist"][::-1]
    holes = [step.hole for step in plan if step.kind.value == "removal"]
    picture, geometry = game.picture.position, game.geometry
    actions = []
    for index, twist in enumerate(twists):
        hole = holes[index]
        for later in [step.twist for step in plan if step.kind.value == "twist"][:len(twists) - index]:
            hole = geometry.rotate(1 << hole, later.block, later.clockwise).bit_length() - 1
        actions += [Action("place", hole, colour=picture.colour_at(holes[index])),
                    Action("twist", twist=Twist(twist.block, not twist.clockwise))]
    return tuple(actions)


def test_the_phases_are_the_machines_states_published_as_before_and_a_resume_lands_in_each():
    """Build, show, dismantle, restore (and guiding a failed round's picture back) are the
    machine's states; subscribers see what they saw when the phase was a field beside the one
    state ``awaiting_placement`` (``repair`` while the board is mended or the picture guided
    back); the journal so far resumes into the same phase (a repair is judged again after a
    resume, from the board: it is in no record)."""
    flow = PuzzleFlow(Catalogue(), ("white", "black"), 9)
    journal = [flow.new_game(SPEC.options({"picture": "h", "players": 3, "show_s": 5}, 9), 0.0)]
    seen = []

    def look(machine_state):
        again, resume = PuzzleFlow.resumed(journal, Catalogue(), ("white", "black"), 9)
        assert resume.problem is None and again.state == machine_state.removesuffix("_in_repair")
        seen.append((flow.state, flow.published_state(), flow.game.step))

    look("building")
    journal += built(flow)
    look("showing")
    flow.broke()  # a stone knocked out while the picture is shown: the show goes on under the repair
    look("showing_in_repair")
    flow.mended()
    journal += flow.tick(6.0)
    look("dismantling")
    journal += play(flow, PASS[:2])
    look("restoring")
    journal += play(flow, PASS[2:], t=12.0)
    look("showing")  # passed: the next round's show
    journal += flow.tick(18.0)
    look("dismantling")
    journal += play(flow, FAIL, t=20.0)
    look("guiding")
    assert seen == [
        ("building", "awaiting_placement", "build"),
        ("showing", "awaiting_placement", "show"),
        ("showing_in_repair", "repair", "show"),
        ("dismantling", "awaiting_placement", "dismantle"),
        ("restoring", "awaiting_placement", "restore"),
        ("showing", "awaiting_placement", "show"),
        ("dismantling", "awaiting_placement", "dismantle"),
        ("guiding", "repair", "guide"),
    ]
    assert flow.repairs == 2  # the knocked stone and the failed round, as the one repair state counted them


def test_the_shared_accept_keeps_the_puzzles_two_differences(caplog):
    """PuzzleFlow accepts through the base flow's path with its two declared differences: a
    refusal is told in the news only (no log line), and a call once the game is over adds no
    second end record (the base flow's path, for place-then-twist games, would)."""
    flow = flow_for(show_s=0, players=2)
    with caplog.at_level("WARNING", logger="controller.flow.place_twist"):
        assert flow.accept((Action("remove", h("a1")),), 0.5) == []  # the build takes no removal
    assert flow.take_news()[-1] == "refused: while the picture is built, stones go only on the lit holes"
    assert caplog.records == []
    built(flow)
    records = play(flow, FAIL)
    assert [r["kind"] for r in records].count("end") == 1 and flow.is_over()
    assert flow.accept((Action("remove", h("c2")),), 30.0) == []
