#!/bin/sh
# make fresh: the proof that the lab installs what it needs.  Build a
# minimal Debian 12 root from Debian's archive (debootstrap, minbase, with
# only what a user needs to fetch and start the lab: git and make), clone
# this repository's HEAD into it, and run COMMAND there as root, in
# a mount and PID namespace of its own (unshare + chroot), with nothing
# from this machine but the kernel, the network and the apt sources.
# Every Debian package the lab uses is installed by the lab itself.
#
# usage: fresh.sh DIR [COMMAND]   (from the top of the lab; COMMAND: make;
#                                  e.g. "make check", .ci/run)
#   DIR/root     the root, rebuilt on every run (kept afterwards)
#   DIR/*.log    debootstrap.log, make.log (the lab's output inside)
set -u
dir=$1 cmd=${2:-make}
root=$dir/root
suite=bookworm
log() { echo "fresh: $*"; }
elapsed() { echo $(($(date +%s) - $1)); }

[ "$(id -u)" -eq 0 ] || {
	echo "fresh: debootstrap and chroot need root: run it as root" >&2
	exit 1
}
# The archive apt uses here.
mirror=$(qemu/mirror.sh)

rm -rf "$root"
mkdir -p "$dir"
t0=$(date +%s)
log "building a $suite root (debootstrap --variant=minbase, + git make) from $mirror in $root"
debootstrap --variant=minbase --include=git,make,ca-certificates \
	"$suite" "$root" "$mirror" >"$dir/debootstrap.log" 2>&1 || {
	tail -5 "$dir/debootstrap.log" >&2
	echo "fresh: debootstrap failed, log: $dir/debootstrap.log" >&2
	exit 1
}
# The apt sources of a Debian 12 install (main, updates, security: the
# security suite carries linux-source-6.12), as this machine has them.
if ls /etc/apt/sources.list.d/*.sources >/dev/null 2>&1; then
	rm -f "$root/etc/apt/sources.list"
	cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/"
elif [ -f /etc/apt/sources.list ]; then
	cp /etc/apt/sources.list "$root/etc/apt/sources.list"
fi
# And this machine's own apt settings (those Debian does not install,
# e.g. how its archive is reached: a frozen archive's Release files
# expire, which unstable's Valid-Until makes apt refuse without them).
for f in /etc/apt/apt.conf.d/*; do
	[ -f "$f" ] && [ ! -e "$root/etc/apt/apt.conf.d/${f##*/}" ] && cp "$f" "$root/etc/apt/apt.conf.d/"
done
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
root_s=$(elapsed "$t0")
log "root built in $root_s s ($(du -sm "$root" | cut -f1) MiB; $(chroot "$root" dpkg-query -W | wc -l) packages)"

head=$(git rev-parse --short HEAD)
git clone -q "$(pwd)" "$root/root/lab" || { echo "fresh: git clone failed" >&2; exit 1; }
log "cloned $(pwd) at $head into $root/root/lab (uncommitted changes are not in it)"

# Inside: a PID and mount namespace (its mounts go when it ends), /proc,
# /sys, /dev of this kernel; a clean environment, as a root login has.
t1=$(date +%s)
log "$cmd in the root (log: $dir/make.log)"
unshare --mount --pid --fork --kill-child sh -c '
	root=$1 cmd=$2
	mount -t proc proc "$root/proc" &&
	mount -t sysfs sysfs "$root/sys" &&
	mount --rbind /dev "$root/dev" || exit 1
	exec chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		sh -c "cd /root/lab && $cmd; echo \$? >/root/make.rc"' \
	sh "$root" "$cmd" </dev/null 2>&1 | tee "$dir/make.log"
rc=$(cat "$root/root/make.rc" 2>/dev/null || echo "none (killed?)")
make_s=$(elapsed "$t1")
result=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$dir/make.log" | tail -n1)
log "root built in $root_s s; $cmd from nothing to '${result:-no result}' in $make_s s ($((make_s / 60)) min); exit code $rc; log: $dir/make.log"
[ "$rc" = 0 ] || { echo "fresh: $cmd in the fresh root failed (exit code $rc), log: $dir/make.log" >&2; exit 1; }
