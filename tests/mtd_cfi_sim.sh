#!/bin/sh
# The CFI command set lookup and the module references of probed maps, on
# simulated chips (tests/modules/cfi_sim) probed by the kernel's own
# do_map_probe(): every P_ID the lookup knows, an unknown and an absent
# one, a malformed extended table, a primary ID without a driver with a
# supported alternate, the unload order, and an LPDDR chip through
# qinfo_probe.  Each case loads the simulator with MAPS maps, so a
# command set must hold exactly MAPS references while they live.
. /tests/ktap.sh
. /tests/mtd_lib.sh

SIM=/tests/modules/cfi_sim.ko
MAPS=2
SIZE=262144
DBG=/sys/kernel/debug/cfi_sim
CMDSETS="cfi_cmdset_0001 cfi_cmdset_0002 cfi_cmdset_0020"

ktap_print_header
ktap_set_plan 45

[ -f $SIM ] || ktap_print_msg "no $SIM: it did not build against this tree"
# What cfi_sim links to; insmod does not load dependencies.
modprobe -a mtd chipreg

# Start each case with no command set loaded: the probe has to load it.
unload_cmdsets() {
	for u in $CMDSETS; do
		[ -d /sys/module/$u ] && rmmod $u
	done
	dmesg -c >/dev/null
}

# maps_ok DRIVER: "ok" if each map has its MTD device, of type nor and of
# the chip's size, served by DRIVER, and reads back as the chip's array.
maps_ok() {
	i=0
	while [ $i -lt $MAPS ]; do
		mtd=$(mtd_find name cfi_sim.$i) || { echo "map $i: no MTD device"; return; }
		t=$(mtd_attr "$mtd" type) s=$(mtd_attr "$mtd" size)
		d=$(cat $DBG/map${i}_driver 2>/dev/null)
		[ "$t/$s/$d" = "nor/$SIZE/$1" ] || { echo "map $i: $t/$s/$d"; return; }
		i=$((i + 1))
	done
	echo ok
}

# read_back: "ok" if every /dev/mtdX reads as its chip's array.
read_back() {
	i=0
	while [ $i -lt $MAPS ]; do
		mtd=$(mtd_find name cfi_sim.$i)
		cmp -s /dev/$mtd $DBG/map$i || { echo "map $i differs"; return; }
		i=$((i + 1))
	done
	echo ok
}

# refs: "module=refcnt" of every command set, for the log and asserts.
refs() {
	for r in cfi_probe $CMDSETS; do printf '%s=%s ' $r "$(refcnt $r)"; done
}

# The IDs gen_probe maps to each command set.
for c in 0001:cfi_cmdset_0001 0003:cfi_cmdset_0001 0200:cfi_cmdset_0001 \
	 0002:cfi_cmdset_0002 0006:cfi_cmdset_0002 0701:cfi_cmdset_0002 \
	 0020:cfi_cmdset_0020; do
	id=${c%%:*} m=${c#*:}
	unload_cmdsets
	insmod $SIM maps=$MAPS p_id=0x$id
	rc=$?
	ktap_print_msg "P_ID $id: insmod exit code $rc; $(refs)"
	ktap_expect_eq cfi_sim_pid_${id}_probe "P_ID $id: $MAPS maps, nor, $SIZE bytes, served by $m" \
		"$rc,$(maps_ok $m)" "0,ok"
	ktap_expect_eq cfi_sim_pid_${id}_refcnt "P_ID $id: $m refcnt, cfi_probe refcnt" \
		"$(refcnt $m),$(refcnt cfi_probe)" "$MAPS,0"
	ktap_expect_eq cfi_sim_pid_${id}_read_back "P_ID $id: /dev/mtdX against the chip" \
		"$(read_back)" ok
	rmmod cfi_sim
	ktap_expect_eq cfi_sim_pid_${id}_released "P_ID $id: rmmod cfi_sim exit code, $m refcnt after" \
		"$?,$(refcnt $m)" "0,0"
done

# No driver: an unknown ID and P_ID_NONE.  The probe fails, says why, and
# leaves no reference anywhere.
for c in 1234:"Support for command set 1234 not present" \
	 0000:"No supported Vendor Command Set found"; do
	id=${c%%:*} msg=${c#*:}
	unload_cmdsets
	insmod $SIM maps=$MAPS p_id=0x$id 2>/dev/null
	rc=$?
	n=$(dmesg | grep -c "$msg")
	ktap_print_msg "P_ID $id: insmod exit code $rc, '$msg' x$n; $(refs)"
	ktap_expect_eq cfi_sim_pid_${id}_refused "P_ID $id: load refused, kernel says why" \
		"$([ $rc -ne 0 ] && [ "$n" -ge 1 ] && echo yes)" yes
	ktap_expect_eq cfi_sim_pid_${id}_no_refs "P_ID $id: no reference left" \
		"$(refs)" "cfi_probe=0 cfi_cmdset_0001=absent cfi_cmdset_0002=absent cfi_cmdset_0020=absent "
done

# A command set that rejects the chip: an Intel extended table of
# version 9.0.  Everything the probe took is given back.
unload_cmdsets
insmod $SIM maps=$MAPS p_id=0x0001 fault=bad_pri 2>/dev/null
rc=$?
n=$(dmesg | grep -c "Unknown Intel/Sharp Extended Query version 9.0")
ktap_print_msg "bad_pri: insmod exit code $rc, version message x$n; $(refs)"
ktap_expect_eq cfi_sim_bad_pri_refused "malformed table: load refused, kernel names the version" \
	"$([ $rc -ne 0 ] && [ "$n" -ge 1 ] && echo yes)" yes
ktap_expect_eq cfi_sim_bad_pri_no_refs "malformed table: cfi_cmdset_0001 loaded, refcnt" \
	"$(refcnt cfi_cmdset_0001),$(refcnt cfi_probe)" "0,0"
rmmod cfi_cmdset_0001
ktap_expect_eq cfi_sim_bad_pri_cmdset_unloads "rmmod cfi_cmdset_0001 exit code" "$?" 0

# Primary without a driver, alternate with one: the alternate serves.
unload_cmdsets
insmod $SIM maps=$MAPS p_id=0x1234 a_id=0x0002
rc=$?
n=$(dmesg | grep -c "Support for command set 1234 not present")
ktap_print_msg "alternate: insmod exit code $rc, notice for 1234 x$n; $(refs)"
ktap_expect_eq cfi_sim_alternate_probe "P_ID 1234, A_ID 0002: maps served by cfi_cmdset_0002" \
	"$rc,$(maps_ok cfi_cmdset_0002),$([ "$n" -ge 1 ] && echo noticed)" "0,ok,noticed"
ktap_expect_eq cfi_sim_alternate_refcnt "cfi_cmdset_0002 refcnt" "$(refcnt cfi_cmdset_0002)" $MAPS
rmmod cfi_sim
ktap_expect_eq cfi_sim_alternate_released "cfi_cmdset_0002 refcnt after rmmod cfi_sim" \
	"$(refcnt cfi_cmdset_0002)" 0

# Unloading order: a live map pins its command set.
unload_cmdsets
insmod $SIM maps=$MAPS p_id=0x0001
rmmod cfi_cmdset_0001 2>/dev/null
rc=$?
ktap_expect_eq cfi_sim_cmdset_pinned_by_map "rmmod cfi_cmdset_0001 with live maps: failed, refcnt" \
	"$([ $rc -ne 0 ] && echo failed),$(refcnt cfi_cmdset_0001)" "failed,$MAPS"
rmmod cfi_sim
rmmod cfi_cmdset_0001
ktap_expect_eq cfi_sim_cmdset_unloads_after_maps "rmmod cfi_cmdset_0001 after the maps: exit code" \
	"$?" 0

# LPDDR through qinfo_probe: the map holds its driver (which links
# lpddr_cmds) while it lives, and map_destroy() works on it.
unload_cmdsets
insmod $SIM maps=$MAPS probe=qinfo_probe
rc=$?
ktap_print_msg "lpddr: insmod exit code $rc; qinfo_probe=$(refcnt qinfo_probe) lpddr_cmds=$(refcnt lpddr_cmds)"
ktap_expect_eq cfi_sim_lpddr_probe "qinfo_probe: $MAPS maps, nor, $SIZE bytes, served by qinfo_probe" \
	"$rc,$(maps_ok qinfo_probe)" "0,ok"
ktap_expect_eq cfi_sim_lpddr_refcnt "qinfo_probe refcnt while mapped" "$(refcnt qinfo_probe)" $MAPS
ktap_expect_eq cfi_sim_lpddr_read_back "/dev/mtdX against the chip" "$(read_back)" ok
rmmod cfi_sim
rc=$?
ktap_expect_eq cfi_sim_lpddr_destroy "rmmod cfi_sim (map_destroy) exit code, cfi_sim gone" \
	"$rc,$(refcnt cfi_sim)" "0,absent"
rmmod qinfo_probe lpddr_cmds
ktap_expect_eq cfi_sim_lpddr_unloads "rmmod qinfo_probe lpddr_cmds: exit code, both gone" \
	"$?,$(refcnt qinfo_probe),$(refcnt lpddr_cmds)" "0,absent,absent"
ktap_finished
