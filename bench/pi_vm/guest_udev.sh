#!/bin/bash
# The installed udev rule on a synthetic USB serial device, where no kernel of our own makes a real
# one (the container: no modules, no udevd). Run as root inside the container, in a mount namespace
# of its own: a tmpfs over /sys holds the device as the kernel's cdc_acm would lay it out (a USB
# device with idVendor/idProduct, its interface, its ttyACMn), the node is made in the container's
# /dev, and `udevadm test` runs every installed rule on it, applying names, group and mode.
#     guest_udev.sh VID PID N     prints "<link target> <group> <mode>" of /dev/pentago-mcu, or "none"
set -euo pipefail
vid=$1 pid=$2 n=$3
mount -t tmpfs synthetic-sysfs /sys
usb=/sys/devices/pci0000:00/0000:00:14.0/usb1/1-1
tty=$usb/1-1:1.0/tty/ttyACM$n
mkdir -p /sys/bus/usb /sys/class/tty "$tty"
ln -s ../../../../bus/usb "$usb/subsystem"
printf 'MAJOR=189\nMINOR=1\nDEVNAME=bus/usb/001/002\nDEVTYPE=usb_device\nPRODUCT=%s/%s/100\n' "$vid" "$pid" > "$usb/uevent"
echo "$vid" > "$usb/idVendor"
echo "$pid" > "$usb/idProduct"
ln -s ../../../../../bus/usb "$usb/1-1:1.0/subsystem"
printf 'DEVTYPE=usb_interface\nINTERFACE=2/2/1\n' > "$usb/1-1:1.0/uevent"
ln -s ../../../../../../../class/tty "$tty/subsystem"
printf 'MAJOR=166\nMINOR=%s\nDEVNAME=ttyACM%s\n' "$n" "$n" > "$tty/uevent"
echo "166:$n" > "$tty/dev"
rm -f /dev/pentago-mcu "/dev/ttyACM$n"
mknod -m 0600 "/dev/ttyACM$n" c 166 "$n"
# sd-device refuses a syspath that is not on sysfs unless told (systemd's own tests do the same)
SYSTEMD_DEVICE_VERIFY_SYSFS=0 udevadm test --action=add "$tty" >/tmp/udev-test.log 2>&1
if [ -L /dev/pentago-mcu ]; then
    target=$(readlink -f /dev/pentago-mcu)
    echo "$target $(stat -c '%G %a' "$target")"
else
    echo "none"
fi
