// SPDX-License-Identifier: GPL-2.0
/* Imports LAB_NS_TEST; not named by ns_test_for_modules()'s export. */
#include "ns_user.h"

MODULE_IMPORT_NS("LAB_NS_TEST");
MODULE_DESCRIPTION("symbol_get() user importing a namespace");
