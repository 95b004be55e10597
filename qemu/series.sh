#!/bin/sh
# Print the patches of SERIES for linux-source-$KVER, one path a line, in
# order.  SERIES names one path a line, relative to the repository; '#'
# starts a comment.  It is written for the default tree (6.1); where a
# patch has to differ on another tree, that tree's variant sits next to it:
#
#   patches/<folder>/<KVER>/<name>.patch  replaces patches/<folder>/<name>.patch
#   patches/<folder>/<KVER>/<name>.drop   leaves it out; the file says why
#
# (the same rule picks patches/<folder>/<KVER>/cover-letter for make mail).
# -v: say on stderr how many variants were taken and what was left out.
# -f: print the files the patches change (their diffs' a/ and b/ paths,
#     sorted, once each) instead of the patches.
#
# usage: KVER=... series.sh [-v] [-f] SERIES
set -eu
verbose=0 files=0 nv=0
[ "${1:-}" != -v ] || { verbose=1; shift; }
[ "${1:-}" != -f ] || { files=1; shift; }
series=$1 kver=${KVER:-6.1}
[ -f "$series" ] || { echo "series: $series not found" >&2; exit 1; }
list=
for p in $(sed -e 's/#.*//' "$series"); do
	v=$(dirname "$p")/$kver/$(basename "$p")
	if [ -f "$v" ]; then
		nv=$((nv + 1))
		list="$list $v"
	elif [ -f "${v%.patch}.drop" ]; then
		[ $verbose = 0 ] ||
			echo "series: $kver: left out $p: $(cat "${v%.patch}.drop")" >&2
	else
		list="$list $p"
	fi
done
[ $verbose = 0 ] || [ $nv = 0 ] ||
	echo "series: $kver: $nv patch(es) taken from their $kver variant (patches/*/$kver/)" >&2
if [ $files = 1 ]; then
	for p in $list; do sed -n 's|^+++ b/||p; s|^--- a/||p' "$p"; done | sort -u
else
	for p in $list; do echo "$p"; done
fi
