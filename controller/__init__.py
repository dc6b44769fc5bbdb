"""pentago-board: the referee daemon for a sensored Pentago board.

Importing this package touches no hardware; drivers are built by factories at start-up.
"""

__version__ = "0.1.0"
