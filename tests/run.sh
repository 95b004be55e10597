#!/bin/sh
# Guest test runner, in the manner of kselftest's runner.sh: one top-level
# KTAP document, each test script a subtest whose own KTAP is indented
# by four spaces, its exit code the subtest's result (0 ok, 4 skip).
# A script that runs past LAB_TEST_TIMEOUT seconds is killed, with every
# task it started, and fails; tests/deadline lists the tasks and their
# kernel stacks first.
# "# time: TEST: N s" after each result: its wall time in the guest.
#
# usage: run.sh TEST...   (TEST names /tests/TEST.sh)
. /tests/ktap.sh
echo "KTAP version 1"
echo "1..$#"
n=0
for t; do
	n=$((n + 1))
	rc=0
	t0=$(date +%s)
	if [ ! -x "/tests/$t.sh" ]; then
		echo "# no such test: $t"
		rc=1
	else
		{ /tests/deadline "${LAB_TEST_TIMEOUT:-300}" "/tests/$t.sh"; echo $? >/tmp/rc.$n; } 2>&1 |
			ktap_nest "$t"
		rc=$(cat /tmp/rc.$n)
	fi
	case $rc in
	0) echo "ok $n $t" ;;
	4) echo "ok $n $t # SKIP" ;;
	124) echo "# $t: timed out after ${LAB_TEST_TIMEOUT:-300} s"; echo "not ok $n $t" ;;
	*) echo "# $t: exit code $rc"; echo "not ok $n $t" ;;
	esac
	echo "# time: $t: $(($(date +%s) - t0)) s"
done
