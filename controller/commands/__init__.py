"""Subcommands of `pentago-board`, one module each (see :mod:`controller.cli`)."""
