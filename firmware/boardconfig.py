"""The board config on flash (board.json): size, pins, and which mux channel is which hole.

One firmware serves both boards; this file says which one it is on. Fields::

    size               6 or 9 (holes per side)
    select_pins        GPIO numbers of the mux select lines, S0 first (4 for 6x6, 5 for 9x9)
    adc_pins           GPIO numbers of the ADC inputs, one per mux (chain), e.g. [26, 27, 28]
    channels           per ADC input, a list of 2**len(select_pins) hole indices (null = unused)
    encoders           per block in reading order, [pin_a, pin_b]
    counts_per_detent  quadrature counts per detent of the encoders (usually 4)

Holes are ``row * size + column`` with a1 = 0, as on the Pi. Every hole must appear exactly once.
``parse`` raises ValueError naming the field and value that are wrong.

Example::

    config = load("board.json")
    config.size, config.hole_count     # (6, 36)
"""

import json

from mux import gray


class BoardConfig:
    """A validated board.json; ``scan_plan`` lists (address, adc, hole) in scan order."""

    def __init__(self, size, select_pins, adc_pins, channels, encoders, counts_per_detent):
        self.size = size
        self.hole_count = size * size
        self.select_pins = select_pins
        self.adc_pins = adc_pins
        self.channels = channels
        self.encoders = encoders
        self.counts_per_detent = counts_per_detent


def _need(data, key, kind):
    if key not in data:
        raise ValueError("board config: missing %r" % key)
    value = data[key]
    if not isinstance(value, kind):
        raise ValueError("board config: %r must be a %s, got %r" % (key, kind.__name__, value))
    return value


def _check_channels(size, select_pins, adc_pins, channels):
    if len(channels) != len(adc_pins):
        raise ValueError("board config: 'channels' has %d lists for %d adc_pins"
                         % (len(channels), len(adc_pins)))
    seen = {}
    width = 1 << len(select_pins)
    for adc, holes in enumerate(channels):
        if len(holes) != width:
            raise ValueError("board config: channels[%d] has %d entries, %d select pins need %d"
                             % (adc, len(holes), len(select_pins), width))
        for address, hole in enumerate(holes):
            if hole is None:
                continue
            if not isinstance(hole, int) or not 0 <= hole < size * size:
                raise ValueError("board config: channels[%d][%d] = %r is not a hole of a %dx%d "
                                 "board" % (adc, address, hole, size, size))
            if hole in seen:
                raise ValueError("board config: hole %d is on channels%s and channels[%d][%d]"
                                 % (hole, seen[hole], adc, address))
            seen[hole] = "[%d][%d]" % (adc, address)
    if len(seen) != size * size:
        missing = [h for h in range(size * size) if h not in seen]
        raise ValueError("board config: holes %r have no mux channel" % (missing[:8],))


def _check_encoders(size, encoders):
    blocks = (size // 3) ** 2
    if len(encoders) != blocks:
        raise ValueError("board config: %d encoders for %d blocks" % (len(encoders), blocks))
    for block, pins in enumerate(encoders, 1):
        if not isinstance(pins, list) or len(pins) != 2:
            raise ValueError("board config: encoder of block %d must be [pin_a, pin_b], got %r"
                             % (block, pins))


def parse(data):
    """A BoardConfig from decoded JSON; ValueError names what is wrong."""
    if not isinstance(data, dict):
        raise ValueError("board config must be a JSON object, got %r" % (data,))
    size = _need(data, "size", int)
    if size not in (6, 9):
        raise ValueError("board config: size must be 6 or 9, got %r" % (size,))
    select_pins = _need(data, "select_pins", list)
    adc_pins = _need(data, "adc_pins", list)
    channels = _need(data, "channels", list)
    encoders = _need(data, "encoders", list)
    cpd = data.get("counts_per_detent", 4)
    if not isinstance(cpd, int) or cpd < 1:
        raise ValueError("board config: counts_per_detent must be a positive int, got %r" % (cpd,))
    _check_channels(size, select_pins, adc_pins, channels)
    _check_encoders(size, encoders)
    return BoardConfig(size, select_pins, adc_pins, channels, encoders, cpd)


def load(path):
    """Read and validate the board config file."""
    with open(path) as f:
        text = f.read()
    try:
        data = json.loads(text)
    except ValueError:
        raise ValueError("board config %s is not valid JSON" % path)
    return parse(data)


def default(size):
    """The reference wiring of Build B for a ``size`` board (what board-6/9.json hold)."""
    if size == 6:
        select_pins, encoder_base = [18, 19, 20, 21], 8
    else:
        select_pins, encoder_base = [18, 19, 20, 21, 22], 0
    adcs = 3
    width = 1 << len(select_pins)
    channels = [[None] * width for _ in range(adcs)]
    # Holes go to addresses in Gray order so a scan uses a run of the Gray sequence.
    for hole in range(size * size):
        channels[hole % adcs][gray(hole // adcs)] = hole
    blocks = (size // 3) ** 2
    encoders = [[encoder_base + 2 * b, encoder_base + 2 * b + 1] for b in range(blocks)]
    return {"size": size, "select_pins": select_pins, "adc_pins": [26, 27, 28],
            "channels": channels, "encoders": encoders, "counts_per_detent": 4}
