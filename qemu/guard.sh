#!/bin/sh
# Gate "guard": every target installs its Debian packages before it reads
# a file that one of them provides.  For a KVER that no package of this
# machine provides, `make -n TARGET` (nothing is run but the sub-makes,
# themselves with -n) must know how to make everything, and the first
# lab script it would run must be `qemu/packages.sh KVER`: on a new
# machine, that is the stage that installs linux-source-KVER, SeaBIOS,
# busybox, kmod, mtd-utils, libdrm and the compiler.  No network, no root,
# about a second for all the targets.
# One line per target in the report, "ok TARGET" or "FAIL TARGET: why";
# exit 1 on any failure.
#
# usage: guard.sh REPORT [MAKEFILE]   (from the top of the lab)
set -u
report=$1 makefile=${2:-Makefile}
kver=0.0
targets="all check check-all baseline stress bench bisect static mail fresh tree apply kernel linked coverage compile"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# make check writes the background stress run's output there, even with -n.
mkdir -p "$tmp/build/$kver"
: >"$report"
fail=0
for t in $targets; do
	out=$tmp/$t.out
	rc=0
	# A make as a user runs it: nothing inherited from a make above.
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n --no-print-directory \
		-f "$makefile" KVER=$kver CHECK_TREES=$kver BUILD="$tmp/build" "$t" >"$out" 2>&1 || rc=$?
	first=$(grep -o -m1 -E '(qemu|tests)/[a-z0-9_]+\.sh( [^ ;|&>]*)?' "$out")
	# A file under the build folder that make -n cannot make is one
	# that a stage it did not run would have made (the extracted tree's
	# kselftest.h, say); one anywhere else is what this guard is for.
	norule=$(grep -o "No rule to make target '[^']*'" "$out")
	why=
	if echo "$norule" | grep -v -e '^$' -e "'$tmp/build/" | grep -q .; then
		why=$(echo "$norule" | grep -v "'$tmp/build/" | head -n1)
	elif [ "$rc" -ne 0 ] && [ -z "$norule" ]; then
		why="make -n exited with $rc: $(tail -n1 "$out")"
	elif [ "$first" != "qemu/packages.sh $kver" ]; then
		why="the first stage it runs is '${first:-none}', not 'qemu/packages.sh $kver'"
	fi
	if [ -z "$why" ]; then
		echo "ok $t" >>"$report"
	else
		echo "FAIL $t: $why" >>"$report"
		fail=1
	fi
done
cat "$report"
exit $fail
