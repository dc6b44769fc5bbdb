"""Portable test table: hal.py on the ``machine`` stand-in (shim/machine.py): pins, ADC, IRQs,
USB reads that stop at mpremote's knock, reset causes, a restart's reason kept over the reset."""

import boardconfig
import machine
import micropython
import wire

if not hasattr(micropython, "kbd_intr"):
    # CPython: the only `micropython` around is Adafruit Blinka's decorator module.
    micropython.kbd_intr = lambda char: None

from hal import MachineIO  # noqa: E402  (needs kbd_intr above)


class FakeStream:
    def __init__(self, data=b""):
        self.data = data
        self.written = b""

    def read(self, n):
        out, self.data = self.data[:n], self.data[n:]
        return out

    def write(self, data):
        self.written += data


class FakeUsb:
    def __init__(self, data=b""):
        self.stdin = FakeStream(data)
        self.stdout = FakeStream()

    def ready(self):
        return bool(self.stdin.data)


def make(data=b""):
    config = boardconfig.parse(boardconfig.default(6))
    return config, MachineIO(config, FakeUsb(data))


def test_select_lines_and_adc_inputs_follow_the_config():
    config, io = make()
    setters = io.select_setters()
    assert len(setters) == 4
    setters[2](1)
    assert machine.Pin.made[20].level == 1 and machine.Pin.made[20].mode == machine.Pin.OUT
    machine.ADC.levels[27] = 40000
    assert io.adc_readers()[1]() == 40000


def test_encoder_pins_pull_up_and_hard_irq_on_both_edges():
    config, io = make()
    pins = io.encoder_pins()
    assert len(pins) == 4
    a, b = pins[3]
    assert (a.ident, b.ident) == tuple(config.encoders[3]) and a.pull == machine.Pin.PULL_UP
    calls = []
    io.irq_both_edges(a, calls.append)
    assert a.hard and a.trigger == machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING
    a.handler(a)
    assert calls == [a]


def test_read_stops_right_after_the_knock():
    config, io = make(b"\r\x03\r\x01")
    assert io.read() == b"\r\x03"
    assert io.usb.stdin.data == b"\r\x01"    # left for the REPL
    assert io.read() == b"\r\x01"
    assert io.read() == b""


def test_write_goes_to_usb_unchanged():
    config, io = make()
    io.write(b"\x00\x0a\n\x00")
    assert io.usb.stdout.written == b"\x00\x0a\n\x00"


def test_reset_causes_map_to_the_hello_codes():
    config, io = make()
    for cause, code in ((machine.PWRON_RESET, wire.RESET_POWER_ON),
                        (machine.WDT_RESET, wire.RESET_WATCHDOG), (99, wire.RESET_UNKNOWN)):
        machine.CAUSE = cause
        assert io.reset_cause() == code
    machine.CAUSE = machine.PWRON_RESET


def test_boot_ids_differ():
    config, io = make()
    assert io.boot_id() != io.boot_id()


def test_a_restart_leaves_its_reason_for_the_next_boot_once():
    config, io = make()
    assert io.restarted_because() is None            # a power-on leaves nothing
    resets = machine.RESETS[0]
    io.restart("the heap was full")
    assert machine.RESETS[0] == resets + 1
    after = MachineIO(config, FakeUsb())              # the next boot reads it, and only once
    assert after.restarted_because() == "the heap was full"
    assert after.restarted_because() is None
