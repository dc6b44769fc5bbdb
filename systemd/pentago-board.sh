#!/bin/sh
# /usr/local/bin/pentago-board, installed by systemd/install.sh: the command from the service's
# venv, with the hardware profiles the installer copied next to it.
: "${PENTAGO_BOARD_PROFILES:=/opt/pentago-board/profiles}"
export PENTAGO_BOARD_PROFILES
exec /opt/pentago-board/venv/bin/pentago-board "$@"
