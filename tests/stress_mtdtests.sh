#!/bin/sh
# The kernel's own MTD tests (drivers/mtd/tests) on nandsim: a 2 MiB
# partition (16 blocks) of a 64 MiB, 2 KiB page NAND, so that each test
# stays bounded under TCG.  Each module runs its test from its init; it
# passes when the module loads and the kernel log has the test's own
# closing line of success (and no line of failure).  Not nandbiterrs:
# its raw page rewrite sends no OOB, which nandsim refuses ("too few bytes
# were input (2048 instead of 2112)").
. /tests/ktap.sh
. /tests/mtd_lib.sh

ID=0x20,0xa2,0x00,0x15
CYCLES=${LAB_CYCLES:-1000}
# torturetest's erase cycles: CYCLES/100, at least 1 (0 means forever).
TORTURE=$((CYCLES / 100))
[ "$TORTURE" -ge 1 ] || TORTURE=1

ktap_print_header
ktap_set_plan 7

modprobe nandsim id_bytes=$ID parts=16
mtd=$(mtd_find name "NAND simulator partition 0")
dev=${mtd#mtd}
ktap_expect_eq mtdtests_nandsim "nandsim partition 0 size" "$(mtd_attr "$mtd" size)" $((16 * 128 * 1024))

# mtdtest NAME "PARAMS" SUCCESS-REGEX: load mtd_NAME on the partition,
# then look for SUCCESS in its output, and for no "error" line.
mtdtest() {
	dmesg -c >/dev/null
	modprobe "mtd_$1" dev=$dev $2 >/dev/null 2>&1
	rc=$?
	[ -d "/sys/module/mtd_$1" ] && rmmod "mtd_$1"
	dmesg >/tmp/mtdtest.log
	ok=$(grep -c -E "$3" /tmp/mtdtest.log)
	errs=$(grep -c -i -E 'error [-0-9]+ occurred|finished with [1-9]|finished with errors|FAIL' /tmp/mtdtest.log)
	grep -E "$3|error|FAIL" /tmp/mtdtest.log | tail -3 | sed 's/^/# /'
	ktap_expect_eq "mtdtests_$1" "mtd_$1 $2: exit code, success lines, error lines" \
		"$rc $ok $errs" "0 1 0"
}

mtdtest readtest "" 'mtd_readtest: finished$'
mtdtest pagetest "" 'mtd_pagetest: finished with 0 errors'
mtdtest oobtest "" 'mtd_oobtest: finished with 0 errors'
mtdtest subpagetest "" 'mtd_subpagetest: finished with 0 errors'
mtdtest stresstest "count=$CYCLES" "mtd_stresstest: finished, $CYCLES operations done"
mtdtest torturetest "eb=0 ebcnt=8 cycles_count=$TORTURE" 'mtd_torturetest: finished after [0-9]+ erase cycles'
ktap_figure "kernel MTD tests passed on nandsim" "$KTAP_PASS of 7 (stresstest $CYCLES ops, torturetest $TORTURE erase cycles x 8 blocks)"
rmmod nandsim
ktap_finished
