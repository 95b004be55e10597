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
#        CMDLINE extra kernel parameters (e.g. drm.debug=0x1e)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/x86_64.conf"
obj=$1 initramfs=$2 rundir=$3
shift 3
tests_list=$* tests=$(echo "$*" | tr ' ' ,)
mkdir -p "$rundir"

accel=${ACCEL:-tcg}
case $accel in
kvm)
	if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		echo "boot: /dev/kvm is not usable here, falling back to TCG" >&2
		accel=tcg
	fi ;;
tcg) ;;
*) echo "boot: ACCEL=$accel: use tcg or kvm" >&2; exit 2 ;;
esac
case $accel in
kvm) cpu=host ;;
tcg) cpu=$tcg_cpu ;;
esac

# A fresh, erased (0xff) flash image for every run.
tr '\000' '\377' </dev/zero | head -c "$flash_size" >"$rundir/flash.img"

set -- "$qemu_bin" -machine "$machine,accel=$accel" -cpu "$cpu" -smp "$cpus" \
	-m "$memory" -nodefaults -display none -no-reboot \
	-drive "if=pflash,format=raw,unit=0,readonly=on,file=$bios" \
	-drive "if=pflash,format=raw,unit=1,file=$rundir/flash.img" \
	-kernel "$obj/$kernel_image" -initrd "$initramfs" \
	-append "console=$kernel_console panic=-1 lab.tests=$tests lab.variant=${VARIANT:-} lab.results=$results_tty lab.gcov=$gcov_tty $lab_cmdline ${CMDLINE:-}" \
	-serial "file:$rundir/console.log" -serial "file:$rundir/ktap.log" \
	-serial "file:$rundir/gcov.b64"
echo "$*" >"$rundir/qemu.cmd"
echo "boot: $accel, $cpus CPUs, timeout ${TIMEOUT:-600} s, log: $rundir/console.log"
# Progress: the test running now, from the results port (run.sh closes
# each test with "ok N" / "not ok N" at the top level); and, when the
# last line there is a test's "# progress: NAME: fault point N" (make
# stress's fail-nth sweeps), that, with the number of points the last
# run of this folder swept on NAME (its figures.md).
. "$here/progress.sh"
last_figures=$rundir/../../last-run/figures.md
status() {
	n=$(grep -cE '^(not )?ok [0-9]+ ' "$rundir/ktap.log" 2>/dev/null) || true
	n=${n:-0}
	if [ "$n" -lt $# ]; then
		shift "$n"
		p=$(tail -n1 "$rundir/ktap.log" 2>/dev/null | sed -n 's/^ *# progress: //p')
		if [ -n "$p" ]; then
			was=$(grep -F "| allocations failed on purpose, ${p%: fault point*} |" "$last_figures" 2>/dev/null |
				sed -n 's/^[^|]*|[^|]*| \([0-9]*\) .*/\1/p' | head -n1)
			p=", $p${was:+ of $was in the last run}"
		fi
		echo "boot: test $((n + 1)) of $(($# + n)): $1$p"
	else
		echo "boot: $n tests done, powering off"
	fi
}
progress_start status $tests_list
rc=0
timeout -k 10 "${TIMEOUT:-600}" "$@" </dev/null >"$rundir/qemu.out" 2>&1 || rc=$?
progress_stop
echo "$rc" >"$rundir/status"
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	echo "boot: TIMEOUT: the guest did not finish in ${TIMEOUT:-600} s; console log: $rundir/console.log" >&2
elif [ "$rc" -ne 0 ]; then
	echo "boot: QEMU exited with $rc: $(cat "$rundir/qemu.out")" >&2
fi
exit 0
