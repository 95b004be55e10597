#!/bin/sh
# mtdram: a RAM-backed MTD device, written and read back with mtd-utils.
. /tests/ktap.sh
. /tests/mtd_lib.sh

SIZE_KIB=1024
ERASE_KIB=64
SIZE=$((SIZE_KIB * 1024))

ktap_print_header
ktap_set_plan 7

modprobe mtdram total_size=$SIZE_KIB erase_size=$ERASE_KIB
rc=$?
ktap_expect_eq mtdram_modprobe "modprobe mtdram exit code" "$rc" 0
mtd=$(mtd_find name "mtdram test device")
ktap_expect_eq mtdram_type "type" "$(mtd_attr "$mtd" type)" ram
ktap_expect_eq mtdram_size "size" "$(mtd_attr "$mtd" size)" $SIZE
ktap_expect_eq mtdram_erasesize "erasesize" "$(mtd_attr "$mtd" erasesize)" $((ERASE_KIB * 1024))

dev=/dev/${mtd:-none}
flash_erase -q "$dev" 0 0
random_file /tmp/pattern $SIZE
mtd_debug write "$dev" 0 $SIZE /tmp/pattern >/dev/null
mtd_debug read "$dev" 0 $SIZE /tmp/readback >/dev/null
ktap_print_msg "pattern $(md5sum </tmp/pattern | cut -c1-32), read back $(md5sum </tmp/readback | cut -c1-32)"
ktap_test_result mtdram_write_read_back cmp -s /tmp/pattern /tmp/readback

# flashcp erases, writes and verifies on its own: a second, independent
# round trip through the erase path.
random_file /tmp/pattern2 $SIZE
flashcp /tmp/pattern2 "$dev"
rc=$?
mtd_debug read "$dev" 0 $SIZE /tmp/readback >/dev/null
ktap_print_msg "flashcp exit code $rc"
if [ "$rc" -eq 0 ] && cmp -s /tmp/pattern2 /tmp/readback; then
	ktap_test_pass mtdram_flashcp_round_trip
else
	ktap_test_fail mtdram_flashcp_round_trip
fi
rm -f /tmp/pattern /tmp/pattern2 /tmp/readback

rmmod mtdram
rc=$?
ktap_expect_eq mtdram_unloads "rmmod mtdram exit code" "$rc" 0
ktap_finished
