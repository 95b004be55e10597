// SPDX-License-Identifier: GPL-2.0
/*
 * Plays intel_ips's part against i915 without an Ironlake GPU: takes
 * i915's IPS table with symbol_get() at load, calls every callback and
 * gives the table back with symbol_put() at unload.  The guest test
 * (tests/drm_ips_table.sh) reads the callbacks' results from the
 * read-only parameters and checks i915's reference count around it.
 *
 * A plain module rather than a KUnit suite: the reference must be held
 * between load and unload, while the guest tries to remove i915, and a
 * KUnit suite runs and finishes inside module init.
 */
#include <linux/module.h>
/* <drm/i915_drm.h> is <drm/intel/i915_drm.h> in newer trees (6.12). */
#if __has_include(<drm/intel/i915_drm.h>)
#include <drm/intel/i915_drm.h>
#else
#include <drm/i915_drm.h>
#endif

static const struct i915_ips_ops *ops;

static ulong read_mch_val = ULONG_MAX;
module_param(read_mch_val, ulong, 0444);
MODULE_PARM_DESC(read_mch_val, "what i915_ips_ops.read_mch_val() returned");
static int gpu_raise = -1;
module_param(gpu_raise, int, 0444);
static int gpu_lower = -1;
module_param(gpu_lower, int, 0444);
static int gpu_busy = -1;
module_param(gpu_busy, int, 0444);
static int gpu_turbo_disable = -1;
module_param(gpu_turbo_disable, int, 0444);

static int __init ips_table_test_init(void)
{
	ops = symbol_get(i915_ips_ops);
	if (!ops) {
		pr_err("ips_table_test: symbol_get(i915_ips_ops) failed: is i915 loaded?\n");
		return -ENOENT;
	}
	read_mch_val = ops->read_mch_val();
	gpu_raise = ops->gpu_raise();
	gpu_lower = ops->gpu_lower();
	gpu_busy = ops->gpu_busy();
	gpu_turbo_disable = ops->gpu_turbo_disable();
	return 0;
}

static void __exit ips_table_test_exit(void)
{
	symbol_put(i915_ips_ops);
}

module_init(ips_table_test_init);
module_exit(ips_table_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test consumer of i915's IPS callback table");
