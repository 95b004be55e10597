#!/bin/sh
# Fault injection on the LPDDR probe path (qinfo_probe, lpddr_cmds)
# through cfi_sim, one allocation at a time (tests/failnth_lib.sh):
#
#   cfi_sim load, qinfo_probe, 2 maps    finit_module() + do_map_probe()
#                                        of the LPDDR path
#   cfi_sim add, qinfo_probe             do_map_probe() of the LPDDR path
#                                        alone, from a write to cfi_sim's
#                                        "add" (maps=0: one chip, probed
#                                        with no MTD device): the same
#                                        fault points in every run, so that
#                                        each is failed every time (in a
#                                        module load, the number of
#                                        allocations before them varies)
#
# kernel.modprobe is emptied, the probe modules loaded beforehand.
. /tests/failnth_lib.sh

SIM=/tests/modules/cfi_sim.ko
MODPROBE=$(cat /proc/sys/kernel/modprobe)
failnth_begin 3

# cfi_sim's first map must be /dev/mtd0 (read after each run that
# passed): no MTD device before the sweeps.  physmap, which an earlier
# test of the guest may have left bound, is removed.
[ ! -d /sys/module/physmap ] || rmmod physmap
left=$(ls /sys/class/mtd 2>/dev/null | grep -v 'ro$' | tr '\n' ' ')
if [ -n "$left" ]; then
	ktap_print_msg "MTD devices before the sweeps: $left(an earlier test left them)"
	exit 1
fi
modprobe -a mtd chipreg qinfo_probe
echo >/proc/sys/kernel/modprobe
sweep cfi_sim_qinfo "cfi_sim load, qinfo_probe" -m qinfo_probe -m cfi_sim \
	-r /dev/mtd0 -u rmmod:cfi_sim "load:$SIM:probe=qinfo_probe maps=2"
insmod $SIM probe=qinfo_probe maps=0
sweep cfi_sim_qinfo_add "cfi_sim add, qinfo_probe" -m qinfo_probe -m lpddr_cmds \
	-u write:/sys/module/cfi_sim/parameters/remove:1 \
	write:/sys/module/cfi_sim/parameters/add:1
rmmod cfi_sim
echo "$MODPROBE" >/proc/sys/kernel/modprobe
rmmod qinfo_probe lpddr_cmds

failnth_end "LPDDR probe path"
