"""Frame processing and the NeoPixel output, on a PixelBuf that captures the wire bytes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.drivers.neopixel import NeoPixelOutput, open_strip
from controller.drivers.pixels import FrameError, FrameProcessor
from controller.profile import load_profile

from .rigs import CapturingStrip

LINEAR = dict(gamma=1.0)


def test_brightness_cap_scales_every_channel():
    p = FrameProcessor(length=1, brightness_cap=0.5, **LINEAR)
    assert p.process([(255, 100, 0)]) == ((128, 50, 0),)


def test_gamma_darkens_the_middle_and_keeps_the_ends():
    p = FrameProcessor(length=3, gamma=2.2)
    low, mid, full = p.process([(0, 0, 0), (128, 128, 128), (255, 255, 255)])
    assert low == (0, 0, 0) and full == (255, 255, 255)
    assert mid[0] == round(255 * (128 / 255) ** 2.2) == 56


def test_cap_applies_before_gamma():
    p = FrameProcessor(length=1, brightness_cap=0.5, gamma=2.0)
    assert p.process([(255, 0, 0)]) == ((round(255 * 0.25), 0, 0),)


def test_current_budget_scales_the_whole_frame_and_keeps_hues():
    p = FrameProcessor(length=10, current_budget_ma=300, ma_per_channel=20, **LINEAR)
    frame = [(255, 255, 255)] * 5 + [(255, 0, 0)] * 5  # 20 channels at full: 400 mA
    out = p.process(frame)
    assert p.draw_ma(out) <= 300
    assert out[0] == (191, 191, 191) and out[9] == (191, 0, 0)


def test_a_frame_within_budget_is_untouched():
    p = FrameProcessor(length=2, current_budget_ma=100, ma_per_channel=20, **LINEAR)
    assert p.process([(255, 0, 0), (0, 255, 0)]) == ((255, 0, 0), (0, 255, 0))


frames = st.lists(st.tuples(*[st.integers(0, 255)] * 3), min_size=8, max_size=8)


@given(frames, st.floats(0.05, 1.0), st.integers(1, 2000))
def test_processed_frames_never_exceed_the_cap_or_the_budget(frame, cap, budget):
    p = FrameProcessor(length=8, brightness_cap=cap, current_budget_ma=budget, ma_per_channel=20)
    out = p.process(frame)
    assert p.draw_ma(out) <= budget + 1e-9
    top = round(255 * cap**p.gamma)
    assert all(0 <= v <= top for pixel in out for v in pixel)


@pytest.mark.parametrize("frame, message", [
    ([(0, 0, 0)], "frame has 1 pixels, the LED chain has 2"),
    ([(0, 0, 0), (0, 256, 0)], r"pixel 1 is \(0, 256, 0\), expected \(r, g, b\) with each 0-255"),
    ([(0, 0, 0), (0, 0)], r"pixel 1 is \(0, 0\)"),
    ([(0.5, 0, 0), (0, 0, 0)], r"pixel 0 is \(0.5, 0, 0\)"),
])
def test_bad_frames_say_which_pixel_is_wrong(frame, message):
    with pytest.raises(FrameError, match=message):
        FrameProcessor(length=2).process(frame)


def test_settings_out_of_range_are_refused():
    with pytest.raises(FrameError, match="brightness_cap 1.5 is not between 0 and 1"):
        FrameProcessor(length=1, brightness_cap=1.5)
    with pytest.raises(FrameError, match="current_budget_ma 0 must be positive"):
        FrameProcessor(length=1, current_budget_ma=0)


def test_processor_from_a_profile_chain():
    leds = load_profile("A-6x6").leds
    p = FrameProcessor.from_chain(leds)
    assert (p.length, p.brightness_cap, p.current_budget_ma) == (leds.length, 0.3, 1500)


# -- the NeoPixel output ----------------------------------------------------------------------

def output(n: int = 3, order: str = "GRB", **settings) -> tuple[NeoPixelOutput, CapturingStrip]:
    strip = CapturingStrip(n, order)
    return NeoPixelOutput(strip, FrameProcessor(length=n, **{**LINEAR, **settings})), strip


def test_chain_order_and_byte_order_reach_the_wire():
    out, strip = output(3, "GRB")
    out.show([(10, 20, 30), (1, 2, 3), (0, 0, 255)])
    assert strip.sent == [bytes([20, 10, 30, 2, 1, 3, 0, 0, 255])]


def test_rgb_strips_get_rgb_bytes():
    out, strip = output(1, "RGB")
    out.show([(10, 20, 30)])
    assert strip.sent == [bytes([10, 20, 30])]


def test_brightness_and_budget_are_applied_before_sending():
    out, strip = output(2, brightness_cap=0.5, current_budget_ma=10, ma_per_channel=20)
    out.show([(255, 0, 0), (0, 0, 0)])  # capped to 128 = 10.04 mA > 10 mA
    (sent,) = strip.sent
    assert sent == bytes([0, 127, 0, 0, 0, 0])


def test_an_unchanged_frame_is_not_sent_again():
    out, strip = output(2)
    out.show([(1, 2, 3), (4, 5, 6)])
    out.show([(1, 2, 3), (4, 5, 6)])
    out.show([(1, 2, 3), (4, 5, 7)])
    assert len(strip.sent) == 2


def test_frames_that_process_to_the_same_bytes_are_not_resent():
    out, strip = output(1, gamma=2.2, brightness_cap=0.3)
    out.show([(1, 0, 0)])  # both round to 0 after cap and gamma
    out.show([(2, 0, 0)])
    assert len(strip.sent) == 1


def test_close_turns_the_chain_off_and_releases_it():
    out, strip = output(2)
    out.show([(9, 9, 9), (9, 9, 9)])
    out.close()
    assert strip.sent[-1] == bytes(6) and strip.deinited


def test_a_bad_frame_sends_nothing():
    out, strip = output(2)
    with pytest.raises(FrameError):
        out.show([(0, 0, 0)])
    assert strip.sent == []


def test_open_strip_refuses_an_unknown_driver():
    leds = load_profile("virtual-6x6").leds
    with pytest.raises(ValueError, match="LED driver 'virtual' is not 'pwm' or 'spi'"):
        open_strip(leds)
