# The lab's closing count, "N passed, N failed" (", N skipped" may
# follow), added up over several runs or stages: sourced by
# qemu/summary.sh (make check's stages) and .ci/run (its make runs).
#
#   count_add P F [S]   add P passed, F failed, S skipped
#   count_line LINE     add what a closing LINE says; anything else (no
#                       result) counts as one failure, and returns 1
#   count_log LOG       count_line of LOG's last closing line, which
#                       $line then holds ("no result" if it has none)
#   count_print         the closing line of the total; returns 1 if
#                       anything failed
pass=0 fail=0 skip=0
count_add() { pass=$((pass + $1)); fail=$((fail + $2)); skip=$((skip + ${3:-0})); }
count_line() {
	case $1 in
	*" passed, "*" failed"*) ;;
	*) count_add 0 1; return 1 ;;
	esac
	p=${1%% passed*} f=${1#*passed, } f=${f%% failed*} s=0
	case $1 in *skipped) s=${1##*failed, } s=${s%% skipped} ;; esac
	count_add "$p" "$f" "$s"
}
count_log() {
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" 2>/dev/null | tail -n1)
	count_line "$line" || line="no result"
}
count_print() {
	if [ "$skip" -gt 0 ]; then
		echo "$pass passed, $fail failed, $skip skipped"
	else
		echo "$pass passed, $fail failed"
	fi
	[ "$fail" -eq 0 ]
}
