"""The host side of the serial link, in small pieces: the mirror of the MCU's state, the
protocol session (no I/O), reconnect backoff and frame transcripts. The driver that puts them on
a port is :mod:`controller.drivers.serial_link`."""
