#!/bin/sh
# nandsim: raw NAND round trips with OOB, then UBI and UBIFS on top:
# format, attach, make a volume, mount, write files, unmount, detach,
# reattach, remount and verify every file's checksum.
. /tests/ktap.sh
. /tests/mtd_lib.sh

# Hynix-style ID 0x20 0xa2, extended ID 0x15: 64 MiB, 2 KiB pages,
# 64-byte OOB, 128 KiB erase blocks (512 of them), 8-bit bus.
ID=0x20,0xa2,0x00,0x15
SIZE=$((64 * 1024 * 1024))
PAGE=2048
OOB=64
BLOCK=$((128 * 1024))
PAGES=$((BLOCK / PAGE))

ktap_print_header
ktap_set_plan 15

modprobe nandsim id_bytes=$ID
rc=$?
ktap_expect_eq nandsim_modprobe "modprobe nandsim exit code" "$rc" 0
mtd=$(mtd_find type nand)
num=${mtd#mtd}
ktap_expect_eq nandsim_size "size" "$(mtd_attr "$mtd" size)" $SIZE
ktap_expect_eq nandsim_geometry "writesize/oobsize/erasesize" \
	"$(mtd_attr "$mtd" writesize)/$(mtd_attr "$mtd" oobsize)/$(mtd_attr "$mtd" erasesize)" \
	"$PAGE/$OOB/$BLOCK"
dev=/dev/${mtd:-none}

# Block 1 through the ECC path: data in, data out.
flash_erase -q "$dev" $BLOCK 1
random_file /tmp/data $BLOCK
nandwrite -q -s $BLOCK "$dev" /tmp/data
nanddump -q -s $BLOCK -l $BLOCK -f /tmp/readback "$dev"
ktap_test_result nandsim_nandwrite_nanddump_data cmp -s /tmp/data /tmp/readback

# Block 2 raw, data and OOB as given: every page is 2048 data bytes and
# 64 OOB bytes whose first two (the bad block marker) stay 0xff.
flash_erase -q "$dev" $((2 * BLOCK)) 1
: >/tmp/raw
i=0
while [ $i -lt $PAGES ]; do
	head -c $PAGE /dev/urandom >>/tmp/raw
	printf '\377\377' >>/tmp/raw
	head -c $((OOB - 2)) /dev/urandom >>/tmp/raw
	i=$((i + 1))
done
nandwrite -q -n -o -s $((2 * BLOCK)) "$dev" /tmp/raw
nanddump -q -n -o -s $((2 * BLOCK)) -l $BLOCK -f /tmp/readback "$dev"
ktap_print_msg "raw block with OOB: $(wc -c </tmp/raw) bytes written, $(wc -c </tmp/readback) read"
ktap_test_result nandsim_raw_round_trip_with_oob cmp -s /tmp/raw /tmp/readback
rm -f /tmp/data /tmp/raw /tmp/readback

# UBI + UBIFS (mtd-utils does not load them: ubiattach needs ubi).
modprobe ubi
modprobe ubifs
ubiformat -q -y "$dev"
ktap_expect_eq ubi_format "ubiformat exit code" "$?" 0
ubiattach -m "$num" -d 0 >/dev/null
ktap_expect_eq ubi_attach "ubiattach exit code" "$?" 0
ubimkvol /dev/ubi0 -N lab -m >/dev/null
ktap_expect_eq ubi_mkvol "ubimkvol exit code" "$?" 0
mkdir -p /mnt/ubi
mount -t ubifs ubi0:lab /mnt/ubi
ktap_expect_eq ubifs_mount "mount ubifs exit code" "$?" 0
for f in 1 2 3 4; do
	head -c $((f * 100000)) /dev/urandom >/mnt/ubi/file$f
done
mkdir -p /mnt/ubi/dir && echo "lab" >/mnt/ubi/dir/small
(cd /mnt/ubi && sha256sum file1 file2 file3 file4 dir/small) >/tmp/sums
umount /mnt/ubi
ktap_expect_eq ubifs_umount "umount exit code" "$?" 0
ubidetach -m "$num"
ktap_expect_eq ubi_detach "ubidetach exit code" "$?" 0
ubiattach -m "$num" -d 0 >/dev/null
ktap_expect_eq ubi_reattach "ubiattach (again) exit code" "$?" 0
mount -t ubifs ubi0:lab /mnt/ubi
ktap_expect_eq ubifs_remount "mount ubifs (again) exit code" "$?" 0
(cd /mnt/ubi && sha256sum -c /tmp/sums) >/tmp/check 2>&1
rc=$?
ktap_print_msg "$(grep -c ': OK$' /tmp/check) of 5 files verified"
ktap_expect_eq ubifs_files_intact "sha256sum -c exit code after remount" "$rc" 0
umount /mnt/ubi
ubidetach -m "$num"
rmmod ubifs ubi nandsim
ktap_expect_eq nandsim_unloads "nandsim after rmmod" "$(refcnt nandsim)" absent
ktap_finished
