#!/bin/sh
# make bench: the lab's own speed and the series' cost, measured side by
# side, printed as a Markdown table (also BUILD/KVER/bench/bench.md).
#
#  1. Lab cycle, in a build folder of its own (BUILD/KVER/bench/lab, with
#     its own, empty, ccache): a cold `make` (extract -> results), a no-op
#     `make`, `make` after touching one patch, then `make` again from an
#     empty build folder with the ccache kept; each as a user runs it.
#  2. Boot: QEMU with no test at all, BENCH_BOOTS times under TCG, and once
#     under KVM when /dev/kvm is usable: the kernel's clock at /init, and
#     the host's clock from QEMU's start to its exit.
#  3. Size: scripts/bloat-o-meter, baseline -> patched, on the objects the
#     series changes.
#  4. Run time: tests/bench_mtd.sh on the patched and on the baseline
#     kernel, BENCH_ROUNDS rounds, each a boot of either kernel in turn
#     (BENCH_PROBES probes a round): physmap probe/remove latency,
#     mtd_speedtest on pflash and nandsim.  Ratios patched/baseline are
#     taken round by round (round i of one kernel against round i of the
#     other, booted one after the other), then min/median/max.
#
# usage: bench.sh   (from the top of the lab; env: KVER, BUILD, BENCH_LAB=0
#                    to skip 1, BENCH_ROUNDS, BENCH_PROBES, BENCH_BOOTS)
set -u
kver=${KVER:-6.1}
k=${BUILD:-$(pwd)/build}/$kver
out=$k/bench
mkdir -p "$out"
md=$out/bench.md
rounds=${BENCH_ROUNDS:-7}
probes=${BENCH_PROBES:-200}
boots=${BENCH_BOOTS:-5}
fail=0

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
# median of the numbers on stdin (the lower middle of an even count)
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "none" }'; }
# met VALUE TARGET: yes/no
met() { awk -v v="$1" -v t="$2" 'BEGIN { print (v + 0 <= t + 0) ? "yes" : "no" }'; }
# A make as a user runs it: nothing inherited from the make above.
usermake() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make "$@"; }

{
	echo "# make bench, linux-source-$kver, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)),"
	echo "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, $(qemu-system-x86_64 --version | head -n1),"
	echo "$(gcc --version | head -n1), ccache $(ccache --version 2>/dev/null | head -n1 | awk '{print $NF}')."
	echo
} >"$md"

# 1. Lab cycle.
if [ "${BENCH_LAB:-1}" = 1 ]; then
	lab=$out/lab
	export CCACHE_DIR=$out/lab-ccache
	echo "bench: lab cycle in $lab, ccache $CCACHE_DIR (logs: $out/lab-*.log)"
	rm -rf "$lab" "$CCACHE_DIR"
	# labmake NAME: make in the lab folder, timed; sets $secs, $build, $hits
	labmake() {
		t=$(now)
		r=ok
		usermake BUILD="$lab" >"$out/lab-$1.log" 2>&1 || r="FAILED, log: $out/lab-$1.log"
		secs=$(since "$t")
		[ "$r" = ok ] || { echo "$secs s, make $r"; return; }
		build=$(sed -n 's/^build: .* in \([0-9]*\) s.*/\1/p' "$out/lab-$1.log" | head -n1)
		hits=$(sed -n 's/^build: .*ccache hits \(.*\)/\1/p' "$out/lab-$1.log" | head -n1)
		if [ -n "$build" ]; then
			echo "${secs} s (kernel build $build s${hits:+, ccache hits $hits})"
		else
			echo "${secs} s (no kernel build)"
		fi
	}
	cold=$(labmake cold)
	noop=$(labmake noop)
	p=$(KVER=$kver qemu/series.sh series | grep /mtd/ | sed -n 5p)
	touch "$p"
	touched=$(labmake touch)
	rm -rf "$lab"
	warm=$(labmake warm)
	unset CCACHE_DIR
	case "$cold$noop$touched$warm" in *FAILED*) echo "bench: a lab make failed (see the table)"; fail=1 ;; esac
	{
		echo "## Lab cycle (targets for 2 cores), $(date -u '+%Y-%m-%d %H:%M UTC')"
		echo
		echo "| step | time | target | met |"
		echo "|---|---|---|---|"
		echo "| cold \`make\`: empty build folder, empty ccache; extract -> results | $cold | <= 360 s | $(met "$cold" 360) |"
		echo "| no-op \`make\` (boot and smoke tests again) | $noop | <= 20 s | $(met "$noop" 20) |"
		echo "| \`touch $(basename "$p")\`, \`make\` -> results | $touched | <= 90 s | $(met "$touched" 90) |"
		echo "| \`make\` from an empty build folder, ccache kept (CCACHE_DIR outside it) | $warm | <= 360 s | $(met "$warm" 360) |"
	} >"$out/lab.md"
fi
# BENCH_LAB=0: the lab cycle of the last run that measured it, if any.
[ -f "$out/lab.md" ] && cat "$out/lab.md" >>"$md"

# 2. Boot, no test: the patched kernel of the main build folder.
usermake kernel initramfs BUILD="${BUILD:-build}" >"$out/prepare.log" 2>&1 &&
	usermake kernel initramfs BUILD="${BUILD:-build}" VARIANT=baseline >>"$out/prepare.log" 2>&1 || {
	echo "bench: building the patched and baseline kernels failed, log: $out/prepare.log"
	exit 1
}
obj=$k/patched/obj
# boot_once ACCEL DIR: boot with no test; prints "HOSTSECONDS INITSECONDS"
boot_once() {
	t=$(now)
	ACCEL=$1 TIMEOUT=${3:-120} VARIANT=patched qemu/boot.sh "$obj" "$k/patched/initramfs.cpio" "$2" >/dev/null 2>&1
	h=$(since "$t")
	i=$(sed -n 's/^\[ *\([0-9.]*\)\] Run \/init as init process.*/\1/p' "$2/console.log" 2>/dev/null | head -n1)
	if [ "$(cat "$2/status" 2>/dev/null)" = 0 ] && grep -E -q '^(\[ *[0-9.]*\] )?lab: tests done' "$2/console.log"; then
		echo "$h ${i:-none}"
	else
		echo "none none"
	fi
}
echo "bench: boot with no test, $boots times under TCG"
: >"$out/boot-tcg.txt"
n=0
while [ $n -lt "$boots" ]; do
	n=$((n + 1))
	boot_once tcg "$out/boot/tcg-$n" >>"$out/boot-tcg.txt"
done
grep -q none "$out/boot-tcg.txt" && { echo "bench: a TCG boot did not finish, logs: $out/boot/"; fail=1; }
tcg_host=$(cut -d' ' -f1 "$out/boot-tcg.txt" | median)
tcg_init=$(cut -d' ' -f2 "$out/boot-tcg.txt" | median)
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	echo "bench: boot with no test under KVM (60 s at most)"
	set -- $(boot_once kvm "$out/boot/kvm" 60)
	if [ "$1" = none ]; then
		kvm="did not finish in 60 s (log: $out/boot/kvm/console.log, $(wc -c <"$out/boot/kvm/console.log" 2>/dev/null || echo 0) bytes of console)"
	else
		kvm="$1 s (QEMU start to exit), /init at $2 s"
	fi
else
	kvm="no usable /dev/kvm"
fi
{
	echo
	echo "## Boot, no test (patched kernel, $(du -m "$obj/arch/x86/boot/bzImage" | cut -f1) MiB bzImage, $(du -m "$k/patched/initramfs.cpio" | cut -f1) MiB initramfs)"
	echo
	echo "| accel | QEMU start to exit (host, median of $boots) | kernel clock at /init (median) | target | met |"
	echo "|---|---|---|---|---|"
	echo "| TCG | $tcg_host s | $tcg_init s | boot <= 2 s | $(met "$tcg_host" 2) (host), $(met "$tcg_init" 2) (/init) |"
	echo "| KVM | $kvm | | | |"
} >>"$md"

# 3. Size.
src=$k/patched/src
{
	echo
	echo "## Size: scripts/bloat-o-meter, baseline -> patched"
	echo
	echo "| object | functions added/removed, grown/shrunk | bytes | before | after |"
	echo "|---|---|---|---|---|"
	for o in drivers/mtd/chips/gen_probe.o drivers/mtd/chips/cfi_cmdset_0001.o \
		drivers/mtd/chips/cfi_cmdset_0002.o drivers/mtd/chips/cfi_cmdset_0020.o \
		drivers/mtd/chips/chipreg.o drivers/mtd/lpddr/qinfo_probe.o \
		drivers/mtd/lpddr/lpddr_cmds.o drivers/platform/x86/intel_ips.o \
		drivers/gpu/drm/i915/gt/intel_rps.o; do
		b=$k/baseline/obj/$o p=$k/patched/obj/$o
		if [ ! -f "$b" ] || [ ! -f "$p" ]; then
			echo "| $o | not built | | | |"
			continue
		fi
		"$src/scripts/bloat-o-meter" "$b" "$p" >"$out/bloat-$(basename "$o" .o).txt" 2>&1
		head -n1 "$out/bloat-$(basename "$o" .o).txt" | sed -n \
			's|^add/remove: \([0-9/]*\) grow/shrink: \([0-9/]*\) up/down: [^ ]* (\(-*[0-9]*\))|\1 \2 \3|p' |
		{ read -r ar gs d; tot=$(sed -n 's/^Total: Before=\([0-9]*\), After=\([0-9]*\),.*/\1 \2/p' "$out/bloat-$(basename "$o" .o).txt")
		  echo "| $o | +$ar, $gs | ${d:-?} | ${tot% *} | ${tot#* } |"; }
	done
} >>"$md"

# 4. Run time, patched and baseline: one boot per kernel and round, the
# two kernels side by side in time (which goes first alternates), so that
# the machine's drift hits both alike; each round's figures get its number.
echo "bench: bench_mtd, $rounds rounds of $probes probes, each kernel booted once a round"
: >"$out/patched.txt"
: >"$out/baseline.txt"
i=0
while [ $i -lt "$rounds" ]; do
	i=$((i + 1))
	order="patched baseline"
	[ $((i % 2)) = 0 ] && order="baseline patched"
	for v in $order; do
		rd=$out/run-$v/$i
		rm -rf "$rd"
		VARIANT=$v TIMEOUT=600 CMDLINE="lab.rounds=1 lab.probes=$probes" \
			qemu/boot.sh "$k/$v/obj" "$k/$v/initramfs.cpio" "$rd" bench_mtd >/dev/null
		tr -d '\r' <"$rd/ktap.log" >"$rd/ktap.txt" 2>/dev/null
		tr -d '\r' <"$rd/console.log" >"$rd/console.txt" 2>/dev/null
		if [ "$(cat "$rd/status")" != 0 ] || ! grep -q '^ok 1 bench_mtd$' "$rd/ktap.txt"; then
			echo "bench: bench_mtd failed on the $v kernel, round $i (QEMU status $(cat "$rd/status")):"
			grep -B1 'not ok' "$rd/ktap.txt" | head -20
			echo "bench: logs: $rd/"
			fail=1
		fi
		if grep -E -q -f qemu/console-reports.ere "$rd/console.txt"; then
			echo "bench: kernel reports on the $v console: $rd/console.txt"
			fail=1
		fi
		sed -n "s/^ *# bench: 1 \([a-z_]*\) \(.*\)/$i \1 \2/p" "$rd/ktap.txt" >>"$out/$v.txt"
	done
done
{
	echo
	echo "## Run time, patched vs baseline ($rounds rounds, one boot of each kernel a round; ratio = patched/baseline, round by round)"
	echo
	echo "| figure | baseline (median) | patched (median) | ratio min | ratio median | ratio max |"
	echo "|---|---|---|---|---|---|"
	for f in physmap_probe_us physmap_remove_us pflash_write_kib_s pflash_read_kib_s \
		nandsim_write_kib_s nandsim_read_kib_s; do
		bm=$(awk -v f=$f '$2 == f { print $3 }' "$out/baseline.txt" | median)
		pm=$(awk -v f=$f '$2 == f { print $3 }' "$out/patched.txt" | median)
		ratios=$(awk -v f=$f 'FNR == 1 { file++ } $2 == f { v[file, $1] = $3; r[$1] = 1 }
			END { for (i in r) if (v[1, i] > 0 && v[2, i] != "") printf "%.3f\n", v[2, i] / v[1, i] }' \
			"$out/baseline.txt" "$out/patched.txt" | sort -g)
		set -- $ratios
		if [ $# -eq 0 ]; then
			echo "| $f | $bm | $pm | none | none | none |"
		else
			echo "| $f | $bm | $pm | $1 | $(echo "$ratios" | median) | $(eval echo \${$#}) |"
		fi
	done
	echo
	echo "Probe and remove: microseconds per physmap bind/unbind (sysfs write, timed in the guest; median of $probes a round). Speeds: mtd_speedtest's eraseblock write/read, KiB/s (pflash: 256 x 4 KiB blocks, the whole map; nandsim: 64 x 128 KiB blocks). Under TCG: a ratio near 1 is what no run-time cost looks like; the spread of the ratios is the machine's noise."
} >>"$md"

cat "$md"
echo "(bench: $md)"
exit $fail
