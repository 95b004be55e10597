// SPDX-License-Identifier: GPL-2.0
/*
 * Exports one symbol in no namespace, one in an ordinary namespace and one
 * for one module alone, for tests/module_ns.sh: the users take them with
 * symbol_get() and symbol_request(), which modpost and the loader do not
 * check.
 */
#include <linux/module.h>
#include "ns_test.h"

int ns_test_plain(void)
{
	return NS_TEST_PLAIN;
}
EXPORT_SYMBOL_GPL(ns_test_plain);

int ns_test_ns(void)
{
	return NS_TEST_NS;
}
EXPORT_SYMBOL_NS_GPL(ns_test_ns, "LAB_NS_TEST");

int ns_test_for_modules(void)
{
	return NS_TEST_FOR_MODULES;
}
EXPORT_SYMBOL_FOR_MODULES(ns_test_for_modules, "ns_user_named");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Namespaced exports for the symbol_get() tests");
