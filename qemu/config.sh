#!/bin/sh
# Stage "config": tinyconfig + the fragments, merged with the tree's own
# scripts/kconfig/merge_config.sh, then olddefconfig.  Like kunit_config.py,
# check afterwards that every option a fragment asked for ended up in
# .config as asked, and name the ones Kconfig dropped.
#
# usage: config.sh SRC OBJ FRAGMENT...
set -eu
src=$1 obj=$2
shift 2
mk() { make -s -C "$src" O="$obj" ARCH=x86_64 "$@"; }

mkdir -p "$obj"
# The same fragments, this script and the same Kconfig files as last time
# (patches seldom touch Kconfig): the .config stands, untouched, and
# nothing is rebuilt for it.  Saves the three make runs on every step of
# make bisect and on every patch edit.
key=$( { cat "$@" "$0"; git -C "$src" diff pristine -- ':(glob)**/Kconfig*'; } |
	sha256sum | cut -c1-16)
if [ -f "$obj/.config" ] && [ "$(cat "$obj/config.key" 2>/dev/null)" = "$key" ]; then
	echo "config: unchanged ($*; no Kconfig file changed)"
	exit 0
fi
rm -f "$obj/config.key"
mk tinyconfig >/dev/null 2>&1
"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$@" \
	>"$obj/merge_config.log" 2>&1 || {
	cat "$obj/merge_config.log" >&2
	echo "config: merge_config.sh failed (log: $obj/merge_config.log)" >&2
	exit 1
}
mk olddefconfig >/dev/null 2>&1

# What the fragments ask for, the last fragment winning as in the merge:
# "set CONFIG_X=v FRAGMENT" or "unset CONFIG_X FRAGMENT".
for frag; do
	sed -n -e "s|^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$|\1 set \1=\2 $frag|p" \
	       -e "s|^# \(CONFIG_[A-Za-z0-9_]*\) is not set$|\1 unset \1 $frag|p" "$frag"
done | awk '{ last[$1] = $0; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
	END { for (i = 1; i <= n; i++) { s = last[order[i]]; sub(/^[^ ]* /, "", s); print s } }' |
while read -r how opt frag; do
	name=${opt%%=*}
	if [ "$how" = set ]; then
		grep -qxF "$opt" "$obj/.config" && continue
		got=$(grep -E "^$name=|^# $name is not set" "$obj/.config" || echo "absent")
		echo "config: $frag asks for $opt, .config has: $got" >&2
	else
		grep -q "^$name=" "$obj/.config" || continue
		echo "config: $frag asks for $name unset, .config has: $(grep "^$name=" "$obj/.config")" >&2
	fi
	echo x
done | grep -c x >"$obj/config.dropped" || true
bad=$(cat "$obj/config.dropped")
if [ "$bad" -ne 0 ]; then
	echo "config: Kconfig dropped $bad requested option(s), see above" >&2
	exit 1
fi
echo "$key" >"$obj/config.key"
echo "config: $(grep -c '=[ym]$' "$obj/.config") options set, all requested ones as asked ($*)"
