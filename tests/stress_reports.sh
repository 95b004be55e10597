#!/bin/sh
# Last test of a stress run: what the kernel's own instruments found.
# kmemleak (cleared by /init at boot, so boot-time objects do not count)
# must report no leak; the kernel must carry no taint but O (out-of-tree:
# the test modules) and P (stress_badinput's non-GPL module; lockdep was
# checked on just before it).  KASAN,
# lockdep, DEBUG_OBJECTS and DEBUG_LIST reports go to the console, which
# the host checks line by line.
. /tests/ktap.sh

ktap_print_header
ktap_set_plan 2

# kmemleak reports objects older than 5 s that no scan found a reference
# to: wait, then scan twice (the second scan confirms the first).
sleep 6
echo scan >/sys/kernel/debug/kmemleak
echo scan >/sys/kernel/debug/kmemleak
cat /sys/kernel/debug/kmemleak >/tmp/leaks
leaks=$(grep -c '^unreferenced object' /tmp/leaks)
# To the console too, where the host looks for reports.
[ "$leaks" = 0 ] || cat /tmp/leaks >/dev/kmsg
head -40 /tmp/leaks | sed 's/^/# /'
ktap_figure "kmemleak unreferenced objects" "$leaks"
ktap_expect_eq stress_kmemleak "objects kmemleak reports as leaked" "$leaks" 0

taint=$(cat /proc/sys/kernel/tainted)
ktap_figure "kernel taint at the end" "$taint"
ktap_expect_eq stress_taint "taint flags other than O (4096, out-of-tree modules) and P (1, stress_badinput's non-GPL module)" \
	$((taint & ~4097)) 0
ktap_finished
