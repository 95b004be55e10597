#!/bin/sh
# Fault injection on physmap's probe paths, one allocation at a time
# (tests/failnth_lib.sh):
#
#   physmap bind, command set loaded     the map probe proper
#   physmap bind, command set unloaded   + symbol_request() and the module
#                                        load it triggers (its modprobe
#                                        runs in another task: not failed)
#   physmap load, compat device          physmap's module init
#
# physmap's partition parsers (cmdlinepart, RedBoot, afs) are not built:
# with request_module() left on, each bind would run modprobe three times
# for nothing.  kernel.modprobe is emptied, the probe modules loaded
# beforehand; the sweep of symbol_request() gets tests/modprobe_symbols,
# which runs modprobe for "symbol:" requests only.
. /tests/failnth_lib.sh

MODPROBE=$(cat /proc/sys/kernel/modprobe)
failnth_begin 4

# physmap tries cfi_probe, jedec_probe, qinfo_probe and map_rom in turn:
# a probe that fails on a fault may pass through the next one.
PHYS="-m cfi_cmdset_0001 -m cfi_probe -m jedec_probe -m qinfo_probe -m map_rom -m physmap"
B=/sys/bus/platform/devices/$PHYSMAP_DEV/driver
modprobe -a cfi_probe jedec_probe qinfo_probe map_rom cfi_cmdset_0001 physmap
echo $PHYSMAP_DEV >$PHYSMAP_DRV/unbind
echo >/proc/sys/kernel/modprobe
sweep physmap_bind "physmap bind, command set loaded" $PHYS -e $B -r /dev/mtd0 \
	-u "write:$PHYSMAP_DRV/unbind:$PHYSMAP_DEV" "write:$PHYSMAP_DRV/bind:$PHYSMAP_DEV"
echo /tests/modprobe_symbols >/proc/sys/kernel/modprobe
sweep physmap_bind_request "physmap bind, command set unloaded" $PHYS -e $B -r /dev/mtd0 \
	-p rmmod-idle:cfi_cmdset_0001 -u "write:$PHYSMAP_DRV/unbind:$PHYSMAP_DEV" \
	"write:$PHYSMAP_DRV/bind:$PHYSMAP_DEV"
# physmap's module init: its driver registered, then the compat device
# allocated and registered, and probed in the same task.  A fault fails
# the init (no module, no device, the driver unregistered), or fails only
# the probe (the init passes with the device not bound, -c: the module
# is removed), or passes.
modprobe cfi_cmdset_0001
echo >/proc/sys/kernel/modprobe
KO=$(modinfo -n physmap)
rmmod physmap
sweep physmap_load "physmap load, compat device" $PHYS -e $B -r /dev/mtd0 \
	-c -u rmmod:physmap "load:$KO:"
modprobe physmap
rmmod physmap map_rom qinfo_probe jedec_probe
[ -d /sys/module/cfi_cmdset_0001 ] && rmmod cfi_cmdset_0001
echo "$MODPROBE" >/proc/sys/kernel/modprobe

failnth_end "physmap probe paths"
