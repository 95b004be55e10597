#!/bin/sh
# i915 <-> intel_ips: the IPS callback table, taken and given back by a
# test module in intel_ips's place (i915 loaded, no Ironlake GPU bound);
# i915's reference count around it; both modules loading and unloading
# in either order with no link-time dependency; a non-GPL module refused.
. /tests/ktap.sh
. /tests/mtd_lib.sh

M=/tests/modules

ktap_print_header
ktap_set_plan 16

modprobe i915
ktap_expect_eq ips_i915_modprobe "modprobe i915 exit code" "$?" 0
base=$(refcnt i915)
ktap_print_msg "i915 refcnt before: $base"

# Where i915 exports the table to intel_ips alone (the DRM series on 7.x:
# EXPORT_SYMBOL_FOR_MODULES), ips_table_test stands for any other module:
# symbol_get() must refuse it, say so once and take no reference.  What
# the table gives is then tested through intel_ips itself, bound to
# ips_sim (tests/intel_ips.sh: monitor_reads_mch, adjust_calls_i915,
# gpu_turbo_disabled_by_bios, i915_first_holds_i915).
ips_table_for=
[ ! -f /tests/facts ] || . /tests/facts
if [ -n "$ips_table_for" ]; then
	ktap_print_msg "i915_ips_ops is exported to $ips_table_for alone"
	dmesg -c >/dev/null
	# kmod's insmod: busybox's tries a failing load twice.
	/sbin/insmod $M/ips_table_test.ko 2>/dev/null
	rc=$?
	dmesg | grep ips_table_test | sed 's/^/# kernel: /'
	said=$(dmesg | grep ips_table_test | grep i915_ips_ops | grep -c "module:$ips_table_for")
	ktap_expect_eq ips_table_refused_to_others "insmod ips_table_test: failed, module not loaded; kernel lines naming it, i915_ips_ops and module:$ips_table_for" \
		"$([ "$rc" != 0 ] && echo failed) $([ -d /sys/module/ips_table_test ] && echo loaded || echo absent) $said" \
		"failed absent 1"
	ktap_expect_eq ips_table_refusal_holds_nothing "i915 refcnt after the refusal" \
		"$(refcnt i915)" "$base"
	for t in read_mch_val gpu_raise gpu_lower gpu_busy gpu_turbo_disable; do
		ktap_test_skip ips_table_${t}_no_gpu "the table is $ips_table_for's alone: tests/intel_ips.sh calls it through intel_ips"
	done
	ktap_test_skip ips_table_pins_i915 "refused, nothing held: intel_ips.i915_first_rmmod_refused"
	ktap_test_skip ips_table_symbol_put "refused, nothing to give back: intel_ips.unbind_releases_i915"
else
# The table, held.
if [ -f $M/ips_table_test.ko ]; then
	insmod $M/ips_table_test.ko
	rc=$?
else
	ktap_print_msg "no ips_table_test.ko: it does not build against this tree (no i915_ips_ops)"
	rc=absent
fi
ktap_expect_eq ips_table_symbol_get "insmod ips_table_test (symbol_get(i915_ips_ops))" "$rc" 0
ktap_expect_eq ips_table_holds_i915 "i915 refcnt while the table is held" \
	"$(refcnt i915)" "$((base + 1))"
p=/sys/module/ips_table_test/parameters
# No Ironlake GPU is bound: read_mch_val() is 0, the others false.
ktap_expect_eq ips_table_read_mch_val_no_gpu "read_mch_val()" "$(cat $p/read_mch_val 2>/dev/null)" 0
ktap_expect_eq ips_table_gpu_raise_no_gpu "gpu_raise()" "$(cat $p/gpu_raise 2>/dev/null)" 0
ktap_expect_eq ips_table_gpu_lower_no_gpu "gpu_lower()" "$(cat $p/gpu_lower 2>/dev/null)" 0
ktap_expect_eq ips_table_gpu_busy_no_gpu "gpu_busy()" "$(cat $p/gpu_busy 2>/dev/null)" 0
ktap_expect_eq ips_table_gpu_turbo_disable_no_gpu "gpu_turbo_disable()" \
	"$(cat $p/gpu_turbo_disable 2>/dev/null)" 0
rmmod i915 2>/dev/null
rc=$?
ktap_expect_eq ips_table_pins_i915 "rmmod i915 while held: failed, i915 still there" \
	"$([ $rc -ne 0 ] && [ -d /sys/module/i915 ] && echo yes || echo "no (rmmod exit code $rc)")" yes
# Nothing held it (no table): bring i915 back so the tests below test
# only what they name.
[ -d /sys/module/i915 ] || modprobe i915

# Given back.
rmmod ips_table_test 2>/dev/null
ktap_expect_eq ips_table_symbol_put "i915 refcnt after symbol_put" "$(refcnt i915)" "$base"
fi
rmmod i915
ktap_expect_eq ips_i915_unloads "rmmod i915 exit code" "$?" 0

# No link-time dependency either way.
ktap_expect_eq ips_no_depends_i915 "modinfo -F depends i915 names intel_ips" \
	"$(modinfo -F depends i915 | tr ',' '\n' | grep -c -x intel_ips)" 0
ktap_expect_eq ips_no_depends_intel_ips "modinfo -F depends intel_ips names i915" \
	"$(modinfo -F depends intel_ips | tr ',' '\n' | grep -c -x i915)" 0

# Either order: load A, load B, unload A, unload B, and the reverse.
order() {
	modprobe "$1" && modprobe "$2" && rmmod "$1" && rmmod "$2" && echo ok
}
ktap_expect_eq ips_order_ips_first "modprobe intel_ips, i915; rmmod intel_ips, i915" \
	"$(order intel_ips i915)" ok
ktap_expect_eq ips_order_i915_first "modprobe i915, intel_ips; rmmod i915, intel_ips" \
	"$(order i915 intel_ips)" ok

# A non-GPL module may not take the table: symbol_get() is GPL-only.
if [ -f $M/ips_table_nongpl.ko ]; then
	dmesg -c >/dev/null
	modprobe i915
	insmod $M/ips_table_nongpl.ko 2>/tmp/insmod.err
	rc=$?
	dmesg | grep 'ips_table_nongpl' | sed 's/^/# kernel: /'
	# __symbol_get_for where symbol_get() passes its caller (patches/module)
	msg=$(dmesg | grep -c 'ips_table_nongpl: Unknown symbol __symbol_get\(_for\)\? ')
	ktap_print_msg "insmod exit code $rc, $msg kernel line(s) 'Unknown symbol __symbol_get'"
	ktap_expect_eq ips_table_nongpl_refused "refused (insmod failed, kernel named __symbol_get, module not loaded)" \
		"$([ $rc -ne 0 ] && [ "$msg" -ge 1 ] && [ ! -d /sys/module/ips_table_nongpl ] && echo yes || echo no)" yes
	rmmod i915
else
	ktap_print_msg "no ips_table_nongpl.ko: it does not build against this tree (no i915_ips_ops)"
	ktap_test_fail ips_table_nongpl_refused
fi
ktap_finished
