#!/bin/sh
# NAND faults under UBI and UBIFS, on nandsim (64 MiB, 2 KiB pages, 128
# KiB blocks) split in two: partition 0, 64 blocks (8 MiB), carries UBI;
# partition 1 takes the rest.  nandsim injects:
#   badblocks   3 blocks of partition 0 marked bad from the start
#   weakblocks  2 blocks whose erase fails after 2 erases
#   weakpages   the first page (UBI's erase counter header) of a block,
#               whose programming fails after 2 writes
#   bitflips    one random bit flip in 1/1024 of the pages read
#   gravepages  a page of partition 1 that reads as garbage after 2 reads
# A data set is written through UBIFS LAB_NAND_ROUNDS times (default 4,
# each overwriting the last, so UBI cycles its blocks), partition 0 is
# read through the ECC path 4 times (bit flips), then UBI is detached,
# reattached and UBIFS remounted: every byte must read back.  What was
# injected is counted from nandsim's own messages (bit flips are random:
# a figure, not a test; mtd_nandbiterrs tests the ECC deterministically).
. /tests/ktap.sh
. /tests/mtd_lib.sh

ID=0x20,0xa2,0x00,0x15
PAGE=2048
BLOCK=$((128 * 1024))
PART0_BLOCKS=64
ROUNDS=${LAB_NAND_ROUNDS:-4}
# The grave page: page 5 of block 100 (partition 1), away from the pages
# that the bad block scans read.
GRAVE=$((100 * 64 + 5))
GOFF=$(((100 - PART0_BLOCKS) * BLOCK + 5 * PAGE))

ktap_print_header
ktap_set_plan 11

# UBI dumps the stack when an erase fails for good (the weak blocks): the
# console stays quiet while faults are armed, and the kernel log is
# checked here for reports instead (mtd_lib.sh).
faults_quiet
modprobe nandsim id_bytes=$ID parts=$PART0_BLOCKS badblocks=3,17,40 \
	weakblocks=9:2,30:2 weakpages=$((25 * 64)):2 bitflips=1 gravepages=$GRAVE:2
ktap_expect_eq nand_modprobe "modprobe nandsim (faults armed) exit code" "$?" 0
p0=$(mtd_find name "NAND simulator partition 0")
p1=$(mtd_find name "NAND simulator partition 1")
ktap_expect_eq nand_bad_blocks "bad blocks of partition 0 at the start" "$(mtd_attr "$p0" bad_blocks)" 3

modprobe -a ubi ubifs
ubiformat -q -y /dev/$p0 >/dev/null 2>&1
ubiattach -m "${p0#mtd}" -d 0 >/dev/null
ubimkvol /dev/ubi0 -N stress -m >/dev/null
mkdir -p /mnt/ubi
mount -t ubifs ubi0:stress /mnt/ubi
ktap_expect_eq nand_ubifs_mount "UBI attach, volume, UBIFS mount exit code" "$?" 0

# The data set: 12 files, 1.2 MiB, rewritten ROUNDS times (the last one
# stays); sums of the last round.
r=0
while [ $r -lt "$ROUNDS" ]; do
	r=$((r + 1))
	i=0
	while [ $i -lt 12 ]; do
		i=$((i + 1))
		head -c $((i * 20000)) /dev/urandom >/mnt/ubi/f$i
	done
	sync
done
(cd /mnt/ubi && sha256sum f*) >/tmp/nand.sums
bytes=$(cat /mnt/ubi/f* | wc -c)
umount /mnt/ubi
ubidetach -d 0

# Bit flips come on reads (about one page in a thousand, at random):
# read partition 0 through ECC four times, partition 1 once.
before=$(( $(mtd_attr "$p0" corrected_bits) + $(mtd_attr "$p1" corrected_bits) ))
for k in 1 2 3 4; do nanddump -q -f /dev/null /dev/$p0 2>/dev/null; done
nanddump -q -f /dev/null /dev/$p1 2>/dev/null
corrected=$(( $(mtd_attr "$p0" corrected_bits) + $(mtd_attr "$p1" corrected_bits) - before ))

ubiattach -m "${p0#mtd}" -d 0 >/dev/null
ktap_expect_eq nand_ubi_reattach "ubiattach after the faults exit code" "$?" 0
mount -t ubifs ubi0:stress /mnt/ubi
ktap_expect_eq nand_ubifs_remount "UBIFS remount exit code" "$?" 0
(cd /mnt/ubi && sha256sum -c /tmp/nand.sums) >/tmp/nand.check 2>&1
rc=$?
ok=$(grep -c ': OK$' /tmp/nand.check)
ktap_print_msg "$ok of 12 files verified, $bytes bytes"
ktap_expect_eq nand_data_intact "files whose sha256 matches after remount" "$ok" 12
[ $rc = 0 ] && ktap_figure "NAND bytes verified under faults (UBIFS)" "$bytes (0 lost)"
umount /mnt/ubi
ubidetach -d 0

# The grave page: readable twice, then it returns garbage that the ECC
# cannot correct, reported as such (not as good data).
flash_erase -q /dev/$p1 $(((100 - PART0_BLOCKS) * BLOCK)) 1
head -c $PAGE /dev/urandom >/tmp/page
nandwrite -q -s $GOFF /dev/$p1 /tmp/page
failed0=$(mtd_attr "$p1" ecc_failures)
reads_ok=0
for k in 1 2 3; do
	nanddump -q -s $GOFF -l $PAGE -f /tmp/back /dev/$p1 2>/dev/null
	cmp -s /tmp/page /tmp/back && reads_ok=$((reads_ok + 1))
done
grave_failed=$(( $(mtd_attr "$p1" ecc_failures) - failed0 ))
ktap_expect_eq nand_grave_page "grave page: good reads of 3, ECC failures reported" \
	"$reads_ok $([ "$grave_failed" -gt 0 ] && echo some)" "2 some"

# What nandsim injected, from its own messages.
dmesg >/tmp/nand.dmesg
flips=$(grep -c 'flipping bit' /tmp/nand.dmesg)
erase_fail=$(grep -c 'simulating erase failure' /tmp/nand.dmesg)
write_fail=$(grep -c 'simulating write failure' /tmp/nand.dmesg)
read_fail=$(grep -c 'simulating read error' /tmp/nand.dmesg)
bad_end=$(mtd_attr "$p0" bad_blocks)
ktap_print_msg "injected: $flips bit flips ($corrected corrected in the dumps), $erase_fail erase failures, $write_fail write failures, $read_fail grave page reads; bad blocks 3 at start, $bad_end at end"
ktap_figure "NAND bit flips injected" "$flips ($corrected corrected by ECC in the raw reads)"
ktap_figure "NAND bad blocks" "3 at start, $bad_end at end (weak blocks/pages: $erase_fail erase, $write_fail write failures)"
ktap_figure "NAND grave page reads failed" "$read_fail"
ktap_expect_eq nand_bad_blocks_kept "bad blocks at the end (at least the 3 of the start)" \
	"$([ "$bad_end" -ge 3 ] && echo yes)" yes

rmmod ubifs ubi nandsim
faults_reports
ktap_expect_eq nand_no_reports "kernel reports while the faults were armed" "$REPORTS_FOUND" 0
ktap_expect_eq nand_unloads "nandsim after rmmod" "$(refcnt nandsim)" absent
ktap_expect_eq nand_no_ubi "ubi after rmmod" "$(refcnt ubi)" absent
ktap_finished
