# What a stage cost on this machine, kept outside the clone so that every
# clone (CI's are new each time) reads it: sourced by qemu/stage.sh (make
# check's stages) and .ci/run (its make runs).  The folder is LAB_COSTS,
# else /var/cache/lab-ci for root, else ~/.cache/lab-ci; one file per
# key, one line per run that passed ("SECONDS KILOBYTES DATE": its
# duration, and what it left in the build folder), the last 5 kept.
#
# The time check reads the shortest of them: a fast day's figure, which
# the slow-day factor (2.2) then scales.  The last run's own duration
# would count a slow day twice, and a stage whose slow-day figure no
# longer fits would never run again to be measured anew.
#
#   cost_put KEY SECONDS [KB]   record a run that passed
#   cost_get KEY                 the shortest recorded (nothing if none)
#   cost_kb KEY                  the last run's kilobytes (nothing if none)
#   fits KEY SLOW-DAY-SECONDS DEADLINE
#       0 if the run fits before DEADLINE (seconds since the epoch) on a
#       slow day: 2.2 x cost_get, else the slow-day figure given; $need,
#       $left and $why say so (fits_figure, below, for a figure of
#       another kind)
#   disk_free DIR                kilobytes free on DIR's file system
#   disk_filled LOG DIR          if LOG says "No space left on device":
#                                that, and what DIR's file system has now
costs=${LAB_COSTS:-$([ "$(id -u)" -eq 0 ] && echo /var/cache/lab-ci || echo "${XDG_CACHE_HOME:-$HOME/.cache}/lab-ci")}
mkdir -p "$costs" 2>/dev/null || costs=${TMPDIR:-/tmp}
cost_put() {
	{ tail -n 4 "$costs/$1.cost" 2>/dev/null; echo "$2 ${3:--} $(date +%F)"; } >"$costs/$1.cost.tmp" &&
		mv "$costs/$1.cost.tmp" "$costs/$1.cost"
}
cost_get() { awk '$1 ~ /^[0-9]+$/ { print $1 }' "$costs/$1.cost" 2>/dev/null | sort -n | head -n1; }
cost_kb() { awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ { kb = $2 } END { print kb }' "$costs/$1.cost" 2>/dev/null; }
fits() {
	fits_figure "$(cost_get "$1")" "its shortest recent run here" "$2" \
		"a slow day's cold run; never run on this machine" "$3"
}
# fits_figure SECONDS WHAT SLOW-DAY-SECONDS WHY DEADLINE: the same for a
# fast day's figure of SECONDS (what WHAT says it is; empty: none, then
# SLOW-DAY-SECONDS, for the reason WHY).
fits_figure() {
	if [ -n "$1" ]; then
		need=$(($1 * 22 / 10))
		why="2.2 x $2, $1 s"
	else
		need=$3
		why=$4
	fi
	left=$(($5 - $(date +%s)))
	[ "$left" -ge "$need" ]
}
disk_free() { df -Pk "$1" | awk 'NR == 2 { print $4 }'; }
disk_filled() {
	! grep -q 'No space left on device' "$1" ||
		echo "the disk filled up (\"No space left on device\" in $1); $(($(disk_free "$2") / 1024)) MB free on $2's file system now"
}
