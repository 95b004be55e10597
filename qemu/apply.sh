#!/bin/sh
# Stage "series": put SRC back to pristine, then apply every patch that
# SERIES lists (one path a line, relative to the repository, '#' starts a
# comment, an empty series is valid) with patch -p1 --fuzz=0.
# A patch that does not apply is named with patch's own report of the
# failing hunk, and SRC is left pristine.
#
# When SRC holds exactly what an earlier run applied (its record, next to
# SRC, names the patches with their hashes and the tree they made) and
# that run's patches begin the new series, only the rest is applied: the
# files of the patches before keep their times, so that kbuild does not
# compile them again (make bisect, one patch after the other).  Anything
# else, a tree changed by hand included, starts from pristine.
#
# usage: apply.sh SRC SERIES
set -eu
src=$1 series=$2
top=$(pwd)
record=$(dirname "$src")/applied

pristine() {
	git -C "$src" reset -q --hard pristine
	git -C "$src" clean -q -f -d -x
}

# patch_file P: the file of series entry P (relative to the repository).
patch_file() {
	case $1 in /*) echo "$1" ;; *) echo "$top/$1" ;; esac
}

# The tree SRC holds, as git's id of it (untracked files included).
tree_id() {
	git -C "$src" add -A && git -C "$src" write-tree
}

patches=$(qemu/series.sh -v "$series")
want=$(for p in $patches; do
	f=$(patch_file "$p")
	[ -f "$f" ] && echo "$(sha256sum <"$f" | cut -c1-16) $p" || echo "missing $p"
done)
# done_: the patches the record says SRC holds, if they begin the series.
done_=
if [ -f "$record" ] && [ "$(tail -n1 "$record")" = "tree $(tree_id)" ]; then
	done_=$(sed '$d' "$record")
	case "$want
" in
	"$done_
"*) ;;
	*) done_= ;;
	esac
fi
rm -f "$record"
skip=$(printf '%s' "$done_" | grep -c . || true)
[ "$skip" -gt 0 ] || pristine
base=$(basename "$(git -C "$src" log -1 --format=%s pristine | sed 's/^pristine //')" .tar.xz)
total=$(echo $patches | wc -w)
n=0
for p in $patches; do
	n=$((n + 1))
	[ $n -gt "$skip" ] || continue
	f=$(patch_file "$p")
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
{ [ -z "$want" ] || echo "$want"; echo "tree $(tree_id)"; } >"$record"
kept=
[ "$skip" -eq 0 ] || kept=" ($skip kept from the run before)"
echo "series: $n patch(es) applied from $series$kept, $(git -C "$src" status --porcelain | wc -l) file(s) changed"
