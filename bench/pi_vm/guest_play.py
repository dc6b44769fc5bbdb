#!/usr/bin/python3
"""Plays the virtual board of the daemon running in the VM through its web console's API
(standard library only: it runs on the guest's own Python).

    guest_play.py state            print the console's state message (JSON)
    guest_play.py new              start a classic game and wait for its first placement
    guest_play.py move "b5 4R"     place, twist, and wait until the move is accepted
    guest_play.py place b5         place a marble, and return at once
    guest_play.py ready            wait until the console answers
    guest_play.py restore          put back the marbles the game has (after a power cut)

Each prints the moves accepted so far as one JSON line, or exits 1 with why not.
"""

import json
import sys
import time
import urllib.error
import urllib.request

URL = "http://127.0.0.1:8080"
COLUMNS = "abcdef"


def api(path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(URL + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def state():
    message = api("/api/state")
    return message.get("state", message) if isinstance(message.get("state"), dict) else message


def until(test, what, timeout_s=600):  # generous: an emulated CPU is slow
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            now = state()
            if test(now):
                return now
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    sys.exit(f"guest_play: no {what} within {timeout_s} s")


def move(text):
    now = state()
    before = len(now["moves"])
    hole, twist = text.split()
    if now["phase"] != "twist":  # else placed already (before a power cut): only the twist is left
        api("/api/board/place", {"hole": hole})
    api("/api/board/quarter", {"block": int(twist[0]), "clockwise": twist[1] == "R"})
    return until(lambda s: len(s["moves"]) > before, f"move {text}")


# The classic game's seats as the state's board draws them, and their marbles' colours.
SEAT_MARBLES = {"x": "white", "o": "black"}


def restore():
    """What a player finds after a power cut is the board as it was: the virtual board's
    marbles live in the daemon's memory and are gone, so they are put back where the game has
    them (anything else on the board is lifted), until the daemon leaves its repair mode."""
    now = until(lambda s: "board" in s, "console")
    rows = len(now["board"])
    for r, (want, have) in enumerate(zip(now["board"], now["physical"])):
        for c, (a, b) in enumerate(zip(want, have)):
            hole = f"{COLUMNS[c]}{rows - r}"
            if b != "." and a != b:
                api("/api/board/lift", {"hole": hole})
            if a != "." and a != b:
                api("/api/board/place", {"hole": hole, "colour": SEAT_MARBLES[a]})
    return until(lambda s: s["state"] != "repair", "board repaired")


def main(argv):
    if argv[:1] == ["state"]:
        print(json.dumps(state()))
        return
    if argv[:1] == ["ready"]:
        now = until(lambda s: "moves" in s, "console")
    elif argv[:1] == ["restore"]:
        now = restore()
    elif argv[:1] == ["new"]:
        api("/api/command", {"name": "new_game", "args": {"game": "classic"}})
        now = until(lambda s: s["state"] == "awaiting_placement" and s["moves"] == [], "new game")
    elif argv[:1] == ["move"] and len(argv) == 2:
        now = move(argv[1])
    elif argv[:1] == ["place"] and len(argv) == 2:
        api("/api/board/place", {"hole": argv[1]})
        now = state()
    else:
        sys.exit(__doc__)
    print(json.dumps(now["moves"]))


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except urllib.error.HTTPError as error:  # the daemon's own words on what it refused
        sys.exit(f"guest_play: {error.url}: {error.code} {error.read().decode(errors='replace')}")
