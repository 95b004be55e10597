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
	libssl-dev cpio ccache xz-utils lz4 python3 patch git sparse diffstat perl lcov b4 $*"
# linux-source-KVER that none of this machine's suites has (7.2: only
# Debian's unstable suite has it) comes from unstable through a private
# apt configuration in LAB_APT_DIR (the build folder's apt/): its own
# sources, lists and cache; the machine's sources are never touched.
# apt-get download fetches that one package; the machine's own apt then
# installs the .deb, so that its dependencies (binutils, xz-utils) come
# from the machine's suites.  Nothing else comes from unstable.
unstable_source() {
	pkg=linux-source-$kver
	dir=${LAB_APT_DIR:-build/apt}
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/sources" "$dir/debs"
	dir=$(cd "$dir" && pwd)
	mirror=$("$(dirname "$0")/mirror.sh")
	printf 'Types: deb\nURIs: %s\nSuites: unstable\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$mirror" >"$dir/sources/unstable.sources"
	set -- -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$dir/sources" \
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" \
		-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
	echo "packages: $pkg is in none of this machine's suites: from Debian's unstable ($mirror), apt configuration in $dir"
	apt-get "$@" -q update >"$dir/update.log" 2>&1 || {
		tail -5 "$dir/update.log" >&2
		echo "packages: apt-get update of unstable failed, log: $dir/update.log" >&2
		exit 1
	}
	ver=$(apt-cache "$@" show "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | head -n1)
	if [ -z "$ver" ]; then
		echo "packages: Debian's unstable has no $pkg now; it has: $(/usr/lib/apt/apt-helper cat-file "$dir/lists/"*_Packages* 2>/dev/null |
			sed -n 's/^Package: \(linux-source-[0-9.]*\)$/\1/p' | sort -uV | tr '\n' ' ')" >&2
		exit 1
	fi
	rm -f "$dir/debs/${pkg}_"*.deb
	(cd "$dir/debs" && apt-get "$@" -q download "$pkg" >"$dir/download.log" 2>&1) || {
		tail -5 "$dir/download.log" >&2
		echo "packages: apt-get download $pkg failed, log: $dir/download.log" >&2
		exit 1
	}
	echo "packages: installing $pkg $ver (unstable) with this machine's apt: $(ls "$dir/debs")"
	apt-get install -y -q --no-install-recommends "$dir/debs/${pkg}_"*.deb >/tmp/lab-apt.log 2>&1 || {
		tail -20 /tmp/lab-apt.log >&2
		echo "packages: installing $pkg failed, log: /tmp/lab-apt.log" >&2
		exit 1
	}
}

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
	case " $missing " in
	*" linux-source-$kver "*)
		if ! apt-cache policy "linux-source-$kver" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
			# apt-get install cannot find it: only the lab's own
			# configuration for unstable (above) can.
			echo "packages: linux-source-$kver is in none of this machine's suites; the lab looks for it in Debian's unstable:" \
				"run as root:  make KVER=$kver packages" >&2
			exit 1
		fi ;;
	esac
	echo "packages: run as root:  apt-get update && $cmd" >&2
	exit 1
fi
echo "packages: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null || { echo "packages: apt-get update failed" >&2; exit 1; }
case " $missing " in
*" linux-source-$kver "*)
	if ! apt-cache policy "linux-source-$kver" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
		unstable_source
		missing=$(echo "$missing" | sed "s/ linux-source-$kver\( \|\$\)/ /")
		[ -n "$(echo "$missing" | tr -d ' ')" ] || exit 0
	fi ;;
esac
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/tmp/lab-apt.log 2>&1 || {
	tail -20 /tmp/lab-apt.log >&2
	echo "packages: '$cmd' failed, log: /tmp/lab-apt.log" >&2
	exit 1
}
