// SPDX-License-Identifier: GPL-2.0-only
/*
 * The High Precision Event Timer: one up-counter of at least 10 MHz and
 * up to 32 comparator channels.
 *
 * What this driver makes of it:
 *  - the counter is the "hpet" clocksource (below the TSC);
 *  - in legacy replacement mode channel 0 drives IRQ0 and channel 1 IRQ8:
 *    channel 0 is the global clock event device "hpet", the boot tick and
 *    later the broadcast device, and channel 1 emulates the CMOS RTC's
 *    interrupts, which the legacy mode takes away from it;
 *  - on CPUs whose local APIC timer stops in deep idle (no ARAT), channels
 *    that can send MSIs become per-CPU devices "hpetN", one per CPU while
 *    they last, bound and released with CPU hotplug;
 *  - the first channel left over goes to /dev/hpet.
 *
 * Comparators match on equality only, and some chipsets apply a write a
 * few cycles late, so a deadline set too close to the counter can pass
 * unseen and fire only after the counter wraps (minutes later).  Every
 * one-shot write is therefore checked against the counter read back after
 * it, and refused with -ETIME when it is too close or already past.
 */
#define pr_fmt(fmt) "hpet: " fmt

#include <kunit/visibility.h>
#include <linux/clockchips.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/export.h>
#include <linux/hpet.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/slab.h>

#include <asm/hpet.h>
#include <asm/irq_remapping.h>
#include <asm/mwait.h>
#include <asm/time.h>
#include <asm/tsc.h>

#include "hpet-kunit.h"

/* Set by ACPI (or a PCI quirk) before hpet_enable() runs. */
unsigned long hpet_address;
u8 hpet_blockid;
bool hpet_msi_disable;
bool boot_hpet_disable;
bool hpet_force_user;

struct hpet_chan {
	struct clock_event_device ced;
	unsigned int num;
	unsigned int irq;
	unsigned int cpu;
	enum hpet_role role;
	bool bound;		/* a per-CPU channel serving its CPU */
	u32 boot_cfg;
	char name[16];		/* "hpet" and any channel number */
};

/* The block: set up once by hpet_enable(), read-only afterwards. */
static void __iomem *hpet_regs;
static struct hpet_chan *hpet_chans;
static unsigned int hpet_nr_chans;
static u32 hpet_boot_cfg;
static unsigned long hpet_freq;
static bool hpet_legacy_on;
static bool hpet_verbose;

static struct hpet_chan *to_chan(struct clock_event_device *ced)
{
	return container_of(ced, struct hpet_chan, ced);
}

/**
 * hpet_readl() - read an HPET register
 * @a: its offset
 *
 * Return: the register's value.
 */
unsigned int hpet_readl(unsigned int a)
{
	return readl(hpet_regs + a);
}

static void hpet_writel(u32 val, unsigned int a)
{
	writel(val, hpet_regs + a);
}

static void hpet_cfg_update(unsigned int reg, u32 clear, u32 set)
{
	hpet_writel((hpet_readl(reg) & ~clear) | set, reg);
}

static int __init hpet_parse_options(char *str)
{
	char *opt;

	while ((opt = strsep(&str, ",")) != NULL) {
		if (!strcmp(opt, "disable"))
			boot_hpet_disable = true;
		else if (!strcmp(opt, "force"))
			hpet_force_user = true;
		else if (!strcmp(opt, "verbose"))
			hpet_verbose = true;
		else
			pr_warn("ignoring unknown option hpet=%s\n", opt);
	}
	return 0;
}
early_param("hpet", hpet_parse_options);

static int __init hpet_parse_nohpet(char *str)
{
	boot_hpet_disable = true;
	return 0;
}
early_param("nohpet", hpet_parse_nohpet);

static bool hpet_usable(void)
{
	return hpet_address && !boot_hpet_disable;
}

/**
 * is_hpet_enabled() - whether the HPET runs in legacy replacement mode
 *
 * Return: nonzero when IRQ0 (and IRQ8) come from the HPET.
 */
int is_hpet_enabled(void)
{
	return hpet_usable() && hpet_legacy_on;
}
EXPORT_SYMBOL_GPL(is_hpet_enabled);

/**
 * hpet_period_valid() - whether a PERIOD register value is plausible
 * @period_fs: femtoseconds per count
 *
 * The specification allows at most 100 ns per count; faster than 100 fs
 * would wrap the 32-bit counter in under half a second.
 *
 * Return: true when in range.
 */
VISIBLE_IF_KUNIT bool hpet_period_valid(u32 period_fs)
{
	return period_fs >= HPET_MIN_PERIOD && period_fs <= HPET_MAX_PERIOD;
}
EXPORT_SYMBOL_IF_KUNIT(hpet_period_valid);

/**
 * hpet_freq_of() - counter frequency from the PERIOD register
 * @period_fs: femtoseconds per count, nonzero
 *
 * Return: counts per second.
 */
VISIBLE_IF_KUNIT unsigned long hpet_freq_of(u32 period_fs)
{
	return (unsigned long)div_u64(FSEC_PER_SEC, period_fs);
}
EXPORT_SYMBOL_IF_KUNIT(hpet_freq_of);

/**
 * hpet_channels_of() - number of channels from the ID register
 * @id: the ID register
 *
 * Return: the count (the register holds the last channel's number).
 */
VISIBLE_IF_KUNIT unsigned int hpet_channels_of(u32 id)
{
	return ((id & HPET_ID_NUMBER) >> HPET_ID_NUMBER_SHIFT) + 1;
}
EXPORT_SYMBOL_IF_KUNIT(hpet_channels_of);

/* hpet=verbose: the registers, at the points that change them. */
static void hpet_dump(const char *when)
{
	unsigned int i, off;

	if (!hpet_verbose)
		return;
	pr_info("%s: ID %#x PERIOD %#x CFG %#x STATUS %#x COUNTER %#x:%#x\n", when,
		hpet_readl(HPET_ID), hpet_readl(HPET_PERIOD), hpet_readl(HPET_CFG),
		hpet_readl(HPET_STATUS), hpet_readl(HPET_COUNTER + 4),
		hpet_readl(HPET_COUNTER));
	for (i = 0; i < hpet_channels_of(hpet_readl(HPET_ID)); i++) {
		off = HPET_Tn_CFG(i);
		pr_info("  T%u: CFG %#x:%#x CMP %#x:%#x ROUTE %#x:%#x\n", i,
			hpet_readl(off + 4), hpet_readl(off),
			hpet_readl(HPET_Tn_CMP(i) + 4), hpet_readl(HPET_Tn_CMP(i)),
			hpet_readl(HPET_Tn_ROUTE(i) + 4), hpet_readl(HPET_Tn_ROUTE(i)));
	}
}

/**
 * hpet_cmp_missed() - whether a comparator value may already be lost
 * @cmp: the value written
 * @now: the counter read after the write
 *
 * Return: true when the match is less than HPET_MIN_CYCLES ahead of
 * @now, or behind it (in wrapping 32-bit arithmetic).
 */
VISIBLE_IF_KUNIT bool hpet_cmp_missed(u32 cmp, u32 now)
{
	return (s32)(cmp - now) < HPET_MIN_CYCLES;
}
EXPORT_SYMBOL_IF_KUNIT(hpet_cmp_missed);

/**
 * hpet_cycles_of() - counter cycles in a span of time
 * @ns: the span
 * @mult: the channel's ns-to-cycles factor
 * @shift: and its shift
 *
 * Return: the cycles, truncated to 32 bits.
 */
VISIBLE_IF_KUNIT u32 hpet_cycles_of(u64 ns, u32 mult, u32 shift)
{
	return (u32)((ns * mult) >> shift);
}
EXPORT_SYMBOL_IF_KUNIT(hpet_cycles_of);

/**
 * hpet_plan_roles() - give the free channels their roles
 * @plan: the channels, their boot configuration and what is wanted
 * @role: in: the roles so far (legacy channels set); out: the new roles
 *
 * The first free channel goes to /dev/hpet when it is built in; then each
 * free channel that can deliver by MSI (FSB) becomes a per-CPU candidate,
 * until there is one per CPU that wants one.
 *
 * Return: the number of per-CPU candidates.
 */
VISIBLE_IF_KUNIT unsigned int hpet_plan_roles(const struct hpet_role_plan *plan,
					      enum hpet_role *role)
{
	bool device_given = !plan->want_device;
	unsigned int i, percpu = 0;

	for (i = 0; i < plan->nr; i++) {
		if (role[i] != HPET_ROLE_FREE)
			continue;
		if (!device_given) {
			role[i] = HPET_ROLE_DEVICE;
			device_given = true;
		} else if (percpu < plan->percpu_max &&
			   (plan->boot_cfg[i] & HPET_TN_FSB_CAP)) {
			role[i] = HPET_ROLE_PERCPU;
			percpu++;
		}
	}
	return percpu;
}
EXPORT_SYMBOL_IF_KUNIT(hpet_plan_roles);

/**
 * hpet_roles_rollback() - free the per-CPU candidates again
 * @role: the channels' roles; per-CPU ones become free
 * @nr: the number of channels
 *
 * When per-CPU channels cannot be had after all (no MSI domain, no MSI
 * support built in), the candidates go back to the pool that /dev/hpet
 * is offered.
 *
 * Return: how many candidates were freed.
 */
VISIBLE_IF_KUNIT unsigned int hpet_roles_rollback(enum hpet_role *role, unsigned int nr)
{
	unsigned int i, freed = 0;

	for (i = 0; i < nr; i++) {
		if (role[i] == HPET_ROLE_PERCPU) {
			role[i] = HPET_ROLE_FREE;
			freed++;
		}
	}
	return freed;
}
EXPORT_SYMBOL_IF_KUNIT(hpet_roles_rollback);

/* No per-CPU channels after all: say why, and give the candidates back. */
static unsigned int __init hpet_percpu_give_up(const char *why)
{
	enum hpet_role roles[HPET_MAX_TIMERS];
	unsigned int i, freed;

	for (i = 0; i < hpet_nr_chans; i++)
		roles[i] = hpet_chans[i].role;
	freed = hpet_roles_rollback(roles, hpet_nr_chans);
	for (i = 0; i < hpet_nr_chans; i++)
		hpet_chans[i].role = roles[i];
	pr_info("%s: no per-CPU timers, %u channel(s) left free\n", why, freed);
	return 0;
}

/* The counter, and the legacy interrupt routing. */

static void hpet_counter_run(bool on)
{
	hpet_cfg_update(HPET_CFG, HPET_CFG_ENABLE, on ? HPET_CFG_ENABLE : 0);
}

static void hpet_counter_restart(void)
{
	hpet_counter_run(false);
	hpet_writel(0, HPET_COUNTER);
	hpet_writel(0, HPET_COUNTER + 4);
	hpet_counter_run(true);
}

static void hpet_legacy_route(void)
{
	hpet_cfg_update(HPET_CFG, 0, HPET_CFG_LEGACY);
	hpet_legacy_on = true;
}

/* Clock event devices on channels. */

static int hpet_chan_periodic(struct clock_event_device *ced)
{
	unsigned int n = to_chan(ced)->num;
	u32 period = hpet_cycles_of(NSEC_PER_SEC / HZ, ced->mult, ced->shift);

	hpet_counter_run(false);
	hpet_cfg_update(HPET_Tn_CFG(n), 0, HPET_TN_ENABLE | HPET_TN_PERIODIC |
			HPET_TN_SETVAL | HPET_TN_32BIT);
	/* With SETVAL the write sets the counter's first match ... */
	hpet_writel(hpet_readl(HPET_COUNTER) + period, HPET_Tn_CMP(n));
	udelay(1);
	/*
	 * ... and a second one the period.  SETVAL clears itself after the
	 * first write; the AMD-8111 (and QEMU) take the period only this way.
	 */
	hpet_writel(period, HPET_Tn_CMP(n));
	hpet_counter_run(true);
	hpet_dump("periodic");
	return 0;
}

static int hpet_chan_oneshot(struct clock_event_device *ced)
{
	hpet_cfg_update(HPET_Tn_CFG(to_chan(ced)->num), HPET_TN_PERIODIC,
			HPET_TN_ENABLE | HPET_TN_32BIT);
	return 0;
}

static int hpet_chan_stop(struct clock_event_device *ced)
{
	hpet_cfg_update(HPET_Tn_CFG(to_chan(ced)->num), HPET_TN_ENABLE, 0);
	return 0;
}

static int hpet_chan_next(unsigned long delta, struct clock_event_device *ced)
{
	unsigned int n = to_chan(ced)->num;
	u32 cmp = hpet_readl(HPET_COUNTER) + (u32)delta;

	hpet_writel(cmp, HPET_Tn_CMP(n));
	/*
	 * An SMI or NMI between the counter read and the write, or a
	 * chipset that applies the write late, can leave the match behind
	 * the counter: check against a fresh read and let the core retry.
	 */
	return hpet_cmp_missed(cmp, hpet_readl(HPET_COUNTER)) ? -ETIME : 0;
}

static void hpet_chan_describe(struct hpet_chan *hc, int rating)
{
	struct clock_event_device *ced = &hc->ced;

	ced->name = hc->name;
	ced->rating = rating;
	ced->irq = hc->irq;
	ced->cpumask = cpumask_of(hc->cpu);
	ced->features = CLOCK_EVT_FEAT_ONESHOT;
	ced->set_next_event = hpet_chan_next;
	ced->set_state_oneshot = hpet_chan_oneshot;
	ced->set_state_shutdown = hpet_chan_stop;
}

static int hpet_legacy_resume(struct clock_event_device *ced)
{
	hpet_legacy_route();
	hpet_dump("resume");
	return 0;
}

/*
 * Channel 0 drives IRQ0.  It alone is offered periodic mode, since setting
 * a period stops the main counter for a moment, which per-CPU channels
 * must not do to each other; and it is offered it whatever its capability
 * bit says: QEMU and some boards do not advertise periodic mode on it yet
 * need it, because the boot tick must keep running without reprogramming
 * while the IO-APIC is set up and while the APIC timer calibration borrows
 * the tick's event handler.
 */
static void __init hpet_legacy_register(struct hpet_chan *hc)
{
	hc->cpu = boot_cpu_data.cpu_index;
	hc->role = HPET_ROLE_LEGACY;
	strscpy(hc->name, "hpet", sizeof(hc->name));
	hpet_chan_describe(hc, 50);
	hc->ced.features |= CLOCK_EVT_FEAT_PERIODIC;
	hc->ced.set_state_periodic = hpet_chan_periodic;
	hc->ced.tick_resume = hpet_legacy_resume;

	hpet_legacy_route();
	clockevents_config_and_register(&hc->ced, hpet_freq, HPET_MIN_PROG_DELTA,
					HPET_MAX_PROG_DELTA);
	global_clock_event = &hc->ced;
}

/* Per-CPU channels, delivered by MSI. */
#if defined(CONFIG_X86_LOCAL_APIC) && defined(CONFIG_GENERIC_MSI_IRQ)
static DEFINE_PER_CPU(struct hpet_chan *, hpet_cpu_chan);
static struct irq_domain *hpet_msi_domain;

static void hpet_msi_route(struct hpet_chan *hc, bool on)
{
	u32 bits = HPET_TN_ENABLE | HPET_TN_FSB;

	hpet_cfg_update(HPET_Tn_CFG(hc->num), bits, on ? bits : 0);
}

static void hpet_msi_unmask(struct irq_data *d)
{
	hpet_msi_route(irq_data_get_irq_handler_data(d), true);
}

static void hpet_msi_mask(struct irq_data *d)
{
	hpet_msi_route(irq_data_get_irq_handler_data(d), false);
}

static void hpet_msi_store(struct hpet_chan *hc, const struct msi_msg *msg)
{
	hpet_writel(msg->data, HPET_Tn_ROUTE(hc->num));
	hpet_writel(msg->address_lo, HPET_Tn_ROUTE(hc->num) + 4);
}

static void hpet_msi_write_msg(struct irq_data *d, struct msi_msg *msg)
{
	hpet_msi_store(irq_data_get_irq_handler_data(d), msg);
}

/* Renamed IR-HPET-MSI when interrupt remapping sits in between. */
static struct irq_chip hpet_msi_chip __ro_after_init = {
	.flags			= IRQCHIP_SKIP_SET_WAKE | IRQCHIP_AFFINITY_PRE_STARTUP,
	.irq_mask		= hpet_msi_mask,
	.irq_unmask		= hpet_msi_unmask,
	.irq_write_msi_msg	= hpet_msi_write_msg,
	.irq_ack		= irq_chip_ack_parent,
	.irq_retrigger		= irq_chip_retrigger_hierarchy,
	.irq_set_affinity	= msi_domain_set_affinity,
	.name			= "HPET-MSI",
};

static int hpet_msi_domain_init(struct irq_domain *domain, struct msi_domain_info *info,
				unsigned int virq, irq_hw_number_t hwirq,
				msi_alloc_info_t *arg)
{
	/* The channel (arg->data) is the handler data the chip ops use. */
	irq_domain_set_info(domain, virq, arg->hwirq, info->chip, NULL,
			    handle_edge_irq, arg->data, "edge");
	irq_set_status_flags(virq, IRQ_MOVE_PCNTXT);
	return 0;
}

static void hpet_msi_domain_free(struct irq_domain *domain,
				 struct msi_domain_info *info, unsigned int virq)
{
	irq_clear_status_flags(virq, IRQ_MOVE_PCNTXT);
}

static struct msi_domain_ops hpet_msi_domain_ops = {
	.msi_init	= hpet_msi_domain_init,
	.msi_free	= hpet_msi_domain_free,
};

static struct msi_domain_info hpet_msi_domain_template = {
	.ops	= &hpet_msi_domain_ops,
	.chip	= &hpet_msi_chip,
	.flags	= MSI_FLAG_USE_DEF_DOM_OPS,
};

/* An MSI domain under the vector domain, or under interrupt remapping. */
static struct irq_domain *__init hpet_msi_domain_create(int block)
{
	struct irq_fwspec spec = { .param_count = 1, .param = { block } };
	struct msi_domain_info *info;
	struct irq_domain *parent, *domain = NULL;

	if (!x86_vector_domain)
		return NULL;
	info = kmemdup(&hpet_msi_domain_template, sizeof(*info), GFP_KERNEL);
	if (!info)
		return NULL;
	info->data = (void *)(long)block;

	spec.fwnode = irq_domain_alloc_named_id_fwnode(hpet_msi_chip.name, block);
	if (!spec.fwnode)
		goto out_info;
	parent = irq_find_matching_fwspec(&spec, DOMAIN_BUS_GENERIC_MSI);
	if (parent) {
		if (parent != x86_vector_domain)
			hpet_msi_chip.name = "IR-HPET-MSI";
		domain = msi_create_irq_domain(spec.fwnode, info, parent);
	}
	if (domain)
		return domain;
	irq_domain_free_fwnode(spec.fwnode);
out_info:
	kfree(info);
	return NULL;
}

static int __init hpet_msi_irq_alloc(struct hpet_chan *hc)
{
	struct msi_domain_info *info = msi_get_domain_info(hpet_msi_domain);
	struct irq_alloc_info alloc;

	init_irq_alloc_info(&alloc, NULL);
	alloc.type = X86_IRQ_ALLOC_TYPE_HPET;
	alloc.data = hc;
	alloc.devid = (int)(long)info->data;
	alloc.hwirq = hc->num;
	return irq_domain_alloc_irqs(hpet_msi_domain, 1, NUMA_NO_NODE, &alloc);
}

static int hpet_msi_resume(struct clock_event_device *ced)
{
	struct hpet_chan *hc = to_chan(ced);
	struct irq_data *d = irq_get_irq_data(hc->irq);
	struct msi_msg msg;

	/* The message registers lost their contents with the block. */
	irq_chip_compose_msi_msg(d, &msg);
	hpet_msi_store(hc, &msg);
	hpet_msi_route(hc, true);
	return 0;
}

static irqreturn_t hpet_msi_interrupt(int irq, void *data)
{
	struct hpet_chan *hc = data;

	if (unlikely(!hc->ced.event_handler)) {
		pr_info("Spurious interrupt HPET channel %u\n", hc->num);
		return IRQ_HANDLED;
	}
	clockevents_handle_event(&hc->ced);
	return IRQ_HANDLED;
}

/* Send @hc's interrupt to @cpu, which it serves alone. */
static void hpet_chan_steer(struct hpet_chan *hc, unsigned int cpu)
{
	disable_irq(hc->irq);
	irq_set_affinity(hc->irq, cpumask_of(cpu));
	enable_irq(hc->irq);
}

/* Runs on @cpu as it comes up: give it a free per-CPU channel, if any. */
static int hpet_cpu_online(unsigned int cpu)
{
	struct hpet_chan *hc = per_cpu(hpet_cpu_chan, cpu);
	unsigned int i;

	/*
	 * Still this CPU's: it went only part of the way down, not as far as
	 * x86/hpet:dead (CPU hotplug state control).  If it died on the way,
	 * the tick layer dropped the device (tick_cleanup_dead_cpu()) and the
	 * interrupt moved to a CPU that stayed: both come back here.  If it
	 * did not die, the channel is still the CPU's tick.
	 */
	if (hc) {
		if (clockevent_state_detached(&hc->ced)) {
			hpet_chan_steer(hc, cpu);
			clockevents_register_device(&hc->ced);
		}
		return 0;
	}
	for (i = 0; i < hpet_nr_chans && !hc; i++) {
		if (hpet_chans[i].role == HPET_ROLE_PERCPU && !hpet_chans[i].bound)
			hc = &hpet_chans[i];
	}
	if (!hc)
		return 0;
	if (request_irq(hc->irq, hpet_msi_interrupt, IRQF_TIMER | IRQF_NOBALANCING,
			hc->name, hc)) {
		pr_warn("%s: interrupt %u unavailable, CPU %u keeps its APIC timer\n",
			hc->name, hc->irq, cpu);
		return 0;
	}
	hc->bound = true;
	hc->cpu = cpu;
	per_cpu(hpet_cpu_chan, cpu) = hc;
	hpet_chan_steer(hc, cpu);

	hpet_chan_describe(hc, 110);
	hc->ced.tick_resume = hpet_msi_resume;
	clockevents_config_and_register(&hc->ced, hpet_freq, HPET_MIN_PROG_DELTA,
					HPET_MAX_PROG_DELTA);
	return 0;
}

/* After @cpu is gone: its channel is free for the next CPU to come up. */
static int hpet_cpu_dead(unsigned int cpu)
{
	struct hpet_chan *hc = per_cpu(hpet_cpu_chan, cpu);

	if (hc) {
		free_irq(hc->irq, hc);
		hc->bound = false;
		per_cpu(hpet_cpu_chan, cpu) = NULL;
	}
	return 0;
}

/* Turn the per-CPU candidates into channels with an MSI each. */
static unsigned int __init hpet_percpu_prepare(void)
{
	unsigned int i, ready = 0;
	int irq;

	hpet_msi_domain = hpet_msi_domain_create(hpet_blockid);
	if (!hpet_msi_domain)
		return hpet_percpu_give_up("no MSI domain");
	for (i = 0; i < hpet_nr_chans; i++) {
		struct hpet_chan *hc = &hpet_chans[i];

		if (hc->role != HPET_ROLE_PERCPU)
			continue;
		snprintf(hc->name, sizeof(hc->name), "hpet%u", i);
		irq = hpet_msi_irq_alloc(hc);
		if (irq <= 0) {
			hc->role = HPET_ROLE_FREE;
			continue;
		}
		hc->irq = irq;
		ready++;
	}
	return ready;
}

static int __init hpet_percpu_start(void)
{
	int err;

	err = cpuhp_setup_state(CPUHP_AP_X86_HPET_ONLINE, "x86/hpet:online",
				hpet_cpu_online, NULL);
	if (err < 0)
		return err;
	err = cpuhp_setup_state(CPUHP_X86_HPET_DEAD, "x86/hpet:dead", NULL,
				hpet_cpu_dead);
	if (err < 0)
		cpuhp_remove_state(CPUHP_AP_X86_HPET_ONLINE);
	return err < 0 ? err : 0;
}

#else
static unsigned int __init hpet_percpu_prepare(void)
{
	return hpet_percpu_give_up("no MSI support built in");
}

static int __init hpet_percpu_start(void)
{
	return 0;
}
#endif

/* Per-CPU channels are for CPUs whose APIC timer stops in deep idle. */
static unsigned int __init hpet_percpu_wanted(void)
{
	if (hpet_msi_disable || boot_cpu_has(X86_FEATURE_ARAT))
		return 0;
	return num_possible_cpus();
}

/* The clocksource. */

#if defined(CONFIG_SMP) && defined(CONFIG_64BIT)
/*
 * An HPET read costs microseconds and serialises in the chipset: with many
 * CPUs reading at once (HPET as clocksource on a big machine) they would
 * queue for seconds.  So one reader at a time goes to the hardware and
 * publishes what it read next to the lock, in one 64-bit word; readers
 * that find the lock taken wait for that value instead of reading
 * themselves.
 */
union hpet_shared_read {
	struct {
		arch_spinlock_t lock;
		u32 value;
	};
	u64 word;
};

static union hpet_shared_read hpet_last_read __cacheline_aligned = {
	{ .lock = __ARCH_SPIN_LOCK_UNLOCKED, },
};

static u64 hpet_cs_read(struct clocksource *cs)
{
	union hpet_shared_read seen, now;
	unsigned long flags;
	u32 value;

	BUILD_BUG_ON(sizeof(union hpet_shared_read) != sizeof(u64));

	/* An NMI may have interrupted the lock holder on this CPU. */
	if (in_nmi())
		return hpet_readl(HPET_COUNTER);

	seen.word = READ_ONCE(hpet_last_read.word);
	if (!arch_spin_is_locked(&seen.lock)) {
		local_irq_save(flags);
		if (arch_spin_trylock(&hpet_last_read.lock)) {
			value = hpet_readl(HPET_COUNTER);
			WRITE_ONCE(hpet_last_read.value, value);
			arch_spin_unlock(&hpet_last_read.lock);
			local_irq_restore(flags);
			return value;
		}
		local_irq_restore(flags);
	}
	/*
	 * Someone else is reading: their value is newer than our call once
	 * it differs from what we saw, or once they let go of the lock (the
	 * value we saw may already have been theirs).
	 */
	do {
		cpu_relax();
		now.word = READ_ONCE(hpet_last_read.word);
	} while (now.value == seen.value && arch_spin_is_locked(&now.lock));
	return now.value;
}
#else
static u64 hpet_cs_read(struct clocksource *cs)
{
	return hpet_readl(HPET_COUNTER);
}
#endif

/* After suspend the chipset may need the HPET turned back on. */
static void hpet_cs_resume(struct clocksource *cs)
{
	force_hpet_resume();
	hpet_counter_restart();
}

static struct clocksource hpet_clocksource = {
	.name	= "hpet",
	.rating	= 250,
	.read	= hpet_cs_read,
	.mask	= CLOCKSOURCE_MASK(32),
	.flags	= CLOCK_SOURCE_IS_CONTINUOUS,
	.resume	= hpet_cs_resume,
};

/* Checks before trusting the block. */

/*
 * AMD SB700 boards with spread spectrum emulate the HPET in SMM, which
 * comes up on the first access and reads all ones until then; an access
 * takes thousands of cycles, so a bounded number of reads is a wait.
 */
static bool __init hpet_cfg_readable(void)
{
	unsigned int tries;

	for (tries = 0; tries < 1000; tries++)
		if (hpet_readl(HPET_CFG) != U32_MAX)
			return true;
	pr_warn("Config register invalid. Disabling HPET\n");
	return false;
}

/* The counter moves within 200000 TSC cycles (50 us at 4 GHz). */
static bool __init hpet_counter_moves(void)
{
	u32 first;
	u64 t0;

	hpet_counter_restart();
	first = hpet_readl(HPET_COUNTER);
	t0 = rdtsc();
	while (rdtsc() - t0 < 200000)
		if (hpet_readl(HPET_COUNTER) != first)
			return true;
	pr_warn("Counter not counting. HPET disabled\n");
	return false;
}

/* Intel package C-state 10 is offered through MWAIT. */
static bool __init hpet_cpu_has_pc10(void)
{
	unsigned int eax, ebx, ecx, substates;

	if (boot_cpu_data.x86_vendor != X86_VENDOR_INTEL ||
	    !cpu_feature_enabled(X86_FEATURE_MWAIT) ||
	    boot_cpu_data.cpuid_level < CPUID_MWAIT_LEAF)
		return false;
	cpuid(CPUID_MWAIT_LEAF, &eax, &ebx, &ecx, &substates);
	if (!(ecx & CPUID5_ECX_EXTENSIONS_SUPPORTED) ||
	    !(ecx & CPUID5_ECX_INTERRUPT_BREAK))
		return false;
	return substates >> 28;
}

/*
 * The HPET stops counting in package C10.  When the CPU offers PC10 and
 * the package C-state limit allows it, do without the HPET (TSC and PM
 * timer calibrate as well) unless hpet=force insists.  Deliberately broad:
 * intel_idle, ACPI tables and C-state limits on the command line could
 * all keep PC10 away, but none of them is known this early.
 */
static bool __init hpet_lost_in_pc10(void)
{
	u64 pkg_cst;

	if (!hpet_cpu_has_pc10())
		return false;
	rdmsrl(MSR_PKG_CST_CONFIG_CONTROL, pkg_cst);
	if ((pkg_cst & 0xf) < 8)
		return false;
	if (!hpet_force_user) {
		pr_info("disabled: it stops counting in package C10 (hpet=force to keep it)\n");
		boot_hpet_disable = true;
		return true;
	}
	pr_warn("hpet=force: in use although it stops counting in package C10\n");
	return false;
}

/* Save, then clear what firmware left enabled; report bits we do not know. */
static void __init hpet_take_over_channels(void)
{
	const u32 known = HPET_TN_LEVEL | HPET_TN_ENABLE | HPET_TN_PERIODIC |
			  HPET_TN_PERIODIC_CAP | HPET_TN_64BIT_CAP | HPET_TN_32BIT |
			  HPET_TN_ROUTE | HPET_TN_FSB | HPET_TN_FSB_CAP;
	unsigned int i;
	u32 cfg;

	hpet_boot_cfg = hpet_readl(HPET_CFG);
	cfg = hpet_boot_cfg & ~(HPET_CFG_ENABLE | HPET_CFG_LEGACY);
	hpet_writel(cfg, HPET_CFG);
	if (cfg)
		pr_warn("Global config: Unknown bits %#x\n", cfg);

	for (i = 0; i < hpet_nr_chans; i++) {
		struct hpet_chan *hc = &hpet_chans[i];

		cfg = hpet_readl(HPET_Tn_CFG(i));
		hc->num = i;
		hc->boot_cfg = cfg;
		hc->irq = (cfg & HPET_TN_ROUTE) >> HPET_TN_ROUTE_SHIFT;
		hpet_writel(cfg & ~(HPET_TN_ENABLE | HPET_TN_LEVEL | HPET_TN_FSB),
			    HPET_Tn_CFG(i));
		if (cfg & ~known)
			pr_warn("Channel #%u config: Unknown bits %#x\n", i, cfg & ~known);
	}
}

static void __init hpet_forget(void)
{
	kfree(hpet_chans);
	hpet_chans = NULL;
	hpet_nr_chans = 0;
	iounmap(hpet_regs);
	hpet_regs = NULL;
	hpet_address = 0;
}

/**
 * hpet_enable() - take the HPET as clocksource and boot tick
 *
 * Called early in boot (time_init) with the address ACPI found.  Any check
 * that fails leaves the HPET alone, unmapped, and the PIT takes over.
 *
 * Return: 1 when channel 0 is the tick on IRQ0 (legacy replacement mode),
 * else 0 (the clocksource may still be registered).
 */
int __init hpet_enable(void)
{
	u32 period, id;

	if (!hpet_usable() || hpet_lost_in_pc10())
		return 0;
	hpet_regs = ioremap(hpet_address, HPET_MMAP_SIZE);
	if (!hpet_regs)
		return 0;
	if (!hpet_cfg_readable())
		goto fail;
	period = hpet_readl(HPET_PERIOD);
	if (!hpet_period_valid(period))
		goto fail;
	hpet_freq = hpet_freq_of(period);

	id = hpet_readl(HPET_ID);
	hpet_dump("enable");
	hpet_nr_chans = hpet_channels_of(id);
	/* The RTC emulation needs channel 1 next to the tick's channel 0. */
	if (IS_ENABLED(CONFIG_HPET_EMULATE_RTC) && hpet_nr_chans < 2)
		goto fail;
	hpet_chans = kcalloc(hpet_nr_chans, sizeof(*hpet_chans), GFP_KERNEL);
	if (!hpet_chans) {
		pr_warn("Disabling HPET.\n");
		goto fail;
	}
	hpet_take_over_channels();
	hpet_dump("taken over");
	/* Only now: a force-enabled HPET may start counting on being set up. */
	if (!hpet_counter_moves())
		goto fail;

	if (tsc_clocksource_watchdog_disabled())
		hpet_clocksource.flags |= CLOCK_SOURCE_MUST_VERIFY;
	clocksource_register_hz(&hpet_clocksource, (u32)hpet_freq);

	if (!(id & HPET_ID_LEGSUP))
		return 0;
	hpet_legacy_register(&hpet_chans[0]);
	if (IS_ENABLED(CONFIG_HPET_EMULATE_RTC))
		hpet_chans[1].role = HPET_ROLE_LEGACY;
	return 1;

fail:
	hpet_forget();
	return 0;
}

#ifdef CONFIG_HPET
/*
 * Hand the block to /dev/hpet: the channels it may use, and the ones the
 * kernel keeps (their bits in hd_state).  hd_irq[] names IO-APIC pins; for
 * channels 0 and 1 those are the legacy IRQ0/IRQ8 pins whatever firmware
 * routed (it rarely routes any).
 */
static void __init hpet_offer_device(void)
{
	struct hpet_data hd = {
		.hd_phys_address	= hpet_address,
		.hd_address		= hpet_regs,
		.hd_nirqs		= hpet_nr_chans,
	};
	unsigned int i;

	for (i = 0; i < hpet_nr_chans; i++) {
		struct hpet_chan *hc = &hpet_chans[i];

		hd.hd_irq[i] = i == 0 ? HPET_LEGACY_8254 :
			       i == 1 ? HPET_LEGACY_RTC : hc->irq;
		if (hc->role == HPET_ROLE_LEGACY || hc->role == HPET_ROLE_PERCPU)
			hpet_reserve_timer(&hd, i);
		else
			hc->role = HPET_ROLE_DEVICE;
	}
	hpet_alloc(&hd);
}
#else
static void __init hpet_offer_device(void)
{
}
#endif

/*
 * After the PCI quirks (which may have found an HPET to force on) and once
 * MSI works: the channels the legacy mode left free get their roles.
 */
static int __init hpet_late_init(void)
{
	enum hpet_role roles[HPET_MAX_TIMERS];
	u32 boot_cfg[HPET_MAX_TIMERS];
	struct hpet_role_plan plan = {
		.boot_cfg = boot_cfg,
		.want_device = IS_ENABLED(CONFIG_HPET),
	};
	unsigned int i, msi, percpu;

	if (!hpet_address && force_hpet_address) {
		hpet_address = force_hpet_address;
		hpet_enable();
	}
	if (!hpet_regs)
		return -ENODEV;

	plan.nr = hpet_nr_chans;
	plan.percpu_max = hpet_percpu_wanted();
	for (i = 0; i < hpet_nr_chans; i++) {
		roles[i] = hpet_chans[i].role;
		boot_cfg[i] = hpet_chans[i].boot_cfg;
	}
	percpu = hpet_plan_roles(&plan, roles);
	for (i = 0; i < hpet_nr_chans; i++)
		hpet_chans[i].role = roles[i];

	/* The log says what was set up, after a failure too. */
	if (percpu)
		percpu = hpet_percpu_prepare();
	if (hpet_percpu_wanted()) {
		for (i = 0, msi = 0; i < hpet_nr_chans; i++)
			msi += !!(hpet_chans[i].boot_cfg & HPET_TN_FSB_CAP);
		pr_info("per-CPU timers: %u of %u channels (%u can send MSIs)\n",
			percpu, hpet_nr_chans, msi);
	}
	hpet_offer_device();
	hpet_dump("late");
	return percpu ? hpet_percpu_start() : 0;
}
fs_initcall(hpet_late_init);

/**
 * hpet_disable() - give the block back as firmware set it up
 *
 * For kexec and reboot: the next kernel or the firmware finds the
 * configuration it expects, restarted only if it was running at boot.
 */
void hpet_disable(void)
{
	unsigned int i;

	if (!hpet_usable() || !hpet_regs)
		return;
	hpet_writel(hpet_boot_cfg & ~HPET_CFG_ENABLE, HPET_CFG);
	for (i = 0; i < hpet_nr_chans; i++)
		hpet_writel(hpet_chans[i].boot_cfg, HPET_Tn_CFG(i));
	if (hpet_boot_cfg & HPET_CFG_ENABLE)
		hpet_writel(hpet_boot_cfg, HPET_CFG);
}

#ifdef CONFIG_HPET_EMULATE_RTC
/*
 * The CMOS RTC's interrupts while legacy mode owns IRQ8: channel 1 fires
 * one-shot (its periodic mode is not universal) at 64 Hz, or at the
 * periodic rate asked for when that is faster, and the handler makes up
 * the update (once a second), alarm (time of day) and periodic interrupts
 * the RTC would have raised, for rtc-cmos's handler.
 */
#include <linux/mc146818rtc.h>
#include <linux/rtc.h>

#define HPET_RTC_POLL_HZ	64

/* State of the emulation: rtc-cmos calls in under its lock, and IRQ8. */
static struct {
	unsigned long enabled;		/* RTC_UIE | RTC_AIE | RTC_PIE */
	rtc_irq_handler handler;
	struct rtc_time alarm;
	int last_sec;			/* for the update interrupt; -1: unknown */
	u32 cmp;			/* channel 1's next match */
	u32 poll_delta;			/* cycles at HPET_RTC_POLL_HZ */
	u32 pie_delta;			/* cycles at the periodic rate, if faster */
	unsigned long pie_every;	/* else: a periodic interrupt every N polls */
	unsigned long pie_polls;
} hpet_rtc;

/**
 * hpet_rtc_advance() - the next comparator value ahead of the counter
 * @cmp: the last match, advanced in steps of @delta past @now
 * @delta: the step
 * @now: the counter
 *
 * Return: how many steps were skipped (interrupts lost) beyond the first.
 */
VISIBLE_IF_KUNIT unsigned int hpet_rtc_advance(u32 *cmp, u32 delta, u32 now)
{
	unsigned int steps = 0;

	do {
		*cmp += delta;
		steps++;
	} while ((s32)(*cmp - now) <= 0);
	return steps - 1;
}
EXPORT_SYMBOL_IF_KUNIT(hpet_rtc_advance);

static u32 hpet_rtc_step(void)
{
	bool fast_pie = (hpet_rtc.enabled & RTC_PIE) && !hpet_rtc.pie_every;

	return fast_pie ? hpet_rtc.pie_delta : hpet_rtc.poll_delta;
}

static void hpet_rtc_channel_off(void)
{
	hpet_cfg_update(HPET_T1_CFG, HPET_TN_ENABLE, 0);
}

/**
 * hpet_rtc_timer_init() - start channel 1 for the emulation
 *
 * Return: 1 when the emulation runs, 0 without legacy mode.
 */
int hpet_rtc_timer_init(void)
{
	struct clock_event_device *tick;
	unsigned long flags;
	bool on = is_hpet_enabled();

	if (on) {
		tick = &hpet_chans[0].ced;
		if (!hpet_rtc.poll_delta)
			hpet_rtc.poll_delta = hpet_cycles_of(NSEC_PER_SEC / HPET_RTC_POLL_HZ,
							     tick->mult, tick->shift);
		local_irq_save(flags);
		hpet_rtc.cmp = hpet_readl(HPET_COUNTER) + hpet_rtc_step();
		hpet_writel(hpet_rtc.cmp, HPET_T1_CMP);
		hpet_cfg_update(HPET_T1_CFG, HPET_TN_PERIODIC,
				HPET_TN_ENABLE | HPET_TN_32BIT);
		local_irq_restore(flags);
	}
	return on;
}
EXPORT_SYMBOL_GPL(hpet_rtc_timer_init);

/**
 * hpet_set_rtc_irq_bit() - start emulating some RTC interrupts
 * @bit_mask: RTC_UIE, RTC_AIE and/or RTC_PIE
 *
 * Return: 1 when the emulation handles it, 0 without legacy mode.
 */
int hpet_set_rtc_irq_bit(unsigned long bit_mask)
{
	unsigned long was = hpet_rtc.enabled;
	bool on = is_hpet_enabled();

	if (on) {
		hpet_rtc.enabled |= bit_mask;
		/* The first second seen only sets the reference for updates. */
		if ((bit_mask & RTC_UIE) && !(was & RTC_UIE))
			hpet_rtc.last_sec = -1;
		if (!was)
			hpet_rtc_timer_init();
	}
	return on;
}
EXPORT_SYMBOL_GPL(hpet_set_rtc_irq_bit);

/**
 * hpet_mask_rtc_irq_bit() - stop emulating some RTC interrupts
 * @bit_mask: RTC_UIE, RTC_AIE and/or RTC_PIE
 *
 * Return: 1 when the emulation handles it, 0 without legacy mode.
 */
int hpet_mask_rtc_irq_bit(unsigned long bit_mask)
{
	bool on = is_hpet_enabled();

	if (on) {
		hpet_rtc.enabled &= ~bit_mask;
		if (!hpet_rtc.enabled)
			hpet_rtc_channel_off();
	}
	return on;
}
EXPORT_SYMBOL_GPL(hpet_mask_rtc_irq_bit);

/**
 * hpet_set_alarm_time() - the time of day of the emulated alarm
 * @hrs: hour
 * @min: minute
 * @sec: second
 *
 * Return: 1 when the emulation handles it, 0 without legacy mode.
 */
int hpet_set_alarm_time(unsigned char hrs, unsigned char min, unsigned char sec)
{
	bool on = is_hpet_enabled();

	if (on)
		hpet_rtc.alarm = (struct rtc_time) {
			.tm_hour = hrs, .tm_min = min, .tm_sec = sec,
		};
	return on;
}
EXPORT_SYMBOL_GPL(hpet_set_alarm_time);

/**
 * hpet_set_periodic_freq() - the rate of the emulated periodic interrupt
 * @freq: in Hz, nonzero
 *
 * Up to the poll rate it is every Nth poll; above it channel 1 runs at
 * @freq itself.
 *
 * Return: 1 when the emulation handles it, 0 without legacy mode.
 */
int hpet_set_periodic_freq(unsigned long freq)
{
	struct clock_event_device *tick;
	bool on = is_hpet_enabled();

	if (on && freq > HPET_RTC_POLL_HZ) {
		tick = &hpet_chans[0].ced;
		hpet_rtc.pie_delta = hpet_cycles_of(div_u64(NSEC_PER_SEC, freq),
						    tick->mult, tick->shift);
		hpet_rtc.pie_every = 0;
	} else if (on) {
		hpet_rtc.pie_every = HPET_RTC_POLL_HZ / freq;
	}
	return on;
}
EXPORT_SYMBOL_GPL(hpet_set_periodic_freq);

/**
 * hpet_rtc_dropped_irq() - whether lost RTC interrupts are the emulation's
 *	business (rtc-cmos then leaves them alone)
 *
 * Return: nonzero with legacy mode.
 */
int hpet_rtc_dropped_irq(void)
{
	return is_hpet_enabled();
}
EXPORT_SYMBOL_GPL(hpet_rtc_dropped_irq);

/**
 * hpet_register_irq_handler() - take over the RTC interrupt
 * @handler: rtc-cmos's handler, called with the RTC's interrupt flags
 *
 * Return: 0, -ENODEV without legacy mode, -EBUSY when one is registered.
 */
int hpet_register_irq_handler(rtc_irq_handler handler)
{
	int err = is_hpet_enabled() ? 0 : -ENODEV;

	if (!err && hpet_rtc.handler)
		err = -EBUSY;
	if (!err)
		hpet_rtc.handler = handler;
	return err;
}
EXPORT_SYMBOL_GPL(hpet_register_irq_handler);

/**
 * hpet_unregister_irq_handler() - give the RTC interrupt back
 * @handler: the handler registered
 *
 * Every emulated interrupt stops with it.
 */
void hpet_unregister_irq_handler(rtc_irq_handler handler)
{
	if (is_hpet_enabled()) {
		hpet_rtc.handler = NULL;
		hpet_rtc.enabled = 0;
	}
}
EXPORT_SYMBOL_GPL(hpet_unregister_irq_handler);

/* Which RTC interrupt flags this poll raises. */
static unsigned long hpet_rtc_flags_now(unsigned int lost)
{
	unsigned long want = hpet_rtc.enabled, raised = 0;
	struct rtc_time now = {};

	if ((want & (RTC_UIE | RTC_AIE)) && mc146818_get_time(&now, 10) < 0) {
		pr_err_ratelimited("unable to read current time from RTC\n");
		return 0;
	}
	if ((want & RTC_UIE) && now.tm_sec != hpet_rtc.last_sec) {
		if (hpet_rtc.last_sec >= 0)
			raised |= RTC_UF;
		hpet_rtc.last_sec = now.tm_sec;
	}
	if (want & RTC_PIE) {
		hpet_rtc.pie_polls += lost + 1;
		if (hpet_rtc.pie_polls >= hpet_rtc.pie_every) {
			raised |= RTC_PF;
			hpet_rtc.pie_polls = 0;
		}
	}
	if ((want & RTC_AIE) && now.tm_hour == hpet_rtc.alarm.tm_hour &&
	    now.tm_min == hpet_rtc.alarm.tm_min && now.tm_sec == hpet_rtc.alarm.tm_sec)
		raised |= RTC_AF;
	return raised;
}

/**
 * hpet_rtc_interrupt() - IRQ8 while the HPET emulates the RTC
 * @irq: the interrupt
 * @dev_id: rtc-cmos's cookie, passed on
 *
 * Return: IRQ_HANDLED.
 */
irqreturn_t hpet_rtc_interrupt(int irq, void *dev_id)
{
	unsigned long raised;
	unsigned int lost;

	/*
	 * rtc-cmos starts the channel at probe with nothing enabled; the first
	 * interrupt stops it.  Late or not, nobody was waiting for it, so
	 * nothing was lost (6.12 warns when that interrupt comes late).
	 */
	if (!hpet_rtc.enabled) {
		hpet_rtc_channel_off();
		return IRQ_HANDLED;
	}
	/* Past the counter, checked after the write: a match behind it waits a wrap. */
	lost = hpet_rtc_advance(&hpet_rtc.cmp, hpet_rtc_step(), hpet_readl(HPET_COUNTER));
	hpet_writel(hpet_rtc.cmp, HPET_T1_CMP);
	while ((s32)(hpet_rtc.cmp - hpet_readl(HPET_COUNTER)) <= 0) {
		lost += 1 + hpet_rtc_advance(&hpet_rtc.cmp, hpet_rtc_step(),
					     hpet_readl(HPET_COUNTER));
		hpet_writel(hpet_rtc.cmp, HPET_T1_CMP);
	}
	if (lost)
		pr_warn_ratelimited("Lost %u RTC interrupts\n", lost);

	raised = hpet_rtc_flags_now(lost);
	/* One interrupt, as the RTC's status register would report it. */
	if (raised && hpet_rtc.handler)
		hpet_rtc.handler(raised | RTC_IRQF | (1 << 8), dev_id);
	return IRQ_HANDLED;
}
EXPORT_SYMBOL_GPL(hpet_rtc_interrupt);
#endif /* CONFIG_HPET_EMULATE_RTC */
