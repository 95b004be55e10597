// SPDX-License-Identifier: GPL-2.0
/*
 * A module without a GPL-compatible license that looks a CFI command set
 * up the way gen_probe does, with symbol_get(): like ips_table_nongpl,
 * modpost refuses it as built, and the kernel refuses it at load time
 * when built as GPL with its license rewritten to "Non" (see that file).
 */
#include <linux/module.h>
#include <linux/mtd/map.h>
#include <linux/mtd/cfi.h>

static int __init cmdset_nongpl_init(void)
{
	struct mtd_info *(*cmdset)(struct map_info *, int) = symbol_get(cfi_cmdset_0001);

	if (!cmdset)
		return -ENOENT;
	symbol_put(cfi_cmdset_0001);
	return 0;
}

module_init(cmdset_nongpl_init);
#ifndef LICENSE
#define LICENSE "Proprietary"
#endif
MODULE_LICENSE(LICENSE);
MODULE_DESCRIPTION("Non-GPL test consumer of a CFI command set");
