/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The three exports of ns_owner, all GPL-only, and what each returns:
 * ns_test_plain() in no namespace, ns_test_ns() in namespace LAB_NS_TEST,
 * ns_test_for_modules() for the module ns_user_named alone
 * (EXPORT_SYMBOL_FOR_MODULES: namespace "module:ns_user_named").
 */
#define NS_TEST_PLAIN		1
#define NS_TEST_NS		2
#define NS_TEST_FOR_MODULES	3

int ns_test_plain(void);
int ns_test_ns(void);
int ns_test_for_modules(void);
