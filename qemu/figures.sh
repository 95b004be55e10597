#!/bin/sh
# The table at the end of a stress run: the figures the guest tests
# measured ("# figure: NAME: VALUE" lines, tests/ktap.sh ktap_figure), and
# the kernel reports that the host found on the console (results.sh's
# reports.txt), as Markdown.  Also written to RUNDIR/figures.md.
#
# usage: figures.sh RUNDIR
rundir=$1
[ -f "$rundir/results.ktap" ] || { echo "figures: no results in $rundir" >&2; exit 1; }
{
	echo "| figure | value |"
	echo "|---|---|"
	sed -n 's/^[ ]*# figure: \([^:]*\): \(.*\)/| \1 | \2 |/p' "$rundir/results.ktap"
	# One report per header line; "Call Trace:" lines belong to one.
	n=$(grep -c -v 'Call Trace:' "$rundir/reports.txt" 2>/dev/null)
	echo "| kernel reports on the console (KASAN, lockdep, ODEBUG, list, WARN, BUG, Oops, hung task) | ${n:-0} |"
} >"$rundir/figures.md"
cat "$rundir/figures.md"
echo "(figures: $rundir/figures.md)"
