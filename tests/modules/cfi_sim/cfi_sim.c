// SPDX-License-Identifier: GPL-2.0
/*
 * cfi_sim: simulated NOR flash chips behind map_info callbacks
 * (CONFIG_MTD_COMPLEX_MAPPINGS), probed through the kernel's own
 * do_map_probe(), so that every branch of the command set lookup, its
 * failure paths and the lpddr probe run as they do on hardware.  It never
 * calls a command set itself.
 *
 * The CFI chip is an x8 device on an 8-bit bank: array reads, CFI query
 * mode (the "QRY" table with the primary and alternate command set IDs,
 * the geometry, and an extended "PRI" table at P_ADR and A_ADR for the
 * command set each ID names), read-ID (autoselect), status, reset.
 * The LPDDR chip is a 16-bit device whose PFOW register window lies above
 * the array and answers QINFO queries.
 *
 * Parameters: probe=cfi_probe|qinfo_probe, p_id=, a_id=, maps=1..4,
 * fault=none|bad_pri (an extended table of an unknown version).  Each map
 * gets its MTD device; debugfs cfi_sim/mapN holds the array (to compare
 * with /dev/mtdX) and cfi_sim/mapN_driver the name of map->fldrv.
 * Loading fails with -ENODEV when the probe finds no driver.
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/mtd/map.h>
#include <linux/mtd/mtd.h>
#include <linux/mtd/pfow.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#define SIM_MAX_MAPS	4
#define SIM_SIZE_SHIFT	18			/* 256 KiB chips */
#define SIM_SIZE	(1UL << SIM_SIZE_SHIFT)
#define SIM_BLOCK_SHIFT	16			/* 4 blocks of 64 KiB */
#define SIM_P_ADR	0x40
#define SIM_A_ADR	0x60
#define SIM_PFOW_BASE	SIM_SIZE		/* LPDDR: registers above */

static char *probe = "cfi_probe";
module_param(probe, charp, 0444);
MODULE_PARM_DESC(probe, "chip probe: cfi_probe or qinfo_probe");
static ushort p_id = 0x0001;
module_param(p_id, ushort, 0444);
MODULE_PARM_DESC(p_id, "CFI primary command set ID");
static ushort a_id;
module_param(a_id, ushort, 0444);
MODULE_PARM_DESC(a_id, "CFI alternate command set ID (0: none)");
static uint maps = 1;
module_param(maps, uint, 0444);
MODULE_PARM_DESC(maps, "number of chips, each on a map of its own (1-4); 0: one chip for add");
static char *fault = "none";
module_param(fault, charp, 0444);
MODULE_PARM_DESC(fault, "none, or bad_pri: extended query table of version 9.0");

enum sim_mode { SIM_ARRAY, SIM_QUERY, SIM_AUTOSELECT, SIM_STATUS };

struct sim {
	struct map_info map;
	struct mtd_info *mtd;
	u8 *array;
	u8 query[0x100];
	enum sim_mode mode;
	/* LPDDR PFOW command registers */
	u16 cmd_code, cmd_addr_l, cmd_addr_h, cmd_data;
	struct debugfs_blob_wrapper blob, driver_blob;
	char driver[32];
};

static struct sim *sims[SIM_MAX_MAPS];
static struct dentry *dir;
static bool lpddr;

/* The extended query table for command set ID at ADR. */
static void sim_pri(struct sim *s, u16 id, u16 adr, bool bad)
{
	u8 *t = s->query + adr;

	memcpy(t, "PRI1", 4);
	t[4] = '0';				/* version 1.0 */
	if (bad)
		t[3] = '9';
	switch (id) {
	case 0x0002: case 0x0006: case 0x0701:	/* struct cfi_pri_amdstd */
		t[15] = 2;			/* TopBottom: bottom boot */
		break;
	default:	/* struct cfi_pri_intelext: 0001, 0003, 0200, 0020 */
		t[11] = 0x33;			/* VccOptimal 3.3 V */
		break;
	}
}

static void sim_cfi_init(struct sim *s)
{
	u8 *q = s->query;

	memcpy(q + 0x10, "QRY", 3);
	q[0x13] = p_id & 0xff;
	q[0x14] = p_id >> 8;
	q[0x15] = SIM_P_ADR;
	if (a_id) {
		q[0x17] = a_id & 0xff;
		q[0x18] = a_id >> 8;
		q[0x19] = SIM_A_ADR;
	}
	q[0x1b] = 0x27;				/* Vcc 2.7-3.6 V */
	q[0x1c] = 0x36;
	q[0x1f] = 4;				/* typical timeouts, 2^n */
	q[0x20] = 8;
	q[0x21] = 10;
	q[0x23] = 4;				/* maximum timeouts */
	q[0x24] = 4;
	q[0x25] = 4;
	q[0x27] = SIM_SIZE_SHIFT;		/* DevSize */
	q[0x2a] = 5;				/* 32-byte write buffer */
	q[0x2c] = 1;				/* one erase region: */
	q[0x2d] = (SIM_SIZE >> SIM_BLOCK_SHIFT) - 1;	/* blocks - 1 */
	q[0x30] = (1 << SIM_BLOCK_SHIFT) >> 16;	/* block size / 256 */
	q[0x2f] = ((1 << SIM_BLOCK_SHIFT) >> 8) & 0xff;
	sim_pri(s, p_id, SIM_P_ADR, !strcmp(fault, "bad_pri"));
	if (a_id)
		sim_pri(s, a_id, SIM_A_ADR, false);
}

/* What lpddr_info_query() asks for: QINFO record (major, minor). */
static u16 sim_qinfo(u16 major, u16 minor)
{
	switch (major << 8 | minor) {
	case 0x0000: return SIM_SIZE_SHIFT;			/* DevSizeShift */
	case 0x0003: return 5;					/* BufSizeShift */
	case 0x0101: return SIM_SIZE >> SIM_BLOCK_SHIFT;	/* TotalBlocksNum */
	case 0x0102: return SIM_BLOCK_SHIFT;	/* UniformBlockSizeShift */
	case 0x0201: return 1;					/* HWPartsNum */
	case 0x0501: return 0;					/* SuspEraseSupp */
	default: return 1;					/* times, 2^n */
	}
}

static u16 sim_pfow_read(struct sim *s, unsigned long reg)
{
	switch (reg) {
	case PFOW_QUERY_STRING_P: return 'P';
	case PFOW_QUERY_STRING_F: return 'F';
	case PFOW_QUERY_STRING_O: return 'O';
	case PFOW_QUERY_STRING_W: return 'W';
	case PFOW_MANUFACTURER_ID: return 0x0089;
	case PFOW_DEVICE_ID: return 0x0001;
	case PFOW_COMMAND_DATA: return s->cmd_data;
	case PFOW_DSR: return DSR_READY_STATUS;
	default: return 0;
	}
}

static void sim_pfow_write(struct sim *s, unsigned long reg, u16 val)
{
	switch (reg) {
	case PFOW_COMMAND_CODE: s->cmd_code = val; break;
	case PFOW_COMMAND_ADDRESS_L: s->cmd_addr_l = val; break;
	case PFOW_COMMAND_ADDRESS_H: s->cmd_addr_h = val; break;
	case PFOW_COMMAND_EXECUTE:
		if (val == LPDDR_START_EXECUTION && s->cmd_code == LPDDR_INFO_QUERY)
			s->cmd_data = sim_qinfo(s->cmd_addr_h, s->cmd_addr_l);
		break;
	}
}

static u8 sim_byte(struct sim *s, unsigned long ofs)
{
	switch (s->mode) {
	case SIM_QUERY:
		return ofs < sizeof(s->query) ? s->query[ofs] : 0;
	case SIM_AUTOSELECT:
		return ofs == 1 ? 0x01 : 0x00;	/* manufacturer 0, device 1 */
	case SIM_STATUS:
		return 0x80;			/* ready, no error */
	default:
		return ofs < SIM_SIZE ? s->array[ofs] : 0xff;
	}
}

static map_word sim_read(struct map_info *map, unsigned long ofs)
{
	struct sim *s = (struct sim *)map->map_priv_1;
	map_word w = { { 0 } };

	if (lpddr) {
		if (ofs >= SIM_PFOW_BASE)
			w.x[0] = sim_pfow_read(s, ofs - SIM_PFOW_BASE);
		else
			w.x[0] = s->array[ofs] | s->array[ofs + 1] << 8;
	} else {
		w.x[0] = sim_byte(s, ofs);
	}
	return w;
}

static void sim_write(struct map_info *map, const map_word w, unsigned long ofs)
{
	struct sim *s = (struct sim *)map->map_priv_1;
	u8 cmd = w.x[0] & 0xff;

	if (lpddr) {
		if (ofs >= SIM_PFOW_BASE)
			sim_pfow_write(s, ofs - SIM_PFOW_BASE, w.x[0] & 0xffff);
		return;
	}
	switch (cmd) {
	case 0xf0: case 0xff: s->mode = SIM_ARRAY; break;
	case 0x98: s->mode = SIM_QUERY; break;
	case 0x90: s->mode = SIM_AUTOSELECT; break;
	case 0x70: s->mode = SIM_STATUS; break;
	default: break;		/* unlock cycles; programming is not simulated */
	}
}

static void sim_copy_from(struct map_info *map, void *to, unsigned long from,
			  ssize_t len)
{
	struct sim *s = (struct sim *)map->map_priv_1;
	u8 *dst = to;

	if ((lpddr || s->mode == SIM_ARRAY) && from + len <= SIM_SIZE) {
		memcpy(dst, s->array + from, len);
		return;
	}
	while (len-- > 0)
		*dst++ = sim_byte(s, from++);
}

static void sim_copy_to(struct map_info *map, unsigned long to,
			const void *from, ssize_t len)
{
}

static void sim_free(struct sim *s)
{
	if (s->mtd) {
		mtd_device_unregister(s->mtd);
		map_destroy(s->mtd);
	}
	kfree(s->map.name);
	vfree(s->array);
	kfree(s);
}

/* A chip on a map of its own, not probed yet. */
static struct sim *sim_alloc(int i)
{
	struct sim *s;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return NULL;
	s->array = vmalloc(SIM_SIZE);
	if (!s->array) {
		kfree(s);
		return NULL;
	}
	get_random_bytes(s->array, SIM_SIZE);
	s->map.name = kasprintf(GFP_KERNEL, "cfi_sim.%d", i);
	s->map.size = lpddr ? 2 * SIM_SIZE : SIM_SIZE;
	s->map.bankwidth = lpddr ? 2 : 1;
	s->map.phys = NO_XIP;
	s->map.pfow_base = SIM_PFOW_BASE;
	s->map.read = sim_read;
	s->map.write = sim_write;
	s->map.copy_from = sim_copy_from;
	s->map.copy_to = sim_copy_to;
	s->map.map_priv_1 = (unsigned long)s;
	if (!lpddr)
		sim_cfi_init(s);
	return s;
}

static int sim_add(int i)
{
	struct sim *s;
	char name[16];
	int ret;

	s = sim_alloc(i);
	if (!s)
		return -ENOMEM;
	s->mtd = do_map_probe(probe, &s->map);
	if (!s->mtd) {
		pr_notice("cfi_sim: %s found no driver for map %d (P_ID %04X, A_ID %04X)\n",
			  probe, i, p_id, a_id);
		sim_free(s);
		return -ENODEV;
	}
	s->mtd->owner = THIS_MODULE;
	/* The CFI command sets name the device after the map; lpddr does not. */
	if (!s->mtd->name)
		s->mtd->name = s->map.name;
	ret = mtd_device_register(s->mtd, NULL, 0);
	if (ret) {
		map_destroy(s->mtd);
		s->mtd = NULL;
		sim_free(s);
		return ret;
	}
	strscpy(s->driver, s->map.fldrv ? s->map.fldrv->name : "(none)",
		sizeof(s->driver));
	s->blob.data = s->array;
	s->blob.size = min_t(u64, s->mtd->size, SIM_SIZE);
	snprintf(name, sizeof(name), "map%d", i);
	debugfs_create_blob(name, 0444, dir, &s->blob);
	s->driver_blob.data = s->driver;
	s->driver_blob.size = strlen(s->driver);
	snprintf(name, sizeof(name), "map%d_driver", i);
	debugfs_create_blob(name, 0444, dir, &s->driver_blob);
	sims[i] = s;
	return 0;
}

static void sim_remove_all(void)
{
	int i;

	for (i = SIM_MAX_MAPS - 1; i >= 0; i--) {
		if (!sims[i])
			continue;
		sim_free(sims[i]);
		sims[i] = NULL;
	}
	debugfs_remove_recursive(dir);
}

/*
 * maps=0: one chip, probed by each write to "add" and destroyed by each
 * write to "remove", in the writing task and without an MTD device:
 * fault injection aimed at that task (/proc/<pid>/fail-nth) meets the
 * allocations of do_map_probe() alone, at the same positions in every
 * run (in a module load, the number of allocations before them varies).
 * The module's parameter lock serialises the writes.
 */
static struct sim *spare;
static struct mtd_info *spare_mtd;

static int sim_add_set(const char *val, const struct kernel_param *kp)
{
	if (!spare)
		return -ENODEV;
	if (spare_mtd)
		return -EBUSY;
	spare_mtd = do_map_probe(probe, &spare->map);
	return spare_mtd ? 0 : -ENODEV;
}

static int sim_remove_set(const char *val, const struct kernel_param *kp)
{
	if (!spare_mtd)
		return -ENOENT;
	map_destroy(spare_mtd);
	spare_mtd = NULL;
	return 0;
}

static const struct kernel_param_ops sim_add_ops = { .set = sim_add_set };
static const struct kernel_param_ops sim_remove_ops = { .set = sim_remove_set };
module_param_cb(add, &sim_add_ops, NULL, 0200);
MODULE_PARM_DESC(add, "maps=0: write to probe the chip (no MTD device)");
module_param_cb(remove, &sim_remove_ops, NULL, 0200);
MODULE_PARM_DESC(remove, "maps=0: write to destroy what add probed");

static int __init cfi_sim_init(void)
{
	int i, ret;

	if (maps > SIM_MAX_MAPS) {
		pr_err("cfi_sim: maps=%u: must be 0 to %d\n", maps, SIM_MAX_MAPS);
		return -EINVAL;
	}
	if (strcmp(probe, "cfi_probe") && strcmp(probe, "qinfo_probe")) {
		pr_err("cfi_sim: probe=%s: must be cfi_probe or qinfo_probe\n", probe);
		return -EINVAL;
	}
	if (strcmp(fault, "none") && strcmp(fault, "bad_pri")) {
		pr_err("cfi_sim: fault=%s: must be none or bad_pri\n", fault);
		return -EINVAL;
	}
	lpddr = !strcmp(probe, "qinfo_probe");
	if (!maps) {
		spare = sim_alloc(0);
		return spare ? 0 : -ENOMEM;
	}
	dir = debugfs_create_dir("cfi_sim", NULL);
	for (i = 0; i < maps; i++) {
		ret = sim_add(i);
		if (ret) {
			sim_remove_all();
			return ret;
		}
	}
	return 0;
}

static void __exit cfi_sim_exit(void)
{
	if (spare_mtd)
		map_destroy(spare_mtd);
	if (spare)
		sim_free(spare);
	sim_remove_all();
}

module_init(cfi_sim_init);
module_exit(cfi_sim_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Simulated CFI and LPDDR flash chips for the MTD probe code");
