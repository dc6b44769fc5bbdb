#!/usr/bin/env bash
# Install pentago-board as a systemd service on Raspberry Pi OS, from this checkout.
#
#   sudo systemd/install.sh              install, or upgrade in place (safe to run again)
#   sudo systemd/install.sh --fast       the same, with the computer's compiled search (64-bit OS)
#   sudo systemd/install.sh --uninstall  remove service, udev rule, venv and user (keeps config
#                                        in /etc/pentago-board and the journal in /var/lib)
#   systemd/install.sh --dry-run [...]   print the commands it would run, change nothing
#
# Every step checks first, so a second run only upgrades the package and changes nothing else.
# PENTAGO_ROOT (a root prefix for the files) and PYTHON (default python3) exist for the tests.
set -euo pipefail

ROOT="${PENTAGO_ROOT:-}"
PYTHON="${PYTHON:-python3}"
ACCOUNT=pentago
DEVICE_GROUPS=(gpio spi dialout)
PREFIX=/opt/pentago-board
UNIT=/etc/systemd/system/pentago-board.service
DROP_IN=/etc/systemd/system/pentago-board.service.d/fast-search.conf
RULE=/etc/udev/rules.d/99-pentago-mcu.rules
CONFIG=/etc/pentago-board/config.toml
COMMAND=/usr/local/bin/pentago-board
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CHECKOUT="$(dirname "$HERE")"
DRY_RUN=0
ACTION=install
EXTRAS=pi,mqtt

usage() {
    sed -n '4,8s/^# \{0,1\}//p' "$0"
}

# Print a command, then run it unless this is a dry run.
run() {
    printf '+ %s\n' "$*"
    if [ "$DRY_RUN" -eq 0 ]; then
        "$@"
    fi
}

has_user() { getent passwd "$ACCOUNT" >/dev/null; }
has_group() { getent group "$1" >/dev/null; }
in_group() { id -nG "$ACCOUNT" 2>/dev/null | tr ' ' '\n' | grep -qx "$1"; }
differs() { ! cmp -s "$1" "$2"; }

ensure_account() {
    local group missing=()
    for group in "${DEVICE_GROUPS[@]}"; do
        has_group "$group" || run groupadd --system "$group"
    done
    has_user || run useradd --system --user-group --home-dir /var/lib/pentago-board \
        --no-create-home --shell /usr/sbin/nologin "$ACCOUNT"
    for group in "${DEVICE_GROUPS[@]}"; do
        in_group "$group" || missing+=("$group")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        run usermod --append --groups "$(IFS=,; echo "${missing[*]}")" "$ACCOUNT"
    fi
}

ensure_venv() {
    [ -x "$ROOT$PREFIX/venv/bin/python" ] || run "$PYTHON" -m venv "$ROOT$PREFIX/venv"
    # Always reinstall: this is how a `git pull` reaches the service. Every package at the
    # version CI tested (constraints.txt), never whatever is newest on the day.
    run "$ROOT$PREFIX/venv/bin/python" -m pip install --quiet --upgrade \
        --constraint "$CHECKOUT/constraints.txt" "${CHECKOUT}[$EXTRAS]"
    # The service cannot read a checkout under /home (ProtectHome): the profiles go beside the venv.
    run mkdir -p "$ROOT$PREFIX/profiles"
    run cp "$CHECKOUT"/hardware/profiles/*.toml "$ROOT$PREFIX/profiles/"
    # ... and so do the guides the unit's Documentation= names (systemctl help pentago-board).
    run mkdir -p "$ROOT$PREFIX/doc"
    run cp "$CHECKOUT"/README.md "$CHECKOUT"/docs/*.md "$ROOT$PREFIX/doc/"
    run mkdir -p "$ROOT$PREFIX/doc/games"
    run cp "$CHECKOUT"/docs/games/*.md "$ROOT$PREFIX/doc/games/"
    run cp "$CHECKOUT"/hardware/README.md "$ROOT$PREFIX/doc/hardware.md"
}

# Copy $1 to $2 (mode $3, default 0644) when it differs; returns 0 if it copied.
place_file() {
    differs "$1" "$ROOT$2" || return 1
    run install -D -m "${3:-0644}" "$1" "$ROOT$2"
}

# The config holds the MQTT password and the console's token: root writes it, the service's group
# reads it, nobody else does (an older install left it world-readable: an upgrade mends that).
secure_config() {
    if [ ! -e "$ROOT$CONFIG" ]; then
        run install -D -m 0640 "$HERE/config.toml" "$ROOT$CONFIG"
        run chgrp "$ACCOUNT" "$ROOT$CONFIG"
        return
    fi
    [ "$(stat -c %a "$ROOT$CONFIG")" = 640 ] || run chmod 0640 "$ROOT$CONFIG"
    [ "$(stat -c %G "$ROOT$CONFIG")" = "$ACCOUNT" ] || run chgrp "$ACCOUNT" "$ROOT$CONFIG"
}

# udev takes the new rule at once; where udev does not run (a container) it takes it when it starts.
reload_udev() {
    if [ "$DRY_RUN" -eq 0 ] && ! udevadm control --ping 2>/dev/null; then
        echo "udev is not running here: the rule for the Pico applies once it runs (at the next boot)"
        return
    fi
    run udevadm control --reload-rules
    run udevadm trigger --subsystem-match=tty
}

install_all() {
    ensure_account
    ensure_venv
    secure_config
    place_file "$HERE/pentago-board.sh" "$COMMAND" 0755 || true
    if place_file "$HERE/99-pentago-mcu.rules" "$RULE"; then
        reload_udev
    fi
    local reload=0
    place_file "$HERE/pentago-board.service" "$UNIT" && reload=1
    if [ "$EXTRAS" = pi,mqtt,fast ]; then
        place_file "$HERE/fast-search.conf" "$DROP_IN" && reload=1
    fi
    [ "$reload" -eq 0 ] || run systemctl daemon-reload
    run systemctl enable pentago-board.service
    run systemctl try-restart pentago-board.service
    next_steps
}

next_steps() {
    if [ "$DRY_RUN" -eq 1 ]; then
        printf '\nDry run: nothing was installed. After the install:\n'
    else
        printf '\npentago-board is installed in %s.\n' "$PREFIX"
    fi
    cat <<STEPS
  1. Choose your hardware profile in $CONFIG (profile = "A-6x6", "B-6x6" or "B-9x9").
  2. Enable SPI for the LEDs:                sudo raspi-config nonint do_spi 0
     Build A (A-6x6) also needs, in /boot/firmware/config.txt:  dtoverlay=spi0-1cs  and  enable_uart=0
     and no serial console (sudo raspi-config: Interface Options, Serial Port: no, no). Then: sudo reboot
     Build B (B-6x6, B-9x9): put MicroPython v1.28.0 on the Pico (hold BOOTSEL while plugging it in, copy
     the RPI_PICO .uf2 from micropython.org to the RPI-RP2 drive), then flash and calibrate it as
     $CHECKOUT/firmware/README.md says:  sudo -u $ACCOUNT pentago-board firmware flash --size 6 (or 9)
  3. Check the machine:                      sudo -u $ACCOUNT pentago-board doctor --config $CONFIG
  4. Start the service:                      sudo systemctl start pentago-board
  5. See how it runs:                        systemctl status pentago-board
                                             journalctl -u pentago-board -f
STEPS
}

uninstall_all() {
    if [ -e "$ROOT$UNIT" ]; then
        run systemctl disable --now pentago-board.service
        run rm -f "$ROOT$UNIT"
        [ ! -e "$ROOT$DROP_IN" ] || run rm -rf "$ROOT$(dirname "$DROP_IN")"
        run systemctl daemon-reload
    fi
    if [ -e "$ROOT$RULE" ]; then
        run rm -f "$ROOT$RULE"
        run udevadm control --reload-rules
    fi
    [ ! -e "$ROOT$COMMAND" ] || run rm -f "$ROOT$COMMAND"
    [ ! -e "$ROOT$PREFIX" ] || run rm -rf "$ROOT$PREFIX"
    ! has_user || run userdel "$ACCOUNT"
    if [ "$DRY_RUN" -eq 1 ]; then
        echo "Dry run: nothing was removed; the commands above would remove pentago-board, keeping $CONFIG and the journal in /var/lib/pentago-board."
    else
        echo "pentago-board is removed; kept $CONFIG and the journal in /var/lib/pentago-board."
    fi
}

main() {
    local arg
    for arg in "$@"; do
        case "$arg" in
            --dry-run) DRY_RUN=1 ;;
            --fast) EXTRAS=pi,mqtt,fast ;;
            --uninstall) ACTION=uninstall ;;
            -h|--help) usage; exit 0 ;;
            *) echo "install.sh: unknown option '$arg'; use --dry-run, --fast, --uninstall or --help" >&2; exit 2 ;;
        esac
    done
    if [ "$DRY_RUN" -eq 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
        echo "install.sh: run it as root (sudo $0), or with --dry-run to see what it would do" >&2
        exit 1
    fi
    if [ "$ACTION" = install ]; then install_all; else uninstall_all; fi
}

main "$@"
