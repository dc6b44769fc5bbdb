"""`pentago-board calibrate`: record every Hall sensor's rest level with the board empty.

Asks the board's Pico (Build B) for an empty-board calibration and prints, per hole, the rest
level it measured (read_u16 counts), the noise (peak to peak) and the margins: how far the noisy
rest level stays inside the empty band, and how far it is from the north and south marble
bands. The Pico keeps the calibration on flash; it refuses (and keeps the old one) when a hole
reads far from mid-scale (a marble left on the board, a sensor fault) or noisier than the empty
band. Stop the daemon first: it holds the port.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import LinkError, PentagoError
from ..rules import geometry, hole_name
from .firmware import DEFAULT_PORT, McuClient

TIMEOUT_S = 10.0   # 32 scans take a third of a second; the rest is slack for a busy USB bus


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("calibrate", help="record the Hall sensors' rest levels (board empty)",
                                   description=__doc__.split("\n\n")[1])
    parser.add_argument("--port", default=DEFAULT_PORT, help=f"the Pico's serial port ({DEFAULT_PORT})")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        report = calibrate(args.port)
    except PentagoError as error:
        print(f"pentago-board calibrate: {error}", file=sys.stderr)
        return 1
    print(format_report(report))
    if not report["ok"]:
        print(f"pentago-board calibrate: the Pico refused the calibration ({count_bad(report)} "
              f"holes out of range) and keeps its previous one: empty the board and run it again",
              file=sys.stderr)
        return 1
    return 0


def calibrate(port: str) -> dict[str, Any]:
    """Run a calibration; returns {"size", "bands", "holes": [{n, baseline, noise}], "ok"}."""
    from pentago_firmware import calreport, wire
    lines: list[tuple[str, dict[str, int]]] = []

    def collect(name: str, fields: dict[str, Any]) -> None:
        if name == "log":
            parsed = calreport.parse(fields["text"])
            if parsed:
                lines.append(parsed)

    with McuClient(port) as mcu:
        hello = mcu.connect(5.0)
        seq = mcu.request(wire.CALIBRATE, {"kind": wire.CALIBRATE_EMPTY})
        _, ack = mcu.wait(lambda name, f: name == "ack" and f["ref_seq"] == seq, TIMEOUT_S, collect)
    bands = [fields for kind, fields in lines if kind == "bands"]
    holes = [fields for kind, fields in lines if kind == "hole"]
    if ack["status"] not in (wire.OK, wire.FAILED) or not bands or len(holes) != hello["size"] ** 2:
        status = wire.STATUS_NAMES[ack["status"]] if ack["status"] < len(wire.STATUS_NAMES) else ack["status"]
        raise LinkError(f"the Pico on {port} answered the calibration with {status!r} and "
                        f"{len(holes)} of {hello['size'] ** 2} hole reports")
    return {"size": hello["size"], "bands": bands[-1], "holes": holes, "ok": ack["status"] == wire.OK}


def margins(hole: dict[str, int], bands: dict[str, int]) -> tuple[int, int, int]:
    """(inside the empty band, to the north band, to the south band), all in counts, from the
    rest level widened by half the noise."""
    half = (hole["noise"] + 1) // 2
    return bands["empty"] - half, bands["north"] - half, -bands["south"] - half


def format_report(report: dict[str, Any]) -> str:
    from pentago_firmware import calreport
    bands, g = report["bands"], geometry(report["size"])
    rows = [f"bands: empty +-{bands['empty']}, north >= +{bands['north']}, south <= {bands['south']} "
            f"(counts from the rest level; hysteresis {bands['hysteresis']})",
            f"{'hole':<5}{'rest':>7}{'noise':>7}{'empty':>7}{'north':>7}{'south':>7}  verdict"]
    for hole in report["holes"]:
        empty, north, south = margins(hole, bands)
        problem = calreport.problems(hole["baseline"], hole["noise"], bands["empty"])
        rows.append(f"{hole_name(hole['n'], g):<5}{hole['baseline']:>7}{hole['noise']:>7}"
                    f"{empty:>7}{north:>7}{south:>7}  {problem or 'ok'}")
    return "\n".join(rows)


def count_bad(report: dict[str, Any]) -> int:
    from pentago_firmware import calreport
    return sum(bool(calreport.problems(h["baseline"], h["noise"], report["bands"]["empty"]))
               for h in report["holes"])
