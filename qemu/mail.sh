#!/bin/sh
# Target "mail": the series as it would be sent, one thread per subsystem
# (one per patches/ folder the series uses: mtd, drm), each with a cover
# letter (patches/<folder>/cover-letter: subject line, blank line, body)
# followed by the shortlog and diffstat.  Every patch gets the sender's
# Signed-off-by (git config user.name/user.email; none configured: refuse),
# To: the maintainers and Cc: the lists that scripts/get_maintainer.pl of
# the applied tree names for it; the cover letter goes to all of them.
# Then the proof: `git am` of every mail, in series order, onto a git
# tree of the pristine source must give exactly the applied tree; and
# again as a maintainer takes each thread off the list: b4 am of the
# thread's mbox, its output applied with git am.
#
# usage: mail.sh SRC SERIES OUT
set -eu
src=$(cd "$1" && pwd) series=$2 out=$3
top=$(pwd)

name=$(git config user.name || true)
email=$(git config user.email || true)
if [ -z "$name" ] || [ -z "$email" ]; then
	echo "mail: no git identity to sign the patches with; set it first:" >&2
	echo "  git config --global user.name 'Your Name'" >&2
	echo "  git config --global user.email you@example.org" >&2
	exit 1
fi
sob="Signed-off-by: $name <$email>"
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
patches=$(qemu/series.sh "$series")
kver=${KVER:-6.1}
stamp=$(date +%Y%m%d%H%M%S)
host=$(echo "$email" | sed 's/.*@//')

# Fixes: commits the tree's history lacks.  The lab's tree is Debian's
# tarball as one commit (tag pristine), so get_maintainer.pl's --fixes
# (Cc the signers of the commit a patch fixes) would run git log on a
# commit that is not there and print git's "fatal: ambiguous argument"
# for each.  Each such commit is named once here instead, and
# get_maintainer.pl runs with --nofixes; in a kernel git clone that holds
# them it runs with --fixes, as when the patches are sent.
fixes=--fixes
for p in $patches; do
	for id in $(sed -n 's/^Fixes: *\([0-9a-f]\{6,40\}\).*/\1/p' "$p"); do
		git -C "$src" cat-file -e "$id^{commit}" 2>/dev/null && continue
		fixes=--nofixes
		echo "mail: $(basename "$p"): Fixes: $id is not in this tree's history (a tarball): its signers are not in Cc; get_maintainer.pl in a kernel git clone adds them"
	done
done

# recipients PATCH...: "To: ..." and "Cc: ..." lines from get_maintainer.
recipients() {
	(cd "$src" && ./scripts/get_maintainer.pl --nogit --nogit-fallback \
		$fixes --norolestats "$@") >"$out/.gm"
	to=$(grep '<' "$out/.gm" | paste -sd, - | sed 's/,/, /g')
	cc=$(grep -v '<' "$out/.gm" | paste -sd, - | sed 's/,/, /g')
	[ -z "$to" ] || echo "To: $to"
	[ -z "$cc" ] || echo "Cc: $cc"
}

# subject PATCH: its subject, unfolded, without the [PATCH] prefix.
subject() {
	awk '/^Subject: / { s = $0; on = 1; next }
		on && /^[ \t]/ { s = s $0; next }
		on { exit }
		END { sub(/^Subject: (\[[^]]*\] )?/, "", s); gsub(/[ \t]+/, " ", s); print s }' "$1"
}

# cover_body FILE: the body of a cover letter.  A paragraph under a line
# "%stage [KVER:]NAME..." says what a stage of make check proves; it is
# sent only if each stage named passed in the last make check of its
# tree (build/KVER/stages/NAME.result is "ok"; KVER: this tree's when not
# given), and said left out otherwise: a stage cut for time takes its
# sentence with it.  A paragraph under "%else [KVER:]NAME..." right after
# one is its stand-in: sent, on the same condition, only if that one was
# left out (7.2's own stress run, else 6.1's).
builds=$(dirname "$(dirname "$(dirname "$src")")")
# stages_ok NAME...: each stage named passed; says which did not.
stages_ok() {
	ok=1
	for st in "$@"; do
		case $st in
		*:*) r=$builds/${st%%:*}/stages/${st#*:}.result ;;
		*) r=$builds/$kver/stages/$st.result ;;
		esac
		r=$(cat "$r" 2>/dev/null || echo "no result")
		[ "$r" = ok ] && continue
		ok=0
		echo "mail: $g: cover letter: left out the paragraph that stage $st proves ($r)" >&2
	done
	[ $ok = 1 ]
}
cover_body() {
	keep=1 blank=0 sent=1
	tail -n +3 "$1" | while IFS= read -r line; do
		case $line in
		"%stage "*)
			# shellcheck disable=SC2086 # a list of stages
			if stages_ok ${line#%stage }; then keep=1; else keep=0; fi
			sent=$keep
			continue ;;
		"%else "*)
			keep=0
			if [ $sent = 0 ]; then
				# shellcheck disable=SC2086
				if stages_ok ${line#%else }; then
					keep=1
					echo "mail: $g: cover letter: sent the paragraph that stage(s) ${line#%else } prove(s) in its place" >&2
				fi
			fi
			sent=1
			continue ;;
		'')
			# Written before the next line sent: none at the end,
			# one between the paragraphs sent.
			keep=1 blank=1
			continue ;;
		esac
		[ $keep = 1 ] || continue
		[ $blank = 0 ] || echo
		blank=0
		printf '%s\n' "$line"
	done
}

# folder PATCH: the patches/ folder a patch belongs to (mtd, drm), also
# for a tree's variant (patches/mtd/6.12/...).
folder() {
	d=$(dirname "$1")
	[ "$(basename "$d")" != "$kver" ] || d=$(dirname "$d")
	basename "$d"
}

# The folders, in the order the series first uses them.
groups=$(for p in $patches; do folder "$p"; done | awk '!seen[$0]++')
for g in $groups; do
	gp=$(for p in $patches; do
		if [ "$(folder "$p")" = "$g" ]; then echo "$top/$p"; fi
	done)
	n=$(echo "$gp" | wc -l)
	cover=$top/patches/$g/$kver/cover-letter
	[ -f "$cover" ] || cover=$top/patches/$g/cover-letter
	[ -f "$cover" ] || { echo "mail: $cover is missing" >&2; exit 1; }
	mkdir -p "$out/$g"
	msgid="<$stamp-$g-0@$host>"
	{
		echo "From: $name <$email>"
		recipients $gp
		echo "Subject: [PATCH 0/$n] $(head -n1 "$cover")"
		echo "Message-Id: $msgid"
		echo "MIME-Version: 1.0"
		echo "Content-Type: text/plain; charset=UTF-8"
		echo
		cover_body "$cover"
		echo
		for p in $gp; do subject "$p"; done |
			sed "s/^/  /" | { echo "$name ($n):"; cat; }
		echo
		cat $gp | diffstat -p1
		echo
		echo "base: $(basename "$(git -C "$src" log -1 --format=%s pristine | sed 's/^pristine //')" .tar.xz)" \
			"(based on $(qemu/version.sh "$kver"))"
	} >"$out/$g/0000-cover-letter.patch"
	i=0
	for p in $gp; do
		i=$((i + 1))
		f=$out/$g/$(basename "$p")
		git interpret-trailers --trailer "$sob" "$p" |
		awk -v i="$i" -v n="$n" -v rcpt="$(recipients "$p")" \
		    -v id="<$stamp-$g-$i@$host>" -v ref="$msgid" '
			!hdr && /^Subject: / {
				sub(/^Subject: \[PATCH[^]]*\]/, "Subject: [PATCH " i "/" n "]")
				print; insubj = 1; next
			}
			insubj && /^[ \t]/ { print; next }
			insubj {
				print rcpt; print "Message-Id: " id
				print "In-Reply-To: " ref; print "References: " ref
				insubj = 0; hdr = 1
			}
			{ print }' >"$f"
	done
	echo "mail: $g: $out/$g/, cover letter and $n patch(es)"
done
rm -f "$out/.gm"

# fail_am WORKTREE MESSAGE: stop git am in WORKTREE, remove it, fail.
fail_am() {
	echo "mail: $2" >&2
	git -C "$1" am --abort 2>/dev/null
	git -C "$src" worktree remove --force "$1"
	exit 1
}
# same_tree WORKTREE HOW: the tree that HOW built in WORKTREE (removed
# then) must be the applied series'.
same_tree() {
	got=$(git -C "$1" rev-parse 'HEAD^{tree}')
	git -C "$src" worktree remove --force "$1"
	if [ "$want" != "$got" ]; then
		echo "mail: $2 gives tree $got, the applied series $want" >&2
		exit 1
	fi
	echo "mail: $2, applied to pristine, reproduces the applied tree ($got)"
}

# The proof: git am onto the pristine tree gives the applied tree.
am=$out/.am
rm -rf "$am"
git -C "$src" worktree add -q --detach "$am" pristine
for g in $groups; do
	for f in "$out/$g"/[0-9]*.patch; do
		case $f in */0000-cover-letter.patch) continue ;; esac
		git -C "$am" -c user.name="$name" -c user.email="$email" \
			am -q --keep-cr "$f" >/dev/null || fail_am "$am" "git am failed on $f"
	done
done
want=$(cd "$src" && idx=$(mktemp) && cp "$(git rev-parse --git-dir)/index" "$idx" &&
	GIT_INDEX_FILE=$idx git add -A && GIT_INDEX_FILE=$idx git write-tree; rm -f "$idx")
same_tree "$am" "git am of all mails"

# The proof as a maintainer takes a thread: each folder's mails as one
# mbox (the list's archive of the thread), read by b4 am (offline: the
# local mbox, no cache), whose am-ready output git am applies, thread
# after thread, to the pristine tree: the applied tree again.
b4=$out/.b4
rm -rf "$b4" && mkdir -p "$b4"
git -C "$src" worktree add -q --detach "$b4/tree" pristine
for g in $groups; do
	# b4 0.12 (Debian 12) reads a local mbox with Python's compat32
	# parser and cannot copy a folded header (format-patch folds long
	# From: and Subject: lines): the mbox has its headers unfolded.
	for f in "$out/$g"/*.patch; do
		head -n1 "$f" | grep -q '^From ' || echo "From lab@z Thu Jan  1 00:00:00 1970"
		awk '!body && /^$/ { if (h != "") print h; h = ""; body = 1 }
			!body && /^[ \t]/ { sub(/^[ \t]+/, " "); h = h $0; next }
			!body { if (h != "") print h; h = $0; next }
			{ print }' "$f"
		echo
	done >"$b4/$g.mbox"
	mkdir -p "$b4/$g"
	if ! b4 --offline-mode am -C -m "$b4/$g.mbox" -o "$b4/$g" -n "$g" "<$stamp-$g-0@$host>" \
			>"$b4/$g.log" 2>&1 || [ ! -s "$b4/$g/$g.mbx" ]; then
		cat "$b4/$g.log" >&2
		echo "mail: b4 am could not take the $g thread (log: $b4/$g.log)" >&2
		git -C "$src" worktree remove --force "$b4/tree"
		exit 1
	fi
	git -C "$b4/tree" -c user.name="$name" -c user.email="$email" am -q "$b4/$g/$g.mbx" >/dev/null 2>&1 ||
		fail_am "$b4/tree" "git am of b4's $g thread failed on the pristine tree (log: $b4/$g.log)"
	echo "mail: $g: b4 am read the thread: $(grep -c '^Subject: \[PATCH' "$b4/$g/$g.mbx") patch(es), $(sed -n 's/^ *\(Total patches:.*\)/\1/p' "$b4/$g.log" | head -n1)"
done
same_tree "$b4/tree" "b4 am of each thread"
