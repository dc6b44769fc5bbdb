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
# as a hobbyist would after the first try fails. The root is arm_root.sh's (cached between runs).
set -euo pipefail
ARCH="${1:?arm64 or armhf}"
TOOLS="${2:-}"
# shellcheck source=arm_root.sh
source "$(dirname "${BASH_SOURCE[0]}")/arm_root.sh"
if [ "$TOOLS" = --build-tools ]; then
    t0=$(now)
    chroot "$ROOT_DIR" apt-get install -y -qq gcc python3-dev swig >/dev/null
    echo "arm: apt-get install gcc python3-dev swig $(took "$t0") s"
fi
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
