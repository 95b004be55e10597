#!/bin/sh
# physmap on QEMU's pflash with the MTD chip drivers linked into the
# kernel (the built-in kernel, CONFIG_MODULES=y, and the one without
# module support): gen_probe finds cfi_cmdset_0001 through
# symbol_request(), which resolves at link time there, instead of loading
# a module.  The device is probed at boot; erase, write and read back,
# then bind/unbind cycles, each a probe and a map_destroy() whose
# symbol_put() has no module to release.
. /tests/ktap.sh
. /tests/mtd_lib.sh

SIZE=1048576
ERASESIZE=4096
CYCLES=20

ktap_print_header
ktap_set_plan 13

# The kernel is the one the run says: module support or not.
case ${LAB_VARIANT:-} in
*nomodules*) want=absent ;;
*) want=present ;;
esac
ktap_expect_eq linked_module_support "module support (/proc/modules)" \
	"$([ -e /proc/modules ] && echo present || echo absent)" $want
ktap_expect_eq linked_no_mtd_modules "MTD chip drivers, probes or maps loaded as modules" \
	"$(cat /proc/modules 2>/dev/null | grep -cE '^(physmap|cfi_probe|gen_probe|chipreg|cfi_cmdset_0001|cfi_util) ')" 0
ktap_expect_eq linked_cmdset_in_kallsyms "cfi_cmdset_0001 in /proc/kallsyms, in the kernel image (no [module])" \
	"$(awk '$3 == "cfi_cmdset_0001" && NF == 3' /proc/kallsyms | wc -l)" 1

ktap_expect_eq linked_probed_at_boot "MTD devices named physmap-flash.0 at boot" \
	"$(mtd_count name physmap-flash.0)" 1
mtd=$(mtd_find name physmap-flash.0)
ktap_expect_eq linked_type "type, size, erasesize" \
	"$(mtd_attr "$mtd" type) $(mtd_attr "$mtd" size) $(mtd_attr "$mtd" erasesize)" "nor $SIZE $ERASESIZE"
ktap_expect_eq linked_cmdset_found "'command set ... not present' notices at boot" \
	"$(dmesg | grep -c 'Support for command set .* not present')" 0

mtd_round_trip linked "/dev/${mtd:-none}" $SIZE

bad=$(physmap_cycles $CYCLES)
ktap_expect_eq linked_bind_cycles "$CYCLES bind/unbind cycles, cycles with wrong state" "$bad" 0
mtd=$(mtd_find name physmap-flash.0)
ktap_expect_eq linked_type_after_cycles "type after the cycles" "$(mtd_attr "$mtd" type)" nor
dev=/dev/${mtd:-none}
mtd_debug read "$dev" 0 $SIZE /tmp/readback >/dev/null
ktap_test_result linked_data_kept_after_cycles cmp -s /tmp/pattern /tmp/readback
flash_erase -q "$dev" 0 0
mtd_debug read "$dev" 0 $SIZE /tmp/erased >/dev/null
ktap_test_result linked_erase_after_cycles cmp -s /tmp/erased /tmp/ff
ktap_expect_eq linked_notices_after_cycles "'command set ... not present' notices after the cycles" \
	"$(dmesg | grep -c 'Support for command set .* not present')" 0
rm -f /tmp/ff /tmp/erased /tmp/pattern /tmp/readback
ktap_finished
