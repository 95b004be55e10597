#!/bin/sh
# Stage "series": put SRC back to pristine, then apply every patch that
# SERIES lists (one path a line, relative to the repository, '#' starts a
# comment, an empty series is valid) with patch -p1 --fuzz=0.
# A patch that does not apply is named with patch's own report of the
# failing hunk, and SRC is left pristine.
#
# usage: apply.sh SRC SERIES
set -eu
src=$1 series=$2
top=$(pwd)

pristine() {
	git -C "$src" reset -q --hard pristine
	git -C "$src" clean -q -f -d -x
}

patches=$(qemu/series.sh -v "$series")
pristine
base=$(basename "$(git -C "$src" log -1 --format=%s pristine | sed 's/^pristine //')" .tar.xz)
total=$(echo $patches | wc -w)
n=0
for p in $patches; do
	n=$((n + 1))
	case $p in /*) f=$p ;; *) f=$top/$p ;; esac
	if [ ! -f "$f" ]; then
		echo "series: $series names $p, which does not exist" >&2
		pristine
		exit 1
	fi
	if ! out=$(cd "$src" && patch -p1 --fuzz=0 --batch --forward \
			--no-backup-if-mismatch -r - <"$f" 2>&1); then
		on=$base
		[ $n -eq 1 ] || on="$base with patches 1-$((n - 1)) applied"
		echo "series: patch $n of $total, $p, does not apply to $on:" >&2
		echo "$out" | sed 's/^/  /' >&2
		pristine
		echo "series: $src is left pristine" >&2
		exit 1
	fi
	[ "${V:-0}" = 0 ] || echo "$out" | sed 's/^/  /'
done
echo "series: $n patch(es) applied from $series, $(git -C "$src" status --porcelain | wc -l) file(s) changed"
