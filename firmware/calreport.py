"""The calibration report: log lines the firmware sends after a calibration, and their parser.

The protocol's ``calibrate`` request is answered by an ack; the per-hole results travel before it
as ``log`` messages in this format, written here once and read by `pentago-board calibrate`
on the Pi (``from pentago_firmware import calreport``)::

    cal bands empty=1500 north=5000 south=-5000 hysteresis=500
    cal hole n=0 baseline=32790 noise=112
    ...

Example::

    format_hole(3, 32790, 112)            # 'cal hole n=3 baseline=32790 noise=112'
    parse("cal hole n=3 baseline=32790 noise=112")
    # ('hole', {'n': 3, 'baseline': 32790, 'noise': 112})
"""

PREFIX = "cal "
KINDS = ("bands", "hole")
# A DRV5055 at rest outputs about VCC/2 (read_u16 32768). A baseline further off than this is a
# marble left on the board (its magnet moves the output by 5000+ counts, see classify.py) or a
# sensor fault (open input, short): the calibration is refused rather than learnt.
REST_COUNTS = 32768
REST_TOLERANCE_COUNTS = 4000


def format_bands(empty, north, south, hysteresis):
    return "cal bands empty=%d north=%d south=%d hysteresis=%d" % (empty, north, south, hysteresis)


def format_hole(hole, baseline, noise):
    return "cal hole n=%d baseline=%d noise=%d" % (hole, baseline, noise)


def parse(text):
    """``(kind, fields)`` of a calibration line, or None for any other log text.

    A line that starts like one but does not parse raises ValueError quoting it."""
    if not text.startswith(PREFIX):
        return None
    words = text[len(PREFIX):].split()
    if not words or words[0] not in KINDS:
        raise ValueError("unknown calibration line %r" % (text,))
    fields = {}
    try:
        for pair in words[1:]:
            key, value = pair.split("=")
            fields[key] = int(value)
    except ValueError:
        raise ValueError("malformed calibration line %r" % (text,))
    return words[0], fields


def problems(baseline, noise, empty_max):
    """Why a hole's calibration is not trustworthy, as text ('' when it is fine)."""
    if abs(baseline - REST_COUNTS) > REST_TOLERANCE_COUNTS:
        return "rest level %d is far from mid-scale: marble left on it, or sensor fault" % baseline
    if noise > empty_max:
        return "noise %d exceeds the empty band %d: something moved, or a noisy sensor" % (
            noise, empty_max)
    return ""
