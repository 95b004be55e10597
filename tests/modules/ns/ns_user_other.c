// SPDX-License-Identifier: GPL-2.0
/* Neither named nor importing: only ns_test_plain() is for it. */
#include "ns_user.h"

MODULE_DESCRIPTION("symbol_get() user with no namespace rights");
