#!/bin/sh
# CFI NOR through physmap on QEMU's pflash: probe, erase/write/read back,
# and the module references that the map holds and releases.
#
# The reference counts asserted here are the ones the unpatched 6.1 tree
# shows (recorded with `make baseline`): physmap's map pins the command
# set (cfi_cmdset_0001) exactly once, the probe module (cfi_probe) not at
# all; gen_probe and chipreg are held only by the modules linked to them.
# A series that moves reference ownership must keep these figures, or
# change them here on purpose.
. /tests/ktap.sh
. /tests/mtd_lib.sh

SIZE=1048576
# QEMU's pc machine builds its pflash with 4 KiB sectors
# (FLASH_SECTOR_SIZE in hw/i386/pc_sysfw.c) and reports them in CFI.
ERASESIZE=4096

ktap_print_header
ktap_set_plan 17

modprobe physmap
rc=$?
ktap_expect_eq physmap_modprobe "modprobe physmap exit code" "$rc" 0
ktap_expect_eq physmap_one_device "MTD devices named physmap-flash.0" \
	"$(mtd_count name physmap-flash.0)" 1
mtd=$(mtd_find name physmap-flash.0)
ktap_expect_eq physmap_type "type" "$(mtd_attr "$mtd" type)" nor
ktap_expect_eq physmap_size "size" "$(mtd_attr "$mtd" size)" $SIZE
ktap_expect_eq physmap_erasesize "erasesize" "$(mtd_attr "$mtd" erasesize)" $ERASESIZE
ktap_expect_eq physmap_cmdset_0001_loaded "cfi_cmdset_0001 loaded" \
	"$([ -d /sys/module/cfi_cmdset_0001 ] && echo yes || echo no)" yes

mtd_round_trip physmap "/dev/${mtd:-none}" $SIZE
rm -f /tmp/ff /tmp/pattern

ktap_expect_eq physmap_refcnt_mapped_cfi_cmdset_0001 "cfi_cmdset_0001 refcnt while mapped" \
	"$(refcnt cfi_cmdset_0001)" 1
ktap_expect_eq physmap_refcnt_mapped_cfi_probe "cfi_probe refcnt while mapped" \
	"$(refcnt cfi_probe)" 0
ktap_expect_eq physmap_refcnt_mapped_gen_probe "gen_probe refcnt while mapped (cfi_probe links it)" \
	"$(refcnt gen_probe)" 1
ktap_expect_eq physmap_refcnt_mapped_chipreg "chipreg refcnt while mapped (cfi_probe, physmap link it)" \
	"$(refcnt chipreg)" 2

rmmod physmap
ktap_expect_eq physmap_remove_device_gone "MTD devices named physmap-flash.0 after rmmod physmap" \
	"$(mtd_count name physmap-flash.0)" 0
ktap_expect_eq physmap_refcnt_removed_cfi_cmdset_0001 "cfi_cmdset_0001 refcnt after rmmod physmap" \
	"$(refcnt cfi_cmdset_0001)" 0
ktap_expect_eq physmap_refcnt_removed_chipreg "chipreg refcnt after rmmod physmap" \
	"$(refcnt chipreg)" 1
rmmod cfi_cmdset_0001
rc=$?
ktap_expect_eq physmap_cmdset_unloads "rmmod cfi_cmdset_0001 exit code" "$rc" 0
ktap_expect_eq physmap_cmdset_gone "cfi_cmdset_0001 after rmmod" "$(refcnt cfi_cmdset_0001)" absent
ktap_finished
