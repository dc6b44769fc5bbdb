#!/usr/bin/python3
"""Plays the virtual board of the daemon running in the VM through its web console's API
(standard library only: it runs on the guest's own Python).

    guest_play.py state            print the console's state message (JSON)
    guest_play.py new              start a classic game and wait for its first placement
    guest_play.py move "b5 4R"     place, twist, and wait until the move is accepted
    guest_play.py place b5         place a marble, and return at once
    guest_play.py ready            wait until the console answers

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
    before = len(state()["moves"])
    hole, twist = text.split()
    api("/api/board/place", {"hole": hole})
    api("/api/board/quarter", {"block": int(twist[0]), "clockwise": twist[1] == "R"})
    return until(lambda s: len(s["moves"]) > before, f"move {text}")


def main(argv):
    if argv[:1] == ["state"]:
        print(json.dumps(state()))
        return
    if argv[:1] == ["ready"]:
        now = until(lambda s: "moves" in s, "console")
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
    main(sys.argv[1:])
