"""Property tests for Picture-Puzzle: every dismantle can be undone by k place-twist pairs; the
judge agrees with a plain reference board (a 2-D list turned cell by cell); whole games of random
passes and failures keep the round order, the stages and k as the rules say."""

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.geometry import geometry
from controller.rules.notation import Twist
from controller.rules.puzzle.pictures import Picture
from controller.rules.position import Position
from controller.rules.puzzle import PuzzleGame, PuzzleOptions
from controller.rules.puzzle.notation import Kind, Step


@st.composite
def pictures(draw) -> Picture:
    size = draw(st.sampled_from((6, 9)))
    holes = draw(st.lists(st.integers(0, size * size - 1), min_size=1, max_size=12, unique=True))
    stones = [0, 0, 0, 0]
    for hole in holes:
        stones[draw(st.integers(0, 3))] |= 1 << hole
    return Picture("Random", Position(geometry(size), tuple(stones)))


@st.composite
def dismantles(draw, picture: Picture, k: int) -> list[Step]:
    """k removals of stones that are there and k twists, in a random order."""
    g, position = picture.position.geometry, picture.position
    kinds = draw(st.permutations([Kind.REMOVE] * k + [Kind.TWIST] * k))
    steps = []
    for kind in kinds:
        if kind is Kind.REMOVE:
            hole = draw(st.sampled_from(sorted(_holes(position))))
            steps.append(Step.remove(hole))
            position = position.lift(hole)
        else:
            twist = Twist(draw(st.integers(1, g.block_count)), draw(st.booleans()))
            steps.append(Step.turn(twist))
            position = position.rotate(twist.block, twist.clockwise)
    return steps


def _holes(position: Position) -> set[int]:
    return {h for h in range(position.geometry.hole_count) if position.colour_at(h) is not None}


def undoing(picture: Picture, dismantle: list[Step]) -> list[Step]:
    """A restore that undoes ``dismantle``: each removed stone follows the later twists as a ghost;
    the restorer places one ghost, then turns back the dismantle's twists, last first."""
    ghosts: dict[int, int] = {}  # hole -> colour of removed stones, carried by later twists
    position, g = picture.position, picture.position.geometry
    twists = []
    for step in dismantle:
        if step.kind is Kind.REMOVE:
            ghosts[step.hole] = position.colour_at(step.hole)
            position = position.lift(step.hole)
        else:
            twists.append(step.twist)
            position = position.rotate(step.twist.block, step.twist.clockwise)
            ghosts = _turned(ghosts, step.twist, g)
    restore = []
    for twist in reversed(twists):
        hole, colour = next(iter(ghosts.items()))
        del ghosts[hole]
        back = Twist(twist.block, not twist.clockwise)
        restore += [Step.place(hole, colour), Step.turn(back)]
        ghosts = _turned(ghosts, back, g)
    return restore


def _turned(ghosts: dict[int, int], twist: Twist, g) -> dict[int, int]:
    out = {}
    for hole, colour in ghosts.items():
        moved = g.rotate(1 << hole, twist.block, twist.clockwise)
        out[moved.bit_length() - 1] = colour
    return out


def plain_board(picture: Picture, steps: list[Step]) -> list[list[int | None]]:
    """The board after ``steps`` from the picture, on a 2-D list turned cell by cell."""
    g = picture.position.geometry
    n = g.size
    board = [[picture.position.colour_at(r * n + c) for c in range(n)] for r in range(n)]
    for step in steps:
        if step.kind is Kind.TWIST:
            bottom, left = n - 3 - 3 * ((step.twist.block - 1) // (n // 3)), 3 * ((step.twist.block - 1) % (n // 3))
            cells = [[board[bottom + 2 - y][left + x] for x in range(3)] for y in range(3)]  # y = 0 is the block's top
            turned = ([[cells[2 - x][y] for x in range(3)] for y in range(3)] if step.twist.clockwise
                      else [[cells[x][2 - y] for x in range(3)] for y in range(3)])
            for y in range(3):
                for x in range(3):
                    board[bottom + 2 - y][left + x] = turned[y][x]
        else:
            board[step.hole // n][step.hole % n] = step.colour if step.kind is Kind.PLACE else None
    return board


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_every_dismantle_is_undone_by_k_place_twist_pairs(data):
    picture = data.draw(pictures())
    k = data.draw(st.integers(1, min(4, picture.stone_count)))
    game = PuzzleGame(picture, PuzzleOptions(players=2, start_k=k))
    dismantle = data.draw(dismantles(picture, k))
    for step in dismantle:
        assert game.push(step) is None
    ended = None
    for step in undoing(picture, dismantle):
        ended = game.push(step)
    assert ended is not None and ended.passed, ended
    assert game.position == picture.position and game.eliminated == []


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_judge_passes_a_restore_exactly_when_the_plain_board_equals_the_picture(data):
    picture = data.draw(pictures())
    k = data.draw(st.integers(1, min(3, picture.stone_count)))
    game = PuzzleGame(picture, PuzzleOptions(players=3, start_k=k))
    steps = data.draw(dismantles(picture, k))
    for step in steps:
        game.push(step)
    ended = None
    g = picture.position.geometry
    for _ in range(k):
        empty = [h for h in range(g.hole_count) if game.position.colour_at(h) is None]
        place = Step.place(data.draw(st.sampled_from(empty)), data.draw(st.integers(0, 3)))
        twist = Step.turn(Twist(data.draw(st.integers(1, g.block_count)), data.draw(st.booleans())))
        steps += [place, twist]
        game.push(place)
        ended = game.push(twist)
    n = g.size
    expected = [[picture.position.colour_at(r * n + c) for c in range(n)] for r in range(n)]
    assert ended.passed == (plain_board(picture, steps) == expected)
    assert ended.out == (None if ended.passed else 1)
    assert game.position == picture.position  # set back either way


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 4), st.integers(1, 3), st.lists(st.booleans(), min_size=1, max_size=40))
def test_round_order_stages_and_k_follow_the_rules_for_any_passes_and_failures(players, start_k, passes):
    picture = Picture("Six", Position(geometry(6), (0b111111, 0, 0, 0)))  # a1-f1 in white
    game = PuzzleGame(picture, PuzzleOptions(players=players, start_k=start_k))
    stage_members, restored = set(range(1, players + 1)), set()
    for passed in passes:
        if game.is_over():
            break
        restorer, dismantler, k, stage = game.restorer, game.dismantler, game.k, game.stage
        in_before = game.playing()
        assert dismantler == _next(in_before, restorer) and restorer in in_before
        assert k == min(start_k + stage - 1, 6)
        holes = list(range(k))  # a1.. hold the picture
        for hole in holes:
            game.push(Step.remove(hole))
        for _ in range(k):
            game.push(Step.turn(Twist(1, True)))  # block 1 holds none of a1-f1: the twists change nothing
        for i, hole in enumerate(holes):
            wrong = not passed and i == 0
            game.push(Step.place(35 if wrong else hole))
            game.push(Step.turn(Twist(1, True)))
        assert game.rounds[-1].passed is passed
        restored.add(restorer)
        if game.is_over():
            assert game.playing() == game.outcome.winners and len(game.playing()) == 1
            break
        if stage_members - set(game.eliminated) <= restored:  # the stage is complete
            assert game.stage == stage + 1
            stage_members, restored = set(game.playing()), set()
        else:
            assert game.stage == stage
            assert game.restorer == _next(game.playing(), restorer)
    assert len(game.eliminated) == sum(not r.passed for r in game.rounds)


def _next(playing: tuple[int, ...], seat: int) -> int:
    later = [s for s in playing if s > seat]
    return later[0] if later else playing[0]
