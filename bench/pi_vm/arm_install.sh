#!/usr/bin/env bash
# A Raspberry Pi OS's install, on this machine: a Debian 12 root for arm64 (64-bit Pi OS) or
# armhf (32-bit) run under qemu-user (binfmt_misc), the checkout copied in, then the README's
# `python3 -m venv .venv && .venv/bin/pip install -e '.[pi,fast]'` with pip reaching PyPI as a
# Pi would. Prints what pip downloaded as wheels and what it built from source, and how long
# each part took; then `analyse` and a part of the test suite in the installed venv.
#
#   sudo bench/pi_vm/arm_install.sh arm64|armhf [--build-tools]
#
# --build-tools first installs what a source build needs (gcc, python3-dev, swig) from Debian,
# as a hobbyist would after the first try fails. The root is cached in $PI_ARM_CACHE (default
# /var/tmp/pentago-bench/root-ARCH); the mirror comes from apt's own configuration (mirror.py).
set -euo pipefail
ARCH="${1:?arm64 or armhf}"
TOOLS="${2:-}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CHECKOUT="$(cd "$HERE/../.." && pwd)"
ROOT_DIR="${PI_ARM_CACHE:-/var/tmp/pentago-bench}/root-$ARCH"
now() { date +%s.%N; }
took() { python3 -c "print(round($(now) - $1, 1))"; }

if [ ! -x "$ROOT_DIR/usr/bin/python3" ]; then
    t0=$(now)
    debootstrap --arch="$ARCH" --variant=minbase --include=python3,python3-venv,ca-certificates \
        bookworm "$ROOT_DIR" "$(python3 "$HERE/mirror.py")" >/dev/null
    echo "arm: debootstrap $ARCH $(took "$t0") s"
fi
cp /etc/resolv.conf "$ROOT_DIR/etc/resolv.conf"
# the root trusts what this machine trusts (a network that re-signs TLS has its CA in here)
cp /etc/ssl/certs/ca-certificates.crt "$ROOT_DIR/etc/ssl/certs/ca-certificates.crt"
for fs in proc sys dev; do mountpoint -q "$ROOT_DIR/$fs" || mount --bind "/$fs" "$ROOT_DIR/$fs"; done
trap 'for fs in dev sys proc; do umount "$ROOT_DIR/$fs" 2>/dev/null || true; done' EXIT
if [ "$TOOLS" = --build-tools ]; then
    t0=$(now)
    chroot "$ROOT_DIR" apt-get install -y -qq gcc python3-dev swig >/dev/null
    echo "arm: apt-get install gcc python3-dev swig $(took "$t0") s"
fi
rm -rf "$ROOT_DIR/home/pi/pentago-board"
mkdir -p "$ROOT_DIR/home/pi/pentago-board"
git -C "$CHECKOUT" ls-files -z | (cd "$CHECKOUT" && xargs -0 cp --parents -t "$ROOT_DIR/home/pi/pentago-board")
inside() { chroot "$ROOT_DIR" /usr/bin/env -i HOME=/root PATH=/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 bash -c "cd /home/pi/pentago-board && $1"; }
echo "arm: $(inside 'uname -m; python3 --version' | tr '\n' ' ')"
t0=$(now)
[ -x "$ROOT_DIR/home/pi/venv-$ARCH/bin/python" ] || inside "python3 -m venv /home/pi/venv-$ARCH"
ln -s "/home/pi/venv-$ARCH" "$ROOT_DIR/home/pi/pentago-board/.venv"
echo "arm: venv $(took "$t0") s (kept between runs: ensurepip is slow under qemu-user)"
t0=$(now)
status=0
inside ".venv/bin/pip install --progress-bar off -e '.[pi,fast]'" > /tmp/pi-arm-$ARCH-pip.log 2>&1 || status=$?
echo "arm: pip install -e '.[pi,fast]' exit $status, $(took "$t0") s"
echo "arm: wheels downloaded: $(grep -o 'Downloading [^ ]*\.whl' /tmp/pi-arm-$ARCH-pip.log | sed 's/Downloading //' | sort | tr '\n' ' ')"
echo "arm: built from source: $(grep -o 'Building wheel for [^ ]*' /tmp/pi-arm-$ARCH-pip.log | sed 's/Building wheel for //' | sort -u | tr '\n' ' ')"
grep -E "error:|ERROR:|Failed to build" /tmp/pi-arm-$ARCH-pip.log | head -5 | sed 's/^/arm: pip: /' || true
[ "$status" -eq 0 ] || exit 0
echo "arm: installed: $(inside '.venv/bin/pip list --format=freeze 2>/dev/null' | grep -i -E 'lgpio|numba|llvmlite|numpy|neopixel|blinka|gpiozero|aiohttp' | tr '\n' ' ')"
t0=$(now)
inside ".venv/bin/pentago-board analyse --help >/dev/null"
echo "arm: first command (imports) $(took "$t0") s"
t0=$(now)
inside ".venv/bin/pentago-board analyse --engine compiled --time 1 --board x....o........x......o........o....x --to-move x" 2>&1 | tail -3 | sed 's/^/arm: analyse: /' || true
echo "arm: analyse (compiled engine, first: numba compiles) $(took "$t0") s"
t0=$(now)
inside ".venv/bin/pentago-board analyse --engine compiled --time 1 --board x....o........x......o........o....x --to-move x" 2>&1 | tail -1 | sed 's/^/arm: analyse again: /' || true
echo "arm: analyse again (cache loaded) $(took "$t0") s"
t0=$(now)
inside ".venv/bin/pip install --progress-bar off --quiet --constraint constraints.txt pytest pytest-timeout hypothesis" >/dev/null 2>&1
status=0
inside ".venv/bin/python -m pytest -q -p no:cacheprovider --timeout 3000 tests/ai/test_compiled.py tests/rules/test_notation.py" \
    > /tmp/pi-arm-$ARCH-pytest.log 2>&1 || status=$?
echo "arm: pytest tests/ai/test_compiled.py tests/rules/test_notation.py exit $status, $(took "$t0") s: $(tail -1 /tmp/pi-arm-$ARCH-pytest.log)"
