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
# and nomodules (the Makefile's FOLDER).
# Prints a matrix, names the first patch that breaks each configuration,
# exits 1 if any build failed.
#
# usage: BASE_FRAGMENTS="..." bisect.sh SERIES CONFIG...
#   CONFIG: modular | builtin | nomodules, see bisect_config below
#   BISECT_REPORT: the matrix's file (default build/KVER/bisect.txt; make
#   check runs nomodules beside the others, into a file of its own)
set -u
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

report=${BISECT_REPORT:-$dir/bisect.txt}
: >"$report"
fail=0
for cfg; do
	bisect_config "$cfg" || exit 2
	# Unchanged patches, fragments and scripts since a run in which every
	# patch built: that run's lines stand, marked (cached).
	key=$(cat $patches $BASE_FRAGMENTS $extra qemu/build.sh qemu/config.sh qemu/series.sh \
		qemu/apply.sh "$0" | sha256sum | cut -c1-16)
	cache=$dir/bisect-$cfg.cache
	if [ -f "$cache" ] && [ "$(head -n1 "$cache")" = "$key" ]; then
		tail -n +2 "$cache" | sed 's/$/ (cached)/' | tee -a "$report"
		continue
	fi
	rm -f "$cache"
	start_report=$(wc -l <"$report")
	n=0
	first=
	for p in $patches; do
		n=$((n + 1))
		prefix=$dir/bisect-$cfg.series
		echo "$patches" | tr ' ' '\n' | grep -v '^$' | head -n $n >"$prefix.new"
		mv "$prefix.new" "$prefix"
		start=$(date +%s)
		note=
		if [ $n -gt 1 ] && [ -z "$first" ] && ! built_from "$p" "$dir/$folder/obj"; then
			r=ok note="  (nothing it changes is built here)"
			echo "bisect: $cfg: no object of $dir/$folder/obj is made from what $p changes: the build of step $((n - 1)) stands" \
				>"$dir/bisect-$cfg.$n.log"
		elif make -s --no-print-directory kernel VARIANT="$variant" FOLDER="$folder" \
			SERIES="$prefix" EXTRA_FRAGMENTS="$extra" \
			KERNEL_TARGETS="$targets" >"$dir/bisect-$cfg.$n.log" 2>&1; then
			r=ok
		else
			r=FAIL
			fail=1
			[ -n "$first" ] || first="$n $(basename "$p")"
		fi
		printf '%-10s %2d/%d %-4s %4ds  %s%s\n' "$cfg" $n "$total" $r \
			$(($(date +%s) - start)) "$(basename "$p")" "$note" | tee -a "$report"
		[ $r = ok ] || tail -15 "$dir/bisect-$cfg.$n.log" | sed 's/^/    /'
	done
	if [ -n "$first" ]; then
		echo "bisect: $cfg: first broken by patch $first (log: $dir/bisect-$cfg.${first%% *}.log)" | tee -a "$report"
	else
		echo "bisect: $cfg: all $total patches build" | tee -a "$report"
		{ echo "$key"; tail -n +$((start_report + 1)) "$report"; } >"$cache"
	fi
done
exit $fail
