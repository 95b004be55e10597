// SPDX-License-Identifier: GPL-2.0
/*
 * Plays i915's part for intel_ips: exports i915_ips_ops, as i915 does,
 * with callbacks whose answers the test sets, so that intel_ips, bound
 * to ips_sim's sensor, runs the calls i915 with no Ironlake GPU never
 * leads it to: the GPU busy (ips_gpu_busy() true), its clamp raised
 * (ips_gpu_raise()), and raise and lower refused (false: intel_ips then
 * turns graphics turbo off until its limits are polled again).  Load it
 * instead of i915, never beside it: both export i915_ips_ops.
 *
 * The parameters: busy, ok (what gpu_busy() and gpu_raise()/gpu_lower()/
 * gpu_turbo_disable() answer), and the calls of each callback.
 */
#include <linux/module.h>
#if __has_include(<drm/intel/i915_drm.h>)
#include <drm/intel/i915_drm.h>
#else
#include <drm/i915_drm.h>
#endif

static bool busy;
module_param(busy, bool, 0644);
MODULE_PARM_DESC(busy, "what gpu_busy() answers");
static bool ok = true;
module_param(ok, bool, 0644);
MODULE_PARM_DESC(ok, "what gpu_raise(), gpu_lower() and gpu_turbo_disable() answer");

static atomic_t mch_calls, raise_calls, lower_calls, busy_calls, disable_calls;
module_param_named(mch_calls, mch_calls.counter, int, 0644);
module_param_named(raise_calls, raise_calls.counter, int, 0644);
module_param_named(lower_calls, lower_calls.counter, int, 0644);
module_param_named(busy_calls, busy_calls.counter, int, 0644);
module_param_named(disable_calls, disable_calls.counter, int, 0644);

static unsigned long stub_read_mch_val(void)
{
	atomic_inc(&mch_calls);
	return 0;
}

static bool stub_gpu_raise(void)
{
	atomic_inc(&raise_calls);
	return READ_ONCE(ok);
}

static bool stub_gpu_lower(void)
{
	atomic_inc(&lower_calls);
	return READ_ONCE(ok);
}

static bool stub_gpu_busy(void)
{
	atomic_inc(&busy_calls);
	return READ_ONCE(busy);
}

static bool stub_gpu_turbo_disable(void)
{
	atomic_inc(&disable_calls);
	return READ_ONCE(ok);
}

const struct i915_ips_ops i915_ips_ops = {
	.read_mch_val = stub_read_mch_val,
	.gpu_raise = stub_gpu_raise,
	.gpu_lower = stub_gpu_lower,
	.gpu_busy = stub_gpu_busy,
	.gpu_turbo_disable = stub_gpu_turbo_disable,
};
EXPORT_SYMBOL_GPL(i915_ips_ops);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("i915_ips_ops with chosen answers, in i915's place, for intel_ips's tests");
