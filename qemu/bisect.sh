#!/bin/sh
# Gate "bisect": apply the series one patch at a time and build after each,
# in every configuration named, so that each patch builds on its own.
# Each configuration is built incrementally from one patch to the next
# (qemu/apply.sh applies only the next patch, so kbuild compiles only
# what it changes; and through ccache) in a variant folder that holds a
# build of the same tree (build/KVER/FOLDER): modular, then builtin in the
# baseline's (make baseline built it without the series: the first step
# compiles what patch 1 changes; builtin is the same kernel with the chip
# drivers, i915 and intel_ips switched to =y: kbuild rebuilds what
# depends on the options that change, not the whole kernel, which a new
# folder costs even through ccache), nomodules in a folder of its own
# (CONFIG_MODULES=n changes nearly every object).  The patched folder
# stays as make left it.  make linked boots the last steps of builtin
# and nomodules (the Makefile's FOLDER), and builds them there when the
# steps came from this machine's records (below) instead.
# Prints a matrix, names the first patch that breaks each configuration,
# exits 1 if any build failed.
#
# usage: BASE_FRAGMENTS="..." bisect.sh [-n] SERIES CONFIG...
#   CONFIG: modular | builtin | nomodules, see bisect_config below
#   BISECT_REPORT: the matrix's file (default build/KVER/bisect.txt; make
#   check runs nomodules beside the others, into a file of its own)
set -u
count=0
[ "${1:-}" != -n ] || { count=1; shift; }
series=$1
shift
dir=${BUILD:-build}/${KVER:-6.1}
mkdir -p "$dir"
patches=$(qemu/series.sh "$series")
total=$(echo $patches | wc -w)

# The lab's fragments, then what each configuration adds, and what to
# build: vmlinux is what a patch can break (bzImage only compresses it;
# builtin's modules are the lab's test-only ones, which the series does
# not change and the modular walk builds after every patch); modular
# builds the baseline's own targets (the default, bzImage modules).
# VARIANT names the configuration, FOLDER where it builds.
bisect_config() {
	case $1 in
	modular) extra= targets= variant=patched folder=baseline ;;
	builtin) extra=qemu/builtin.config targets=vmlinux variant=builtin folder=baseline ;;
	nomodules) extra="qemu/builtin.config qemu/nomodules.config" targets=vmlinux variant=nomodules folder=nomodules ;;
	*) echo "bisect: unknown configuration $1" >&2; return 1 ;;
	esac
}

# built_from PATCH OBJ: whether the build in OBJ can depend on what PATCH
# changes: a file that a compiled object was made from or includes
# (kbuild's .cmd files list them), a new file, or kbuild's own input
# (Makefile, Kbuild, Kconfig, scripts/, tools/).  When not, the step's
# build is the step before's, which built, and it is not run again.
built_from() {
	! grep -q '^--- /dev/null' "$1" || return 0
	for f in $(sed -n 's|^[-+][-+][-+] [ab]/\([^[:space:]]*\).*|\1|p' "$1" | sort -u); do
		case $f in
		*/Makefile|Makefile|*/Kbuild|*/Kconfig*|*.mk|scripts/*|tools/*) return 0 ;;
		esac
		! grep -rqlF --include='.*.cmd' "src/$f" "$2" || return 0
	done
	return 1
}

# What decides a step's build, kept per machine like the compiler cache
# (qemu/costs.sh's folder, bisect/): the tree's content (the pristine
# tree's git tree id), the compiler and linker, the configuration (its
# fragments, targets, variant), the lab's scripts that apply, configure
# and build, and the patches up to that step.  A step with a record of
# the same key built here before, in whichever clone: its line stands,
# marked with the day it built, and is not built again (a clean clone in
# CI, with the series unchanged, builds nothing); the steps after the
# first without one are built as before.  Only builds that passed are
# kept.  BISECT_RECORDS= (empty) builds every step.
. "$(dirname "$0")/costs.sh"
records=${BISECT_RECORDS-$costs/bisect}
[ -z "$records" ] || mkdir -p "$records" 2>/dev/null || records=
tree_id=$(git -C "$dir/pristine" rev-parse 'pristine^{tree}' 2>/dev/null) ||
	{ echo "bisect: no pristine tree in $dir/pristine (make tree)" >&2; exit 2; }
tools=$(gcc --version | head -n1; ld --version | head -n1)
# step_keys CFG: the key of each step of CFG, one a line: each the hash
# of the one before and the step's patch.  (The Makefile's rules only
# pass the variables above to those scripts.)
step_keys() {
	k=$({ printf '%s\n' "$1" "$variant" "$targets" "$extra" "$tree_id" "$tools"
		cat $BASE_FRAGMENTS $extra qemu/build.sh qemu/config.sh qemu/series.sh qemu/apply.sh; } |
		sha256sum | cut -c1-32)
	for p in $patches; do
		k=$({ echo "$k"; cat "$p"; } | sha256sum | cut -c1-32)
		echo "$k"
	done
}
recorded() { [ -n "$records" ] && [ -f "$records/$1" ]; }
# -n: print how many steps of the configurations have no record (make
# check's time check: a stage with nothing to build has its own cost).
if [ $count = 1 ]; then
	todo=0
	for cfg; do
		bisect_config "$cfg" || exit 2
		for k in $(step_keys "$cfg"); do
			recorded "$k" || todo=$((todo + 1))
		done
	done
	echo "$todo"
	exit 0
fi

report=${BISECT_REPORT:-$dir/bisect.txt}
# step_line RESULT TAIL: step $n's line of the matrix, into the report.
step_line() {
	printf '%-10s %2d/%d %-4s %4ds  %s%s%s\n' "$cfg" $n "$total" "$1" \
		"$secs" "$name" "${note:+  $note}" "$2" | tee -a "$report"
}
: >"$report"
fail=0
for cfg; do
	bisect_config "$cfg" || exit 2
	keys=$(step_keys "$cfg")
	rm -f "$dir/bisect-$cfg.cache"
	n=0
	first=
	built=0
	for p in $patches; do
		n=$((n + 1))
		key=$(echo "$keys" | sed -n "${n}p")
		name=$(basename "$p")
		if [ $built = 0 ] && recorded "$key"; then
			read -r secs day note <"$records/$key"
			step_line ok "  (built here $day)"
			continue
		fi
		prefix=$dir/bisect-$cfg.series
		echo "$patches" | tr ' ' '\n' | grep -v '^$' | head -n $n >"$prefix.new"
		mv "$prefix.new" "$prefix"
		start=$(date +%s)
		note=
		if [ $built = 1 ] && [ -z "$first" ] && ! built_from "$p" "$dir/$folder/obj"; then
			r=ok note="(nothing it changes is built here)"
			echo "bisect: $cfg: no object of $dir/$folder/obj is made from what $p changes: the build of step $((n - 1)) stands" \
				>"$dir/bisect-$cfg.$n.log"
		elif make -s --no-print-directory kernel VARIANT="$variant" FOLDER="$folder" \
			SERIES="$prefix" EXTRA_FRAGMENTS="$extra" \
			KERNEL_TARGETS="$targets" >"$dir/bisect-$cfg.$n.log" 2>&1; then
			r=ok
		else
			r=FAIL
			fail=1
			[ -n "$first" ] || first="$n $name"
		fi
		built=1
		secs=$(($(date +%s) - start))
		step_line $r ''
		if [ $r = ok ] && [ -z "$first" ] && [ -n "$records" ]; then
			echo "$secs $(date +%F) $note" >"$records/.$key.$$" &&
				mv "$records/.$key.$$" "$records/$key"
		fi
		[ $r = ok ] || tail -15 "$dir/bisect-$cfg.$n.log" | sed 's/^/    /'
	done
	if [ -n "$first" ]; then
		echo "bisect: $cfg: first broken by patch $first (log: $dir/bisect-$cfg.${first%% *}.log)" | tee -a "$report"
	else
		echo "bisect: $cfg: all $total patches build" | tee -a "$report"
	fi
done
exit $fail
