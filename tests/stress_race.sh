#!/bin/sh
# Concurrency on the debug kernel, -smp 2: four loops at once, for
# LAB_CYCLES/20 rounds each (lab.cycles=, default 1000):
#   A  physmap unbind/bind (a CFI map probed and destroyed)
#   B  insmod/rmmod cfi_sim, 4 simulated maps, P_ID 0001 and 0002 in turn
#   C  rmmod, then modprobe, of cfi_cmdset_0001 and cfi_cmdset_0002,
#      while A and B probe them
#   D  a reader of /dev/mtd0 (lab.unbind_reader=1 only: see below)
# rmmod of a command set must either succeed (no map was using it) or be
# refused as "in use"; a probe may fail only because its command set was
# gone.  At the end every map is gone, every reference returned and every
# module unloads; KASAN/lockdep reports show on the console.
# kernel.modprobe is emptied for the run (see stress_physmap): the
# command sets come and go by C's hand only.
. /tests/ktap.sh
. /tests/mtd_lib.sh

ROUNDS=$(( ${LAB_CYCLES:-1000} / 20 ))
SIM=/tests/modules/cfi_sim.ko

ktap_print_header
ktap_set_plan 5

start="cfi_cmdset_0001=$(refcnt cfi_cmdset_0001) cfi_cmdset_0002=$(refcnt cfi_cmdset_0002) cfi_probe=$(refcnt cfi_probe) chipreg=$(refcnt chipreg)"
MODPROBE=$(cat /proc/sys/kernel/modprobe)
modprobe physmap
modprobe -a mtd chipreg cfi_probe cfi_cmdset_0002
echo >/proc/sys/kernel/modprobe
dmesg -c >/dev/null

loop_a() {
	i=0 ok=0
	while [ $i -lt "$ROUNDS" ]; do
		i=$((i + 1))
		echo $PHYSMAP_DEV >$PHYSMAP_DRV/unbind 2>/dev/null
		echo $PHYSMAP_DEV >$PHYSMAP_DRV/bind 2>/dev/null && ok=$((ok + 1))
	done
	echo "$ok" >/tmp/race.a
}
loop_b() {
	i=0 ok=0
	while [ $i -lt "$ROUNDS" ]; do
		i=$((i + 1))
		id=0x0001; [ $((i % 2)) = 0 ] && id=0x0002
		if insmod $SIM p_id=$id maps=4 2>/dev/null; then
			ok=$((ok + 1))
			rmmod cfi_sim
		fi
	done
	echo "$ok" >/tmp/race.b
}
loop_c() {
	i=0 gone=0 busy=0 other=0
	while [ $i -lt "$ROUNDS" ]; do
		i=$((i + 1))
		for m in cfi_cmdset_0001 cfi_cmdset_0002; do
			out=$(rmmod $m 2>&1)
			case $? in
			0) gone=$((gone + 1)) ;;
			*) case $out in
			   *"is in use"*|*"not currently loaded"*|*"resource busy"*|*"temporarily unavailable"*)
				busy=$((busy + 1)) ;;
			   *) other=$((other + 1)); echo "# rmmod $m: $out" ;;
			   esac ;;
			esac
			modprobe $m
		done
	done
	echo "$gone $busy $other" >/tmp/race.c
}
loop_d() {
	i=0 ok=0
	while [ $i -lt "$ROUNDS" ]; do
		i=$((i + 1))
		head -c 65536 /dev/mtd0 >/dev/null 2>&1 && ok=$((ok + 1))
	done
	echo "$ok" >/tmp/race.d
}

# D reads the device that A unbinds: the mtdchar use-after-free of README's
# Findings, outside the series; only with lab.unbind_reader=1.
if [ "${LAB_UNBIND_READER:-0}" = 1 ]; then loop_d & else echo 0 >/tmp/race.d; fi
loop_a & loop_b & loop_c &
wait
read -r a </tmp/race.a
read -r b </tmp/race.b
read -r gone busy other </tmp/race.c
read -r d </tmp/race.d
ktap_print_msg "A: $a of $ROUNDS binds probed; B: $b of $ROUNDS cfi_sim loads probed 4 maps"
ktap_print_msg "C: rmmod of a command set: $gone unloaded it, $busy refused (in use or not loaded), $other other"
ktap_print_msg "D: $d of $ROUNDS reads of /dev/mtd0"
ktap_figure "race rounds (loops in parallel)" "$ROUNDS each: $a physmap binds, $b cfi_sim loads x 4 maps, $gone command set unloads, $busy refused, $d reads"
ktap_expect_eq stress_race_rmmod_outcomes "rmmod outcomes other than unloaded or refused" "$other" 0

echo "$MODPROBE" >/proc/sys/kernel/modprobe
# Settle: nothing may be left holding anything.  How many probes won the
# race is chance; that both still work after it is not.
[ -d /sys/module/cfi_sim ] && rmmod cfi_sim
physmap_bound && echo $PHYSMAP_DEV >$PHYSMAP_DRV/unbind
echo $PHYSMAP_DEV >$PHYSMAP_DRV/bind
insmod $SIM p_id=0x0001 maps=4
ktap_expect_eq stress_race_probes_after "after the race: physmap bound, cfi_sim's 4 maps, cfi_cmdset_0001 refcnt" \
	"$(physmap_bound && echo bound) $(ls /sys/class/mtd | grep -c 'mtd[0-9]*$') $(refcnt cfi_cmdset_0001)" "bound 5 5"
rmmod cfi_sim
rmmod physmap
ktap_expect_eq stress_race_maps_gone "MTD devices left" "$(ls /sys/class/mtd | grep -c 'mtd[0-9]*$')" 0
ktap_expect_eq stress_race_refcnt_zero "cfi_cmdset_0001, cfi_cmdset_0002 refcnt (0 or unloaded)" \
	"$(refcnt cfi_cmdset_0001 | sed s/absent/0/) $(refcnt cfi_cmdset_0002 | sed s/absent/0/)" "0 0"
for m in cfi_cmdset_0001 cfi_cmdset_0002; do [ -d /sys/module/$m ] && rmmod $m; done
rmmod cfi_probe gen_probe chipreg
end="cfi_cmdset_0001=$(refcnt cfi_cmdset_0001) cfi_cmdset_0002=$(refcnt cfi_cmdset_0002) cfi_probe=$(refcnt cfi_probe) chipreg=$(refcnt chipreg)"
ktap_expect_eq stress_race_unloaded "modules at the end, as at the start" "$end" "$start"
ktap_finished
