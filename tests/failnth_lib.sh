# The fail-nth sweeps of make stress (tests/stress_failnth.sh: physmap's
# probe paths; tests/stress_failnth_lpddr.sh: the LPDDR path through
# cfi_sim): for N = 1, 2, ... the Nth failslab/fail_page_alloc point of
# the probing task fails (tests/failnth.c, through
# /proc/thread-self/fail-nth), until a probe passes fewer than N points.
# Each probe must fail cleanly (no device, no reference left) or succeed
# (the state a probe without faults leaves); stress_reports, run last,
# checks that nothing leaked.  Two tests, so that make stress can put
# them in different guests.
#
#   failnth_begin PLAN       KTAP header and plan, faults set up
#   sweep ID NAME FAILNTH-ARGS...
#                            one sweep: a test (its exit code, the
#                            kernel reports) and a figure (its points)
#   failnth_end WHAT         the sum of the sweeps' points as a figure,
#                            and a test that it is more than 0
. /tests/ktap.sh
. /tests/mtd_lib.sh

failnth_begin() {
	ktap_print_header
	ktap_set_plan "$1"
	# Any allocation may fail, sleeping or not, of any order, but only
	# through fail-nth (probability 0) and quietly: no stack dump per
	# fault.
	faults_setup
	TOTAL=0
	REPORTED=0
}

# The console is quiet during each sweep (every failed vmalloc() dumps
# the stack); the kernel log is checked for reports after it.
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

failnth_end() {
	ktap_figure "allocations failed on purpose, $1" "$TOTAL ($REPORTED kernel reports)"
	ktap_expect_eq stress_failnth_swept "fault points swept in all (more than 0)" \
		"$([ $TOTAL -gt 0 ] && echo yes)" yes
	ktap_finished
}
