// SPDX-License-Identifier: GPL-2.0
/*
 * ips_sim: the hardware intel_ips drives, for the unmodified driver to
 * probe, run its threads and IRQ handler, and be removed in QEMU, which
 * models none of it:
 *
 * - the Ironlake thermal sensor, PCI 8086:3b32, on a PCI root bus of its
 *   own (domain 0x0100) whose config space this module serves; BAR 0 is
 *   the first page of guest memory reserved at boot (memmap=8K$ADDR: the
 *   bus window nests in that reservation; parameter bar=), so
 *   that the driver's ioremap() and the register values set here meet;
 *   INTx on a free ISA IRQ (irq=); a timer plays the ME, bumping the
 *   sequence number in ITV every 200 ms;
 * - the Arrandale MSRs intel_ips reads and writes.  QEMU's TCG (7.2)
 *   reads 0 for PLATFORM_INFO (0xce), IA32_PERF_CTL (0x199) and
 *   TURBO_POWER_CURRENT_LIMIT (0x1ac), without a fault, and 0x40001 for
 *   IA32_MISC_ENABLE (0x1a0): the probe would stop at "platform indicates
 *   TDP override unavailable" (the load log shows what the CPU answers).
 *   When intel_ips loads, every RDMSR/WRMSR instruction of the module
 *   (its exception table lists each one, type EX_TYPE_RDMSR/WRMSR) gets a
 *   kprobe that performs the access on the values here instead, as a
 *   hypervisor would trap it.  Any other MSR runs the real instruction
 *   (counted in msr_other).  msrs=0 leaves them all to the CPU.
 *
 * It also watches, without changing anything: every symbol_put() of an
 * i915 symbol (how many intel_ips threads are still running at that
 * moment: put_threads), i915's IPS callbacks (how often intel_ips calls
 * them), the monitor thread's wake-ups of the adjust thread
 * (adjust_wakes), counting those of an adjust thread that kthread_stop()
 * was called on while a monitor thread still ran (adjust_wakes_stopped;
 * such a thread is kept pinned, a task_struct reference dropped when this
 * module goes, so that the wake-up is counted rather than done on freed
 * memory), the lookups of an i915 symbol that symbol_get() refused while
 * i915 was still in its module init (coming_misses), and the adjust
 * thread's lookups of one, taken (adjust_hits) or refused while i915 was
 * live (live_misses): a late i915 is picked up at the first adjustment.
 * On request (hold_coming=MS) it keeps i915 in its init, before the init
 * runs, until a lookup was refused there or MS pass: the window a late
 * i915 must be picked up from.  The tests (tests/intel_ips.sh) read it
 * all from the parameters.  What runs is intel_ips.c as the series
 * leaves it: no line of intel_ips or i915 is replaced; its RDMSR/WRMSR
 * sites are trapped by kprobes here, which supply the MSR values and
 * keep what it writes.
 *
 * Load it before intel_ips and i915: it hooks them as they load.
 */
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/irq.h>
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/wait.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/percpu.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/version.h>
#include <asm/extable.h>
#include <asm/extable_fixup_types.h>
#include <asm/msr.h>

/* 6.16 renamed rdmsrl_safe() (Debian's 6.1 and 6.12 have the old name). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0)
#define rdmsrq_safe(msr, p)	rdmsrl_safe(msr, p)
#endif

#define SIM_DOMAIN		0x0100
#define SIM_BAR_SIZE		4096

/* The registers and MSRs, as drivers/platform/x86/intel_ips.c names them. */
#define THM_TSE			0x01
#define   TSE_EN		0xb8
#define THM_TRC			0x1a
#define   TRC_THM_EN		(1 << 12)
#define   TRC_CORE1_EN		(1 << 7)
#define   TRC_CORE_PWR		(1 << 6)
#define   TRC_MCH_EN		(1 << 4)
#define THM_TES			0x20
#define THM_PSC			0x24
#define   PSP_PBRT		(1 << 4)
#define THM_CTV1		0x30
#define THM_HTS			0x50
#define THM_HTSHI		0x54
#define THM_PTL			0x56
#define THM_MGTV		0x58
#define THM_PTV			0x60
#define THM_MMGPC		0x64
#define THM_MPPC		0x66
#define THM_MPCPC		0x68
#define THM_STS			0x98
#define   STS_NVV		(1 << 0)
#define THM_SEC			0x9c
#define THM_ITV			0xd8
#define   ITV_ME_SEQNO_SHIFT	16

#define IPS_MSR_PLATFORM_INFO	0xce
#define   PLATFORM_TDP		(1ULL << 29)
#define IPS_MSR_PERF_CTL		0x199
#define IPS_MSR_MISC_ENABLE		0x1a0
#define   MISC_TURBO_EN		(1ULL << 38)
#define IPS_MSR_TURBO_LIMIT		0x1ac

static bool msrs = true;
module_param(msrs, bool, 0444);
MODULE_PARM_DESC(msrs, "emulate intel_ips's MSRs (0: leave them to the CPU, e.g. TCG)");
static ulong bar;
module_param(bar, ulong, 0444);
MODULE_PARM_DESC(bar, "physical address of BAR 0: memory reserved with memmap=8K$ADDR");
static uint irq = 5;
module_param(irq, uint, 0444);
MODULE_PARM_DESC(irq, "ISA IRQ of the device's INTA# (0: no INTx)");

/*
 * The MSRs: PLATFORM_INFO says TDP override available (clear it: the
 * probe must fail after it took i915's callbacks); 29 W of TDP for the
 * Core i5 M 520, in 1/8 W, and 48 A of TDC.
 */
static unsigned long long platform_info = PLATFORM_TDP | (19 << 8);
module_param(platform_info, ullong, 0644);
static unsigned long long misc_enable = MISC_TURBO_EN | 1;
module_param(misc_enable, ullong, 0644);
#define TURBO_LIMIT_RESET	((48ULL * 8) << 16 | 29 * 8)
static unsigned long long turbo_limit = TURBO_LIMIT_RESET;
module_param(turbo_limit, ullong, 0444);
MODULE_PARM_DESC(turbo_limit, "TURBO_POWER_CURRENT_LIMIT now");
static DEFINE_PER_CPU(u64, perf_ctl);
static DEFINE_RAW_SPINLOCK(msr_lock);

static atomic_t msr_reads, msr_writes, msr_other, msr_sites;
module_param_named(msr_reads, msr_reads.counter, int, 0444);
module_param_named(msr_writes, msr_writes.counter, int, 0444);
module_param_named(msr_other, msr_other.counter, int, 0444);
module_param_named(msr_sites, msr_sites.counter, int, 0444);

static atomic_t i915_puts, put_threads = ATOMIC_INIT(-1);
module_param_named(i915_puts, i915_puts.counter, int, 0644);
MODULE_PARM_DESC(i915_puts, "symbol_put() calls of i915 symbols");
module_param_named(put_threads, put_threads.counter, int, 0644);
MODULE_PARM_DESC(put_threads, "most intel_ips threads running at such a put (-1: none)");

static atomic_t i915_calls, mch_calls;
module_param_named(i915_calls, i915_calls.counter, int, 0644);
MODULE_PARM_DESC(i915_calls, "calls of i915's IPS callbacks");
module_param_named(mch_calls, mch_calls.counter, int, 0644);
MODULE_PARM_DESC(mch_calls, "calls of i915_read_mch_val() (the monitor thread)");

static atomic_t adjust_wakes, adjust_wakes_stopped;
module_param_named(adjust_wakes, adjust_wakes.counter, int, 0644);
MODULE_PARM_DESC(adjust_wakes, "wake-ups of ips-adjust by ips-monitor");
module_param_named(adjust_wakes_stopped, adjust_wakes_stopped.counter, int, 0644);
MODULE_PARM_DESC(adjust_wakes_stopped, "of those, of an ips-adjust kthread_stop() was called on");
static atomic_t pins_full;
module_param_named(pins_full, pins_full.counter, int, 0444);
MODULE_PARM_DESC(pins_full, "stopped ips-adjust threads left unpinned (no room)");

static void __iomem *regs;
static struct pci_bus *sim_bus;
static struct timer_list me_timer;

/* Config space: a type 0 header, dwords, with the bits software may write. */
static u32 cfg[16], cfg_wmask[16];
static DEFINE_RAW_SPINLOCK(cfg_lock);

static int sim_cfg_read(struct pci_bus *bus, unsigned int devfn, int where,
			int size, u32 *val)
{
	u32 mask = size == 4 ? ~0U : (1U << (size * 8)) - 1;
	unsigned long flags;

	if (devfn != 0 || where >= 64) {
		*val = devfn != 0 ? ~0U : 0;
		return devfn != 0 ? PCIBIOS_DEVICE_NOT_FOUND : PCIBIOS_SUCCESSFUL;
	}
	raw_spin_lock_irqsave(&cfg_lock, flags);
	*val = (cfg[where / 4] >> (where % 4 * 8)) & mask;
	raw_spin_unlock_irqrestore(&cfg_lock, flags);
	return PCIBIOS_SUCCESSFUL;
}

static int sim_cfg_write(struct pci_bus *bus, unsigned int devfn, int where,
			 int size, u32 val)
{
	u32 mask = size == 4 ? ~0U : (1U << (size * 8)) - 1;
	unsigned int shift = where % 4 * 8;
	unsigned long flags;
	u32 w;

	if (devfn != 0)
		return PCIBIOS_DEVICE_NOT_FOUND;
	if (where >= 64)
		return PCIBIOS_SUCCESSFUL;
	raw_spin_lock_irqsave(&cfg_lock, flags);
	w = (mask << shift) & cfg_wmask[where / 4];
	cfg[where / 4] = (cfg[where / 4] & ~w) | ((val << shift) & w);
	raw_spin_unlock_irqrestore(&cfg_lock, flags);
	return PCIBIOS_SUCCESSFUL;
}

static struct pci_ops sim_ops = {
	.read = sim_cfg_read,
	.write = sim_cfg_write,
};

static struct pci_sysdata sim_sysdata = {
	.domain = SIM_DOMAIN,
	.node = NUMA_NO_NODE,
};

static struct resource sim_window = {
	.name = "ips_sim",
	.flags = IORESOURCE_MEM,
};

/* The ME: a new sequence number in ITV every 200 ms. */
static void me_tick(struct timer_list *t)
{
	u32 itv = readl(regs + THM_ITV);

	writel(itv + (1 << ITV_ME_SEQNO_SHIFT), regs + THM_ITV);
	mod_timer(&me_timer, jiffies + msecs_to_jiffies(200));
}

static void sim_regs_reset(void)
{
	memset_io(regs, 0, SIM_BAR_SIZE);
	writeb(TSE_EN, regs + THM_TSE);
	writew(TRC_THM_EN | TRC_CORE1_EN | TRC_CORE_PWR | TRC_MCH_EN, regs + THM_TRC);
	/* The BIOS updates the limits at run time: the adjust thread polls. */
	writel(PSP_PBRT, regs + THM_PSC);
	writew(290, regs + THM_MPCPC);
	writew(200, regs + THM_MMGPC);
	writew(90, regs + THM_PTL);
	writew(350, regs + THM_MPPC);
	writew(50 << 6, regs + THM_CTV1);	/* 50 degrees C, no fraction */
	writew(50, regs + THM_PTV);
	writel(50 << 8, regs + THM_MGTV);
}

/*
 * Register access from the tests: "offset=value" (hex, 8 to 32 bits by
 * the value's width: 0x12, 0x1234, 0x12345678).
 */
static int reg_set(const char *val, const struct kernel_param *kp)
{
	unsigned int off;
	char v[11];
	u32 x;

	if (sscanf(val, "%x=%10s", &off, v) != 2 || off + 4 > SIM_BAR_SIZE ||
	    kstrtou32(v, 16, &x))
		return -EINVAL;
	switch (strlen(v) - (v[0] == '0' && (v[1] | 0x20) == 'x' ? 2 : 0)) {
	case 1:
	case 2:
		writeb(x, regs + off);
		break;
	case 3:
	case 4:
		writew(x, regs + off);
		break;
	default:
		writel(x, regs + off);
		break;
	}
	return 0;
}

static uint reg_at;
static int reg_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%08x\n", readl(regs + (reg_at & (SIM_BAR_SIZE - 4))));
}

static const struct kernel_param_ops reg_ops = {
	.set = reg_set,
	.get = reg_get,
};
module_param_cb(reg, &reg_ops, NULL, 0644);
MODULE_PARM_DESC(reg, "write: OFF=VALUE into the registers; read: the dword at reg_at");
module_param(reg_at, uint, 0644);

/*
 * An interrupt from the sensor: new limits from the EC (TES bit 0, STS
 * with NVV).  No device can raise an ISA line in QEMU: the IRQ's vector
 * is sent to its CPU as an IPI, the way the kernel itself retriggers an
 * interrupt, so the driver's handler runs in hard interrupt context
 * through the IRQ's own flow handler.  What the handler leaves is in
 * irq_ack: SEC (1: acknowledged), read once it wrote it or after 1 s.
 */
static int irq_ack = -1;
module_param(irq_ack, int, 0444);
static int fire_set(const char *val, const struct kernel_param *kp)
{
	int i, ret;

	writel(STS_NVV | 90 << 1 | 200 << 12 | 290 << 21, regs + THM_STS);
	writeb(0, regs + THM_SEC);
	writeb(1, regs + THM_TES);
	ret = irq_chip_retrigger_hierarchy(irq_get_irq_data(irq));
	for (i = 0; ret == 1 && i < 50 && !readb(regs + THM_SEC); i++)
		msleep(20);
	irq_ack = readb(regs + THM_SEC);
	writeb(0, regs + THM_TES);
	writeb(0, regs + THM_SEC);
	return ret == 1 ? 0 : -EIO;
}

static const struct kernel_param_ops fire_ops = { .set = fire_set };
module_param_cb(fire, &fire_ops, NULL, 0200);
MODULE_PARM_DESC(fire, "write 1: raise the sensor's interrupt once");

static bool ips_thread(struct task_struct *p, const char *comm)
{
	return (p->flags & PF_KTHREAD) && !strcmp(p->comm, comm);
}

/*
 * The sensor's IRQ taken, not shared, by another handler: intel_ips's
 * request_irq(IRQF_SHARED) then fails with -EBUSY.
 */
static bool irq_busy;

static irqreturn_t busy_handler(int irq, void *arg)
{
	return IRQ_NONE;
}

static int irq_busy_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret;

	ret = kstrtobool(val, &on);
	if (ret)
		return ret;
	if (!irq || on == irq_busy)
		return irq ? 0 : -EINVAL;
	if (on) {
		ret = request_irq(irq, busy_handler, 0, "ips_sim_busy", &irq_busy);
		if (ret)
			return ret;
	} else {
		free_irq(irq, &irq_busy);
	}
	irq_busy = on;
	return 0;
}

static const struct kernel_param_ops irq_busy_ops = {
	.set = irq_busy_set,
	.get = param_get_bool,
};
module_param_cb(irq_busy, &irq_busy_ops, &irq_busy, 0644);
MODULE_PARM_DESC(irq_busy, "1: hold the sensor's IRQ, not shared");

/* intel_ips's threads that run, not stopped or exiting. */
static int ips_threads_now(void)
{
	struct task_struct *p;
	int n = 0;

	rcu_read_lock();
	for_each_process(p)
		if (!(p->flags & PF_EXITING) &&
		    (ips_thread(p, "ips-adjust") || ips_thread(p, "ips-monitor")))
			n++;
	rcu_read_unlock();
	return n;
}

static int threads_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", ips_threads_now());
}

static const struct kernel_param_ops threads_ops = { .get = threads_get };
module_param_cb(threads, &threads_ops, NULL, 0444);
MODULE_PARM_DESC(threads, "intel_ips threads running now");

static int perf_ctl_get(char *buf, const struct kernel_param *kp)
{
	int cpu, len = 0;

	for_each_online_cpu(cpu)
		len += sysfs_emit_at(buf, len, "%s%llx", len ? " " : "",
				     per_cpu(perf_ctl, cpu));
	return len + sysfs_emit_at(buf, len, "\n");
}

static const struct kernel_param_ops perf_ctl_ops = { .get = perf_ctl_get };
module_param_cb(perf_ctl, &perf_ctl_ops, NULL, 0444);
MODULE_PARM_DESC(perf_ctl, "IA32_PERF_CTL of each online CPU");

/* The MSRs, at intel_ips's RDMSR/WRMSR sites. */
struct msr_site {
	struct kprobe kp;
	bool write;
};
static struct msr_site *sites;
static int nr_sites;
static DEFINE_MUTEX(sites_mutex);	/* sites, nr_sites: hook, unhook, msr_missed */

static u64 *msr_slot(u32 msr)
{
	switch (msr) {
	case IPS_MSR_PLATFORM_INFO:	return (u64 *)&platform_info;
	case IPS_MSR_MISC_ENABLE:	return (u64 *)&misc_enable;
	case IPS_MSR_TURBO_LIMIT:	return (u64 *)&turbo_limit;
	case IPS_MSR_PERF_CTL:	return this_cpu_ptr(&perf_ctl);
	}
	return NULL;
}

static int msr_pre(struct kprobe *kp, struct pt_regs *r)
{
	struct msr_site *s = container_of(kp, struct msr_site, kp);
	u64 *slot = msr_slot(r->cx);

	if (!slot) {
		atomic_inc(&msr_other);
		return 0;	/* the real instruction */
	}
	raw_spin_lock(&msr_lock);
	if (s->write) {
		/* PLATFORM_INFO and MISC_ENABLE: intel_ips only reads them. */
		if (r->cx == IPS_MSR_TURBO_LIMIT || r->cx == IPS_MSR_PERF_CTL)
			*slot = (r->dx << 32) | (u32)r->ax;
		atomic_inc(&msr_writes);
	} else {
		r->ax = (u32)*slot;
		r->dx = *slot >> 32;
		atomic_inc(&msr_reads);
	}
	raw_spin_unlock(&msr_lock);
	r->ip = (unsigned long)kp->addr + 2;	/* RDMSR/WRMSR: 2 bytes */
	return 1;
}

/*
 * Never called (msr_pre skips the instruction), but a kprobe with a
 * post handler is never optimised into a jump, which would run the
 * instruction whatever msr_pre did.
 */
static void msr_post(struct kprobe *kp, struct pt_regs *r, unsigned long flags)
{
}

/*
 * Hits of the sites that kprobes missed (a probe hit while another was
 * being handled on that CPU): those ran the real instruction, which TCG
 * ignores (WRMSR) or answers with 0 (RDMSR) without a word.
 */
static int msr_missed_get(char *buf, const struct kernel_param *kp)
{
	unsigned long missed = 0;
	int i;

	mutex_lock(&sites_mutex);
	for (i = 0; i < nr_sites; i++)
		missed += sites[i].kp.nmissed;
	mutex_unlock(&sites_mutex);
	return sysfs_emit(buf, "%lu\n", missed);
}

static const struct kernel_param_ops msr_missed_ops = { .get = msr_missed_get };
module_param_cb(msr_missed, &msr_missed_ops, NULL, 0444);
MODULE_PARM_DESC(msr_missed, "hits of intel_ips's MSR sites that kprobes missed");

static void msr_unhook(void)
{
	int i;

	for (i = 0; i < nr_sites; i++)
		unregister_kprobe(&sites[i].kp);
	kfree(sites);
	sites = NULL;
	nr_sites = 0;
	atomic_set(&msr_sites, 0);
}

static int msr_hook(struct module *mod)
{
	const struct exception_table_entry *e;
	int i, n = 0, ret;

	sites = kcalloc(mod->num_exentries, sizeof(*sites), GFP_KERNEL);
	if (!sites)
		return -ENOMEM;
	for (i = 0; i < mod->num_exentries; i++) {
		u8 *insn;
		int type;

		e = &mod->extable[i];
		type = e->data & EX_DATA_TYPE_MASK;
		if (type != EX_TYPE_RDMSR && type != EX_TYPE_WRMSR)
			continue;
		insn = (u8 *)((unsigned long)&e->insn + e->insn);
		if (insn[0] != 0x0f || insn[1] != (type == EX_TYPE_RDMSR ? 0x32 : 0x30)) {
			pr_err("ips_sim: %pS: not an %s instruction\n", insn,
			       type == EX_TYPE_RDMSR ? "RDMSR" : "WRMSR");
			continue;
		}
		sites[n].write = type == EX_TYPE_WRMSR;
		sites[n].kp.addr = (kprobe_opcode_t *)insn;
		sites[n].kp.pre_handler = msr_pre;
		sites[n].kp.post_handler = msr_post;
		ret = register_kprobe(&sites[n].kp);
		if (ret) {
			pr_err("ips_sim: kprobe at %pS: %d\n", insn, ret);
			nr_sites = n;
			msr_unhook();
			return ret;
		}
		nr_sites = ++n;
	}
	atomic_set(&msr_sites, n);
	pr_info("ips_sim: %s: %d MSR access sites emulated\n", mod->name, n);
	return 0;
}

/*
 * i915's callbacks, counted; the same names in the baseline (exported
 * functions) and the series (the table's static functions).
 */
static const char * const i915_callbacks[] = {
	"i915_read_mch_val", "i915_gpu_raise", "i915_gpu_lower",
	"i915_gpu_busy", "i915_gpu_turbo_disable",
};
static struct kprobe cb_probes[ARRAY_SIZE(i915_callbacks)];
static bool cb_hooked;

static int cb_pre(struct kprobe *kp, struct pt_regs *r)
{
	atomic_inc(&i915_calls);
	if (kp == &cb_probes[0])
		atomic_inc(&mch_calls);
	return 0;
}

static void cb_unhook(void)
{
	int i;

	if (!cb_hooked)
		return;
	for (i = 0; i < ARRAY_SIZE(cb_probes); i++)
		unregister_kprobe(&cb_probes[i]);
	cb_hooked = false;
}

static void cb_hook(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(cb_probes); i++) {
		memset(&cb_probes[i], 0, sizeof(cb_probes[i]));
		cb_probes[i].symbol_name = i915_callbacks[i];
		cb_probes[i].pre_handler = cb_pre;
		ret = register_kprobe(&cb_probes[i]);
		if (ret) {
			pr_err("ips_sim: kprobe on %s: %d\n", i915_callbacks[i], ret);
			while (i--)
				unregister_kprobe(&cb_probes[i]);
			return;
		}
	}
	cb_hooked = true;
}

/*
 * i915 in its module init (MODULE_STATE_COMING: symbol_get() refuses its
 * symbols), and the lookups of an i915 symbol refused meanwhile.
 */
static bool i915_coming;
module_param(i915_coming, bool, 0444);
MODULE_PARM_DESC(i915_coming, "i915 is loading: its symbols are not to be had yet");
static atomic_t coming_misses;
module_param_named(coming_misses, coming_misses.counter, int, 0644);
MODULE_PARM_DESC(coming_misses, "symbol_get() of an i915 symbol refused while i915 was loading");
static uint hold_coming;
module_param(hold_coming, uint, 0644);
MODULE_PARM_DESC(hold_coming, "ms to keep i915 loading, until a lookup of its symbols was refused (0: off)");
static DECLARE_WAIT_QUEUE_HEAD(coming_wq);
/* i915 live (set by its MODULE_STATE_LIVE notifier, cleared when going). */
static bool i915_live;
static atomic_t live_misses, adjust_hits;
module_param_named(live_misses, live_misses.counter, int, 0644);
MODULE_PARM_DESC(live_misses, "the adjust thread's lookups of an i915 symbol refused while i915 was live");
module_param_named(adjust_hits, adjust_hits.counter, int, 0644);
MODULE_PARM_DESC(adjust_hits, "the adjust thread's lookups of an i915 symbol that took it");

#define GET_COMING	1	/* an i915 symbol, i915 in its init */
#define GET_ADJUST	2	/* an i915 symbol, by the adjust thread */

static int get_entry(struct kretprobe_instance *ri, struct pt_regs *r)
{
	int *what = (int *)ri->data;

	*what = 0;
	if (strncmp((const char *)r->di, "i915_", 5))
		return 0;
	if (READ_ONCE(i915_coming))
		*what |= GET_COMING;
	if (ips_thread(current, "ips-adjust"))
		*what |= GET_ADJUST;
	return 0;
}

static int get_return(struct kretprobe_instance *ri, struct pt_regs *r)
{
	int what = *(int *)ri->data;
	bool got = regs_return_value(r);

	if ((what & GET_COMING) && !got) {
		atomic_inc(&coming_misses);
		wake_up(&coming_wq);
	}
	if ((what & GET_ADJUST) && got)
		atomic_inc(&adjust_hits);
	if ((what & GET_ADJUST) && !got && READ_ONCE(i915_live))
		atomic_inc(&live_misses);
	return 0;
}

static struct kretprobe get_probe = {
	.kp.symbol_name = "__symbol_get",
	.entry_handler = get_entry,
	.handler = get_return,
	.data_size = sizeof(int),
	.maxactive = 8,
};

/* i915 loading: its init waits, if asked, for a refused lookup. */
static void i915_coming_hold(void)
{
	int misses = atomic_read(&coming_misses);
	uint ms = READ_ONCE(hold_coming);

	WRITE_ONCE(i915_coming, true);
	if (!ms)
		return;
	pr_info("ips_sim: i915 kept loading for up to %u ms\n", ms);
	wait_event_timeout(coming_wq, atomic_read(&coming_misses) != misses,
			   msecs_to_jiffies(ms));
	pr_info("ips_sim: i915 goes on loading, %d lookup(s) refused meanwhile\n",
		atomic_read(&coming_misses) - misses);
}

static int sim_module_event(struct notifier_block *nb, unsigned long state,
			    void *data)
{
	struct module *mod = data;

	if (!strcmp(mod->name, "intel_ips")) {
		int ret = 0;

		mutex_lock(&sites_mutex);
		if (state == MODULE_STATE_COMING && msrs)
			ret = msr_hook(mod);
		if (state == MODULE_STATE_GOING)
			msr_unhook();
		mutex_unlock(&sites_mutex);
		if (ret)
			return notifier_from_errno(-EINVAL);
	} else if (!strcmp(mod->name, "i915")) {
		if (state == MODULE_STATE_COMING)
			i915_coming_hold();
		else
			WRITE_ONCE(i915_coming, false);
		WRITE_ONCE(i915_live, state == MODULE_STATE_LIVE);
		if (state == MODULE_STATE_LIVE) {
			/* From now on symbol_get() finds its table. */
			pr_info("ips_sim: i915 live\n");
			cb_hook();
		}
		if (state == MODULE_STATE_GOING)
			cb_unhook();
	}
	return NOTIFY_OK;
}

static struct notifier_block sim_nb = {
	.notifier_call = sim_module_event,
};

/* symbol_put() of an i915 symbol: how many intel_ips threads still run. */
static int put_pre(struct kprobe *kp, struct pt_regs *r)
{
	const char *name = (const char *)r->di;
	int n, old;

	if (strncmp(name, "i915_", 5))
		return 0;
	atomic_inc(&i915_puts);
	n = ips_threads_now();
	do {
		old = atomic_read(&put_threads);
	} while (n > old && atomic_cmpxchg(&put_threads, old, n) != old);
	return 0;
}

static struct kprobe put_probe = {
	.symbol_name = "__symbol_put",
	.pre_handler = put_pre,
};

static bool ips_monitor_runs(void)
{
	struct task_struct *p;
	bool runs = false;

	rcu_read_lock();
	for_each_process(p)
		if (ips_thread(p, "ips-monitor") && !(p->flags & PF_EXITING))
			runs = true;
	rcu_read_unlock();
	return runs;
}

/*
 * ips-adjust threads stopped while a monitor thread ran, which could
 * still wake them: pinned until this module goes.
 */
static struct task_struct *stopped[64];
static DEFINE_RAW_SPINLOCK(stopped_lock);

static int kthread_stop_pre(struct kprobe *kp, struct pt_regs *r)
{
	struct task_struct *k = (struct task_struct *)r->di;
	unsigned long flags;
	int i;

	if (!ips_thread(k, "ips-adjust") || !ips_monitor_runs())
		return 0;
	raw_spin_lock_irqsave(&stopped_lock, flags);
	for (i = 0; i < ARRAY_SIZE(stopped) && stopped[i]; i++)
		;
	if (i < ARRAY_SIZE(stopped))
		stopped[i] = get_task_struct(k);
	else
		atomic_inc(&pins_full);
	raw_spin_unlock_irqrestore(&stopped_lock, flags);
	return 0;
}

static int wake_pre(struct kprobe *kp, struct pt_regs *r)
{
	struct task_struct *p = (struct task_struct *)r->di;
	unsigned long flags;
	int i;

	if (!ips_thread(current, "ips-monitor"))
		return 0;
	raw_spin_lock_irqsave(&stopped_lock, flags);
	for (i = 0; i < ARRAY_SIZE(stopped) && stopped[i]; i++)
		if (stopped[i] == p) {
			atomic_inc(&adjust_wakes_stopped);
			pr_warn("ips_sim: ips-monitor woke ips-adjust %d after its kthread_stop() (exit_state %d)\n",
				p->pid, p->exit_state);
		}
	raw_spin_unlock_irqrestore(&stopped_lock, flags);
	if (ips_thread(p, "ips-adjust"))
		atomic_inc(&adjust_wakes);
	return 0;
}

static struct kprobe stop_probe = {
	.symbol_name = "kthread_stop",
	.pre_handler = kthread_stop_pre,
};

static struct kprobe wake_probe = {
	.symbol_name = "wake_up_process",
	.pre_handler = wake_pre,
};

static struct kprobe *kps[] = { &stop_probe, &wake_probe };

static void unpin_stopped(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(stopped) && stopped[i]; i++)
		put_task_struct(stopped[i]);
}

/* What the CPU itself (QEMU's TCG) answers for them, for the log. */
static void msr_report(void)
{
	static const u32 msr[] = {
		IPS_MSR_PLATFORM_INFO, IPS_MSR_PERF_CTL, IPS_MSR_MISC_ENABLE,
		IPS_MSR_TURBO_LIMIT,
	};
	int i, err;
	u64 v;

	for (i = 0; i < ARRAY_SIZE(msr); i++) {
		err = rdmsrq_safe(msr[i], &v);
		pr_info("ips_sim: the CPU's MSR %#x: %s%llx\n", msr[i],
			err ? "faults, " : "", err ? 0 : v);
	}
}

static int __init ips_sim_init(void)
{
	LIST_HEAD(resources);
	int ret;

	if (!bar || bar & (SIM_BAR_SIZE - 1) || irq > 15) {
		pr_err("ips_sim: bar=%#lx irq=%u: need a reserved, page-aligned bar= and an ISA irq= (or 0)\n",
		       bar, irq);
		return -EINVAL;
	}
	msr_report();
	regs = ioremap(bar, SIM_BAR_SIZE);
	if (!regs)
		return -ENOMEM;
	sim_regs_reset();

	cfg[0] = PCI_VENDOR_ID_INTEL | 0x3b32 << 16;
	cfg[2] = 0x118000 << 8 | 0x05;		/* signal processing, rev 5 */
	cfg[4] = bar;				/* BAR 0: 32-bit memory */
	cfg[15] = irq ? 1 << 8 | irq : 0;	/* INTA#, ISA IRQ */
	cfg_wmask[1] = 0x0000ffff;		/* command */
	cfg_wmask[4] = ~(SIM_BAR_SIZE - 1);
	cfg_wmask[15] = 0xff;			/* interrupt line */

	ret = register_module_notifier(&sim_nb);
	if (ret)
		goto err_unmap;
	ret = register_kprobe(&put_probe);
	if (ret) {
		pr_err("ips_sim: kprobe on __symbol_put: %d\n", ret);
		goto err_notifier;
	}
	ret = register_kprobes(kps, ARRAY_SIZE(kps));
	if (ret) {
		pr_err("ips_sim: kprobes on kthread_stop, wake_up_process: %d\n", ret);
		goto err_put_probe;
	}
	ret = register_kretprobe(&get_probe);
	if (ret == -ENOENT) {
		/*
		 * Where symbol_get() passes its caller (7.x with
		 * patches/module), __symbol_get() is a macro for
		 * __symbol_get_for(), whose first argument is still the name.
		 */
		get_probe.kp.symbol_name = "__symbol_get_for";
		get_probe.kp.addr = NULL;
		ret = register_kretprobe(&get_probe);
	}
	if (ret) {
		pr_err("ips_sim: kretprobe on %s: %d\n", get_probe.kp.symbol_name, ret);
		goto err_kps;
	}

	timer_setup(&me_timer, me_tick, 0);
	mod_timer(&me_timer, jiffies + msecs_to_jiffies(200));

	sim_window.start = bar;
	sim_window.end = bar + SIM_BAR_SIZE - 1;
	ret = insert_resource(&iomem_resource, &sim_window);
	if (ret) {
		pr_err("ips_sim: %pR: busy\n", &sim_window);
		goto err_timer;
	}
	pci_add_resource(&resources, &sim_window);
	pci_lock_rescan_remove();
	sim_bus = pci_scan_root_bus(NULL, 0, &sim_ops, &sim_sysdata, &resources);
	if (sim_bus) {
		pci_bus_claim_resources(sim_bus);
		pci_bus_add_devices(sim_bus);
	}
	pci_unlock_rescan_remove();
	if (!sim_bus) {
		pci_free_resource_list(&resources);
		ret = -ENODEV;
		goto err_window;
	}
	pr_info("ips_sim: 8086:3b32 at %04x:00:00.0, BAR 0 %pR, IRQ %u\n",
		SIM_DOMAIN, &sim_window, irq);
	return 0;

err_window:
	release_resource(&sim_window);
err_timer:
	timer_delete_sync(&me_timer);
	unregister_kretprobe(&get_probe);
err_kps:
	unregister_kprobes(kps, ARRAY_SIZE(kps));
err_put_probe:
	unregister_kprobe(&put_probe);
err_notifier:
	unregister_module_notifier(&sim_nb);
err_unmap:
	iounmap(regs);
	return ret;
}

static void __exit ips_sim_exit(void)
{
	struct pci_host_bridge *bridge = to_pci_host_bridge(sim_bus->bridge);

	if (irq_busy)
		free_irq(irq, &irq_busy);
	pci_lock_rescan_remove();
	pci_stop_root_bus(sim_bus);
	pci_remove_root_bus(sim_bus);
	pci_unlock_rescan_remove();
	/*
	 * pci_remove_root_bus() only device_del()s the host bridge: the
	 * reference pci_scan_root_bus() created it with is the caller's.
	 * Without this put, the bridge, its name and its window list leak
	 * on every unload (kmemleak sees them only when no stale pointer
	 * hides them).  The count before it, for the test: 1, ours.
	 */
	pr_info("ips_sim: host bridge references at unload: %u\n",
		kref_read(&bridge->dev.kobj.kref));
	pci_free_host_bridge(bridge);
	release_resource(&sim_window);
	timer_delete_sync(&me_timer);
	unregister_module_notifier(&sim_nb);
	unregister_kprobe(&put_probe);
	unregister_kretprobe(&get_probe);
	unregister_kprobes(kps, ARRAY_SIZE(kps));
	unpin_stopped();
	mutex_lock(&sites_mutex);
	msr_unhook();
	mutex_unlock(&sites_mutex);
	cb_unhook();
	iounmap(regs);
}

module_init(ips_sim_init);
module_exit(ips_sim_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Ironlake thermal sensor and Arrandale MSRs for intel_ips under QEMU");
