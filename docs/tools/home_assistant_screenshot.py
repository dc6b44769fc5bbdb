"""Check a board in a real Home Assistant and take docs/home-assistant.png. Not run by CI.

What it does, all on 127.0.0.1: installs Home Assistant in a throwaway venv outside the repo,
starts a Mosquitto broker on a free port, starts Home Assistant on a fresh config folder,
onboards an owner through the onboarding REST API and adds the MQTT integration through the
config-flow API, starts ``pentago-board run`` on a virtual board publishing to the broker,
starts a classic game (Ann and Bo) and plays two moves through the web console's API, waits
until Home Assistant shows them, screenshots the board's device page in Debian's Chromium, then
presses the device's "New game" button through Home Assistant's ``button.press`` service and
checks that the board started a new game (the command path end to end), presses "Hint" and
shows the board's answer, and stops the board to see Home Assistant show it unavailable.
Finally it prints the MQTT integration's repair issues and every warning or error Home Assistant
logged about MQTT or the board, which must be none.

Needs: Debian's ``mosquitto`` and ``chromium``, the project's venv (playwright), PyPI, and a
Python the chosen Home Assistant runs on, given with ``--python``: the default, 2025.4.4, is the
newest for Python 3.13.0 (later ones want 3.13.2); Debian 12's Python 3.11 runs at most
2024.3.3 (``--ha-version 2024.3.3``, whose venv also needs ``pip install 'josepy<2'``: josepy 2
breaks the import of its cloud client, and with it every HTTP request). It installs
homeassistant and its dependencies (about 850 MB) into ``<work>/venv``, and at its first start
Home Assistant installs the frontend and the MQTT client (paho-mqtt) there itself. On this
2-core machine the install took 3.5 minutes and each run after it about 30 seconds.
Home Assistant is onboarded with every step but the owner marked done, so it sets up none of
its default integrations (weather, internet radio) that would reach out to the internet.

    .venv/bin/python docs/tools/home_assistant_screenshot.py --python ~/.pyenv/versions/3.13.0/bin/python
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
HA_VERSION = "2025.4.4"
BOARD = "table-3"
NODE = f"pentago_board_{BOARD.replace('-', '_')}"  # how Home Assistant names the device's entities
CHROMIUM = "/usr/bin/chromium"  # Debian's: Playwright never downloads a browser here
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
OWNER = {"name": "Owner", "username": "owner", "password": "pentago-check", "language": "en"}
MOVES = (("b5", 4, True), ("e2", 1, False))  # hole, block, clockwise: "b5 4R", "e2 1L"
CLIP: Any = {"x": 0, "y": 0, "width": 945, "height": 728}  # the device's cards; the third column is empty
SHOT = ROOT / "docs" / "home-assistant.png"
CONFIGURATION = """\
homeassistant:
  name: Home
  time_zone: UTC
  country: GB
  unit_system: metric
frontend:
logger:
  default: warning
http:
  server_host: 127.0.0.1
  server_port: {port}
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="the Python to run Home Assistant")
    parser.add_argument("--ha-version", default=HA_VERSION)
    parser.add_argument("--work", type=Path, default=Path("/tmp/ha-check"), help="venv, configs, logs")
    parser.add_argument("--out", type=Path, default=SHOT)
    args = parser.parse_args()
    work: Path = args.work
    venv = install(work / "venv", args.python, args.ha_version)
    with ExitStack() as running:  # every process started is stopped, the last first
        broker = start_broker(work, running)
        ha = start_home_assistant(venv, work / "config", running)
        token = onboard(ha)
        add_mqtt(ha, token, broker)
        board, board_proc = start_board(work, broker, running)
        play(board)
        sensors = wait_for_entities(ha, token)
        screenshot(ha, token, device_id(ha, token), args.out)
        print(f"entities: {json.dumps(sensors, indent=1)}")
        press_new_game(ha, token, board)
        press_hint(ha, token, work)
        stop_board(ha, token, board_proc)
        issues = [issue for issue in repair_issues(ha, token) if "mqtt" in (issue["domain"], issue["issue_domain"])]
        print(f"MQTT's repair issues: {json.dumps(issues)}")
        return report_log(work / "config" / "home-assistant.log") or bool(issues)


# -- the pieces ------------------------------------------------------------------------------------

def install(venv: Path, python: str, version: str) -> Path:
    hass = venv / "bin" / "hass"
    if not hass.exists():
        step(f"installing homeassistant=={version} into {venv} (several minutes)")
        subprocess.run([python, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", f"homeassistant=={version}"], check=True)
    return venv


def start(running: ExitStack, command: list[str], log: Path, **popen: Any) -> subprocess.Popen[bytes]:
    """Start ``command`` with its output in ``log``; ``running`` stops it."""
    out = running.enter_context(open(log, "wb"))  # noqa: SIM115 (the ExitStack closes it)
    proc = subprocess.Popen(command, stdout=out, stderr=out, **popen)
    running.callback(stop, proc)
    return proc


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    proc.wait(30)


def start_broker(work: Path, running: ExitStack) -> int:
    port = free_port()
    conf = work / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    start(running, [mosquitto, "-c", str(conf)], work / "mosquitto.log")
    wait_for(lambda: port_open(port), "mosquitto listening", 10)
    step(f"mosquitto on 127.0.0.1:{port}")
    return port


def start_home_assistant(venv: Path, config: Path, running: ExitStack) -> str:
    shutil.rmtree(config, ignore_errors=True)  # a fresh install: onboarding, no old entities
    config.mkdir(parents=True)
    port = free_port()
    (config / "configuration.yaml").write_text(CONFIGURATION.format(port=port))
    # Every onboarding step but the owner is marked done: the core_config step would also set up
    # the default integrations, which reach out to the internet.
    (config / ".storage").mkdir()
    (config / ".storage" / "onboarding").write_text(json.dumps(
        {"version": 4, "minor_version": 1, "key": "onboarding",
         "data": {"done": ["core_config", "analytics", "integration"]}}))
    step(f"starting Home Assistant on 127.0.0.1:{port} (its first start installs the frontend)")
    start(running, [str(venv / "bin" / "hass"), "-c", str(config)], config.parent / "hass.out")
    url = f"http://127.0.0.1:{port}"
    wait_for(lambda: http(f"{url}/api/onboarding")[0] == 200, "Home Assistant's onboarding API", 900)
    return url


def onboard(ha: str) -> str:
    """The owner through the onboarding API, and a token for them."""
    client_id = f"{ha}/"
    code, answer = http(f"{ha}/api/onboarding/users", {"client_id": client_id, **OWNER})
    assert code == 200, (code, answer)
    form = {"grant_type": "authorization_code", "code": answer["auth_code"], "client_id": client_id}
    code, tokens = http(f"{ha}/auth/token", form=form)
    assert code == 200, (code, tokens)
    step("onboarded the owner")
    return str(tokens["access_token"])


def add_mqtt(ha: str, token: str, broker: int) -> None:
    code, flow = http(f"{ha}/api/config/config_entries/flow", {"handler": "mqtt"}, token)
    assert code == 200 and flow.get("step_id") == "broker", (code, flow)
    code, done = http(f"{ha}/api/config/config_entries/flow/{flow['flow_id']}",
                      {"broker": "127.0.0.1", "port": broker}, token)
    assert code == 200 and done.get("type") == "create_entry", (code, done)
    step("added the MQTT integration (discovery on, prefix homeassistant)")


def start_board(work: Path, broker: int, running: ExitStack) -> tuple[str, subprocess.Popen[bytes]]:
    port = free_port()
    config = work / "board.toml"
    config.write_text(f'profile = "virtual-6x6"\n[storage]\njournal = "{work / "journal.jsonl"}"\n'
                      f'[web]\nenabled = true\nport = {port}\n'
                      f'[mqtt]\nenabled = true\nport = {broker}\nboard = "{BOARD}"\n')
    (work / "journal.jsonl").unlink(missing_ok=True)
    proc = start(running, [sys.executable, "-m", "controller", "run", "--config", str(config)], work / "board.log",
                 cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    wait_for(lambda: http(f"{url}/api/state")[0] == 200, "the board's web console", 30)
    step(f"board {BOARD} on {url}")
    return url, proc


def play(board: str) -> None:
    code, answer = http(f"{board}/api/command", {"name": "new_game", "args": {"game": "classic",
                                                                              "names": ["Ann", "Bo"]}})
    assert code in (200, 202), answer
    wait_for(lambda: board_state(board)["state"] == "awaiting_placement", "the game", 10)
    for number, (hole, block, clockwise) in enumerate(MOVES, 1):
        assert http(f"{board}/api/board/place", {"hole": hole})[0] == 200
        wait_for(lambda: board_state(board)["state"] == "awaiting_twist", "the placement", 10)
        assert http(f"{board}/api/board/quarter", {"block": block, "clockwise": clockwise})[0] == 200
        wait_for(moves_made(board, number), f"move {number}", 10)
    step(f"played {board_state(board)['moves']}")


def moves_made(board: str, count: int) -> Callable[[], bool]:
    return lambda: len(board_state(board)["moves"]) == count


def wait_for_entities(ha: str, token: str) -> dict[str, str]:
    """The device's entities and their states, once Home Assistant shows the second move."""
    def found() -> dict[str, str]:
        states: list[dict[str, str]] = http(f"{ha}/api/states", token=token)[1]
        mine = {s["entity_id"]: s["state"] for s in states if NODE in s["entity_id"]}
        return mine if "e2 1L" in mine.values() else {}
    return wait_for(found, "the board's entities in Home Assistant", 60)


def device_id(ha: str, token: str) -> str:
    sensor = f"sensor.{NODE}_state"
    code, answer = http(f"{ha}/api/template", {"template": f"{{{{ device_id('{sensor}') }}}}"}, token, raw=True)
    assert code == 200 and answer and answer != "None", (code, answer)
    return str(answer).strip()


def screenshot(ha: str, token: str, device: str, out: Path) -> None:
    from playwright.sync_api import sync_playwright

    tokens = {"access_token": token, "token_type": "Bearer", "expires_in": 1800, "hassUrl": ha,
              "clientId": f"{ha}/", "expires": int(time.time() * 1000) + 1_800_000, "refresh_token": ""}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        # Only this machine: the frontend would fetch the integrations' logos from the internet.
        page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(ha)
                   else route.abort())
        page.add_init_script(f"localStorage.setItem('hassTokens', {json.dumps(json.dumps(tokens))});")
        page.goto(f"{ha}/config/devices/device/{device}")
        page.get_by_text("e2 1L").first.wait_for(timeout=60_000)
        page.wait_for_timeout(2000)  # the icons and cards settle
        page.screenshot(path=str(out), clip=CLIP)
        browser.close()
    step(f"screenshot {out} ({out.stat().st_size // 1024} KB)")


def press_new_game(ha: str, token: str, board: str) -> None:
    """Press "New game" in Home Assistant: the board starts a new game and, its marbles still on
    the holes, asks for them to be taken off (repair mode); cleared, it waits for the first move
    (the button starts the config's game, so the seats have their default names)."""
    code, answer = http(f"{ha}/api/services/button/press", {"entity_id": f"button.{NODE}_new_game"}, token)
    assert code == 200, (code, answer)
    wait_for(lambda: not board_state(board)["moves"], "the new game pressed in Home Assistant", 15)
    assert http(f"{board}/api/board/clear", {})[0] == 200
    wait_for(lambda: board_state(board)["state"] == "awaiting_placement", "the cleared board", 15)
    wait_for(lambda: entity(ha, token, "sensor", "last_move") == ""
             and entity(ha, token, "sensor", "state").endswith("to place a marble"), "Home Assistant showing the new game", 15)
    step("pressed New game in Home Assistant: the board started a new game, and Home Assistant shows it")


def press_hint(ha: str, token: str, work: Path) -> None:
    """Press "Hint" in Home Assistant: the board takes the command and says what it does."""
    code, answer = http(f"{ha}/api/services/button/press", {"entity_id": f"button.{NODE}_hint"}, token)
    assert code == 200, (code, answer)
    log = work / "board.log"
    said = wait_for(lambda: [line for line in log.read_text().splitlines() if 'text="hint' in line],
                    "the board's answer to the hint", 15)
    step(f"pressed Hint in Home Assistant: {said[-1].split('msg=', 1)[-1]}")


def stop_board(ha: str, token: str, board: subprocess.Popen[bytes]) -> None:
    """A board that stops says offline: Home Assistant shows its entities unavailable."""
    board.terminate()
    board.wait(15)
    wait_for(lambda: entity(ha, token, "sensor", "state") == "unavailable", "the board shown unavailable", 15)
    step("stopped the board: Home Assistant shows it unavailable")


def repair_issues(ha: str, token: str) -> list[dict[str, Any]]:
    """Home Assistant's open repair issues (where it reports deprecated discovery options)."""
    import asyncio

    import aiohttp

    async def ask() -> list[dict[str, Any]]:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{ha}/api/websocket") as ws:
            await ws.receive_json()  # auth_required
            await ws.send_json({"type": "auth", "access_token": token})
            assert (await ws.receive_json())["type"] == "auth_ok"
            await ws.send_json({"id": 1, "type": "repairs/list_issues"})
            issues: list[dict[str, Any]] = (await ws.receive_json())["result"]["issues"]
            return issues
    return asyncio.run(ask())


def report_log(log: Path) -> int:
    lines = [line for line in log.read_text().splitlines()
             if ("WARNING" in line or "ERROR" in line) and ("mqtt" in line or "pentago" in line)]
    print("\n".join(lines) or "Home Assistant logged no warning or error about MQTT or the board")
    return 1 if lines else 0


# -- helpers ---------------------------------------------------------------------------------------

def entity(ha: str, token: str, domain: str, object_id: str) -> str | None:
    code, answer = http(f"{ha}/api/states/{domain}.{NODE}_{object_id}", token=token)
    return answer["state"] if code == 200 else None


def board_state(board: str) -> dict[str, Any]:
    state: dict[str, Any] = http(f"{board}/api/state")[1]["state"]
    return state


def http(url: str, body: dict[str, Any] | None = None, token: str | None = None, *,
         form: dict[str, str] | None = None, raw: bool = False) -> tuple[int, Any]:
    data = None
    request = urllib.request.Request(url)
    if body is not None:
        data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    elif form is not None:
        data = urllib.parse.urlencode(form).encode()
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, data, timeout=30) as response:
            text = response.read().decode()
            return response.status, text if raw else json.loads(text or "null")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except (OSError, ValueError) as error:
        return 0, str(error)


def wait_for(found: Callable[[], T], what: str, timeout_s: float) -> T:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        got = found()
        if got:
            return got
        time.sleep(0.5)
    raise SystemExit(f"gave up waiting for {what} after {timeout_s:.0f} s")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def port_open(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def step(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
