#!/usr/bin/env bash
# The Python search as a 32-bit Pi (armhf, no numba) or a 64-bit one runs it, on this machine:
# bench/ai_oracle.py --engine python in arm_root.sh's root under qemu-user, with Debian's own
# python3 (the search needs nothing outside the standard library). First an empty Python loop
# here and there, in Debian 12's python3 on both sides (the same build): qemu-user emulates every
# instruction, so the oracle's CPU seconds there buy what this machine's buy divided by the
# search's slowdown, and the loop's ratio says how much of that slowdown is the interpreter's.
#
#   sudo bench/pi_vm/arm_search.sh armhf|arm64 [ai_oracle.py's arguments, e.g. --limit 40]
set -euo pipefail
ARCH="${1:?armhf or arm64}"
shift
# shellcheck source=arm_root.sh
source "$(dirname "${BASH_SOURCE[0]}")/arm_root.sh"
LOOP='import time
t = time.process_time()
x = 0
for i in range(3_000_000):
    x += i & 7
print(round(3 / (time.process_time() - t), 2))'
here=$(/usr/bin/python3 -c "$LOOP")
there=$(inside "python3 -c '$LOOP'")
echo "arm: an empty loop, M iterations per CPU second: here $here, $ARCH $there (x$(python3 -c "print(round($here / $there, 1))") slower)"
inside "PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=. python3 bench/ai_oracle.py --engine python $*"
