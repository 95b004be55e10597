/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The body of the ns_user_* modules: at load, symbol_get() of each of
 * ns_owner's three exports; the read-only parameters say what each call
 * returned (0: symbol_get() gave NULL); what was given is held until
 * unload, as a user of the symbols would.  The modules differ only in
 * their names and imports, which is what the namespace rules look at.
 */
#include <linux/module.h>
#include "ns_test.h"

static int (*plain)(void), (*ns)(void), (*for_modules)(void);

static int got_plain, got_ns, got_for_modules;
module_param(got_plain, int, 0444);
MODULE_PARM_DESC(got_plain, "what ns_test_plain() returned, 0 if refused");
module_param(got_ns, int, 0444);
MODULE_PARM_DESC(got_ns, "what ns_test_ns() returned, 0 if refused");
module_param(got_for_modules, int, 0444);
MODULE_PARM_DESC(got_for_modules, "what ns_test_for_modules() returned, 0 if refused");

static int __init ns_user_init(void)
{
	plain = symbol_get(ns_test_plain);
	if (plain)
		got_plain = plain();
	ns = symbol_get(ns_test_ns);
	if (ns)
		got_ns = ns();
	for_modules = symbol_get(ns_test_for_modules);
	if (for_modules)
		got_for_modules = for_modules();
	return 0;
}

static void __exit ns_user_exit(void)
{
	if (plain)
		symbol_put(ns_test_plain);
	if (ns)
		symbol_put(ns_test_ns);
	if (for_modules)
		symbol_put(ns_test_for_modules);
}

module_init(ns_user_init);
module_exit(ns_user_exit);
MODULE_LICENSE("GPL");
