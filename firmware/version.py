"""The firmware's version, reported in the hello; `pentago-board firmware flash` checks it."""

FIRMWARE_VERSION = "0.1.0"
