#!/bin/sh
# Fault injection on the probe paths, one allocation at a time: for N =
# 1, 2, ... the Nth failslab/fail_page_alloc point of the probing task
# fails (tests/failnth.c, through /proc/thread-self/fail-nth), until a
# probe passes fewer than N points.  Each probe must fail cleanly (no
# device, no reference left) or succeed (the state a probe without faults
# leaves); stress_reports, run last, checks that nothing leaked.
#
#   physmap bind, command set loaded     the map probe proper
#   physmap bind, command set unloaded   + symbol_request() and the module
#                                        load it triggers (its modprobe
#                                        runs in another task: not failed)
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
# physmap's partition parsers (cmdlinepart, RedBoot, afs) are not built:
# with request_module() left on, each bind would run modprobe three times
# for nothing.  kernel.modprobe is emptied, the probe modules loaded
# beforehand; the sweep of symbol_request() gets tests/modprobe_symbols,
# which runs modprobe for "symbol:" requests only.
. /tests/ktap.sh
. /tests/mtd_lib.sh

SIM=/tests/modules/cfi_sim.ko
MODPROBE=$(cat /proc/sys/kernel/modprobe)

ktap_print_header
ktap_set_plan 6

# Any allocation may fail, sleeping or not, of any order, but only
# through fail-nth (probability 0) and quietly: no stack dump per fault.
faults_setup

# The console is quiet during each sweep (every failed vmalloc() dumps
# the stack); the kernel log is checked for reports after it.
TOTAL=0
REPORTED=0
# sweep ID NAME FAILNTH-ARGS...
sweep() {
	id=$1 name=$2
	shift 2
	faults_quiet
	# A progress line every 30 s for the host (qemu/boot.sh shows it
	# with the point count of the last run): the point failnth is at.
	rm -f /tmp/failnth.point
	/tests/failnth -P /tmp/failnth.point "$@" >/tmp/sweep.out 2>&1 &
	pid=$!
	(
		t=0
		while kill -0 $pid 2>/dev/null; do
			sleep 1
			t=$((t + 1))
			[ $((t % 30)) -ne 0 ] || ktap_print_msg "progress: $name: fault point $(cat /tmp/failnth.point 2>/dev/null)"
		done
	) &
	ticker=$!
	wait $pid
	rc=$?
	wait $ticker
	faults_reports
	reports=$REPORTS_FOUND
	grep '^#' /tmp/sweep.out | head -12
	last=$(tail -n1 /tmp/sweep.out)
	ktap_print_msg "$name: $last"
	val() { echo "$last" | sed -n "s/.*$1=\([0-9]*\).*/\1/p"; }
	points=$(val points)
	ktap_figure "allocations failed on purpose, $name" \
		"${points:-0} ($(val failed) probes failed cleanly, $(val passed) passed anyway, $(val other-driver) of them through another driver)"
	TOTAL=$((TOTAL + ${points:-0}))
	REPORTED=$((REPORTED + reports))
	ktap_expect_eq "stress_failnth_$id" "$name: failnth exit code (0: every probe clean), kernel reports" \
		"$rc $reports" "0 0"
}

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

ktap_figure "allocations failed on purpose, all probe paths" "$TOTAL ($REPORTED kernel reports)"
ktap_expect_eq stress_failnth_swept "fault points swept in all (more than 0)" \
	"$([ $TOTAL -gt 0 ] && echo yes)" yes
ktap_finished
