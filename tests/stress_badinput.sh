#!/bin/sh
# Bad input on the debug kernel: insane parameters to the fixtures (the
# simulated CFI chips, nandsim), a non-GPL module that looks a command
# set up with symbol_get().  Each must be refused with a message that
# says why, leave nothing loaded or registered, and leave the system
# usable: a sane load afterwards works and reads back.  (Unknown and
# absent command sets and a malformed CFI table are in mtd_cfi_sim.)
. /tests/ktap.sh
. /tests/mtd_lib.sh

M=/tests/modules
SIM=$M/cfi_sim.ko

ktap_print_header
ktap_set_plan 14

modprobe -a mtd chipreg
mtds() { ls /sys/class/mtd | grep -c 'mtd[0-9]*$'; }

# refused ID MODULE-LOAD-COMMAND MESSAGE-REGEX: the load fails, the
# kernel log says MESSAGE, the module is not loaded, no MTD device left.
refused() {
	id=$1 cmd=$2 msg=$3 mod=$4
	dmesg -c >/dev/null
	$cmd >/dev/null 2>&1
	rc=$?
	said=$(dmesg | grep -c -E "$msg")
	dmesg | grep -E "$msg" | head -2 | sed 's/^/# kernel: /'
	ktap_expect_eq "badinput_$id" "$cmd: exit code non-zero, kernel says why, $mod not loaded, MTD devices" \
		"$([ $rc -ne 0 ] && echo refused) $([ "$said" -gt 0 ] && echo said) $(refcnt "$mod") $(mtds)" \
		"refused said absent 0"
}

refused sim_maps_5 "insmod $SIM maps=5" 'cfi_sim: maps=5: must be 0 to' cfi_sim
refused sim_maps_huge "insmod $SIM maps=4000000000" 'cfi_sim: maps=4000000000: must be 0 to' cfi_sim
refused sim_maps_negative "insmod $SIM maps=-1" "invalid for parameter .maps." cfi_sim
refused sim_probe "insmod $SIM probe=jedec_probe" 'cfi_sim: probe=jedec_probe: must be' cfi_sim
refused sim_fault "insmod $SIM fault=everything" 'cfi_sim: fault=everything: must be' cfi_sim
refused sim_p_id_overflow "insmod $SIM p_id=0x10000" "invalid for parameter .p_id." cfi_sim
refused nandsim_unknown_id "modprobe nandsim id_bytes=0x00,0x00" 'nand: No NAND device found|No NAND device' nandsim
refused nandsim_bad_badblocks "modprobe nandsim badblocks=999999" 'invalid badblocks' nandsim
refused nandsim_bad_weakblocks "modprobe nandsim weakblocks=:x" 'invalid weakblocks' nandsim

# Lockdep is still on after every test before this one (a report turns it
# off for good); the non-GPL module below turns it off by its taint.
ktap_expect_eq badinput_lockdep_on "lockdep's debug_locks before the non-GPL module" \
	"$(sed -n 's/^ *debug_locks: *//p' /proc/lockdep_stats)" 1

# A non-GPL module may not look a command set up: symbol_get() is GPL-only.
dmesg -c >/dev/null
modprobe cfi_cmdset_0001
if [ -f $M/cmdset_nongpl.ko ]; then
	insmod $M/cmdset_nongpl.ko 2>/dev/null
	rc=$?
	said=$(dmesg | grep -Ec 'cmdset_nongpl: Unknown symbol __symbol_get(_for)? ')
	dmesg | grep cmdset_nongpl | head -3 | sed 's/^/# kernel: /'
	ktap_expect_eq badinput_cmdset_nongpl "non-GPL symbol_get(cfi_cmdset_0001): refused, kernel names __symbol_get, not loaded" \
		"$([ $rc -ne 0 ] && echo refused) $([ "$said" -gt 0 ] && echo said) $(refcnt cmdset_nongpl)" \
		"refused said absent"
else
	ktap_print_msg "no $M/cmdset_nongpl.ko: it did not build against this tree"
	ktap_test_fail badinput_cmdset_nongpl
fi
ktap_expect_eq badinput_cmdset_untouched "cfi_cmdset_0001 refcnt after the refusal" \
	"$(refcnt cfi_cmdset_0001)" 0
rmmod cfi_cmdset_0001

# Still usable: sane loads work and read back.
insmod $SIM p_id=0x0001 maps=1
ktap_expect_eq badinput_sim_after "cfi_sim p_id=0x0001 maps=1 after all that: exit code, MTD devices, readable" \
	"$? $(mtds) $(head -c 65536 /dev/mtd0 | wc -c)" "0 1 65536"
rmmod cfi_sim cfi_cmdset_0001
modprobe nandsim id_bytes=0x20,0xa2,0x00,0x15
ktap_expect_eq badinput_nandsim_after "nandsim after all that: exit code, MTD devices" "$? $(mtds)" "0 1"
rmmod nandsim
ktap_finished
