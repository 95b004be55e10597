#!/bin/sh
# Stage "tree": extract Debian's linux-source tarball into DIR once and
# record it in git (tag "pristine"), so that every variant's source tree
# is a worktree that can be put back to pristine cheaply and exactly:
# only the files a series touched are rewritten, which keeps kbuild's
# incremental rebuild honest.
#
# usage: tree.sh TARBALL DIR
set -eu
tarball=$1 dir=$2

[ -r "$tarball" ] || {
	echo "tree: $tarball not found (apt-get install linux-source-${KVER:-6.1})" >&2
	exit 1
}
rm -rf "$dir" "$dir.tmp"
mkdir -p "$dir.tmp"
echo "tree: extracting $tarball"
tar -C "$dir.tmp" -xf "$tarball"
# The tarball holds one top directory, linux-source-X.Y.
top=$(ls "$dir.tmp")
[ "$(echo "$top" | wc -l)" -eq 1 ] || {
	echo "tree: unexpected tarball layout: $top" >&2
	exit 1
}
mv "$dir.tmp/$top" "$dir"
rmdir "$dir.tmp"
cd "$dir"
g() { git -c user.name=lab -c user.email=lab@localhost "$@"; }
g init -q
# -f: the tarball ships files that the tree's own .gitignore matches.
g add -f -A .
g commit -q -m "pristine $(basename "$tarball")"
g tag pristine
echo "tree: $(g ls-files | wc -l) files in $dir (git tag pristine)"
