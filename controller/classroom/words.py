"""A board's refusal in the teacher's words: what could not be done, on which boards, and why.

The board's API names the command first (``new_game: no picture 'four-w' for the 6x6 board``),
which is right for a script and reads like a program's error to a teacher. The console says
instead what the teacher asked for ("Could not start a new game on board b2: no picture ...").
The JSON the console answers keeps its keys (``refused``: by board, ``error``); only the words
change.

>>> refusal("new_game", "game 'chess' is not available", ["b1", "b3"])
"Could not start a new game on boards b1, b3: game 'chess' is not available"
>>> refusal("new_game", "new_game: players 7: Picture-Puzzle is for 2 to 4 players", ["b2"])
'Could not start a new game on board b2: players 7: Picture-Puzzle is for 2 to 4 players'
"""

from __future__ import annotations

from collections.abc import Sequence

# What each command of controller.daemon.requests.COMMANDS asks a board to do (a test holds the two together).
DOING = {"new_game": "start a new game", "take_back": "take the last move back", "menu": "go back to the menu",
         "hint": "show a hint", "save_picture": "save the picture"}


def refusal(command: str, reason: str, boards: Sequence[str]) -> str:
    """Why ``boards`` did not (or would not) carry out ``command``, in the teacher's words.
    ``reason`` may come as the board's API says it, ``command: why`` (a board's ``refused``
    event carries that text): the command's name is dropped, the why kept as it is."""
    why = reason.removeprefix(f"{command}: ")
    where = f"board {boards[0]}" if len(boards) == 1 else f"boards {', '.join(boards)}"
    return f"Could not {DOING[command]} on {where}: {why}"
