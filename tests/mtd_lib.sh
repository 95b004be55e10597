# Helpers shared by the guest's MTD tests.

# mtd_find FIELD VALUE: the first mtdN whose /sys/class/mtd/mtdN/FIELD is
# VALUE, or nothing.
mtd_find() {
	for d in /sys/class/mtd/mtd*; do
		case $d in *ro) continue ;; esac
		[ -r "$d/$1" ] || continue
		[ "$(cat "$d/$1")" = "$2" ] && { basename "$d"; return 0; }
	done
	return 1
}

# mtd_count FIELD VALUE: how many mtdN have FIELD equal to VALUE.
mtd_count() {
	n=0
	for d in /sys/class/mtd/mtd*; do
		case $d in *ro) continue ;; esac
		[ -r "$d/$1" ] && [ "$(cat "$d/$1")" = "$2" ] && n=$((n + 1))
	done
	echo $n
}

# mtd_attr MTD FIELD
mtd_attr() { cat "/sys/class/mtd/$1/$2" 2>/dev/null || echo absent; }

# refcnt MODULE: /sys/module/MODULE/refcnt, or "absent" if not loaded.
refcnt() { cat "/sys/module/$1/refcnt" 2>/dev/null || echo absent; }

# random_file PATH BYTES
random_file() { head -c "$2" /dev/urandom >"$1"; }

# ff_file PATH BYTES: what erased flash reads as.
ff_file() { tr '\000' '\377' </dev/zero | head -c "$2" >"$1"; }

# mtd_round_trip PREFIX DEV SIZE: erase DEV, which must then read 0xff
# (test PREFIX_erase_reads_ff), write a random pattern of SIZE bytes and
# read it back (PREFIX_write_read_back).  Leaves /tmp/ff (SIZE bytes of
# 0xff) and /tmp/pattern for the caller, who removes them.
mtd_round_trip() {
	flash_erase -q "$2" 0 0
	ff_file /tmp/ff "$3"
	mtd_debug read "$2" 0 "$3" /tmp/erased >/dev/null
	ktap_test_result "$1_erase_reads_ff" cmp -s /tmp/erased /tmp/ff
	random_file /tmp/pattern "$3"
	mtd_debug write "$2" 0 "$3" /tmp/pattern >/dev/null
	mtd_debug read "$2" 0 "$3" /tmp/readback >/dev/null
	ktap_print_msg "pattern $(md5sum </tmp/pattern | cut -c1-32), read back $(md5sum </tmp/readback | cut -c1-32)"
	ktap_test_result "$1_write_read_back" cmp -s /tmp/pattern /tmp/readback
	rm -f /tmp/erased /tmp/readback
}

# physmap's platform device and driver in sysfs, for bind/unbind.
PHYSMAP_DEV=physmap-flash.0
PHYSMAP_DRV=/sys/bus/platform/drivers/physmap-flash

# physmap_bound: is the driver bound to the device?
physmap_bound() { [ -e /sys/bus/platform/devices/$PHYSMAP_DEV/driver ]; }

# physmap_cycles N: N sysfs unbind/bind cycles of physmap, each checked:
# unbound and no physmap-flash.0 MTD device after unbind, bound and one
# after bind.  Prints how many cycles were wrong (a "# " line for each
# wrong step, to stderr, which the test's KTAP keeps).
physmap_cycles() {
	c_bad=0 c_i=0
	while [ $c_i -lt "$1" ]; do
		c_i=$((c_i + 1))
		echo $PHYSMAP_DEV >$PHYSMAP_DRV/unbind
		if physmap_bound || [ "$(mtd_count name $PHYSMAP_DEV)" != 0 ]; then
			c_bad=$((c_bad + 1)); echo "# cycle $c_i: still there after unbind" >&2
		fi
		echo $PHYSMAP_DEV >$PHYSMAP_DRV/bind
		if ! physmap_bound || [ "$(mtd_count name $PHYSMAP_DEV)" != 1 ]; then
			c_bad=$((c_bad + 1)); echo "# cycle $c_i: not there after bind" >&2
		fi
	done
	echo $c_bad
}

# kmemleak_scan: scan now and print what kmemleak reports (nothing if
# clean).  Objects younger than 5 s are not reported: scan after a pause.
kmemleak_scan() {
	echo scan >/sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak
}

# Faults injected on purpose make the kernel dump the stack by design (a
# failed vmalloc(), UBI giving up on a block), which the host's console
# check would count as reports.  faults_quiet: empty the kernel log and
# keep the console quiet while faults are armed; faults_reports: the
# console back, the report headers of the log since faults_quiet counted
# in REPORTS_FOUND and shown as KTAP diagnostics.
KERNEL_REPORTS='BUG:|WARNING:|KASAN|Oops|general protection|ODEBUG|list_(add|del) corruption|circular locking|inconsistent lock state|refcount_t:'
faults_quiet() { dmesg -c >/dev/null; dmesg -n 1; }
# faults_setup: failslab and fail_page_alloc fail only what fail-nth
# names, silently, sleeping allocations and any order included.
faults_setup() {
	for a in failslab fail_page_alloc; do
		echo 0 >/sys/kernel/debug/$a/probability
		echo 0 >/sys/kernel/debug/$a/verbose
		echo N >/sys/kernel/debug/$a/ignore-gfp-wait
	done
	echo N >/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem
	echo 0 >/sys/kernel/debug/fail_page_alloc/min-order
}
faults_reports() {
	dmesg -n 7
	dmesg >/tmp/faults.dmesg
	REPORTS_FOUND=$(grep -c -E "$KERNEL_REPORTS" /tmp/faults.dmesg)
	grep -E -A20 "$KERNEL_REPORTS" /tmp/faults.dmesg | head -40 | sed 's/^/# kernel: /'
}
