#!/bin/sh
# Stage "build": bzImage and modules, out of tree (O=), through ccache when
# it is installed.  CCACHE_BASEDIR is the folder that holds every variant's
# src/ and obj/, so the patched and the baseline build share objects.
#
# usage: build.sh SRC OBJ [TARGET...]   (default: bzImage modules)
#   KBUILD_ARGS: variables for kbuild (make coverage: GCOV_PROFILE_x.o=y).
#   LOG: where make's output goes (default OBJ/build.log).  Every make in
#   a build folder goes through here, so that it sees the same environment
#   (LOCALVERSION above all, or kernel.release changes under the modules).
set -eu
src=$1 obj=$2
shift 2
[ $# -gt 0 ] || set -- bzImage modules
log=${LOG:-$obj/build.log}
export KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=qemu
# Set, even empty, LOCALVERSION stops setlocalversion from appending "+"
# for a tree that differs from its git tag: both variants are 6.1.x.
export LOCALVERSION=
export KBUILD_BUILD_TIMESTAMP="${KBUILD_BUILD_TIMESTAMP:-1970-01-01}"
# Root: /var/cache/lab-ccache; anyone else: their own cache folder.
default_ccache_dir() {
	if [ "$(id -u)" -eq 0 ]; then
		echo /var/cache/lab-ccache
	else
		echo "${XDG_CACHE_HOME:-$HOME/.cache}/lab-ccache"
	fi
}
cc=gcc
if command -v ccache >/dev/null; then
	cc="ccache gcc"
	export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(cd "$src/../.." && pwd)}"
	export CCACHE_NOHASHDIR=true
	# Depend mode: on a miss, ccache takes the headers from the compiler's
	# dependency file (kbuild's -Wp,-MMD) instead of running the
	# preprocessor once more to hash its output.  A hit is looked up as
	# before (direct mode: the source and every header it read, by
	# content), so the variants still share objects.  Measured on this
	# machine (2 CPUs), kernel/ of a cold folder: plain gcc 66 s, ccache
	# 88 s, ccache in depend mode 59 s; with the cache filled, from
	# another variant's folder: 154 of 154 hits, 20 s.
	export CCACHE_DEPEND=true
	# One cache per machine, outside every clone (CI's clean clone; make
	# fresh's root has its own): it is content-addressed, so it changes
	# no result, only the time.  CCACHE_DIR chooses another; an empty
	# folder gives the cold figure (make bench's lab cycle does so).
	# LAB_CCACHE_SIZE caps it, so that a machine's disk stays bounded.
	export CCACHE_DIR="${CCACHE_DIR:-$(default_ccache_dir)}"
	mkdir -p "$CCACHE_DIR"
	ccache -M "${LAB_CCACHE_SIZE:-12G}" >/dev/null
	ccache -z >/dev/null
fi
# Progress: objects compiled (kbuild's "  CC" and "  AS" lines).  A
# whole build (no vmlinux in OBJ yet) counts them against the number the
# last whole build of this folder compiled, or about as many as a sibling
# variant's ("~N": the baseline's first build against the patched one's);
# the first one in a build folder has no total to show, nor has an
# incremental build.
. "$(dirname "$0")/progress.sh"
objects() { grep -cE '^  (CC|AS) ' "$1" 2>/dev/null || true; }
whole=0 total=
if [ ! -f "$obj/vmlinux" ]; then
	whole=1
	total=$(cat "$obj/objects" 2>/dev/null) ||
		total=$(cat "$obj"/../../*/obj/objects 2>/dev/null | head -n1 | sed 's/^./~&/')
fi
status() {
	n=$(objects "$log")
	if [ -n "$total" ] && [ "${total#\~}" -ge "$n" ]; then
		echo "build: $n of $total objects compiled"
	else
		echo "build: $n objects compiled"
	fi
}
start=$(date +%s)
progress_start status
rc=0
make -C "$src" O="$obj" ARCH=x86_64 CC="$cc" -j"${JOBS:-$(nproc)}" \
	${V:+V=$V} ${KBUILD_ARGS:-} "$@" >"$log" 2>&1 || rc=$?
progress_stop
if [ $rc -ne 0 ]; then
	grep -E -B2 -A8 'error:|Error [0-9]' "$log" | tail -40 >&2
	echo "build: failed, full log: $log" >&2
	exit 1
fi
[ $whole = 0 ] || objects "$log" >"$obj/objects"
[ -n "${LOG:-}" ] || grep -E 'warning:' "$log" | head -20 || true
hits=
if [ "$cc" != gcc ]; then
	hits=$(ccache -s 2>/dev/null | awk '/^ *Hits:/ {print ", ccache hits " $2 " " $3 " " $4; exit}
		/cache hit \(direct\)/ {d=$NF} /cache hit \(preprocessed\)/ {p=$NF} /cache miss/ {m=$NF}
		END { if (m != "") print ", ccache hits " d+p " of " d+p+m }')
fi
# The modules of this configuration: kbuild's list (a folder that held
# another configuration keeps its old .ko files).
mods=0
! grep -q '^CONFIG_MODULES=y' "$obj/.config" || mods=$(grep -c . "$obj/modules.order" 2>/dev/null) || true
echo "build: $*: ${mods:-0} modules, in $(( $(date +%s) - start )) s$hits"
