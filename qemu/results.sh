#!/bin/sh
# Stage "results": parse the guest's KTAP with the tree's own parser
# (tools/testing/kunit/kunit.py parse), print one line per test and
# close with "N passed, N failed".  Two host-side checks count as tests
# too: the guest finished in time, and the kernel console has no
# Oops/BUG/WARNING/KASAN/panic line.  Exit 1 on any failure.
#
# usage: results.sh SRC RUNDIR
set -u
src=$(cd "$1" && pwd) rundir=$(cd "$2" && pwd)
cd "$rundir" || exit 1
tr -d '\r' <ktap.log >results.ktap 2>/dev/null || : >results.ktap
tr -d '\r' <console.log >console.txt 2>/dev/null || : >console.txt

python3 "$src/tools/testing/kunit/kunit.py" parse "$rundir/results.ktap" \
	>kunit.txt 2>&1
# kunit.py prints "[hh:mm:ss] " before every line, suites as
# "=== name (N subtests) ===" ... "=== [PASSED] name ===" and leaves as
# "[PASSED] name"; diagnostics of a failed leaf follow it.  Leaves are
# printed as suite.leaf; a suite that crashed or lost subtests is a
# failure of its own.
awk -v status="$(cat status 2>/dev/null || echo missing)" \
    -v finished="$(grep -c '^lab: tests done' console.txt)" '
function path(leaf,   i, p) { p = ""; for (i = 1; i <= depth; i++) p = p stack[i] "."; return p leaf }
function flush() { printf "%s", buf; buf = "" }
{ sub(/^\[[0-9:]+\] /, "") }
/^=+ (.* )?\([0-9]+ subtests?\) =+$/ {
	s = $0; sub(/^=+ /, "", s); sub(/ ?\([0-9]+ subtests?\) =+$/, "", s)
	if (s == "") s = "(unnamed)"
	stack[++depth] = s; failed[depth] = 0; buf = ""; next
}
/^=+ \[(PASSED|FAILED|SKIPPED|CRASHED)\] .* =+$/ {
	# A suite that failed or crashed with no failed test under it
	# (a lost subtest, a bad exit code) is a failure of its own.
	if (($2 == "[FAILED]" || $2 == "[CRASHED]") && !failed[depth]) {
		s = path(""); sub(/\.$/, "", s)
		print "FAIL " s " (" tolower(substr($2, 2, length($2) - 2)) " with no failed test)"
		fail++; flush()
	}
	buf = ""
	if (failed[depth] && depth > 1) failed[depth - 1] = 1
	depth--; next
}
/^\[(PASSED|FAILED|SKIPPED|CRASHED)\] / {
	r = $1; $1 = ""; sub(/^ /, "")
	if (r == "[PASSED]") { print "ok   " path($0); pass++ }
	else if (r == "[SKIPPED]") { print "skip " path($0); skip++ }
	else { print "FAIL " path($0); fail++; failed[depth] = 1; flush() }
	buf = ""; next
}
/^# / { buf = buf "       " $0 "\n"; next }
/^\[ERROR\]/ { print "FAIL parser: " $0; fail++; next }
END {
	if (status == "0" && finished > 0) { print "ok   host.guest_finished"; pass++ }
	else { print "FAIL host.guest_finished (QEMU status " status ", end marker " (finished > 0 ? "seen" : "missing") ")"; fail++ }
	printf "%d %d %d\n", pass, fail, skip > "counts"
}' kunit.txt

# Kernel reports anywhere in the console are failures, whatever the tests said.
pat='Oops|BUG:|WARNING:|KASAN|Kernel panic|general protection fault|Call Trace:|kmemleak:.*unreferenced|UBSAN:|INFO: task .* blocked|possible recursive locking|circular locking'
if grep -E -n "$pat" console.txt >reports.txt; then
	echo "FAIL host.console_clean: $(wc -l <reports.txt) report line(s), first:"
	head -5 reports.txt | sed 's/^/       /'
	echo "       (decode with scripts/decode_stacktrace.sh; log: $rundir/console.log)"
	extra_fail=1
else
	echo "ok   host.console_clean"
	extra_fail=0
fi
read -r pass fail skip <counts
if [ "$extra_fail" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
if [ "$((pass + fail))" -le 2 ]; then
	echo "FAIL host.tests_ran: no guest test result found in $rundir/ktap.log"
	fail=$((fail + 1))
fi
echo "results: $rundir"
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
