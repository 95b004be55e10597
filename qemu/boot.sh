#!/bin/sh
# Stage "boot": run the test kernel with the initramfs under QEMU, with a
# hard timeout.  Everything of the run stays in RUNDIR: console.log (the
# kernel console), ktap.log (what the guest tests reported), gcov.b64
# (a coverage kernel's gcov data), flash.img, qemu.cmd and status (exit
# code of QEMU, 124 on timeout).
#
# usage: boot.sh OBJ INITRAMFS RUNDIR TESTS...
# env:   ACCEL=tcg|kvm (kvm falls back to tcg when /dev/kvm is not usable),
#        TIMEOUT seconds, VARIANT (passed to the guest as lab.variant),
#        CMDLINE extra kernel parameters (e.g. drm.debug=0x1e),
#        GUEST a name for this guest, put after "boot: " in every line
#        (make stress boots two guests of one kernel at once),
#        LAST_FIGURES the figures.md of the folder's last run, for the
#        progress of fail-nth sweeps (default RUNDIR/../../last-run/)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/x86_64.conf"
obj=$1 initramfs=$2 rundir=$3
shift 3
tests_list=$* tests=$(echo "$*" | tr ' ' ,)
guest=${GUEST:+$GUEST: }
mkdir -p "$rundir"

accel=${ACCEL:-tcg}
case $accel in
kvm)
	if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		echo "boot: ${guest}/dev/kvm is not usable here, falling back to TCG" >&2
		accel=tcg
	fi ;;
tcg) ;;
*) echo "boot: ${guest}ACCEL=$accel: use tcg or kvm" >&2; exit 2 ;;
esac
case $accel in
kvm) cpu=host ;;
tcg) cpu=$tcg_cpu ;;
esac

# QEMU's monitor on two FIFOs (monitor.in, monitor.out; QEMU opens both
# read-write, so neither side waits for the other): at the timeout,
# where each CPU is (cpus_at below).
rm -f "$rundir/monitor.in" "$rundir/monitor.out"
mkfifo "$rundir/monitor.in" "$rundir/monitor.out"

# A fresh, erased (0xff) flash image for every run.
tr '\000' '\377' </dev/zero | head -c "$flash_size" >"$rundir/flash.img"

set -- "$qemu_bin" -machine "$machine,accel=$accel" -cpu "$cpu" -smp "$cpus" \
	-m "$memory" -nodefaults -display none -no-reboot \
	-drive "if=pflash,format=raw,unit=0,readonly=on,file=$bios" \
	-drive "if=pflash,format=raw,unit=1,file=$rundir/flash.img" \
	-kernel "$obj/$kernel_image" -initrd "$initramfs" \
	-append "console=$kernel_console panic=-1 lab.tests=$tests lab.variant=${VARIANT:-} lab.results=$results_tty lab.gcov=$gcov_tty $lab_cmdline ${CMDLINE:-}" \
	-serial "file:$rundir/console.log" -serial "file:$rundir/ktap.log" \
	-serial "file:$rundir/gcov.b64" \
	-chardev "pipe,id=mon,path=$rundir/monitor" -mon chardev=mon,mode=readline
echo "$*" >"$rundir/qemu.cmd"
echo "boot: ${guest}$accel, $cpus CPUs, timeout ${TIMEOUT:-600} s, log: $rundir/console.log"
# Progress: the test running now, from the results port (run.sh closes
# each test with "ok N" / "not ok N" at the top level); and, when the
# last line there is a test's "# progress: NAME: fault point N" (make
# stress's fail-nth sweeps), that, with the number of points the last
# run of this folder swept on NAME (its figures.md).
. "$here/progress.sh"
last_figures=${LAST_FIGURES:-$rundir/../../last-run/figures.md}
status() {
	n=$(grep -cE '^(not )?ok [0-9]+ ' "$rundir/ktap.log" 2>/dev/null) || true
	n=${n:-0}
	if [ "$n" -lt $# ]; then
		shift "$n"
		p=$(tail -n1 "$rundir/ktap.log" 2>/dev/null | sed -n 's/^ *# progress: //p')
		if [ -n "$p" ]; then
			was=$(grep -F "allocations failed on purpose, ${p%: fault point*} |" "$last_figures" 2>/dev/null |
				sed -n 's/^[^|]*|[^|]*| \([0-9]*\) .*/\1/p' | head -n1)
			p=", $p${was:+ of $was in the last run}"
		fi
		echo "boot: ${guest}test $((n + 1)) of $(($# + n)): $1$p"
	else
		echo "boot: ${guest}$n tests done, powering off"
	fi
}

# monitor COMMAND...: QEMU's answers, for 2 s.  Both FIFOs are open
# read-write here too (fds 7, 8), so that no open or write waits, even if
# QEMU has just exited.
exec 7<>"$rundir/monitor.in" 8<>"$rundir/monitor.out"
monitor() {
	timeout 2 cat <&8 >"$rundir/monitor.txt" &
	cat_pid=$!
	for c; do echo "$c"; done >&7
	wait $cat_pid || true
	tr -d '\r' <"$rundir/monitor.txt"
}
# sym ADDR...: the kernel function at each ADDR, a line each (the lab's
# kernels are not relocatable: vmlinux's addresses are the running
# kernel's).
sym() { [ $# -eq 0 ] || addr2line -f -e "$obj/vmlinux" "$@" 2>/dev/null | sed -n 'p;n'; }
# cpus_at: a guest that ran out of time, CPU by CPU: the function it is
# in, whether interrupts are on (RFLAGS.IF), and the kernel functions
# whose addresses are on its stack (a rough backtrace, innermost first),
# into $rundir/cpus.txt; a summary line on stderr.  A hung kernel prints
# nothing when every CPU is stuck with interrupts off (no CPU is left to
# report a lockup): this is where it hangs.
cpus_at() {
	: >"$rundir/cpus.txt"
	summary=''
	for c in $(seq 0 $((cpus - 1))); do
		regs=$(monitor "cpu $c" "info registers")
		rip=$(echo "$regs" | sed -n 's/.*RIP=\([0-9a-f]*\).*/\1/p' | head -n1)
		rfl=$(echo "$regs" | sed -n 's/.*RFL=\([0-9a-f]*\).*/\1/p' | head -n1)
		rsp=$(echo "$regs" | sed -n 's/.*RSP=\([0-9a-f]*\).*/\1/p' | head -n1)
		[ -n "$rip" ] || continue
		irq=on
		[ $((0x$rfl & 0x200)) -ne 0 ] || irq=off
		case $rip in
		ffffffff8*) at=$(sym "0x$rip") ;;
		ffff*) at="kernel address $rip (a module)" ;;
		*) at="user space, $rip" ;;
		esac
		stack=$(sym $(monitor "cpu $c" "x/800gx 0x$rsp" | grep -o -E '0xffffffff8[0-9a-f]{7}') |
			grep -v -E '^(\?\?|kallsyms_.*|__bss_start|_etext|lock_(acquire|release)|lockdep_.*|__lock_acquire|find_held_lock)$' |
			uniq | head -n 25 | tr '\n' ' ')
		echo "CPU $c: at $at, interrupts $irq (RIP $rip, RFLAGS $rfl); on its stack: $stack" >>"$rundir/cpus.txt"
		summary="$summary${summary:+; }CPU $c at $at, interrupts $irq"
	done
	[ -z "$summary" ] || echo "boot: ${guest}TIMEOUT: $summary (stacks: $rundir/cpus.txt)" >&2
}

progress_start status $tests_list
rc=0
rm -f "$rundir/timed-out"
"$@" </dev/null >"$rundir/qemu.out" 2>&1 &
qemu_pid=$!
# The timeout: a watchdog that, if QEMU is still there, says where its
# CPUs are, then ends it (SIGTERM, SIGKILL 10 s later).
(
	trap 'kill $s 2>/dev/null; exit 0' TERM
	sleep "${TIMEOUT:-600}" &
	s=$!
	wait $s
	kill -0 $qemu_pid 2>/dev/null || exit 0
	: >"$rundir/timed-out"
	cpus_at
	kill $qemu_pid 2>/dev/null || true
	for i in $(seq 10); do
		kill -0 $qemu_pid 2>/dev/null || exit 0
		sleep 1
	done
	kill -9 $qemu_pid 2>/dev/null || true
) &
watchdog=$!
wait $qemu_pid || rc=$?
kill $watchdog 2>/dev/null || true
wait $watchdog 2>/dev/null || true
progress_stop
[ ! -e "$rundir/timed-out" ] || rc=124
rm -f "$rundir/timed-out"
exec 7>&- 8>&-
rm -f "$rundir/monitor.in" "$rundir/monitor.out"
echo "$rc" >"$rundir/status"
if [ "$rc" -eq 124 ]; then
	echo "boot: ${guest}TIMEOUT: the guest did not finish in ${TIMEOUT:-600} s; console log: $rundir/console.log" >&2
elif [ "$rc" -ne 0 ]; then
	echo "boot: ${guest}QEMU exited with $rc: $(cat "$rundir/qemu.out")" >&2
fi
exit 0
