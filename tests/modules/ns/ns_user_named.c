// SPDX-License-Identifier: GPL-2.0
/* The module ns_test_for_modules() is exported to; imports nothing. */
#include "ns_user.h"

MODULE_DESCRIPTION("symbol_get() user named by a module namespace");
