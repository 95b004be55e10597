#!/bin/sh
# Stage "results": parse the guest's KTAP with the tree's own parser
# (tools/testing/kunit/kunit.py parse), print one line per test and
# close with "N passed, N failed".  Host-side checks count as tests too:
# the guest finished in time, and the kernel console has no
# Oops/BUG/WARNING/KASAN/panic line.  Exit 1 on any failure.
#
# XFAIL names a file of expected failures, "TEST-PATH reason" a line
# (the baseline's known bugs, which the series fixes): such a test that
# fails prints "xfail" and counts as passed, since the documented
# behaviour was observed; one that passes prints "XPASS" and counts as
# failed, since the record is out of date.  A line that starts with
# "[KVER]" holds for linux-source-KVER only.
#
# usage: results.sh SRC RUNDIR
# env:   XFAIL (above), RESULT_PREFIX (a prefix for every test name)
set -u
src=$(cd "$1" && pwd) rundir=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
xfail=${XFAIL:+$(cd "$(dirname "$XFAIL")" && pwd)/$(basename "$XFAIL")}
cd "$rundir" || exit 1
tr -d '\r' <ktap.log >results.ktap 2>/dev/null || : >results.ktap
tr -d '\r' <console.log >console.txt 2>/dev/null || : >console.txt

# The guest's KTAP, then the host's: source.ktap (checks of the tree),
# checkpatch.ktap (the patches as they will be sent).
python3 "$src/tools/testing/kunit/kunit.py" parse "$rundir/results.ktap" \
	>kunit.txt 2>&1
for k in source.ktap checkpatch.ktap; do
	[ -f $k ] || continue
	python3 "$src/tools/testing/kunit/kunit.py" parse "$rundir/$k" >>kunit.txt 2>&1
done

# kunit.py prints "[hh:mm:ss] " before every line, suites as
# "=== name (N subtests) ===" ... "=== [PASSED] name ===", leaves as
# "[PASSED] name", and the "# " log of a failed leaf before it.  Leaves
# become SUITE.LEAF lines, "ok|FAIL|skip PATH", in results.txt, with the
# log of a failure under it; a suite that failed with no failed leaf
# (a lost subtest, a bad exit code) is a failure of its own.
awk '
function path(leaf,   i, p) { p = ""; for (i = 1; i <= depth; i++) p = p stack[i] "."; return p leaf }
{ sub(/^\[[0-9:]+\] /, "") }
/^=+ (.* )?\([0-9]+ subtests?\) =+$/ {
	s = $0; sub(/^=+ /, "", s); sub(/ ?\([0-9]+ subtests?\) =+$/, "", s)
	stack[++depth] = (s == "" ? "(unnamed)" : s); failed[depth] = 0; buf = ""; next
}
/^=+ \[(PASSED|FAILED|SKIPPED|CRASHED)\] .* =+$/ {
	if (($2 == "[FAILED]" || $2 == "[CRASHED]") && !failed[depth]) {
		s = path(""); sub(/\.$/, "", s)
		print "FAIL " s " (" tolower(substr($2, 2, length($2) - 2)) " with no failed test)"
		printf "%s", buf
	}
	if (failed[depth] && depth > 1) failed[depth - 1] = 1
	buf = ""; depth--; next
}
/^\[(PASSED|FAILED|SKIPPED|CRASHED)\] / {
	r = $1; $1 = ""; sub(/^ /, "")
	if (r == "[PASSED]") print "ok   " path($0)
	else if (r == "[SKIPPED]") print "skip " path($0)
	else { print "FAIL " path($0); printf "%s", buf; failed[depth] = 1 }
	buf = ""; next
}
/^# / { buf = buf "       " $0 "\n"; next }
/^\[ERROR\]/ { print "FAIL parser: " $0 }
' kunit.txt >results.txt

status=$(cat status 2>/dev/null || echo missing)
if [ "$status" = 0 ] && grep -E -q '^(\[ *[0-9.]*\] )?lab: tests done' console.txt; then
	echo "ok   host.guest_finished" >>results.txt
else
	echo "FAIL host.guest_finished (QEMU status $status; 124 is the timeout)" >>results.txt
fi

# Kernel reports anywhere in the console fail the run, whatever the tests
# said (the pattern is shared with qemu/bench.sh).
if grep -E -n -f "$here/console-reports.ere" console.txt >reports.txt; then
	{
		echo "FAIL host.console_clean: $(wc -l <reports.txt) report line(s), first:"
		head -5 reports.txt | sed 's/^/       /'
		echo "       (decode with scripts/decode_stacktrace.sh; log: $rundir/console.log)"
	} >>results.txt
else
	echo "ok   host.console_clean" >>results.txt
fi
grep -q -E '^(ok|FAIL) [^h]' results.txt ||
	echo "FAIL host.tests_ran: no guest test result in $rundir/ktap.log" >>results.txt

# A kernel other than the lab's (make linked): every test name says
# which, e.g. "builtin.mtd_physmap_linked.linked_write_read_back".
if [ -n "${RESULT_PREFIX:-}" ]; then
	sed "s/^\(ok  \|FAIL\|skip\) /&$RESULT_PREFIX/" results.txt >results.tmp && mv results.tmp results.txt
fi

LAB_TREE=$("$here/version.sh") && export LAB_TREE
awk -v xfail="$xfail" -v kver="${KVER:-6.1}" '
BEGIN {
	while (xfail != "" && (getline line < xfail) > 0) {
		if (line ~ /^[ \t]*(#|$)/) continue
		if (line ~ /^\[/) {
			if (index(line, "[" kver "]") != 1) continue
			sub(/^\[[^]]*\][ \t]*/, "", line)
		}
		name = line; sub(/[ \t].*/, "", name)
		why = line; sub(/^[^ \t]+[ \t]*/, "", why); expect[name] = why
	}
}
/^(ok  |FAIL|skip) / {
	name = $2; sub(/:$/, "", name)
	if (name in expect) {
		if ($1 == "FAIL") { sub(/^FAIL/, "xfail"); print; print "       (expected: " expect[name] ")"; pass++; next }
		if ($1 == "ok") { sub(/^ok  /, "XPASS"); print; print "       (expected to fail: " expect[name] ")"; fail++; next }
	}
	if ($1 == "ok") pass++; else if ($1 == "FAIL") fail++; else skip++
}
{ print }
END {
	print "results: " ENVIRON["PWD"] " (" ENVIRON["LAB_TREE"] ")"
	printf "%d passed, %d failed%s\n", pass, fail, skip ? ", " skip " skipped" : ""
	exit fail != 0
}' results.txt >summary.txt
rc=$?
cat summary.txt
exit $rc
