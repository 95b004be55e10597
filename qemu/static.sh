#!/bin/sh
# Gate "static": sparse (C=2) and W=1 on every .c file the series touches,
# built in the baseline tree and in the patched tree: the series may add
# no warning.  Warnings are compared without their line and column
# numbers (the patches move lines); a new one is printed as a diff.
# One line per file in KDIR/static.txt, "ok FILE" or "FAIL FILE"; exit 1
# on any new warning.
#
# usage: static.sh KDIR SERIES      (KDIR: build/KVER, with baseline/ and
#                                     patched/ built)
set -u
k=$1 series=$2
report=$k/static.txt
: >"$report"
# The touched files that the lab's configuration builds (an object in the
# patched build); the others are named and left out.
files=
for f in $(qemu/series.sh -f "$series" | grep '\.c$'); do
	if [ -f "$k/patched/obj/${f%.c}.o" ]; then
		files="$files $f"
	else
		echo "skip $f (not built in this configuration)" | tee -a "$report"
	fi
done
# The tree's own test of the checker (scripts/checker-valid.sh, 6.8+):
# when it refuses this machine's sparse, kbuild drops C=2 with a
# warning and only W=1 runs; the report says so rather than "ok" for
# sparse.  (7.x asks for __typeof_unqual__, which Debian 12's sparse
# 0.6.4 lacks.)
valid=$k/patched/src/scripts/checker-valid.sh
if [ -f "$valid" ] && [ "$(sh "$valid" sparse -m64 -mlittle-endian 2>/dev/null)" != 1 ]; then
	echo "skip sparse: $(sparse --version 2>/dev/null || echo "no sparse") fails this tree's scripts/checker-valid.sh: W=1 only" |
		tee -a "$report"
fi
mkdir -p "$k/static"
fail=0
for v in baseline patched; do
	objs=
	for f in $files; do
		[ -f "$k/$v/src/$f" ] || continue
		objs="$objs ${f%.c}.o"
		# Compile it again: warnings are printed only by a compile.
		rm -f "$k/$v/obj/${f%.c}.o"
	done
	LOG=$k/static/$v.log "$(dirname "$0")/build.sh" "$k/$v/src" "$k/$v/obj" \
		C=2 W=1 $objs >/dev/null || fail=1
done
for f in $files; do
	for v in baseline patched; do
		grep -F "$f:" "$k/static/$v.log" | grep -E 'warning|error' |
			sed -e 's|^.*/\('"$(echo "$f" | sed 's|[.]|[.]|g')"'\)|\1|' \
			    -e 's|:[0-9]*:[0-9]*:|:|' -e 's|:[0-9]*: |: |' | sort >"$k/static/$v.$(echo "$f" | tr / _)"
	done
	b=$k/static/baseline.$(echo "$f" | tr / _)
	p=$k/static/patched.$(echo "$f" | tr / _)
	new=$(comm -13 "$b" "$p")
	if [ -z "$new" ]; then
		echo "ok   $f ($(wc -l <"$b") warning(s) before, $(wc -l <"$p") after)" | tee -a "$report"
	else
		echo "FAIL $f: new warning(s):" | tee -a "$report"
		echo "$new" | sed 's/^/       + /' | tee -a "$report"
		fail=1
	fi
done
exit $fail
