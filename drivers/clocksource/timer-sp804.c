// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ARM SP804 dual timer as clocksource, sched_clock and clock event device.
 *
 * One half of the block counts down freely and is read as the clocksource
 * and sched_clock; the other raises the tick, periodic or one-shot.  The
 * "arm,sp804-has-irq" property says which half has its interrupt wired.
 *
 * A node is taken whole or not at all: every clock and the interrupt are
 * acquired before anything is registered, because nothing can take a
 * clock event device back once the tick layer may have picked it.  Only
 * the first node that comes up is used; the rest stay quiet.
 *
 * The Integrator/CP has three single timers with these registers, one node
 * each: the first becomes the clocksource, the second the event device.
 */
#define pr_fmt(fmt) "sp804: " fmt

#include <kunit/visibility.h>
#include <linux/clk.h>
#include <linux/clocksource.h>
#include <linux/io.h>
#include <linux/minmax.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/of_clk.h>
#include <linux/of_irq.h>
#include <linux/sched_clock.h>

#include "timer-sp.h"

#define SP804_EVENT_RATING	300
#define SP804_CS_RATING		200
/*
 * LOAD is relative, so a short delta cannot land in the past the way a
 * compare value can, and the driver never returns -ETIME (so the core
 * never raises this floor).  The floor is then what the interrupt path
 * needs between two events: 15 counts, 15 us at the usual 1 MHz, the
 * value 6.12 has used on these boards for years.
 */
#define SP804_MIN_DELTA		0xf
#define SP804_MAX_DELTA		U32_MAX

VISIBLE_IF_KUNIT const struct sp804_layout sp804_arm_layout = {
	.half	= { 0x00, 0x20 },
	.load	= 0x00,
	.value	= 0x04,
	.ctrl	= 0x08,
	.intclr	= 0x0c,
	.mis	= 0x14,
};
EXPORT_SYMBOL_IF_KUNIT(sp804_arm_layout);

VISIBLE_IF_KUNIT const struct sp804_layout sp804_hisi_layout = {
	.half		= { 0x00, 0x40 },
	.load		= 0x00,
	.load_hi	= 0x04,
	.value		= 0x08,
	.value_hi	= 0x0c,
	.ctrl		= 0x10,
	.intclr		= 0x14,
	.mis		= 0x1c,
};
EXPORT_SYMBOL_IF_KUNIT(sp804_hisi_layout);

/* The one event device and the counter sched_clock reads. */
static struct sp804_event sp804_event;
static void __iomem *sp804_sched_counter;

/* A clock feeding one half, enabled, with its rate. */
struct sp804_clock {
	struct clk *clk;
	unsigned long rate;
};

/**
 * sp804_ctrl_word() - control register value for a use of a half
 * @use: free-running counter, periodic tick or one-shot event
 *
 * The prescaler field is always written as zero (divide by one) rather than
 * kept: firmware may leave a divider there, and every rate this driver
 * computes assumes the counter runs at the input clock.
 *
 * Return: the value to write to the control register.
 */
VISIBLE_IF_KUNIT u32 sp804_ctrl_word(enum sp804_use use)
{
	u32 ctrl = SP804_CTRL_32BIT | SP804_CTRL_ENABLE;

	switch (use) {
	case SP804_PERIODIC:
		return ctrl | SP804_CTRL_PERIODIC | SP804_CTRL_IE;
	case SP804_ONESHOT:
		return ctrl | SP804_CTRL_ONESHOT | SP804_CTRL_IE;
	case SP804_FREE_RUN:
		break;
	}
	return ctrl;
}
EXPORT_SYMBOL_IF_KUNIT(sp804_ctrl_word);

/**
 * sp804_period_of() - LOAD value for one tick at HZ
 * @rate: counter input in Hz
 *
 * Return: the nearest whole number of counts, at least one.
 */
VISIBLE_IF_KUNIT u32 sp804_period_of(unsigned long rate)
{
	return clamp_val(DIV_ROUND_CLOSEST(rate, HZ), 1, U32_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(sp804_period_of);

/**
 * sp804_event_half() - which half raises the tick
 * @has_prop: the node has "arm,sp804-has-irq"
 * @has_irq: its value, the number (1 or 2) of the half whose line is wired
 *
 * Return: 1 for the second half, else 0: a value that names no half falls
 * back to the first, as in 6.12 (the probe warns).
 */
VISIBLE_IF_KUNIT int sp804_event_half(bool has_prop, u32 has_irq)
{
	return has_prop && has_irq == 2;
}
EXPORT_SYMBOL_IF_KUNIT(sp804_event_half);

/**
 * sp804_clock_index() - which of the node's clocks feeds a half
 * @nr_clocks: how many clocks the node lists
 * @half: 0 or 1
 *
 * Three clocks are one per half plus the bus clock; with fewer, the first
 * feeds both halves.
 *
 * Return: the index to look up.
 */
VISIBLE_IF_KUNIT int sp804_clock_index(int nr_clocks, int half)
{
	return nr_clocks == 3 ? half : 0;
}
EXPORT_SYMBOL_IF_KUNIT(sp804_clock_index);

static struct sp804_event *to_sp804(struct clock_event_device *ced)
{
	return container_of(ced, struct sp804_event, ced);
}

static void sp804_set(const struct sp804_event *ev, u16 reg, u32 val)
{
	writel(val, ev->base + reg);
}

/*
 * Also acknowledges an expiry the device raised before it was stopped, so
 * that the next mode does not begin with a stale interrupt (in periodic
 * mode that would be a tick too many).
 */
static int sp804_event_stop(struct clock_event_device *ced)
{
	struct sp804_event *ev = to_sp804(ced);

	sp804_set(ev, ev->regs->ctrl, 0);
	sp804_set(ev, ev->regs->intclr, 1);
	return 0;
}

static int sp804_event_periodic(struct clock_event_device *ced)
{
	struct sp804_event *ev = to_sp804(ced);

	sp804_event_stop(ced);
	sp804_set(ev, ev->regs->load, ev->period);
	sp804_set(ev, ev->regs->ctrl, sp804_ctrl_word(SP804_PERIODIC));
	return 0;
}

static int sp804_event_next(unsigned long ticks, struct clock_event_device *ced)
{
	struct sp804_event *ev = to_sp804(ced);

	/* The control write restarts a one-shot that halted at zero. */
	sp804_set(ev, ev->regs->load, ticks);
	sp804_set(ev, ev->regs->ctrl, sp804_ctrl_word(SP804_ONESHOT));
	return 0;
}

/**
 * sp804_event_irq() - interrupt handler of the event half
 * @irq: its interrupt
 * @dev_id: the &struct sp804_event
 *
 * Return: IRQ_NONE when the half has nothing pending (the line is shared,
 * or the device was stopped after raising it), else IRQ_HANDLED.
 */
VISIBLE_IF_KUNIT irqreturn_t sp804_event_irq(int irq, void *dev_id)
{
	struct sp804_event *ev = dev_id;

	if (!(readl(ev->base + ev->regs->mis) & 1))
		return IRQ_NONE;
	sp804_set(ev, ev->regs->intclr, 1);
	clockevents_handle_event(&ev->ced);
	return IRQ_HANDLED;
}
EXPORT_SYMBOL_IF_KUNIT(sp804_event_irq);

/**
 * sp804_event_fill() - describe a half as a clock event device
 * @ev: the device to fill; not yet registered
 * @block: the mapped registers of the whole timer
 * @regs: the variant's register offsets
 * @half: which half (0 or 1)
 * @rate: its input clock in Hz
 * @name: the device name
 * @irq: its interrupt
 */
VISIBLE_IF_KUNIT void sp804_event_fill(struct sp804_event *ev, void __iomem *block,
				       const struct sp804_layout *regs, int half,
				       unsigned long rate, const char *name, int irq)
{
	ev->base = block + regs->half[half];
	ev->regs = regs;
	ev->period = sp804_period_of(rate);
	ev->ced = (struct clock_event_device) {
		.name			= name,
		.features		= CLOCK_EVT_FEAT_PERIODIC |
					  CLOCK_EVT_FEAT_ONESHOT |
					  CLOCK_EVT_FEAT_DYNIRQ,
		.rating			= SP804_EVENT_RATING,
		.irq			= irq,
		.cpumask		= cpu_possible_mask,
		.set_next_event		= sp804_event_next,
		.set_state_periodic	= sp804_event_periodic,
		.set_state_oneshot	= sp804_event_stop,
		.set_state_oneshot_stopped = sp804_event_stop,
		.set_state_shutdown	= sp804_event_stop,
		.tick_resume		= sp804_event_stop,
		.min_delta_ticks	= SP804_MIN_DELTA,
		.max_delta_ticks	= SP804_MAX_DELTA,
	};
}
EXPORT_SYMBOL_IF_KUNIT(sp804_event_fill);

static u64 notrace sp804_sched_read(void)
{
	return ~readl_relaxed(sp804_sched_counter);
}

/* Stop a half and clear what it may have raised before we came. */
static void __init sp804_quiesce(void __iomem *half, const struct sp804_layout *regs)
{
	writel(0, half + regs->ctrl);
	writel(1, half + regs->intclr);
}

static int __init sp804_clock_get(struct device_node *np, int index,
				  const char *name, struct sp804_clock *c)
{
	struct clk *clk = of_clk_get(np, index);
	int err;

	/* Boards that predate DT clocks name the clock in a clkdev lookup. */
	if (IS_ERR(clk))
		clk = clk_get_sys("sp804", name);
	if (IS_ERR(clk)) {
		pr_err("%pOF: no clock %d: %pe\n", np, index, clk);
		return PTR_ERR(clk);
	}
	err = clk_prepare_enable(clk);
	if (err) {
		pr_err("%pOF: clock %d cannot be enabled: %d\n", np, index, err);
		clk_put(clk);
		return err;
	}
	c->rate = clk_get_rate(clk);
	c->clk = clk;
	if (!c->rate) {
		pr_err("%pOF: clock %d has no rate\n", np, index);
		return -EINVAL;
	}
	return 0;
}

static void __init sp804_clock_put(struct sp804_clock *c)
{
	if (IS_ERR_OR_NULL(c->clk))
		return;
	clk_disable_unprepare(c->clk);
	clk_put(c->clk);
	c->clk = NULL;
}

/* Start a half counting down from all ones, forever. */
static int __init sp804_counter_start(void __iomem *half,
				      const struct sp804_layout *regs,
				      unsigned long rate, const char *name,
				      bool sched)
{
	int err;

	if (regs->load_hi)
		writel(U32_MAX, half + regs->load_hi);
	writel(U32_MAX, half + regs->load);
	writel(sp804_ctrl_word(SP804_FREE_RUN), half + regs->ctrl);

	err = clocksource_mmio_init(half + regs->value, name, rate,
				    SP804_CS_RATING, 32,
				    clocksource_mmio_readl_down);
	if (err) {
		writel(0, half + regs->ctrl);
		return err;
	}
	if (sched) {
		sp804_sched_counter = half + regs->value;
		sched_clock_register(sp804_sched_read, 32, rate);
	}
	return 0;
}

/*
 * Take the interrupt for the event half.  The half is stopped, so nothing
 * can reach the handler before the tick layer installs its own.
 */
static int __init sp804_event_claim(struct device_node *np, void __iomem *block,
				    const struct sp804_layout *regs, int half,
				    unsigned long rate, const char *name)
{
	unsigned int irq = irq_of_parse_and_map(np, 0);
	int err;

	if (!irq) {
		pr_err("%pOF: no interrupt\n", np);
		return -EINVAL;
	}
	sp804_event_fill(&sp804_event, block, regs, half, rate, name, irq);
	if (regs->load_hi)
		writel(0, sp804_event.base + regs->load_hi);
	err = request_irq(irq, sp804_event_irq, IRQF_TIMER | IRQF_IRQPOLL,
			  "timer", &sp804_event);
	if (err) {
		pr_err("%pOF: interrupt %u unavailable: %d\n", np, irq, err);
		irq_dispose_mapping(irq);
	}
	return err;
}

static void __init sp804_event_release(void)
{
	free_irq(sp804_event.ced.irq, &sp804_event);
	irq_dispose_mapping(sp804_event.ced.irq);
}

static void __init sp804_event_start(unsigned long rate)
{
	clockevents_config_and_register(&sp804_event.ced, rate, sp804_event.ced.min_delta_ticks,
					sp804_event.ced.max_delta_ticks);
}

static int __init sp804_dual_probe(struct device_node *np,
				   const struct sp804_layout *regs)
{
	static bool taken;
	const char *name = of_get_property(np, "compatible", NULL);
	struct sp804_clock clk_ev = {}, clk_cs = {};
	int ev_half, cs_half, nr_clocks, err;
	void __iomem *block;
	u32 has_irq = 0;
	bool has_prop;

	if (taken) {
		pr_debug("%pOF: not needed, a timer is already in use\n", np);
		return 0;
	}
	has_prop = !of_property_read_u32(np, "arm,sp804-has-irq", &has_irq);
	if (has_prop && has_irq != 1 && has_irq != 2)
		pr_warn("%pOF: arm,sp804-has-irq = %u names no timer, using timer 1\n",
			np, has_irq);
	ev_half = sp804_event_half(has_prop, has_irq);
	cs_half = !ev_half;

	block = of_iomap(np, 0);
	if (!block) {
		pr_err("%pOF: registers cannot be mapped\n", np);
		return -ENXIO;
	}
	sp804_quiesce(block + regs->half[0], regs);
	sp804_quiesce(block + regs->half[1], regs);

	nr_clocks = of_clk_get_parent_count(np);
	err = sp804_clock_get(np, sp804_clock_index(nr_clocks, ev_half), name, &clk_ev);
	if (!err)
		err = sp804_clock_get(np, sp804_clock_index(nr_clocks, cs_half),
				      name, &clk_cs);
	if (!err)
		err = sp804_event_claim(np, block, regs, ev_half, clk_ev.rate, name);
	if (err)
		goto fail;
	err = sp804_counter_start(block + regs->half[cs_half], regs, clk_cs.rate,
				  name, true);
	if (err) {
		pr_err("%pOF: clocksource not registered: %d\n", np, err);
		sp804_event_release();
		goto fail;
	}
	sp804_event_start(clk_ev.rate);
	taken = true;
	pr_info("%pOF: events on timer %d (irq %d, %lu Hz), clocksource on timer %d\n",
		np, ev_half + 1, sp804_event.ced.irq, clk_ev.rate, cs_half + 1);
	return 0;

fail:
	sp804_clock_put(&clk_cs);
	sp804_clock_put(&clk_ev);
	iounmap(block);
	return err;
}

static int __init sp804_arm_probe(struct device_node *np)
{
	return sp804_dual_probe(np, &sp804_arm_layout);
}

TIMER_OF_DECLARE(sp804, "arm,sp804", sp804_arm_probe);

static int __init sp804_hisi_probe(struct device_node *np)
{
	return sp804_dual_probe(np, &sp804_hisi_layout);
}

TIMER_OF_DECLARE(hisi_sp804, "hisilicon,sp804", sp804_hisi_probe);

/*
 * Integrator/CP: each node is one timer.  Its sched_clock comes from the
 * system registers' 24 MHz counter, not from here.
 */
static int __init sp804_intcp_probe(struct device_node *np)
{
	static int used;
	const char *name = of_get_property(np, "compatible", NULL);
	const struct sp804_layout *regs = &sp804_arm_layout;
	struct sp804_clock clk = {};
	void __iomem *base;
	int err;

	base = of_iomap(np, 0);
	if (!base) {
		pr_err("%pOF: registers cannot be mapped\n", np);
		return -ENXIO;
	}
	/* Every timer is stopped, the third too, which nothing uses (as 6.12). */
	sp804_quiesce(base, regs);
	if (used == 2 || !of_device_is_available(np)) {
		pr_debug("%pOF: left unused\n", np);
		iounmap(base);
		return 0;
	}
	err = sp804_clock_get(np, 0, name, &clk);
	if (err)
		goto fail;

	if (!used)
		err = sp804_counter_start(base, regs, clk.rate, name, false);
	else
		err = sp804_event_claim(np, base, regs, 0, clk.rate, name);
	if (err)
		goto fail;
	if (used)
		sp804_event_start(clk.rate);
	used++;
	return 0;

fail:
	sp804_clock_put(&clk);
	iounmap(base);
	return err;
}

TIMER_OF_DECLARE(intcp, "arm,integrator-cp-timer", sp804_intcp_probe);
