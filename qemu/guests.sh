#!/bin/sh
# The closing of a run made of several guests of one kernel (make
# stress: two at once): each guest's run is in RUNDIR/GUEST/, judged by
# qemu/results.sh with GUEST. before every test name; here they become
# one run, RUNDIR: results.txt and summary.txt (every guest's lines, one
# "N passed, N failed" over all of them, which make check's summary
# reads), results.ktap and reports.txt (the guests' one after the other,
# for qemu/figures.sh; each figure's name begins with "[GUEST] ").  A
# guest that left no closing line counts as one failure.  Each guest's
# gcov.b64 stays in its folder (qemu/coverage.sh reads them all).  Exit 1
# on any failure.
#
# usage: guests.sh RUNDIR GUEST...
set -u
rundir=$1
shift
. "$(dirname "$0")/count.sh"
: >"$rundir/results.txt"
: >"$rundir/results.ktap"
: >"$rundir/reports.txt"
body=$rundir/summary.body
: >"$body"
for g; do
	d=$rundir/$g
	cat "$d/results.txt" >>"$rundir/results.txt" 2>/dev/null
	sed "s/^\( *# figure: \)/\1[$g] /" "$d/results.ktap" >>"$rundir/results.ktap" 2>/dev/null
	cat "$d/reports.txt" >>"$rundir/reports.txt" 2>/dev/null
	# summary.txt: the lines of each test, "results: ...", the count.
	line=$(tail -n1 "$d/summary.txt" 2>/dev/null)
	sed '$d' "$d/summary.txt" >>"$body" 2>/dev/null
	count_line "$line" || echo "FAIL $g.results: no closing line in $d/summary.txt" >>"$body"
done
{
	cat "$body"
	echo "results: $rundir ($*)"
	count_print
} >"$rundir/summary.txt"
rc=$?
rm -f "$body"
cat "$rundir/summary.txt"
exit $rc
