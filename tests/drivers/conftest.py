"""Fixtures for the driver tests: a fresh gpiozero MockFactory per test, a fake clock, a machine that is no Pi."""

from __future__ import annotations

import sys

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from .rigs import FakeClock


@pytest.fixture
def mock_factory():
    """A MockFactory passed explicitly to drivers (never left as the global default)."""
    factory = MockFactory()
    yield factory
    factory.reset()
    factory.close()


@pytest.fixture(autouse=True)
def no_global_pin_factory():
    """Each test starts and ends with gpiozero's global pin factory unset."""
    Device.pin_factory = None
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.close()
    Device.pin_factory = None


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def no_pi(monkeypatch):
    """A machine that is no Pi, whatever machine the tests run on: no Pi's GPIO chip, no pin
    library for gpiozero to find, no NeoPixel library."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr("controller.drivers.gpio.cdev.pi_bank", lambda dev=None: None)
    for module in ("lgpio", "RPi", "pigpio", "neopixel", "neopixel_spi"):
        monkeypatch.setitem(sys.modules, module, None)
