#!/bin/sh
# Gate "checkpatch": every patch of the series as it will be sent, with
# the sender's Signed-off-by (from git config user.name/user.email), run
# through the tree's scripts/checkpatch.pl --strict.  A patch passes with
# 0 errors and 0 warnings and 0 checks, unless each warning or check type
# it reports is named, with the reason, in its notes below the "---" line
# (git notes, "Notes:" in the patch): then it passes as justified.
# KTAP on stdout, one suite "checkpatch", one test per patch; the signed
# patches and checkpatch's reports stay in OUT.  UNKNOWN_COMMIT_ID is not
# checked: the tree is Debian's tarball, without the upstream history
# that a Fixes: tag names (the tag's form is still checked).
#
# usage: checkpatch.sh SRC SERIES OUT
src=$1 series=$2 out=$3
here=$(dirname "$0")
. "$here/../tests/ktap.sh"
mkdir -p "$out"
name=$(git config user.name)
email=$(git config user.email)

checks() {
	ktap_print_header
	ktap_set_plan "$(qemu/series.sh "$series" | wc -w)"
	if [ -n "$name" ] && [ -n "$email" ]; then
		sob="Signed-off-by: $name <$email>"
		ktap_print_msg "signing as: $sob"
		signoff=
	else
		ktap_print_msg "no git identity (git config user.name/user.email): checking without Signed-off-by"
		signoff=--no-signoff
	fi
	for p in $(qemu/series.sh "$series"); do
		b=$(basename "$p" .patch)
		if [ -n "$signoff" ]; then
			cp "$p" "$out/$b.patch"
		else
			git interpret-trailers --trailer "$sob" "$p" >"$out/$b.patch"
		fi
		"$src/scripts/checkpatch.pl" --strict --show-types --ignore UNKNOWN_COMMIT_ID $signoff \
			"$out/$b.patch" >"$out/$b.txt" 2>&1
		total=$(grep '^total:' "$out/$b.txt")
		types=$(sed -n 's/^\(WARNING\|CHECK\|ERROR\):\([A-Z_]*\):.*/\1:\2/p' "$out/$b.txt" | sort -u)
		notes=$(sed -n '/^---$/,/^diff --git/p' "$out/$b.patch")
		ok=yes
		for t in $types; do
			case $t in
			ERROR:*) ok=no ;;
			*) echo "$notes" | grep -q "${t#*:}" || ok=no ;;
			esac
		done
		ktap_print_msg "$b: $total${types:+ [$(echo $types)]}"
		if [ $ok = yes ]; then
			[ -z "$types" ] || ktap_print_msg "$b: $(echo $types) justified in its notes below ---"
			ktap_test_pass "$b"
		else
			sed -n '/^\(WARNING\|CHECK\|ERROR\):/,/^$/p' "$out/$b.txt" | sed 's/^/# /'
			ktap_test_fail "$b"
		fi
	done
	ktap_finished
}

ktap_document checkpatch checks
