#!/bin/sh
# make stress's two guests: which tests the second one runs.  The tests
# are balanced by what each took in this machine's last stress run of
# the tree (longest first, each to the guest with less time so far, as
# make's jobs would be); each guest keeps their order.  The times are
# kept with the stage costs (qemu/costs.sh's folder, outside the clone,
# so that CI's new clones read them), one file per KEY, "TEST SECONDS"
# lines.  With no time of any of the tests on record (a new machine),
# guest2 gets the tests named in FALLBACK; a test with no time of its own
# counts as the mean of the others.
#
# usage: split.sh KEY FALLBACK TEST...     guest2's tests, on one line
#                                          (what the split is made of, on
#                                          stderr)
#        split.sh -r KEY RUNDIR            record the "# time: TEST: N s"
#                                          lines of RUNDIR's guest(s)
set -u
. "$(dirname "$0")/costs.sh"
case ${1:-} in
-r)
	f=$costs/$2.times
	# The run's times first, then the record's other tests.
	cat "$3"/guest*/results.ktap 2>/dev/null |
		sed -n 's/^# time: \([^:]*\): \([0-9]*\) s$/\1 \2/p' |
		awk -v old="$f" '$1 != "stress_reports" && !($1 in t) { t[$1] = $2; print }
			END { while ((getline l < old) > 0) { split(l, w, " "); if (!(w[1] in t)) print l } }' \
		>"$f.tmp" && mv "$f.tmp" "$f"
	exit ;;
esac
f=$costs/$1.times fallback=$2
shift 2
echo "$*" | awk -v times="$f" -v fallback="$fallback" '
{ n = split($0, test, " ") }
END {
	while ((getline l < times) > 0) {
		split(l, w, " ")
		if (w[2] ~ /^[0-9]+$/)
			rec[w[1]] = w[2]
	}
	known = 0; sum = 0
	for (i = 1; i <= n; i++)
		if (test[i] in rec) { known++; sum += rec[test[i]] }
	if (known == 0) {
		split(fallback, fb, " ")
		for (j in fb) in2[fb[j]] = 1
		printf "stress: no times of these tests on record (%s): guest2 runs %s\n", times, fallback > "/dev/stderr"
	} else {
		# Longest first (the earlier test first among equals), each to
		# the guest with less time so far (guest1 among equals).
		for (i = 1; i <= n; i++) {
			t[i] = test[i] in rec ? rec[test[i]] : int(sum / known)
			done[i] = 0
		}
		g1 = 0; g2 = 0
		for (k = 1; k <= n; k++) {
			b = 0
			for (i = 1; i <= n; i++)
				if (!done[i] && (b == 0 || t[i] > t[b]))
					b = i
			done[b] = 1
			if (g2 < g1) { in2[test[b]] = 1; g2 += t[b] } else g1 += t[b]
		}
		printf "stress: balanced by the last times here (%s, %d of %d tests): guest1 %d s, guest2 %d s\n",
			times, known, n, g1, g2 > "/dev/stderr"
	}
	sep = ""
	for (i = 1; i <= n; i++)
		if (test[i] in in2) { printf "%s%s", sep, test[i]; sep = " " }
	print ""
}'
