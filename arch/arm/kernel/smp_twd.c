// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-CPU timer of the ARM11 MPCore and Cortex-A5/A9 private timer
 * block (TWD): one 32-bit down-counter per CPU behind the same address,
 * raising a private peripheral interrupt when it reaches zero.
 *
 * Its input clock is the CPU's peripheral clock.  When the device tree
 * names that clock, its rate is used and followed across rate changes.
 * Otherwise the rate is measured against sched_clock(), which by
 * late_time_init reads the platform's free-running counter (the
 * timekeeper itself still runs on jiffies until the clocksources are
 * selected at fs_initcall): two back-to-back windows of TWD_CAL_NS, each
 * bounded by counter reads the clock brackets closely, must agree within
 * TWD_CAL_AGREE parts per thousand before the rate is trusted.  A rate
 * counted in jiffies, as the old calibration did, inherits every error of
 * the boot tick; under QEMU that came to 95.65 MHz for a timer that runs
 * at exactly 100 MHz, and every event fired 4.3 % early, costing a second
 * interrupt per tick.
 */
#include <linux/clk.h>
#include <linux/clockchips.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/irq.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/of_irq.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/sched/clock.h>

#include <asm/smp_twd.h>

/* One measuring window; two of them must agree. */
#define TWD_CAL_NS	(20 * NSEC_PER_MSEC)
/* The largest disagreement of the two windows, in parts per TWD_CAL_PARTS. */
#define TWD_CAL_AGREE	2
#define TWD_CAL_PARTS	1000
#define TWD_CAL_TRIES	5

/* The control word of a one-shot event, enable bit aside. */
#define TWD_CTRL_ONESHOT	(TWD_TIMER_CONTROL_IT_ENABLE | TWD_TIMER_CONTROL_ONESHOT)
#define TWD_CTRL_PERIODIC	(TWD_TIMER_CONTROL_ENABLE | TWD_TIMER_CONTROL_IT_ENABLE | \
				 TWD_TIMER_CONTROL_PERIODIC)

/*
 * Set once at boot (twd_of_init(), then twd_boot_cpu_setup() for a measured
 * rate) and read by every CPU afterwards; twd_rate changes only in
 * twd_follow_rate(), on each CPU for its own device.
 */
static void __iomem *twd_base;
static unsigned long twd_rate;
static struct clk *twd_clk;
static int twd_irq;
static unsigned int twd_features = CLOCK_EVT_FEAT_PERIODIC | CLOCK_EVT_FEAT_ONESHOT;

static struct clock_event_device __percpu *twd_ced;
/* A CPU's device has been filled in once; hotplug only re-registers it. */
static DEFINE_PER_CPU(bool, twd_ced_ready);

static inline void twd_write(u32 val, unsigned int reg)
{
	writel_relaxed(val, twd_base + reg);
}

static int twd_stop(struct clock_event_device *ced)
{
	twd_write(0, TWD_TIMER_CONTROL);
	return 0;
}

static int twd_oneshot(struct clock_event_device *ced)
{
	/* Armed by the first twd_next_event(). */
	twd_write(TWD_CTRL_ONESHOT, TWD_TIMER_CONTROL);
	return 0;
}

static int twd_periodic(struct clock_event_device *ced)
{
	twd_write(DIV_ROUND_CLOSEST(twd_rate, HZ), TWD_TIMER_LOAD);
	twd_write(TWD_CTRL_PERIODIC, TWD_TIMER_CONTROL);
	return 0;
}

/*
 * The control word is known in one-shot state, so no read of it is needed:
 * two writes per event.
 */
static int twd_next_event(unsigned long cycles, struct clock_event_device *ced)
{
	twd_write(cycles, TWD_TIMER_COUNTER);
	twd_write(TWD_CTRL_ONESHOT | TWD_TIMER_CONTROL_ENABLE, TWD_TIMER_CONTROL);
	return 0;
}

static irqreturn_t twd_interrupt(int irq, void *dev_id)
{
	struct clock_event_device *ced = dev_id;

	if (!readl_relaxed(twd_base + TWD_TIMER_INTSTAT))
		return IRQ_NONE;
	twd_write(1, TWD_TIMER_INTSTAT);
	clockevents_handle_event(ced);
	return IRQ_HANDLED;
}

/* One point of a window: the clock at the moment it moved, and the counter. */
struct twd_cal_point {
	u64 ns;
	u32 count;
};

/* Counter reads per point; the one the clock brackets closest is kept. */
#define TWD_CAL_READS	8

/*
 * Wait for the clock to move, then read the counter between two reads of
 * the clock, a few times, and keep the read with the narrowest bracket,
 * dated at its middle.  A sched_clock that counts jiffies (no counter
 * registered) gives an exact edge that way (its first bracket is empty)
 * rather than a point anywhere in its period.  Under emulation each read
 * is a trip to the device model, and a vCPU preempted between the clock
 * and the counter once put 3 us into a 20 ms window: a rate 162 ppm low,
 * every long sleep early by that much.
 */
static void __init twd_cal_take(struct twd_cal_point *p)
{
	u64 last = sched_clock(), before, after, best = U64_MAX;
	unsigned long flags;
	u32 count;
	int i;

	while (sched_clock() == last)
		cpu_relax();
	for (i = 0; i < TWD_CAL_READS; i++) {
		local_irq_save(flags);
		before = sched_clock();
		count = readl_relaxed(twd_base + TWD_TIMER_COUNTER);
		after = sched_clock();
		local_irq_restore(flags);
		if (after - before < best) {
			best = after - before;
			p->ns = before + best / 2;
			p->count = count;
		}
	}
}

/* Counts per second between two points (the counter runs down). */
static unsigned long __init twd_cal_rate(const struct twd_cal_point *a,
					 const struct twd_cal_point *b)
{
	u64 ns = b->ns - a->ns;

	if (!ns)
		return 0;
	return div64_u64((u64)(u32)(a->count - b->count) * NSEC_PER_SEC, ns);
}

static void __init twd_cal_wait(const struct twd_cal_point *from)
{
	while (sched_clock() - from->ns < TWD_CAL_NS)
		cpu_relax();
}

/* The rate of two agreeing windows, 0 when none agreed. */
static unsigned long __init twd_measure_rate(void)
{
	struct twd_cal_point a, b, c;
	unsigned long r1 = 0, r2 = 0;
	int i;

	/* Free-running from the top, no interrupt: 40 ms cannot run it out. */
	twd_write(U32_MAX, TWD_TIMER_LOAD);
	twd_write(U32_MAX, TWD_TIMER_COUNTER);
	twd_write(TWD_TIMER_CONTROL_ENABLE | TWD_TIMER_CONTROL_PERIODIC, TWD_TIMER_CONTROL);
	for (i = 0; i < TWD_CAL_TRIES; i++) {
		twd_cal_take(&a);
		twd_cal_wait(&a);
		twd_cal_take(&b);
		twd_cal_wait(&b);
		twd_cal_take(&c);
		r1 = twd_cal_rate(&a, &b);
		r2 = twd_cal_rate(&b, &c);
		if (r1 && abs_diff(r1, r2) <= r1 / TWD_CAL_PARTS * TWD_CAL_AGREE)
			break;
	}
	twd_write(0, TWD_TIMER_CONTROL);
	if (i == TWD_CAL_TRIES) {
		pr_err("twd: rate not steady against sched_clock (%lu and %lu Hz), not used\n",
		       r1, r2);
		return 0;
	}
	pr_info("twd: %lu.%06lu MHz, measured against sched_clock over 2 x %u ms\n",
		(r1 + r2) / 2 / 1000000, (r1 + r2) / 2 % 1000000,
		(unsigned int)(TWD_CAL_NS / NSEC_PER_MSEC));
	return (r1 + r2) / 2;
}

/* Register this CPU's device: filled in the first time, reused after. */
static void twd_cpu_setup(void)
{
	struct clock_event_device *ced = this_cpu_ptr(twd_ced);
	unsigned int cpu = smp_processor_id();

	twd_write(0, TWD_TIMER_CONTROL);
	if (per_cpu(twd_ced_ready, cpu)) {
		clockevents_register_device(ced);
	} else {
		ced->name = "local_timer";
		ced->features = twd_features;
		ced->rating = 350;
		ced->irq = twd_irq;
		ced->cpumask = cpumask_of(cpu);
		ced->set_state_shutdown = twd_stop;
		ced->set_state_oneshot = twd_oneshot;
		ced->set_state_periodic = twd_periodic;
		ced->set_next_event = twd_next_event;
		ced->tick_resume = twd_stop;
		per_cpu(twd_ced_ready, cpu) = true;
		clockevents_config_and_register(ced, twd_rate, 0xf, U32_MAX);
	}
	enable_percpu_irq(twd_irq, IRQ_TYPE_NONE);
}

static int twd_starting_cpu(unsigned int cpu)
{
	if (twd_rate)
		twd_cpu_setup();
	return 0;
}

static int twd_dying_cpu(unsigned int cpu)
{
	if (twd_rate) {
		twd_stop(this_cpu_ptr(twd_ced));
		disable_percpu_irq(twd_irq);
	}
	return 0;
}

/*
 * late_time_init: sched_clock runs now, so the rate can be measured
 * before the boot CPU's device registers.  A rate that would not settle
 * leaves every CPU without a TWD (twd_rate 0): the tick falls back to the
 * broadcast device rather than run on a conversion known to be wrong.
 */
static void __init twd_boot_cpu_setup(void)
{
	if (!twd_rate)
		twd_rate = twd_measure_rate();
	if (twd_rate)
		twd_cpu_setup();
}

/* Runs on each CPU for its own device, with interrupts off. */
static void twd_follow_rate(void *rate)
{
	twd_rate = *(unsigned long *)rate;
	clockevents_update_freq(this_cpu_ptr(twd_ced), twd_rate);
}

static int twd_clk_changed(struct notifier_block *nb, unsigned long event, void *data)
{
	struct clk_notifier_data *cnd = data;

	if (event == POST_RATE_CHANGE)
		on_each_cpu(twd_follow_rate, &cnd->new_rate, 1);
	return NOTIFY_OK;
}

static struct notifier_block twd_clk_nb = {
	.notifier_call = twd_clk_changed,
};

/* The clock framework takes notifiers only once it is up. */
static int __init twd_clk_notifier_init(void)
{
	if (!twd_ced || IS_ERR_OR_NULL(twd_clk))
		return 0;
	return clk_notifier_register(twd_clk, &twd_clk_nb);
}
core_initcall(twd_clk_notifier_init);

/* The rate of the clock the device tree gives, 0 without one. */
static unsigned long __init twd_clk_rate(struct device_node *np)
{
	struct clk *clk = of_clk_get(np, 0);
	int err;

	if (IS_ERR(clk)) {
		pr_info("twd: no clock in %pOF (%ld), measuring the rate\n", np, PTR_ERR(clk));
		return 0;
	}
	err = clk_prepare_enable(clk);
	if (err) {
		pr_err("twd: clock of %pOF would not enable (%d), measuring the rate\n", np, err);
		clk_put(clk);
		return 0;
	}
	twd_clk = clk;
	return clk_get_rate(clk);
}

static int __init twd_of_init(struct device_node *np)
{
	int err;

	twd_irq = irq_of_parse_and_map(np, 0);
	if (!twd_irq) {
		pr_err("twd: %pOF: no interrupt\n", np);
		return -EINVAL;
	}
	twd_base = of_iomap(np, 0);
	if (!twd_base) {
		pr_err("twd: %pOF: cannot map registers\n", np);
		return -ENOMEM;
	}
	twd_ced = alloc_percpu(struct clock_event_device);
	if (!twd_ced) {
		err = -ENOMEM;
		goto unmap;
	}
	err = request_percpu_irq(twd_irq, twd_interrupt, "twd", twd_ced);
	if (err) {
		pr_err("twd: %pOF: interrupt %d refused (%d)\n", np, twd_irq, err);
		goto free;
	}
	/* Only an always-on block keeps counting in the CPU's deep idle states. */
	if (!of_property_read_bool(np, "always-on"))
		twd_features |= CLOCK_EVT_FEAT_C3STOP;
	cpuhp_setup_state_nocalls(CPUHP_AP_ARM_TWD_STARTING, "arm/timer/twd:starting",
				  twd_starting_cpu, twd_dying_cpu);
	twd_rate = twd_clk_rate(np);
	if (twd_rate)
		twd_cpu_setup();
	else
		late_time_init = twd_boot_cpu_setup;
	return 0;
free:
	free_percpu(twd_ced);
	twd_ced = NULL;
unmap:
	iounmap(twd_base);
	twd_base = NULL;
	return err;
}

TIMER_OF_DECLARE(arm_twd_a9, "arm,cortex-a9-twd-timer", twd_of_init);
TIMER_OF_DECLARE(arm_twd_a5, "arm,cortex-a5-twd-timer", twd_of_init);
TIMER_OF_DECLARE(arm_twd_11mp, "arm,arm11mp-twd-timer", twd_of_init);
