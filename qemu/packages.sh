#!/bin/sh
# Stage "packages": install the Debian packages the lab needs, or, when not
# root, stop with the exact command to run.
#
# usage: packages.sh KVER [extra packages...]
set -eu
kver=$1
shift
need="linux-source-$kver qemu-system-x86 seabios busybox-static kmod
	mtd-utils libdrm-dev libdrm-tests pkgconf gcc make bc flex bison libelf-dev
	libssl-dev cpio ccache xz-utils lz4 python3 patch git sparse diffstat perl lcov $*"
# One dpkg query for all of them: the stage runs before every target.
# shellcheck disable=SC2086
installed=$(dpkg-query -W -f='${Package} ${Status}\n' $need 2>/dev/null |
	awk '/ install ok installed$/ { print $1 }')
missing=
for p in $need; do
	echo "$installed" | grep -qx "$p" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "packages: missing:$missing" >&2
	echo "packages: run as root:  apt-get update && $cmd" >&2
	exit 1
fi
echo "packages: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null || { echo "packages: apt-get update failed" >&2; exit 1; }
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/tmp/lab-apt.log 2>&1 || {
	tail -20 /tmp/lab-apt.log >&2
	echo "packages: '$cmd' failed, log: /tmp/lab-apt.log" >&2
	exit 1
}
