#!/bin/sh
# One stage of make check (a target of its stage graph): run COMMAND with
# its whole output in DIR/NAME.log, and print what a person follows: a
# line when it starts (with its shortest recent run here, when known) and
# when it ends (result, duration, log), and, prefixed with the stage's
# name, the lines of progress (build: and boot: every 30 s in a long
# step, each bisect step), the closing counts and the failures.  The result, "ok" or
# "FAIL exit code N", goes to DIR/NAME.result, the duration to
# DIR/NAME.time, and, when it succeeded, to this machine's record
# (qemu/costs.sh, key KVER.NAME), which the next run's start line and
# time check read in whichever clone.  It exits 0 whatever the command
# did: every stage runs, and make check's summary judges.  Under make -n
# it only prints the command.
#
# -g SECONDS: a stage that CI may cut for time.  With CHECK_DEADLINE
#   (seconds since the epoch; .ci/run sets it) it runs only if it fits
#   before it on a slow day (2.2 x its shortest recent run here, else
#   SECONDS);
#   otherwise its result is "skip: " and the reason, with the command to
#   run it by hand, and it counts as skipped.
# -r NAME: it reads what stage NAME made; skipped with it.
# -c NAME: the name its time is recorded under and checked against, when
#   it is not the stage's (a stage whose work differs from run to run:
#   bisect with every step on this machine's record builds nothing).
#
# usage: stage.sh DIR [-g SECONDS] [-r NAME] [-c NAME] NAME COMMAND...
set -u
dir=$1 slow='' after='' cost=''
shift
while :; do
	case $1 in
	-g) slow=$2; shift 2 ;;
	-r) after=$2; shift 2 ;;
	-c) cost=$2; shift 2 ;;
	*) break ;;
	esac
done
name=$1
shift
# make -n: MAKEFLAGS' first word holds the one-letter flags (when it
# does not start with a dash).
flags=$(echo "${MAKEFLAGS:-}" | awk '{ print $1 }')
case $flags in
-*|'') ;;
*n*) echo "stage $name: $*"; exit 0 ;;
esac
mkdir -p "$dir"
log=$dir/$name.log
rm -f "$dir/$name.result"
. "$(dirname "$0")/costs.sh"
key=${COST_TAG:+$COST_TAG.}${KVER:-6.1}.${cost:-$name}
# skip REASON: the stage does not run; its result says why.
skip() {
	echo "skip: $1" >"$dir/$name.result"
	echo "stage $name: skipped: $1"
	exit 0
}
case $after in
'') ;;
*) case $(cat "$dir/$after.result" 2>/dev/null) in
	skip*) skip "it reads what stage $after makes, which was skipped" ;;
	esac ;;
esac
# The command as a shell reads it back.
command_line() {
	for a; do
		case $a in
		*[[:space:]]*) printf "'%s' " "$a" ;;
		*) printf '%s ' "$a" ;;
		esac
	done | sed 's/ $//; s/--no-print-directory //g'
}
if [ -n "$slow" ] && [ -n "${CHECK_DEADLINE:-}" ] && ! fits "$key" "$slow" "$CHECK_DEADLINE"; then
	skip "$left s left before CHECK_DEADLINE (CI's end), it needs up to $need s ($why); run it by hand: $(command_line "$@")"
fi
last=$(cost_get "$key")
t0=$(date +%s)
echo "stage $name: start $(date +%H:%M:%S)${last:+, $last s at best lately${cost:+ ($cost)}}, log: $log"
{ "$@" 2>&1; echo $? >"$dir/$name.rc"; } | tee "$log" |
	grep --line-buffered -E '^(build|boot|bisect|series|test modules|check|mail|coverage|static|tree|linked|stress|guard): |^[0-9]+ passed, [0-9]+ failed|^[a-z]+ +[0-9]+/[0-9]+ (ok|FAIL) |^(FAIL|XPASS) |^make(\[[0-9]+\])?: \*\*\*' |
	sed -u "s/^/  [$name] /"
rc=$(cat "$dir/$name.rc" 2>/dev/null || echo 1)
t=$(($(date +%s) - t0))
echo "$t" >"$dir/$name.time"
if [ "$rc" -eq 0 ]; then
	echo ok >"$dir/$name.result"
	echo "stage $name: ok in $t s"
	cost_put "$key" "$t"
else
	echo "FAIL exit code $rc" >"$dir/$name.result"
	echo "stage $name: FAIL (exit code $rc) in $t s, log: $log"
	# A full disk fails every step after it: say so once, here.
	full=$(disk_filled "$log" "$dir")
	[ -z "$full" ] || echo "stage $name: $full"
fi
exit 0
