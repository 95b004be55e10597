# Progress of a long step, for a person waiting: sourced by the stage
# scripts (qemu/build.sh, qemu/boot.sh).
#
#   progress_start COMMAND...   from now on, in the background, show the
#                               line COMMAND prints (what is done of what)
#                               and the time since the start
#   progress_stop               end it (and erase the line on a terminal)
#
# On a terminal (stderr), one line updated every second, from the third
# second on, erased when the step ends; in a log, a line every
# PROGRESS_EVERY (30) seconds.  A step shorter than that prints nothing.
progress_start() {
	(
		t0=$(date +%s)
		every=${PROGRESS_EVERY:-30}
		due=$((t0 + every))
		while sleep 1; do
			now=$(date +%s) el=$((now - t0))
			if [ -t 2 ]; then
				[ $el -ge 3 ] || continue
				printf '\r\033[K%s, %d:%02d' "$("$@")" $((el / 60)) $((el % 60)) >&2
			elif [ "$now" -ge $due ]; then
				printf '%s, %d:%02d\n' "$("$@")" $((el / 60)) $((el % 60)) >&2
				due=$((due + every))
			fi
		done
	) &
	progress_pid=$!
}

progress_stop() {
	kill "$progress_pid" 2>/dev/null
	wait "$progress_pid" 2>/dev/null || true
	[ ! -t 2 ] || printf '\r\033[K' >&2
	return 0
}
