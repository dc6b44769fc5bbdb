# Sourced by the arm benches: a Debian 12 root for ARCH (arm64: 64-bit Raspberry Pi OS, armhf:
# 32-bit) run under qemu-user (binfmt_misc), cached in $PI_ARM_CACHE (default
# /var/tmp/pentago-bench/root-ARCH), with this checkout's tracked files copied to
# /home/pi/pentago-board. The mirror comes from apt's own configuration (mirror.py).
# Sets ROOT_DIR and CHECKOUT; gives now, took and inside (a command run in the checkout there).
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
mkdir -p "$ROOT_DIR/etc/ssl/certs"
cp /etc/ssl/certs/ca-certificates.crt "$ROOT_DIR/etc/ssl/certs/ca-certificates.crt"
for fs in proc sys dev; do mountpoint -q "$ROOT_DIR/$fs" || mount --bind "/$fs" "$ROOT_DIR/$fs"; done
trap 'for fs in dev sys proc; do umount "$ROOT_DIR/$fs" 2>/dev/null || true; done' EXIT
rm -rf "$ROOT_DIR/home/pi/pentago-board"
mkdir -p "$ROOT_DIR/home/pi/pentago-board"
git -C "$CHECKOUT" ls-files -z | (cd "$CHECKOUT" && xargs -0 cp --parents -t "$ROOT_DIR/home/pi/pentago-board")
inside() { chroot "$ROOT_DIR" /usr/bin/env -i HOME=/root PATH=/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 bash -c "cd /home/pi/pentago-board && $1"; }
echo "arm: $(inside 'uname -m; python3 --version' | tr '\n' ' ')"
