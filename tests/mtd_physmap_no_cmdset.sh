#!/bin/sh
# physmap on QEMU's pflash in a kernel without module support and without
# cfi_cmdset_0001 (CONFIG_MODULES=n, CONFIG_MTD_CFI_INTELEXT=n): the chip
# is an Intel one (P_ID 0001), symbol_request(cfi_cmdset_0001) is a weak
# reference that nothing defines, NULL.  gen_probe must say the command
# set is not present and fail cleanly; physmap goes on down its list of
# probes (cfi_probe, jedec_probe, qinfo_probe, map_rom) and ends with the
# flash as a read-only ROM.  Nothing written, nothing crashes; bind/unbind
# cycles repeat the failed probes, one notice each.
. /tests/ktap.sh
. /tests/mtd_lib.sh

SIZE=1048576
CYCLES=20
NOTICE='Support for command set 0001 not present'

ktap_print_header
ktap_set_plan 11

ktap_expect_eq nocmdset_module_support "module support (/proc/modules)" \
	"$([ -e /proc/modules ] && echo present || echo absent)" absent
ktap_expect_eq nocmdset_no_cmdset_in_kallsyms "cfi_cmdset_0001 in /proc/kallsyms (not built)" \
	"$(awk '$3 == "cfi_cmdset_0001"' /proc/kallsyms | wc -l)" 0
notices=$(dmesg | grep -c "$NOTICE")
dmesg | grep -E 'physmap|command set|map_rom|probe' | sed 's/^/# kernel: /'
ktap_expect_eq nocmdset_notice_at_boot "'$NOTICE' notices at boot" "$notices" 1
ktap_expect_eq nocmdset_rom_fallback "MTD devices named physmap-flash.0, type, size" \
	"$(mtd_count name physmap-flash.0) $(mtd_attr "$(mtd_find name physmap-flash.0)" type) $(mtd_attr "$(mtd_find name physmap-flash.0)" size)" \
	"1 rom $SIZE"
mtd=$(mtd_find name physmap-flash.0)
dev=/dev/${mtd:-none}

# map_rom reads the chip as it is left by the probes that failed before
# it: QEMU's flash answers in read-ID mode (its IDs are 0), so the ROM
# reads zeros, not the 0xff of the erased image.  The same on the
# baseline: the probes' state on failure is not the series' business,
# but a change there shows here.
head -c $SIZE /dev/zero >/tmp/zero
mtd_debug read "$dev" 0 $SIZE /tmp/rom >/dev/null
rc=$?
ktap_print_msg "first bytes read: $(od -A x -t x1 -N 16 /tmp/rom | head -1)"
ktap_expect_eq nocmdset_rom_reads "mtd_debug read exit code, bytes read" "$rc $(wc -c </tmp/rom)" "0 $SIZE"
ktap_expect_eq nocmdset_rom_reads_id_mode "bytes that are not 0x00 (the chip in read-ID mode)" \
	"$(cmp -l /tmp/rom /tmp/zero | wc -l)" 0
mtd_debug write "$dev" 0 4096 /tmp/zero >/dev/null 2>&1
rc=$?
ktap_expect_eq nocmdset_rom_write_refused "mtd_debug write on the ROM fails (exit code not 0)" \
	"$([ $rc -ne 0 ] && echo refused || echo "accepted")" refused
mtd_debug read "$dev" 0 $SIZE /tmp/rom2 >/dev/null
ktap_test_result nocmdset_rom_unchanged cmp -s /tmp/rom /tmp/rom2

bad=$(physmap_cycles $CYCLES)
ktap_expect_eq nocmdset_bind_cycles "$CYCLES bind/unbind cycles, cycles with wrong state" "$bad" 0
ktap_expect_eq nocmdset_notices_after_cycles "'$NOTICE' notices after the cycles (one a probe)" \
	"$(dmesg | grep -c "$NOTICE")" $((notices + CYCLES))
ktap_expect_eq nocmdset_rom_after_cycles "type after the cycles" \
	"$(mtd_attr "$(mtd_find name physmap-flash.0)" type)" rom
rm -f /tmp/rom /tmp/rom2 /tmp/zero
ktap_finished
