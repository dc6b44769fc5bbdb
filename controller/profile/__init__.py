"""Hardware profiles: board size, sensing kind, driver, pins and the LED chain, from TOML.

A profile says everything about one physical build; code reads it and hard-codes no wiring.
Four jobs, a module each: the model (:mod:`.model`: the frozen values and the words a profile
may use), locating a profile (:mod:`.locate`: a shipped name in the profile folder, or a path),
reading it (:mod:`.read`, over the keyed tables of :mod:`.tables`) and its LED chain
(:mod:`.leds`). Everything is imported from here.

Every problem in a file raises :class:`~controller.errors.ProfileError` naming the file, the exact
key and the problem, e.g. ``my.toml: leds.brightness_cap: 1.5 is out of range (0 < cap <= 1)``.

>>> p = load_profile("A-6x6")
>>> p.size, p.sensing, p.driver, p.geometry.block_count
(6, 'presence', 'gpio', 4)
>>> p.leds.hole_pixel[0], p.leds.arrow_pixels[(1, True)]
(0, (36, 37, 38))
>>> "virtual-9x9" in shipped_profiles()
True
"""

from .locate import PROFILE_DIR, installed_from, shipped_profiles
from .model import ColourInput, Gestures, GpioPins, LedChain, McuLink, Pixel, Profile
from .read import load_profile, parse_profile

__all__ = ["PROFILE_DIR", "ColourInput", "Gestures", "GpioPins", "LedChain", "McuLink", "Pixel", "Profile",
           "installed_from", "load_profile", "parse_profile", "shipped_profiles"]
