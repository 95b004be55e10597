#!/bin/sh
# Stage "initramfs": busybox-static for the shell, kmod for modprobe and
# friends (request_module() and symbol_request() run /sbin/modprobe and
# need modules.symbols, which busybox's modprobe does not read),
# mtd-utils, libdrm's modetest, the guest test scripts and programs from
# tests/, and the kernel's modules (modules_install + depmod).  Shared
# libraries come along by ldd.  The archive is an uncompressed newc cpio:
# under TCG, decompressing costs more than loading.
#
# usage: initramfs.sh SRC OBJ TESTBIN OUT
#   TESTBIN: folder with the test programs built for the guest
set -eu
src=$1 obj=$2 testbin=$3 out=$4
top=$(pwd)
root=$out.d
rm -rf "$root"
mkdir -p "$root"
cd "$root"
mkdir -p bin sbin usr/bin usr/sbin lib lib64 dev proc sys tmp mnt run \
	etc tests

# busybox first, then real tools replace the applets they overlap.
cp /bin/busybox bin/
for a in $(/bin/busybox --list); do
	[ "$a" = busybox ] || ln -sf busybox "bin/$a"
done
cp /bin/kmod bin/kmod
for a in modprobe insmod rmmod lsmod modinfo depmod; do
	rm -f "bin/$a" "sbin/$a"
	ln -s ../bin/kmod "sbin/$a"
done
progs="flash_erase mtd_debug mtdinfo flashcp nandwrite nanddump nandtest
	ubiformat ubiattach ubidetach ubimkvol ubirmvol ubinfo ubiupdatevol"
for p in $progs; do cp "/usr/sbin/$p" usr/sbin/; done
cp /usr/bin/modetest usr/bin/

# Test scripts and programs.
cp "$top"/tests/*.sh tests/
cp "$top/tests/init" init
chmod +x init tests/*.sh
if [ -d "$testbin" ]; then
	find "$testbin" -maxdepth 1 -type f -perm -u+x -exec cp {} tests/ \;
	[ ! -f "$testbin/facts" ] || cp "$testbin/facts" tests/
	mkdir -p tests/modules
	find "$testbin/modules" -maxdepth 1 -name '*.ko' -exec cp {} tests/modules/ \;
fi

# Shared libraries of every dynamic ELF file, with the loader.
for f in bin/kmod usr/sbin/* usr/bin/* tests/*; do
	ldd "$f" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'
done | sort -u | while read -r lib; do
	mkdir -p ".$(dirname "$lib")"
	cp -L "$lib" ".$lib"
done

# Modules, stripped; modules_install runs depmod, which writes
# modules.symbols for symbol_request()'s "symbol:" aliases.  A kernel
# without module support (CONFIG_MODULES=n) has none to install.
kver=$(cat "$obj/include/config/kernel.release")
if grep -q '^CONFIG_MODULES=y' "$obj/.config"; then
	make -s -C "$src" O="$obj" ARCH=x86_64 INSTALL_MOD_PATH="$root" \
		INSTALL_MOD_STRIP=1 modules_install >"$out.log" 2>&1 || {
		cat "$out.log" >&2
		echo "initramfs: modules_install failed" >&2
		exit 1
	}
	[ -s "lib/modules/$kver/modules.symbols" ] || {
		echo "initramfs: no modules.symbols for $kver (depmod missing?)" >&2
		exit 1
	}
fi
rm -f "lib/modules/$kver/build" "lib/modules/$kver/source"
find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 >"$out.tmp"
mv "$out.tmp" "$out"
echo "initramfs: $(du -m "$out" | cut -f1) MiB, $(find . -name '*.ko' | wc -l) modules, kernel $kver"
