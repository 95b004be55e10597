#!/bin/sh
# Stage "coverage": which of the lines the series adds or changes the
# guest tests execute, per patch, measured by the kernel's gcov.
#
# usage: coverage.sh kbuild-args SERIES
#          kbuild's GCOV_PROFILE_<file>.o=y for every C file the series
#          changes (the rest of the kernel is not instrumented)
#        coverage.sh report PRISTINE SERIES OUT VD...
#          VD: a variant folder of a coverage kernel (src/, obj/ and
#          last-run/gcov.b64, the data its guest sent, or
#          last-run/*/gcov.b64, one per guest of a run of several, as make
#          stress's); each one's data
#          goes next to its .gcno files, lcov reads it (with --initial,
#          so that code no test loaded counts as not run), the kernels'
#          data are added up and genhtml makes OUT/html.  Then, from the
#          series' diffs (each patch a commit of a small git repository,
#          OUT/blame, of the files it changes, and git blame of the
#          result), a table per patch of the executable lines it adds or
#          changes that are still in the final tree, how many ran, each
#          one that did not with its reason (qemu/coverage.why: one
#          entry per line, by file, function and the line's text, for
#          every tree or, after "[KVER] ", for one), and
#          "coverage: N of M changed lines executed".  An unexecuted line
#          without an entry fails, and so does an entry that excuses no
#          unexecuted line (its line ran, or is gone).  OUT/results.txt:
#          the stage's own checks, as "ok|FAIL NAME" lines.
set -eu

# The files the series changes, from its diffs.
series_files() {
	qemu/series.sh -f "$1"
}

case ${1:-} in
kbuild-args)
	# kbuild reads GCOV_PROFILE_<stem>.o, the stem being the object's
	# name (6.x) or its path under the folder whose Makefile builds it
	# (7.x: gt/intel_rps in i915's), so that one variable names every
	# object of that stem in the kernel: GCOV_PROFILE_main.o=y would
	# instrument arch/x86/boot/main.o too, which cannot link gcov.  Each
	# stem's variable is y only for the objects the series changes:
	# $(LAB_GCOV_$@), with LAB_GCOV_<object>=y for each (make expands it
	# as it compiles $@; the shell and the lab's make pass it as text).
	series_files "$2" | sed -n 's|\.c$||p' | while read -r f; do
		echo "LAB_GCOV_$f.o=y"
		stem=$f
		while :; do
			echo "GCOV_PROFILE_$stem.o=\$(LAB_GCOV_\$@)"
			case $stem in */*) stem=${stem#*/} ;; *) break ;; esac
		done
	done | sort -u | tr '\n' ' '
	exit 0 ;;
report) shift ;;
*) echo "usage: coverage.sh kbuild-args SERIES | report PRISTINE SERIES OUT VD..." >&2; exit 2 ;;
esac
pristine=$1 series=$2 out=$3
shift 3
top=$(pwd)
why=$top/qemu/coverage.why
rm -rf "$out" && mkdir -p "$out"
results=$out/results.txt
: >"$results"
check() { # NAME OK(0|1) [WHY]
	if [ "$2" = 0 ]; then echo "ok   coverage.$1" >>"$results"
	else echo "FAIL coverage.$1: $3" >>"$results"; fi
}

# A patch's subject, folded lines joined, without "[PATCH n/m]".
subject() {
	awk '/^Subject: / { s = $0; on = 1; next } on && /^[ \t]/ { s = s $0; next } on { exit }
		END { sub(/^Subject: (\[[^]]*\] )?/, "", s); gsub(/[ \t]+/, " ", s); print s }' "$1"
}

# Each patch a commit, over the pristine files the series changes; blame
# of the final files names the patch of each line.
files=$(series_files "$series")
repo=$out/blame
git init -q "$repo"
for f in $files; do
	mkdir -p "$repo/$(dirname "$f")"
	git -C "$pristine" show "pristine:$f" >"$repo/$f" 2>/dev/null || rm -f "$repo/$f"
done
g() { git -C "$repo" -c user.name=lab -c user.email=lab@localhost -c commit.gpgsign=false "$@"; }
g add -A && g commit -q --allow-empty -m base
i=0
for p in $(qemu/series.sh "$series"); do
	i=$((i + 1))
	(cd "$repo" && git apply "$top/$p") || { echo "coverage: $p does not apply" >&2; exit 1; }
	g add -A && g commit -q --allow-empty -m "$i $(echo "$p" | sed 's|^patches/||; s|-.*||') $(subject "$top/$p")"
done
# Every kernel's counters, next to its .gcno files, into one tracefile
# with the paths relative to the tree.
n=0
for vd; do
	n=$((n + 1))
	vd=$(cd "$vd" && pwd)
	name=$(basename "$vd") obj=$vd/obj src=$vd/src
	# Its tree must be the series' result.
	for f in $files; do
		[ ! -f "$repo/$f" ] || cmp -s "$repo/$f" "$src/$f" ||
			{ echo "coverage: $src/$f is not the series' $f" >&2; exit 1; }
	done
	# Each changed file the kernel compiled carries gcov (its object
	# calls __gcov_init; a .gcno may be left from an earlier build): one
	# without would have no line counted, silently.
	bare=
	for f in $files; do
		case $f in *.c) ;; *) continue ;; esac
		o=$obj/${f%.c}.o
		[ ! -f "$o" ] || nm -u "$o" | grep -qw __gcov_init || bare="$bare $f"
	done
	check "$name.instrumented" "$([ -z "$bare" ]; echo $?)" "compiled without gcov:$bare (qemu/coverage.sh kbuild-args)"
	# Its runs' data: last-run/gcov.b64, or one in each guest's folder
	# (make stress: last-run/guest1/, guest2/), each put next to the
	# .gcno files and read by lcov in turn; lcov -a adds the counts up.
	data=$(ls "$vd"/last-run/gcov.b64 "$vd"/last-run/*/gcov.b64 2>/dev/null) || true
	missing=${data:-$vd/last-run/gcov.b64}
	lcov_ok=1
	lcov -q -c -i -d "$obj" -o "$out/$name.zero.info" >"$out/$name.lcov.log" 2>&1 || lcov_ok=0
	set -- -a "$out/$name.zero.info"
	r=0 nfiles=0
	for b64 in $data; do
		find "$obj" -name '*.gcda' -delete
		r=$((r + 1)) tmp=$out/gcda.$n.$r missing=$b64
		mkdir -p "$tmp"
		[ -s "$b64" ] && tr -d '\r' <"$b64" | base64 -d | tar -xzf - -C "$tmp" 2>"$out/$name.$r.tar.err" &&
			[ -d "$tmp$obj" ] || break
		missing=
		(cd "$tmp$obj" && find . -name '*.gcda') | while read -r f; do cp "$tmp$obj/$f" "$obj/$f"; done
		nfiles=$((nfiles + $(find "$tmp$obj" -name "*.gcda" | wc -l)))
		lcov -q -c -d "$obj" -o "$out/$name.run.$r.info" >>"$out/$name.lcov.log" 2>&1 || lcov_ok=0
		set -- "$@" -a "$out/$name.run.$r.info"
	done
	if [ -n "$missing" ]; then
		check "$name.gcov_data" 1 "no gcov data for $obj in $missing"
		continue
	fi
	check "$name.gcov_data" 0
	echo "coverage: $name: gcov data of $nfiles files, $r run(s): $(echo $data)"
	[ $lcov_ok = 1 ] && lcov -q "$@" -o "$out/$name.info" >>"$out/$name.lcov.log" 2>&1 || {
		check "$name.lcov" 1 "lcov failed, log: $out/$name.lcov.log"
		continue
	}
	# SF: as lcov resolved it (absolute, in SRC), made relative.
	src_abs=$(cd "$src" && pwd -P)
	sed -e "s|^SF:$src_abs/|SF:|" -e "s|^SF:$src/|SF:|" "$out/$name.info" >"$out/$name.rel.info"
	echo "$out/$name.rel.info" >>"$out/infos"
	echo "$src" >>"$out/srcs"
done
[ -s "$out/infos" ] || { echo "coverage: no gcov data from any kernel" >&2; cat "$results"; exit 1; }
set --
for i in $(cat "$out/infos"); do set -- "$@" -a "$i"; done
lcov -q "$@" -o "$out/all.info" >"$out/lcov.log" 2>&1
src=$(head -n1 "$out/srcs")
(cd "$src" && genhtml -q --legend -t "the series, guest tests" -o "$out/html" "$out/all.info") \
	>"$out/genhtml.log" 2>&1 || check genhtml 1 "genhtml failed, log: $out/genhtml.log"

g log --format='%H %s' >"$out/patches"
for f in $files; do
	[ -f "$repo/$f" ] || continue
	g blame --porcelain HEAD -- "$f" | awk -v f="$f" 'length($1) == 40 && $1 ~ /^[0-9a-f]+$/ && $3 ~ /^[0-9]+$/ { print f, $1, $3 }'
done >"$out/lines"     # FILE SHA LINE, every line of the final files

# Join: lines a patch put there (not base) that gcov calls executable.
awk -v why="$why" -v out="$out" -v kver="${KVER:-6.1}" '
FILENAME == out "/patches" {
	if ($2 == "base") next
	s = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ /, "", s)
	pn[$1] = $3; subj[$3] = s; order[$2 + 0] = $3; np++; next
}
FILENAME == out "/all.info" {
	if (/^SF:/) { sf = substr($0, 4) }
	else if (/^DA:/) { split(substr($0, 4), a, ","); da[sf SUBSEP a[1]] = a[2] }
	else if (/^FN:/) { split(substr($0, 4), a, ","); fn[sf, a[1]] = a[2]; fl[sf] = fl[sf] " " a[1] }
	next
}
# FILE:FUNCTION, TAB, the text of the line (blanks at both ends left out), TAB, why
FILENAME == why {
	if ($0 ~ /^[ \t]*(#|$)/) next
	# "[KVER] " before an entry: it holds for linux-source-KVER only.
	if ($0 ~ /^\[/) {
		if (index($0, "[" kver "]") != 1) next
		sub(/^\[[^]]*\][ \t]*/, "")
	}
	if (split($0, w, "\t") != 3 || w[1] !~ /^[^:]+:[^:]+$/) { badwhy[++nbad] = $0; next }
	k = w[1] SUBSEP w[2]; reason[k] = w[3]; whyline[k] = w[1] ": " w[2]; next
}
{
	f = $1; sha = $2; line = $3
	if (!(sha in pn) || !((f SUBSEP line) in da)) next
	p = pn[sha]; total[p]++; M++
	# The function: the last one that starts at or before the line.
	best = 0; name = "?"; nf = split(fl[f], st, " ")
	for (j = 1; j <= nf; j++) if (st[j] + 0 <= line + 0 && st[j] + 0 > best) { best = st[j] + 0; name = fn[f, st[j]] }
	k = f ":" name SUBSEP text(f, line)
	if (da[f SUBSEP line] + 0 > 0) {
		ran[p]++; N++
		if (k in reason) ranwhy[k] = ranwhy[k] sprintf(" %s:%d", f, line)
		next
	}
	r = ""
	if (k in reason) { r = reason[k]; used[k] = 1 }
	if (r == "") { unexplained++; r = "NO REASON GIVEN (qemu/coverage.why)" }
	missed[++nm] = sprintf("  %s:%d %s() (%s): %s", f, line, name, p, r)
}
# The text of line N of FILE in the final tree, trimmed.
function text(file, n,    l, i) {
	if (!(file in loaded)) {
		loaded[file] = 1; i = 0
		while ((getline l < (out "/blame/" file)) > 0) src[file, ++i] = l
		close(out "/blame/" file)
	}
	l = src[file, n]; gsub(/^[ \t]+|[ \t]+$/, "", l)
	return l
}
END {
	print "coverage: per patch, the executable lines it adds or changes that are in the final tree:"
	printf "  %-9s %5s %5s  %s\n", "patch", "lines", "ran", "subject"
	for (i = 1; i <= np; i++) { p = order[i]
		printf "  %-9s %5d %5d  %s\n", p, total[p], ran[p], subj[p] }
	if (nm) { print "coverage: not executed (file:line function() (patch): why):"; for (i = 1; i <= nm; i++) print missed[i] }
	printf "coverage: %d of %d changed lines executed\n", N, M
	for (i = 1; i <= nbad; i++) { print "coverage: qemu/coverage.why: not FILE:FUNCTION<TAB>LINE<TAB>WHY: " badwhy[i]; stale++ }
	for (k in reason) if (!(k in used)) {
		stale++
		if (k in ranwhy) print "coverage: qemu/coverage.why excuses a line that ran (" substr(ranwhy[k], 2) "): " whyline[k]
		else print "coverage: qemu/coverage.why excuses no changed line of the series: " whyline[k]
	}
	print stale + 0 >out "/stale"
	print unexplained + 0 >out "/unexplained"
	print M + 0 >out "/total"
}' "$out/patches" "$out/all.info" "$why" "$out/lines" | tee "$out/table.txt"
u=$(cat "$out/unexplained")
check lines_executed_or_explained "$([ "$u" -eq 0 ]; echo $?)" "$u changed line(s) not executed and not explained in qemu/coverage.why"
st=$(cat "$out/stale")
check exceptions_all_needed "$([ "$st" -eq 0 ]; echo $?)" "$st entr(y/ies) of qemu/coverage.why excuse no unexecuted line (or are malformed): remove them"
check changed_lines_found "$([ "$(cat "$out/total")" -gt 0 ]; echo $?)" "no executable changed line found: gcov data and the series do not meet"
echo "coverage: HTML report: $out/html/index.html"
! grep -q '^FAIL' "$results"
