# What a stage cost on this machine, kept outside the clone so that every
# clone (CI's are new each time) reads it: sourced by qemu/stage.sh (make
# check's stages) and .ci/run (its make runs).  The folder is LAB_COSTS,
# else /var/cache/lab-ci for root, else ~/.cache/lab-ci; one file per
# record, "KEY SECONDS [KILOBYTES]": its duration and what it left in the
# build folder, written only when it succeeded.
#
#   cost_put KEY SECONDS [KB]   record a successful run
#   cost_get KEY                 its seconds (nothing if never recorded)
#   cost_kb KEY                  its kilobytes (nothing if not recorded)
#   fits KEY SLOW-DAY-SECONDS DEADLINE
#       0 if the run fits before DEADLINE (seconds since the epoch) on a
#       slow day: 2.2 x its last duration here, else the slow-day figure
#       given; $need, $left and $why say so
#   disk_free DIR                kilobytes free on DIR's file system
costs=${LAB_COSTS:-$([ "$(id -u)" -eq 0 ] && echo /var/cache/lab-ci || echo "${XDG_CACHE_HOME:-$HOME/.cache}/lab-ci")}
mkdir -p "$costs" 2>/dev/null || costs=${TMPDIR:-/tmp}
cost_put() {
	echo "$1 $2 ${3:-}" >"$costs/$1.cost.tmp" && mv "$costs/$1.cost.tmp" "$costs/$1.cost"
}
cost_get() { awk '{ print $2 }' "$costs/$1.cost" 2>/dev/null; }
cost_kb() { awk '{ print $3 }' "$costs/$1.cost" 2>/dev/null; }
fits() {
	last=$(cost_get "$1")
	if [ -n "$last" ]; then
		need=$((last * 22 / 10))
		why="2.2 x its last $last s on this machine"
	else
		need=$2
		why="a slow day's cold run; never run on this machine"
	fi
	left=$(($3 - $(date +%s)))
	[ "$left" -ge "$need" ]
}
disk_free() { df -Pk "$1" | awk 'NR == 2 { print $4 }'; }
