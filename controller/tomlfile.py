"""Decoding the project's TOML files (the daemon config, hardware profiles) with one plain reason
for every way the bytes can be wrong, so each loader only adds the file's name.

>>> decode_toml(b'profile = "A-6x6"')
{'profile': 'A-6x6'}
>>> decode_toml(b'# caf\\xe9')
Traceback (most recent call last):
...
ValueError: not UTF-8 text (byte 0xe9 on line 1); save the file as UTF-8
"""

from __future__ import annotations

import tomllib
from typing import Any


def decode_toml(raw: bytes) -> dict[str, Any]:
    """The TOML document in ``raw``; raises ValueError saying what is wrong in words."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ValueError(f"not UTF-8 text (byte 0x{raw[exc.start]:02x} on line {line}); "
                         "save the file as UTF-8") from None
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise ValueError("not valid TOML (nested too deeply)") from None
    except ValueError as exc:  # TOMLDecodeError, or an integer too long to convert
        raise ValueError(f"not valid TOML ({exc})") from None
