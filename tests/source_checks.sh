#!/bin/sh
# Host-side checks of the applied tree (git grep in its worktree): what the
# series removes stays removed; and of the test modules' build: modpost
# refuses a non-GPL module that uses symbol_get().  KTAP on stdout, one
# suite "source".
#
# usage: source_checks.sh SRC TESTBUILD
src=$1 testbuild=$2
here=$(dirname "$0")
. "$here/ktap.sh"

# count PATTERN PATH...: matching lines that are code, not comments.
count() {
	pat=$1
	shift
	git -C "$src" grep -n -E -e "$pat" -- "$@" |
		grep -v -E '^[^:]*:[0-9]+:[[:space:]]*(/?\*|//)' | wc -l
}

checks() {
	ktap_print_header
	ktap_set_plan 10
	ktap_expect_eq mtd_no_inter_module "files naming inter_module or im_name in drivers/mtd, include/linux/mtd" \
		"$(git -C "$src" grep -l -e inter_module -e im_name -- drivers/mtd include/linux/mtd | wc -l)" 0
	ktap_expect_eq mtd_no_symbol_lookup_by_string "__symbol_get/kasprintf lookups in drivers/mtd/chips" \
		"$(count '__symbol_get|cfi_cmdset_%' drivers/mtd/chips)" 0
	ktap_expect_eq mtd_no_self_pinning "__module_get(THIS_MODULE) in MTD chip drivers" \
		"$(count '__module_get\(THIS_MODULE\)' drivers/mtd/chips drivers/mtd/lpddr)" 0
	ktap_expect_eq mtd_cmdset_symbol_requests "symbol_request() of command sets in gen_probe.c" \
		"$(count 'symbol_request\(cfi_cmdset_00(01|02|20)\)' drivers/mtd/chips/gen_probe.c)" 3
	ktap_expect_eq drm_no_inter_module "files naming inter_module under drivers/gpu" \
		"$(git -C "$src" grep -l inter_module -- drivers/gpu | wc -l)" 0
	ktap_expect_eq ips_one_symbol_get "symbol_get() calls in intel_ips.c (all of i915_ips_ops)" \
		"$(count 'symbol_get\(' drivers/platform/x86/intel_ips.c)/$(count 'symbol_get\(i915_ips_ops\)' drivers/platform/x86/intel_ips.c)" 1/1
	ktap_expect_eq ips_one_symbol_put "symbol_put() calls in intel_ips.c (all of i915_ips_ops)" \
		"$(count 'symbol_put\(' drivers/platform/x86/intel_ips.c)/$(count 'symbol_put\(i915_ips_ops\)' drivers/platform/x86/intel_ips.c)" 1/1
	ktap_expect_eq i915_no_symbol_get "symbol_get() calls in drivers/gpu/drm/i915" \
		"$(count 'symbol_get\(' drivers/gpu/drm/i915)" 0
	ktap_expect_eq ips_table_nongpl_refused_by_modpost "modpost errors on the non-GPL symbol_get() user" \
		"$(grep -Ec "GPL-incompatible module ips_table_nongpl.ko uses GPL-only symbol '__symbol_get(_for)?'" \
			"$testbuild/modules/nongpl-modpost.log" 2>/dev/null)" 1
	ktap_expect_eq cmdset_nongpl_refused_by_modpost "modpost errors on the non-GPL symbol_get() of a command set" \
		"$(grep -Ec "GPL-incompatible module cmdset_nongpl.ko uses GPL-only symbol '__symbol_get(_for)?'" \
			"$testbuild/modules/nongpl-modpost.log" 2>/dev/null)" 1
	ktap_finished
}

ktap_document source checks
