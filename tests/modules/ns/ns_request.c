// SPDX-License-Identifier: GPL-2.0
/*
 * symbol_request() of ns_test_for_modules() by a module it is not
 * exported to, with ns_owner not loaded: the request runs modprobe
 * "symbol:ns_test_for_modules", which loads ns_owner (the test installs
 * it where depmod finds it), and the lookup that follows must refuse the
 * symbol and leave ns_owner free to unload.  got: what the call returned,
 * 0 if refused.
 */
#include <linux/module.h>
#include "ns_test.h"

static int (*for_modules)(void);

static int got;
module_param(got, int, 0444);
MODULE_PARM_DESC(got, "what ns_test_for_modules() returned, 0 if refused");

static int __init ns_request_init(void)
{
	for_modules = symbol_request(ns_test_for_modules);
	if (for_modules)
		got = for_modules();
	return 0;
}

static void __exit ns_request_exit(void)
{
	if (for_modules)
		symbol_put(ns_test_for_modules);
}

module_init(ns_request_init);
module_exit(ns_request_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("symbol_request() of a symbol exported to another module");
