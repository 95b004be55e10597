// SPDX-License-Identifier: GPL-2.0
/*
 * The same lookup as ips_table_test, from a module that does not declare
 * a GPL-compatible license: symbol_get() is built on __symbol_get(), an
 * EXPORT_SYMBOL_GPL, so neither the build nor the kernel may let it in.
 *
 * Built as is (LICENSE "Proprietary"), modpost refuses it; the lab checks
 * that refusal in the build log.  To check the kernel's own refusal at
 * load time, the lab also builds it with LICENSE "GPL" and then rewrites
 * the license in its .modinfo to "Non", which is not GPL-compatible.
 */
#include <linux/module.h>
/* <drm/i915_drm.h> is <drm/intel/i915_drm.h> in newer trees (6.12). */
#if __has_include(<drm/intel/i915_drm.h>)
#include <drm/intel/i915_drm.h>
#else
#include <drm/i915_drm.h>
#endif

static int __init ips_table_nongpl_init(void)
{
	const struct i915_ips_ops *ops = symbol_get(i915_ips_ops);

	if (!ops)
		return -ENOENT;
	symbol_put(i915_ips_ops);
	return 0;
}

module_init(ips_table_nongpl_init);
#ifndef LICENSE
#define LICENSE "Proprietary"
#endif
MODULE_LICENSE(LICENSE);
MODULE_DESCRIPTION("Non-GPL test consumer of i915's IPS callback table");
