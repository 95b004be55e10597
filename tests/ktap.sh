# KTAP output for the guest's shell tests, after the kernel's own
# tools/testing/selftests/kselftest/ktap_helpers.sh (not yet in 6.1):
# one result line per test, diagnostics as "# " lines, and an exit code
# that says whether anything failed.
KTAP_TESTNO=0
KTAP_PASS=0
KTAP_FAIL=0
KTAP_SKIP=0

ktap_print_header() { echo "KTAP version 1"; }
ktap_set_plan() { echo "1..$1"; }
ktap_print_msg() { echo "# $*"; }
ktap_test_pass() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1)); KTAP_PASS=$((KTAP_PASS + 1))
	echo "ok $KTAP_TESTNO $1"
}
ktap_test_fail() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1)); KTAP_FAIL=$((KTAP_FAIL + 1))
	echo "not ok $KTAP_TESTNO $1"
}
ktap_test_skip() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1)); KTAP_SKIP=$((KTAP_SKIP + 1))
	echo "ok $KTAP_TESTNO $1 # SKIP $2"
}
# ktap_test_result NAME CONDITION...: pass when the command succeeds.
ktap_test_result() {
	name=$1; shift
	if "$@"; then ktap_test_pass "$name"; else ktap_test_fail "$name"; fi
}
# ktap_expect_eq NAME WHAT GOT WANT: a test that compares one value and
# prints both, so the log shows the figure whether it passed or not.
ktap_expect_eq() {
	ktap_print_msg "$2: got '$3', want '$4'"
	if [ "$3" = "$4" ]; then ktap_test_pass "$1"; else ktap_test_fail "$1"; fi
}
# ktap_nest NAME: stdin is a KTAP (or kselftest TAP) document of its own;
# print it as the subtest NAME of the current document: indented by four
# spaces, "# Subtest: NAME" right after its version line.
ktap_nest() {
	awk -v name="$1" '{ print "    " $0 }
		!done && /^(K)?TAP version/ { print "    # Subtest: " name; done = 1 }'
}

# ktap_document NAME CMD...: a whole KTAP document with one suite, NAME,
# whose subtests CMD prints as a KTAP document of its own (CMD runs in a
# subshell, so ktap_finished ends only it); the suite's result is CMD's
# exit code.
ktap_document() {
	doc_name=$1
	shift
	doc_out=$(mktemp)
	("$@") >"$doc_out"
	doc_rc=$?
	echo "KTAP version 1"
	echo "1..1"
	ktap_nest "$doc_name" <"$doc_out"
	rm -f "$doc_out"
	if [ $doc_rc -eq 0 ]; then echo "ok 1 $doc_name"; else echo "not ok 1 $doc_name"; fi
	return $doc_rc
}

# Like kselftest: 0 all passed, 1 something failed, 4 all skipped.
ktap_finished() {
	ktap_print_msg "totals: pass:$KTAP_PASS fail:$KTAP_FAIL skip:$KTAP_SKIP"
	[ "$KTAP_FAIL" -eq 0 ] || exit 1
	[ "$KTAP_PASS" -gt 0 ] || [ "$KTAP_SKIP" -eq 0 ] || exit 4
	exit 0
}

# ktap_figure NAME VALUE: a measured figure for the host's tables
# (qemu/figures.sh collects the "# figure: " lines of a run).
ktap_figure() { echo "# figure: $1: $2"; }
