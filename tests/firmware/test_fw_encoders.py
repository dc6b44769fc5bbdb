"""Portable test table: quadrature decoding with bounce and missed edges, detent steps, and the
"block is turning" flag."""

from encoders import Encoders

CW = ((1, 0), (1, 1), (0, 1), (0, 0))      # one detent clockwise (A leads B), from rest 00
CCW = ((0, 1), (1, 1), (1, 0), (0, 0))


def feed(enc, edges, index=0):
    for a, b in edges:
        enc.edge(index, a, b)


def test_one_detent_each_way():
    enc = Encoders(2)
    feed(enc, CW)
    assert enc.take_steps(0) == 1
    feed(enc, CCW * 3)
    assert enc.take_steps(0) == -3
    assert enc.take_steps(1) == 0 and enc.counts[1] == 0


def test_contact_bounce_cancels_out():
    enc = Encoders(1)
    # A chatters three times on its first edge, B twice on the third.
    bouncy = ((1, 0), (0, 0), (1, 0), (0, 0), (1, 0), (1, 1), (0, 1), (1, 1), (0, 1), (0, 0))
    feed(enc, bouncy)
    assert enc.take_steps(0) == 1
    assert enc.errors[0] == 0


def test_missed_edge_continues_the_last_direction():
    enc = Encoders(1)
    # 10 -> 01 skips 11: an edge was lost while turning clockwise.
    feed(enc, ((1, 0), (0, 1), (0, 0)) + CW)
    assert enc.errors[0] == 1
    assert enc.take_steps(0) == 2


def test_missed_edge_counter_clockwise():
    enc = Encoders(1)
    feed(enc, CCW + ((0, 1), (1, 0), (0, 0)))
    assert (enc.take_steps(0), enc.errors[0]) == (-2, 1)


def test_resting_on_a_detent_edge_does_not_chatter():
    enc = Encoders(1)
    feed(enc, CW)
    assert enc.take_steps(0) == 1
    for _ in range(5):                      # jostled back and forth across the last edge
        feed(enc, ((0, 1), (0, 0)))
        assert enc.take_steps(0) == 0
    assert enc.counts[0] == 4


def test_half_turn_reports_nothing_until_the_detent():
    enc = Encoders(1)
    feed(enc, CW[:2])
    assert enc.take_steps(0) == 0
    feed(enc, CW[2:])
    assert enc.take_steps(0) == 1


def test_two_counts_per_detent():
    enc = Encoders(1, counts_per_detent=2)
    feed(enc, CW)
    assert enc.take_steps(0) == 2


def test_block_turning_flag():
    enc = Encoders(1)
    enc.quiet_ms = 80
    assert not enc.is_turning(0, 0)          # at boot nothing has moved
    assert not enc.is_turning(0, 1000)
    feed(enc, CW[:2])
    assert enc.is_turning(0, 1010)          # moved
    assert enc.is_turning(0, 2000)          # still between detents, however long
    feed(enc, CW[2:])
    assert enc.is_turning(0, 2010)
    assert enc.is_turning(0, 2080)          # on a detent but moved 70 ms ago
    assert not enc.is_turning(0, 2090)


def test_attach_registers_both_pins_and_decodes_through_them():
    class Pin:
        def __init__(self):
            self.level = 0

        def value(self):
            return self.level

    a, b = Pin(), Pin()
    handlers = {}
    enc = Encoders(1)
    enc.attach(0, a, b, lambda pin, handler: handlers.__setitem__(id(pin), handler))
    assert len(handlers) == 2
    for level_a, level_b in CW:
        changed = a if a.level != level_a else b
        a.level, b.level = level_a, level_b
        handlers[id(changed)](changed)
    assert enc.take_steps(0) == 1


def test_the_interrupt_handler_allocates_nothing():
    # Under MicroPython the heap is locked while the IRQ handler runs, as in hard-IRQ context:
    # any allocation raises MemoryError. (CPython has no heap lock; the decoding is checked.)
    import micropython
    lock = getattr(micropython, "heap_lock", None)
    unlock = getattr(micropython, "heap_unlock", None)

    class Pin:
        level = 0

        def value(self):
            return self.level

    a, b = Pin(), Pin()
    a.level = b.level = 0      # instance attributes now, so setting them below allocates nothing
    handlers = []
    enc = Encoders(1)
    enc.attach(0, a, b, lambda pin, handler: handlers.append(handler))
    sequence = CW * 3 + ((1, 0), (0, 1)) + CCW      # with a missed edge in the middle
    if lock:
        lock()
    try:
        for level_a, level_b in sequence:
            a.level, b.level = level_a, level_b
            handlers[0](a)
    finally:
        if unlock:
            unlock()
    assert enc.errors[0] == 1 and enc.counts[0] != 0
