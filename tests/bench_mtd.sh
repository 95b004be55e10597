#!/bin/sh
# make bench's guest side: what the series could cost at run time, measured
# the same way on the patched and on the baseline kernel (qemu/bench.sh
# compares them).  For each of lab.rounds= rounds (default 7):
#   - physmap probe and remove latency: the median (and min, max) of
#     lab.probes= (default 200) bind/unbind cycles, timed by tests/probetime
#     around the sysfs writes: do_map_probe(), the CFI query, the command
#     set lookup that the series changes, and map_destroy();
#   - mtd_speedtest on the whole pflash map (256 erase blocks of 4 KiB)
#     and on an 8 MiB nandsim partition (64 blocks of 128 KiB): eraseblock
#     write and read speed in KiB/s.
# Each figure is a "# bench: ROUND NAME VALUE" line; each round's steps
# are KTAP tests that assert they ran (the numbers themselves are not
# judged here: qemu/bench.sh prints them side by side).
# kernel.modprobe is emptied while measuring, so that the partition
# parser lookups of every probe do not time an exec of modprobe.
. /tests/ktap.sh
. /tests/mtd_lib.sh

ROUNDS=${LAB_ROUNDS:-7}
PROBES=${LAB_PROBES:-200}
ID=0x20,0xa2,0x00,0x15

ktap_print_header
ktap_set_plan $((ROUNDS * 3 + 1))

modprobe physmap
ktap_expect_eq bench_physmap_bound "physmap bound to the pflash" \
	"$(physmap_bound && echo yes)" yes
MODPROBE=$(cat /proc/sys/kernel/modprobe)
echo >/proc/sys/kernel/modprobe

# speedtest ROUND WHAT MTDNUM COUNT: mtd_speedtest on one device; prints
# the eraseblock write and read speeds as bench lines.
speedtest() {
	dmesg -c >/dev/null
	modprobe mtd_speedtest dev=$3 count=$4 >/dev/null 2>&1
	rc=$?
	[ -d /sys/module/mtd_speedtest ] && rmmod mtd_speedtest
	dmesg >/tmp/speedtest.log
	w=$(sed -n 's/.*mtd_speedtest: eraseblock write speed is \([0-9]*\) KiB\/s.*/\1/p' /tmp/speedtest.log)
	rd=$(sed -n 's/.*mtd_speedtest: eraseblock read speed is \([0-9]*\) KiB\/s.*/\1/p' /tmp/speedtest.log)
	fin=$(grep -c 'mtd_speedtest: finished$' /tmp/speedtest.log)
	echo "# bench: $1 ${2}_write_kib_s ${w:-none}"
	echo "# bench: $1 ${2}_read_kib_s ${rd:-none}"
	ktap_expect_eq "bench_${2}_speedtest_$1" "round $1: mtd_speedtest on $2: exit code, finished, speeds found" \
		"$rc $fin $([ -n "$w" ] && [ -n "$rd" ] && echo yes)" "0 1 yes"
}

round=0
while [ $round -lt "$ROUNDS" ]; do
	round=$((round + 1))
	out=$(/tests/probetime "$PROBES" $PHYSMAP_DRV $PHYSMAP_DEV 2>&1)
	rc=$?
	echo "$out" | sed -n 's/^\(probe_us\|remove_us\): \([0-9]*\) \([0-9]*\) \([0-9]*\)$/# bench: '$round' physmap_\1 \2\n# bench: '$round' physmap_\1_min \3\n# bench: '$round' physmap_\1_max \4/p'
	ktap_expect_eq "bench_physmap_probetime_$round" "round $round: $PROBES physmap bind/unbind cycles, probetime exit code" \
		"$rc" 0
	[ $rc = 0 ] || echo "$out" | sed 's/^/# /'

	speedtest $round pflash "$(mtd_find name $PHYSMAP_DEV | sed s/mtd//)" 256

	modprobe nandsim id_bytes=$ID parts=64 >/dev/null 2>&1
	speedtest $round nandsim "$(mtd_find name "NAND simulator partition 0" | sed s/mtd//)" 64
	rmmod nandsim
done

echo "$MODPROBE" >/proc/sys/kernel/modprobe
ktap_finished
