"""MicroPython firmware for the board microcontroller; see PROTOCOL.md."""
