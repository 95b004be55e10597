#!/bin/sh
# One stage of make check (a target of its stage graph): run COMMAND with
# its whole output in DIR/NAME.log, and print what a person follows: a
# line when it starts (with the time it took last time, when known) and
# when it ends (result, duration, log), and, prefixed with the stage's
# name, the lines of progress (build: and boot: every 30 s in a long
# step, each bisect step), the closing counts and the failures.  The result, "ok" or
# "FAIL exit code N", goes to DIR/NAME.result, the duration to
# DIR/NAME.time.  It exits 0 whatever the command did: every stage runs,
# and make check's summary judges.  Under make -n it only prints the
# command.
#
# usage: stage.sh DIR NAME COMMAND...
set -u
dir=$1 name=$2
shift 2
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
last=$(cat "$dir/$name.time" 2>/dev/null)
t0=$(date +%s)
echo "stage $name: start $(date +%H:%M:%S)${last:+, took $last s last time}, log: $log"
{ "$@" 2>&1; echo $? >"$dir/$name.rc"; } | tee "$log" |
	grep --line-buffered -E '^(build|boot|bisect|series|test modules|check|mail|coverage|static|tree|linked|stress|guard): |^[0-9]+ passed, [0-9]+ failed|^[a-z]+ +[0-9]+/[0-9]+ (ok|FAIL) |^(FAIL|XPASS) |^make(\[[0-9]+\])?: \*\*\*' |
	sed -u "s/^/  [$name] /"
rc=$(cat "$dir/$name.rc" 2>/dev/null || echo 1)
t=$(($(date +%s) - t0))
echo "$t" >"$dir/$name.time"
if [ "$rc" -eq 0 ]; then
	echo ok >"$dir/$name.result"
	echo "stage $name: ok in $t s"
else
	echo "FAIL exit code $rc" >"$dir/$name.result"
	echo "stage $name: FAIL (exit code $rc) in $t s, log: $log"
fi
exit 0
