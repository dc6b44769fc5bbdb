"""The computer opponent against an exact solver: how often it finds an optimal move.

For every oracle position (tests/data/oracle-positions.jsonl, exact values of every legal move)
each player picks a move; a pick is *optimal* when its exact value equals the position's value,
a *blunder* when it is lower (win -> draw or loss, draw -> loss). Players: a uniformly random
legal move (its expected figures, computed exactly), level 1, and level 2 at fixed CPU-time
budgets per move (the deadline reads process time, as the daemon's would read its clock), once
with the pure-Python search and once with the compiled one (``--engine``; the fast extra).
Prints one table overall and one by stone count, with the average depth reached, nodes/s, the
median and 99th-percentile CPU seconds per move, and *thrown*: the won positions of 22 stones or
more (the endgame, where a win should be seen through) in which the pick gives the win away.
``--profile S`` instead runs level 2 at S seconds a move under cProfile and prints where the time
goes (own time per function, as shares of the total).

Level 3 differs from level 2 only by its default node budget, so at a given deadline it is the
same search and has no row of its own.

``--depth D`` instead searches each position to depth D with the Python search and prints the
CPU seconds, nodes and nodes/s, and a digest of the scores: two versions of the search that
judge alike give the same digest, so their times compare the same work.

Usage: python bench/ai_oracle.py [--budgets 0.25 1] [--limit N] [--engine python|compiled|both] [--profile S]
       [--depth D]

The compiled search (2026-12-01, same machine, load 6-8; ``L2 pyth`` is the Python search of
the same run, ``L2 comp`` the compiled one, two runs of it):

    player             optimal% blunder%  depth   nodes/s median s    p99 s  thrown
    L2 pyth @0.25s         97.8      2.2   4.27     14653    0.016    0.266     3.0
    L2 pyth @1s            98.5      1.5   5.08     15404    0.014    1.014     3.0
    L2 comp @0.25s         99.8      0.2   5.92    348951    0.013    0.353     0.0
    L2 comp @1s           100.0      0.0   6.17    383387    0.014    1.110     0.0
    L2 comp @0.25s         99.5      0.5   5.87    348338    0.008    0.303     0.0   (second run)
    L2 comp @1s           100.0      0.0   6.20    503076    0.007    1.015     0.0   (second run)

The same search, compiled, visits 23-33 times the nodes per second and reaches about 1.7 plies
deeper: every won endgame is seen through, at 1 s every pick is optimal. Its p99 time here was
one chunk of nodes (then 8,000) past the budget at most; in the opening it ran far later, until
a chunk ran on across the root's children (bench/ai_deadline.py has the figures). The
profile below is the Python search's; the compiled one cannot be profiled by function.

The Python search, measured on the 2-core development machine shared with other work (load
average 3-7; CPU time, so the load mostly cancels out), all 400 positions (113 of them won with 22 stones or
more), two runs of the current search and one of the search before moves losing at once were
judged without a node (commit cb1fbcc), run side by side:

    player             optimal% blunder%  depth   nodes/s median s    p99 s  thrown
    random                 17.2     82.8   0.00         0    0.000    0.000    92.6
    level 1                88.0     12.0   1.00         0    0.001    0.004    19.0
    level 2 @0.25s         98.0      2.0   4.30     15670    0.014    0.268     2.0
    level 2 @1s            99.0      1.0   5.10     15806    0.014    1.019     3.0
    level 2 @0.25s         98.2      1.8   4.34     16835    0.014    0.263     2.0   (second run)
    level 2 @1s            98.8      1.2   5.07     15120    0.015    1.018     3.0   (second run)
    before @0.25s          97.8      2.2   3.66     35271    0.059    0.257     2.0
    before @1s             98.0      2.0   4.48     31930    0.065    1.008     3.0

A node now costs about twice as much (it judges every reply) but the search reaches about 0.6
plies deeper in the same time. The misses are a handful of positions whose result lies deeper
than 5-7 plies (S-g181-n20, S-g110-n21, S-g219-n21, S-g092-n22, S-g100-n22, S-g124-n24 most
often, in the development runs); the thrown wins there were S-g092-n22, S-g100-n22 and S-g124-n24.

Where the time goes (``--profile 0.25 --limit 100``, own CPU time): building children 33%
(Node.child, children, turn, safe), judging the opponent's replies 29% (_safe_holes and the
completion, five and rotation tests under it), the static evaluation 7%, ordering 3%, the
search's own bookkeeping about 10%.

The Python search's inner loops written out (issue 30; 2026-12-06, load about 2, before on
2970907 and after on c098f5e, each while its armhf run below used the other core):

    player             optimal% blunder%  depth   nodes/s median s    p99 s  thrown
    before @0.25s          98.2      1.8   4.52     21167    0.010    0.263     3.0
    before @1s             99.0      1.0   5.25     21463    0.010    1.014     2.0
    after @0.25s           98.2      1.8   4.59     24363    0.009    0.259     3.0
    after @1s              98.8      1.2   5.25     21273    0.009    1.012     3.0

At a fixed node budget the search makes the same moves with the same scores and node counts
before and after (40 positions, 5,000 nodes each, three runs alternated): 19,100-20,500 nodes/s
before, 21,600-23,500 after (median +12%); to depth 5 on 40 positions 4.08 s against 3.78 s.
What paid: Node.children judging each child inline (the turn, the safe holes, the result), the
safe holes' rotations inline with one five test skipped when a twist leaves the opponent's
stones as they were, and the evaluation without temporaries. Tried and taken back, each file
reverted alone at 5,000 nodes (three rounds, within the noise): the completion finder unrolled
over its four directions and depth 0 as a method of its own. The profile after
(``--profile 0.25 --limit 60``) has no function over an eighth of the time: children 12%,
completions 9%, evaluate 9%, _safe_holes 8%, has_five 7%, the search's bookkeeping 10%, the
ordering 7%; what is left is the interpreter's cost per bit operation, spread over the node.

A 32-bit Pi's search (``sudo bench/pi_vm/arm_search.sh armhf``: Debian 12 armhf's python3
under qemu-user on this machine, the same bench; before and after as above):

    player             optimal% blunder%  depth   nodes/s median s    p99 s  thrown
    before @0.25s          95.8      4.2   3.24      2794    0.096    0.374     3.0
    before @1s             97.8      2.2   4.08      2732    0.084    1.096     3.0
    after @0.25s           95.2      4.8   3.28      2743    0.100    0.374     4.0
    after @1s              97.8      2.2   4.04      2612    0.110    1.132     3.0

qemu-user emulates every instruction: an empty Python loop runs 10.5 times slower there than in
Debian's python3 here, the search 9.5 times (2,730-2,830 nodes/s at a fixed budget against
26,500-26,800; the same moves as here), so a second there buys what 0.1 s buys here, about one
ply less. At a fixed node budget there the after search is 2-9% faster. How a real Pi 2 or
Pi Zero W compares with this emulation is not measured here: it needs the Pi.

Every twist at once (issue 30, 2026-12-07, a quiet machine; before is bb8d50a, after a18b8a7).
A node used to ask its questions twist by twist: where the stones land, who has five, where a
stone makes five, and, to judge each move, the same of every reply twist after every twist (64
board images a node). Python pays per operation, not per bit, so controller/ai/lanes.py asks
them of all twists at once, each twist's board a lane of one integer (SWAR): the 8 twists in one,
the 29 distinct twist-and-reply results in another (of 64: twists of two blocks commute, a twist
and its reverse cancel). The frontier scores its children from one board per twist and the
lines through each placement (evaluate.their_stone) instead of a node call each; a node tries
the move its table remembers before it builds anything; the root searches later moves with a
null window; nodes below the root look for no win of their own (they have none: a move that
leaves one is never searched); the cyclic garbage collector is off during a search.

    player             optimal% blunder%  depth   nodes/s median s    p99 s  thrown
    before @0.25s          97.5      2.5   4.18     12719    0.017    0.268     3.0
    before @1s             98.5      1.5   5.02     13811    0.019    1.015     3.0
    after @0.025s          96.8      3.2   3.57     43026    0.008    0.032     1.0
    after @0.1s            98.2      1.8   4.32     41760    0.008    0.107     2.0
    after @0.25s           98.5      1.5   4.90     47348    0.007    0.257     3.0
    after @1s              99.0      1.0   5.59     50026    0.006    1.010     2.0

(Other runs the same day: after, 98.5% at 0.1 s and 97.0-97.5% at 0.025 s; before, 97.75% at
0.25 s. One position of 400 is 0.25%.)

The same work (``--depth 5 --limit 40``: the same scores, 90,519 nodes before and 90,999 after)
takes 7.40-8.13 CPU s before and 1.50-2.32 after (3.3-4.9 times less; nodes/s 11,100-12,200
against 39,200-60,700), and callgrind counts 18.1 against 5.5 billion instructions to depth 4
(3.6 times fewer after the interpreter's start-up). What paid, in order: the lanes (a node's
safe holes from about 260 us for its 8 twists to 35-41 us for all; its turns from 45 us to 8 us);
the frontier's one board per twist (depth 5 in 2.3-2.9 times less time, with the lanes); the
remembered move first (over half the nodes two or more plies deep cut off on it: 10-20% less
time); the root's null windows (17% fewer nodes to depth 4); no win looked for below the root
(7% fewer instructions); a table-driven ``bits``. Against the compiled search, on the same
scores at depths 3-5 (tests/ai/test_compiled.py), the compiled one still visits 8-10 times the
nodes a second: it keeps 100% at 1 s and 99.5% at 0.25 s.

Tried and not kept (2026-12-07, by instructions or by this bench side by side): the frontier
asking one child's replies alone before every twist's (it scored and counted the children that
lose next: twice the nodes, slower); a killer move first at the frontier (slower); a forced move
searched a ply deeper (97.75% against 98.0% at 0.1 s); checking at the frontier whether the best
child leaves the opponent any move that does not lose at once (the same optimal share at 40%
fewer nodes a second). Not tried: the table as preallocated arrays (the search's own bookkeeping
is under a tenth of the time), folding the table by the board's symmetries (a late position
rarely meets its mirror image within one search), an opening book (the oracle positions have
19-26 stones; it could help whole games only from the empty board) and a proof search for the
endgame (a threat-space search proved 2 of 5 missed wins, below).

The misses that stay are deep: S-g181-n20 needs depth 5 (0.5 s here), S-g110-n21 depth 7 (1 s),
S-g092-n22 depth 10 (1 s), S-g124-n24 and S-g100-n22 depth 8-9 (4 s); S-g087-n22 and S-g010-n21
are draws that a search to depth 5 keeps and depths 6-8 lose (the compiled search as well:
the static evaluation prefers a move whose loss lies deeper), so they come and go with the
depth a budget reaches.

On a 32-bit Pi's python3 under qemu-user (``sudo bench/pi_vm/arm_search.sh armhf``, Debian 12
armhf, the same day): before 95.0% at 0.25 s (1,999 nodes/s) and 97.5% at 1 s (1,739); after
97.5-97.8% at 0.25 s (6,135-6,479) and 98.8% at 1 s (5,194-6,071): 3.3 times the nodes a CPU
second, short of 98.5% and 99%. There an empty Python loop runs 8.4-14.1 times slower than in
the host's Debian python3 (it varies with the host's load) and the search 7.5-9 times slower
(the integer operations that do its work are a larger share of it than of a loop), so a CPU
second there buys what 0.11-0.13 s buys here: about this table's 0.1 s row.

Tried and not kept (2026-12-01, this bench at both budgets, load 9-11; run-to-run noise is
1-2 positions of 400, so each idea was run more than once):

- Late move reductions (a move after the fourth at nodes three or more plies deep searched one
  ply shallower first): depth +0.2, optimal within the noise (1 s: 98.0-98.75% vs 98.5%).
- A richer evaluation fitted to the oracle's exact move values (41,631 moves; ridge and logistic
  fits, trained on one half of the games and judged on the other): the opponent's threats
  after every twist and open threes after the best twist raise the one-ply pick from 88% to
  90-92%, but cost half the nodes per second, and the search got worse (0.25 s: 97.25-97.75%
  vs 98.0%). Refitting the present line weights alone gains nothing: they are as good as fitted.
- A threat-space search (only moves that threaten a win, every defence answered): it proves 2
  of the 5 missed wins (S-g231-n21 in 200 nodes, S-g100-n22 in 12,000), but S-g092-n22 begins
  with a quiet move and S-g124-n24 needs more than 5 threats, and it runs at ~3,000 nodes/s.
- The missed wins are 7-11 plies deep (found by this search after 0.5 s, 1.9 s, 8 s and 18 s)
  and two missed draws still lose after a 10 s search to depth 8 (S-g010-n21, S-g219-n21): the
  targets want about two more plies at the same time, which pure Python does not have here.

Depth is the deepest iteration completed, averaged; searches that prove a win or see to the end
of the game stop early, so the median time is far below the budget.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from controller.ai import analyse, choose_move, to_move
from controller.ai.budget import Budget
from controller.ai.compiled import warm_up
from controller.ai.search import search
from controller.rules import ClassicGame, Position

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "oracle-positions.jsonl"
ENDGAME_STONES = 22  # from here on a won position must not be given away


@dataclass
class Pick:
    stones: int
    optimal: float  # 1 or 0 for a real pick; the expected share for the random baseline
    blunder: float
    thrown: float  # a won endgame position (ENDGAME_STONES or more) given away
    depth: float = 0.0
    nodes: int = 0
    seconds: float = 0.0


def load(limit: int | None) -> list[dict]:
    records = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    if not limit or limit >= len(records):
        return records
    return [records[i * len(records) // limit] for i in range(limit)]  # spread over stone counts


def game_of(record: dict) -> ClassicGame:
    return ClassicGame(position=Position.parse(record["board"]), to_move=1 if record["to_move"] == "x" else 2)


def judge(record: dict, game: ClassicGame, move, **effort) -> Pick:
    value = record["moves"][game.move_name(move)]
    blunder = float(value < record["value"])
    return Pick(record["stones"], float(value == record["value"]), blunder, blunder * _won_endgame(record), **effort)


def random_pick(record: dict) -> Pick:
    values = list(record["moves"].values())
    best = sum(v == record["value"] for v in values) / len(values)
    worse = sum(v < record["value"] for v in values) / len(values)
    return Pick(record["stones"], best, worse, worse * _won_endgame(record))


def _won_endgame(record: dict) -> bool:
    return record["value"] == 1 and record["stones"] >= ENDGAME_STONES


def level1_pick(record: dict) -> Pick:
    game = game_of(record)
    start = time.process_time()
    move = choose_move(game, level=1, seed=0)
    return judge(record, game, move, depth=1, seconds=time.process_time() - start)


def timed_pick(budget_s: float, engine: str = "python") -> Callable[[dict], Pick]:
    def pick(record: dict) -> Pick:
        game = game_of(record)
        start = time.process_time()
        result = analyse(game, level=2, deadline=lambda: time.process_time() - start > budget_s, engine=engine)
        seconds = time.process_time() - start
        move = to_move(game, *result.move)
        return judge(record, game, move, depth=result.depth, nodes=result.nodes, seconds=seconds)
    return pick


def run(name: str, pick: Callable[[dict], Pick], records: list[dict]) -> tuple[str, list[Pick]]:
    picks = [pick(r) for r in records]
    print(f"  ran {name}", flush=True)
    return name, picks


def summary_row(name: str, picks: list[Pick]) -> str:
    n = len(picks)
    optimal = 100 * sum(p.optimal for p in picks) / n
    blunder = 100 * sum(p.blunder for p in picks) / n
    seconds = sorted(p.seconds for p in picks)
    nodes = sum(p.nodes for p in picks)
    rate = nodes / sum(seconds) if nodes and sum(seconds) else 0.0
    median = statistics.median(seconds) if seconds else 0.0
    p99 = seconds[min(n - 1, int(0.99 * n))] if seconds else 0.0
    depth = statistics.fmean(p.depth for p in picks)
    thrown = sum(p.thrown for p in picks)
    return (f"{name:<18}{optimal:>9.1f}{blunder:>9.1f}{depth:>7.2f}{rate:>10.0f}"
            f"{median:>9.3f}{p99:>9.3f}{thrown:>8.1f}")


def by_stones(results: list[tuple[str, list[Pick]]]) -> list[str]:
    counts = sorted({p.stones for p in results[0][1]})
    lines = ["optimal % by stone count", f"{'player':<18}" + "".join(f"{c:>6}" for c in counts)]
    for name, picks in results:
        groups: dict[int, list[float]] = defaultdict(list)
        for p in picks:
            groups[p.stones].append(p.optimal)
        lines.append(f"{name:<18}" + "".join(f"{100 * statistics.fmean(groups[c]):>6.0f}" for c in counts))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", type=float, nargs="*", default=[0.25, 1.0], help="CPU seconds per move")
    parser.add_argument("--limit", type=int, help="only N positions, spread evenly over the file")
    parser.add_argument("--profile", type=float, metavar="S", help="profile level 2 at S seconds a move instead")
    parser.add_argument("--engine", choices=("python", "compiled", "both"), default="both",
                        help="which search plays level 2 (both: a row each; compiled needs the fast extra)")
    parser.add_argument("--depth", type=int, metavar="D",
                        help="instead: search each position to depth D with the Python search (speed, not picks)")
    args = parser.parse_args()
    records = load(args.limit)
    if args.depth:
        return to_depth(args.depth, records)
    endgame = sum(_won_endgame(r) for r in records)
    print(f"{len(records)} oracle positions, {endgame} of them won with {ENDGAME_STONES} stones or more", flush=True)
    if args.profile:
        return profile(timed_pick(args.profile), records)
    results = [run("random", random_pick, records), run("level 1", level1_pick, records)]
    engines = ["python", "compiled"] if args.engine == "both" else [args.engine]
    if "compiled" in engines:
        warm_up()  # compiling is not thinking time
    for engine in engines:
        for budget in args.budgets:
            name = f"L2 {engine[:4]} @{budget:g}s"
            results.append(run(name, timed_pick(budget, engine), records))
    print(f"\n{'player':<18}{'optimal%':>9}{'blunder%':>9}{'depth':>7}{'nodes/s':>10}{'median s':>9}{'p99 s':>9}"
          f"{'thrown':>8}")
    for name, picks in results:
        print(summary_row(name, picks))
    print()
    print("\n".join(by_stones(results)))


def to_depth(depth: int, records: list[dict]) -> None:
    """The Python search's speed on the same work whatever its version: every position searched
    to ``depth`` (a fixed-depth alpha-beta score does not depend on the move order), CPU time,
    nodes and a digest of the scores, which two versions that judge alike print the same."""
    start, nodes, scores = time.process_time(), 0, []
    for record in records:
        game = game_of(record)
        stones = game.position.stones
        result = search(stones[game.colour], stones[1 - game.colour], Budget(nodes=10**12), max_depth=depth)
        nodes += result.nodes
        scores.append(result.score)
    seconds = time.process_time() - start
    digest = hashlib.sha256(repr(scores).encode()).hexdigest()[:12]
    print(f"depth {depth}: {seconds:.2f} CPU s, {nodes} nodes, {nodes / seconds:.0f} nodes/s, scores {digest}")


def profile(pick: Callable[[dict], Pick], records: list[dict], top: int = 14) -> None:
    """Own CPU time per function over every pick, largest first, as shares of the total."""
    profiler = cProfile.Profile(time.process_time)  # CPU time: other loads on the machine do not count
    picks = profiler.runcall(lambda: [pick(r) for r in records])
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(own for _, _, own, _, _ in stats.values())
    print(f"{sum(p.nodes for p in picks)} nodes; own time by function (under the profiler, {total:.1f} s):")
    rows = sorted(stats.items(), key=lambda item: item[1][2], reverse=True)[:top]
    for (path, line, name), (_, calls, own, _, _) in rows:
        print(f"  {100 * own / total:5.1f}%  {calls:>9}  {Path(path).name}:{line}({name})")


if __name__ == "__main__":
    main()
