#!/bin/sh
# Gate "compile": the series applied to SRC and configured (the lab's
# fragments), then kbuild's directory target of each folder that holds a
# .c file the series changes (the nearest folder with a Makefile, as
# kbuild builds it: what the configuration selects there, built in and
# modular, so also the files of that folder that include a header the
# series changes).  No link and no boot: .ci/run's check of a second tree
# (KVER=6.12), where the whole kernel and its smoke tests (make
# KVER=6.12) do not fit in CI's time beside make check.
# One line per folder in REPORT, a closing "N passed, N failed"; exit 1
# if a folder does not compile (build.sh prints the errors).
#
# usage: compile.sh SRC OBJ SERIES REPORT
set -u
src=$1 obj=$2 series=$3 report=$4
: >"$report"
dirs=
for f in $(qemu/series.sh -f "$series" | grep '\.c$'); do
	d=$(dirname "$f")
	while [ "$d" != . ] && [ ! -f "$src/$d/Makefile" ] && [ ! -f "$src/$d/Kbuild" ]; do
		d=$(dirname "$d")
	done
	case " $dirs " in *" $d/ "*) ;; *) dirs="$dirs $d/" ;; esac
done
pass=0 fail=0
for d in $dirs; do
	log=$obj/compile-$(echo "${d%/}" | tr / _).log
	if LOG=$log "$(dirname "$0")/build.sh" "$src" "$obj" "$d" >/dev/null; then
		r=ok pass=$((pass + 1))
	else
		r=FAIL fail=$((fail + 1))
	fi
	echo "$r $d ($(grep -cE '^  (CC|AS) ' "$log") objects compiled, log: $log)" | tee -a "$report"
done
echo "$pass passed, $fail failed" | tee -a "$report"
[ "$fail" -eq 0 ]
