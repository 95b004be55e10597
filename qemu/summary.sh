#!/bin/sh
# The closing lines of `make check`: each stage's figures, then one
# "N passed, N failed" over all of them.  A stage that left no result
# counts as one failure.
#
# usage: summary.sh [-t] KDIR VARIANT...   (build/KVER; the variants
#        whose last run counts: patched baseline debug builtin ...)
#        -t: those tests and make mail only (make check-tests)
#        summary.sh -a BUILD KVER...   make check-all: each tree's
#        closing line (build/KVER/check.log), then their total
. "$(dirname "$0")/count.sh"
if [ "$1" = -a ]; then
	build=$2
	shift 2
	for t; do
		count_log "$build/$t/check.log"
		echo "check-all: make check KVER=$t: $line ($build/$t/check.log)"
	done
	count_print
	exit
fi
only_tests=0
[ "$1" != -t ] || { only_tests=1; shift; }
k=$1
shift

# skipped STAGE: true if make check cut STAGE (its result "skip: ...").
skipped() {
	case $(cat "$k/stages/$1.result" 2>/dev/null) in
	skip*) return 0 ;;
	esac
	return 1
}

for v; do
	case $v in
	patched|baseline) what="tests on the $v tree" ;;
	debug) what="make stress on the debug kernel" ;;
	baseline-*) what="tests on the ${v#baseline-} kernel, baseline" ;;
	*) what="tests on the $v kernel" ;;
	esac
	# The stage that boots it: the nomodules kernels boot in stage
	# nomodules, the other linked ones (builtin, trim) in stage linked.
	case $v in
	patched|baseline) stage=$v ;;
	debug) stage=stress ;;
	*nomodules*) stage=nomodules ;;
	*) stage=linked ;;
	esac
	line=$(tail -n1 "$k/$v/last-run/summary.txt" 2>/dev/null)
	if [ -z "$line" ] && [ $only_tests = 0 ] && skipped "$stage"; then
		count_add 0 0 1
		echo "check: $what: skipped with stage $stage"
	elif count_line "$line"; then
		echo "check: $what: $line ($k/$v/last-run/)"
	else
		echo "check: $what: no result"
	fi
done

# A gate's report of "ok ...", "FAIL ..." and "skip ..." lines: its count,
# and the failures named.
# usage: gate FILE WHAT
gate() {
	if [ -s "$1" ]; then
		p=$(grep -c '^ok ' "$1") f=$(grep -c '^FAIL ' "$1") s=$(grep -c '^skip ' "$1")
		count_add "$p" "$f" "$s"
		echo "check: $2: $p passed, $f failed$([ "$s" -eq 0 ] || echo ", $s skipped") ($1)"
		grep -E '^(FAIL|skip) ' "$1" | sed 's/^/check:   /'
	else
		count_add 0 1
		echo "check: $2: no result"
	fi
}

# mail_status: make mail's line and count.
mail_status() {
	case $(cat "$k/mail.status" 2>/dev/null) in
	0) count_add 1 0; echo "check: make mail: git am of the mails, and b4 am of each thread, reproduce the applied tree" ;;
	skip) count_add 0 0 1; echo "check: make mail: skipped, no git identity to sign with" ;;
	*) count_add 0 1; echo "check: make mail: failed (see above)" ;;
	esac
}

if [ $only_tests = 1 ]; then
	mail_status
	count_print
	exit
fi

# The stages' results and times (make check's graph; not counted: each
# stage's tests are counted below).
for r in "$k"/stages/*.result; do
	[ -f "$r" ] || continue
	n=$(basename "$r" .result)
	if skipped "$n"; then
		echo "check: stage $n: $(cat "$r")"
	else
		echo "check: stage $n: $(cat "$r"), $(cat "$k/stages/$n.time" 2>/dev/null) s"
	fi
done

gate "$k/guard.txt" "packages before package files, make -n of each target"

if skipped bisect; then
	count_add 0 0 1
	echo "check: bisect builds of stage bisect: skipped with it"
fi
if [ -s "$k/bisect.txt" ]; then
	# A step not built (nothing its patch changes is built in that
	# configuration) is not counted as passed: skipped.
	n=$(grep -c '^[a-z]* *[0-9]*/[0-9]* ok .*(nothing it changes is built here)' "$k/bisect.txt")
	p=$(grep -c '^[a-z]* *[0-9]*/[0-9]* ok ' "$k/bisect.txt")
	p=$((p - n))
	f=$(grep -c '^[a-z]* *[0-9]*/[0-9]* FAIL ' "$k/bisect.txt")
	count_add "$p" "$f" "$n"
	# Steps on this machine's record (qemu/bisect.sh): built here
	# before from the same tree, tools, configuration and patches.
	r=$(grep '^[a-z]* *[0-9]*/[0-9]* ok .*(built here ' "$k/bisect.txt" |
		grep -vc '(nothing it changes is built here)')
	[ "$r" -eq 0 ] && r='' || r=" ($r of them as built here before from the same inputs)"
	echo "check: bisect builds: $p passed$r, $f failed, $n skipped: nothing the patch changes is built there ($k/bisect.txt)"
	grep '^bisect:' "$k/bisect.txt" | sed 's/^/check:   /'
elif ! skipped bisect; then
	count_add 0 1
	echo "check: bisect builds: no result"
fi

gate "$k/static.txt" "sparse and W=1, files the series touches"

mail_status

if skipped coverage; then
	count_add 0 0 1
	echo "check: coverage: skipped with stage coverage"
else
	gate "$k/coverage/results.txt" "coverage: gcov data of each kernel, every changed line run or explained"
	grep '^coverage: [0-9]* of [0-9]* changed lines executed' "$k/coverage/table.txt" 2>/dev/null ||
		echo "coverage: no figure ($k/coverage/)"
fi

count_print
