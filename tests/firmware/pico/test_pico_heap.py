"""The scan's heap on MicroPython's RP2040 build (pico.heap_per_scan, whose figures
bench/firmware_pico.py prints): what one scan allocates, counted two ways that must agree (the
blocks added to MicroPython's block table and gc.mem_alloc), and nothing kept past a collection:
a scan that kept even a few bytes would fill the heap within hours and restart the board
(test_pico_faults.py)."""

from conftest import need_pico
from pico import Pico, heap_per_scan


def test_a_scan_keeps_nothing_past_a_collection_and_both_counts_of_its_allocations_agree():
    need_pico()
    with Pico(6) as pico:
        pico.wait_for("hello", limit_ms=3000)
        heap = heap_per_scan(pico, scans=10)   # the bench's 50 take half a minute here
    assert heap["kept_bytes"] == 0, heap
    assert heap["allocs_step"] > 0 and heap["table_bytes_step"] == heap["alloc_step"], heap
