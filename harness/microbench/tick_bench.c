// SPDX-License-Identifier: GPL-2.0
/*
 * make bench's hot-path probe.  Not part of the series: the harness adds this
 * file and an obj-y line to copies of both trees (harness/lib-bench.sh) and
 * builds bench kernels from them, so ours and upstream run the same code.
 *
 * With "tick_bench" on the command line it waits until the tick layer has
 * settled (oneshot mode, broadcast device set up), then prints, in cycles per
 * call (get_cycles()), the median over TB_RUNS runs of TB_CALLS calls each:
 *
 *   program-event:  clockevents_program_event() on a fake oneshot device of
 *                   its own, never registered, 1 ms ahead, not forced;
 *   broadcast-pair: tick_broadcast_enter() + tick_broadcast_exit() on the
 *                   CPU the work runs on (when its tick device does not stop
 *                   in deep idle both return at once, which it says).
 *
 * Each run has interrupts off; nothing outside the fake device is left
 * changed (the pair leaves the CPU as it found it).
 *
 * With "tick_count" on the command line it counts, from the same moment on,
 * what the tick layer makes the hardware do, the same way on both kernels:
 * it wraps the ->set_next_event() of every CPU's tick device and of the
 * broadcast device (device programmings, failed ones included, as each is
 * a write), and the ->broadcast() of every CPU's tick device (broadcast
 * IPIs, one per CPU in the mask).  It also counts early events: a device
 * programmed from interrupt context before the time its last programming
 * should have fired, for that same time again (within two of its ticks),
 * is one whose event came early and found nothing due, as
 * hrtimer_interrupt() re-arms it then; a timer added by an interrupt
 * aims earlier and is not counted.  /proc/tick_count prints the running
 * totals on one line:
 *
 *   bc=N ipi=N early=N cpu0=N cpu1=N ...
 *
 * The wrappers only count and call the driver's function; a device that
 * registers later is not counted (the bench boots do no hotplug).
 */
#include <linux/clockchips.h>
#include <linux/cpu.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/sort.h>
#include <linux/tick.h>
#include <linux/timex.h>
#include <linux/workqueue.h>

#include "tick-internal.h"

#define TB_RUNS		31
#define TB_CALLS	200
#define TB_DELAY_MS	3000

static bool tb_enabled;
static bool tc_enabled;

static int __init tb_setup(char *arg)
{
	tb_enabled = true;
	return 1;
}
__setup("tick_bench", tb_setup);

static int __init tc_setup(char *arg)
{
	tc_enabled = true;
	return 1;
}
__setup("tick_count", tc_setup);

/* One wrapped device: its driver's functions and what they were asked. */
struct tc_dev {
	struct clock_event_device *dev;
	int (*set_next_event)(unsigned long delta, struct clock_event_device *dev);
	void (*broadcast)(const struct cpumask *mask);
	atomic_long_t writes;
	ktime_t due;		/* when the last programming should fire */
};

/* Slot i < nr_cpu_ids: CPU i's tick device; slot nr_cpu_ids: the broadcast's. */
static struct tc_dev tc_devs[NR_CPUS + 1];
static atomic_long_t tc_ipis;
static atomic_long_t tc_early;

static struct tc_dev *tc_find(struct clock_event_device *dev)
{
	int i;

	for (i = 0; i <= nr_cpu_ids; i++)
		if (tc_devs[i].dev == dev)
			return &tc_devs[i];
	return NULL;
}

/* The early-event rule above, for a programming @delta ticks from now. */
static void tc_note_due(struct tc_dev *t, struct clock_event_device *dev, unsigned long delta)
{
	ktime_t now = ktime_get(), due;
	u64 tick_ns = dev->mult ? mul_u64_u64_div_u64(1, 1ULL << dev->shift, dev->mult) : 0;

	if (!dev->mult)
		return;
	due = ktime_add_ns(now, mul_u64_u64_div_u64(delta, 1ULL << dev->shift, dev->mult));
	if (in_hardirq() && t->due && ktime_before(ktime_add_us(now, 5), t->due) &&
	    abs(ktime_sub(due, t->due)) <= 2 * tick_ns + 1000)
		atomic_long_inc(&tc_early);
	t->due = due;
}

static int tc_set_next_event(unsigned long delta, struct clock_event_device *dev)
{
	struct tc_dev *t = tc_find(dev);

	atomic_long_inc(&t->writes);
	tc_note_due(t, dev, delta);
	return t->set_next_event(delta, dev);
}

/* Every CPU's device has the arch's IPI function: the first one's serves. */
static void tc_broadcast(const struct cpumask *mask)
{
	int i;

	atomic_long_add(cpumask_weight(mask), &tc_ipis);
	for (i = 0; i < nr_cpu_ids; i++) {
		if (tc_devs[i].broadcast) {
			tc_devs[i].broadcast(mask);
			return;
		}
	}
}

/* Wrap @dev into @t; a device another slot already wraps is skipped. */
static void tc_wrap(struct tc_dev *t, struct clock_event_device *dev)
{
	if (!dev || tc_find(dev))
		return;
	t->set_next_event = dev->set_next_event;
	t->broadcast = dev->broadcast;
	t->dev = dev;
	/* A wrapper that runs finds its slot filled in. */
	smp_wmb();
	if (dev->set_next_event)
		WRITE_ONCE(dev->set_next_event, tc_set_next_event);
	if (dev->broadcast)
		WRITE_ONCE(dev->broadcast, tc_broadcast);
}

static int tc_show(struct seq_file *m, void *v)
{
	int i;

	seq_printf(m, "bc=%ld ipi=%ld early=%ld", atomic_long_read(&tc_devs[nr_cpu_ids].writes),
		   atomic_long_read(&tc_ipis), atomic_long_read(&tc_early));
	for_each_possible_cpu(i)
		seq_printf(m, " cpu%d=%ld", i, atomic_long_read(&tc_devs[i].writes));
	seq_putc(m, '\n');
	return 0;
}

static void tc_work_fn(struct work_struct *work)
{
	int cpu;

	cpus_read_lock();
#ifdef CONFIG_GENERIC_CLOCKEVENTS_BROADCAST
	tc_wrap(&tc_devs[nr_cpu_ids], tick_get_broadcast_device()->evtdev);
#endif
	for_each_online_cpu(cpu)
		tc_wrap(&tc_devs[cpu], tick_get_device(cpu)->evtdev);
	cpus_read_unlock();
	proc_create_single("tick_count", 0444, NULL, tc_show);
	pr_info("tick-count: counting device writes and broadcast IPIs\n");
}

static DECLARE_DELAYED_WORK(tc_work, tc_work_fn);

static int tb_set_next_event(unsigned long delta, struct clock_event_device *dev)
{
	return 0;
}

static struct clock_event_device tb_dev = {
	.name		= "tick_bench",
	.features	= CLOCK_EVT_FEAT_ONESHOT,
	.set_next_event	= tb_set_next_event,
};

static u64 tb_runs[TB_RUNS];

static int tb_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void tb_program_event(void)
{
	clockevents_program_event(&tb_dev, ktime_add_ns(ktime_get(), NSEC_PER_MSEC), false);
}

/*
 * The exit follows even a refused entry.  cpuidle skips it then, as the
 * CPU is about to take the broadcast IPI in idle, where irq_enter() restarts
 * its device; this work runs outside idle, where nothing would.
 */
static void tb_broadcast_pair(void)
{
	tick_broadcast_enter();
	tick_broadcast_exit();
}

/* Median cycles per call of @fn over TB_RUNS runs, interrupts off in each. */
static u64 tb_median(void (*fn)(void))
{
	unsigned long flags;
	cycles_t t0, t1;
	int run, i;

	for (run = 0; run < TB_RUNS; run++) {
		local_irq_save(flags);
		t0 = get_cycles();
		for (i = 0; i < TB_CALLS; i++)
			fn();
		t1 = get_cycles();
		local_irq_restore(flags);
		tb_runs[run] = div_u64(t1 - t0, TB_CALLS);
	}
	sort(tb_runs, TB_RUNS, sizeof(tb_runs[0]), tb_cmp, NULL);
	return tb_runs[TB_RUNS / 2];
}

static void tb_work_fn(struct work_struct *work)
{
	struct clock_event_device *td = tick_get_device(smp_processor_id())->evtdev;
	bool stops = td && (td->features & CLOCK_EVT_FEAT_C3STOP);

	clockevents_calc_mult_shift(&tb_dev, NSEC_PER_SEC, 10);
	tb_dev.min_delta_ns = 1000;
	tb_dev.max_delta_ns = NSEC_PER_SEC;
	tb_dev.min_delta_ticks = 1000;
	tb_dev.max_delta_ticks = NSEC_PER_SEC;
	clockevent_set_state(&tb_dev, CLOCK_EVT_STATE_ONESHOT);

	pr_info("tick-bench: program-event %llu cycles/call (median of %d x %d)\n",
		tb_median(tb_program_event), TB_RUNS, TB_CALLS);
	pr_info("tick-bench: broadcast-pair %llu cycles/call (median of %d x %d; cpu%d %s)\n",
		tb_median(tb_broadcast_pair), TB_RUNS, TB_CALLS, smp_processor_id(),
		stops ? "tick device stops in deep idle" : "tick device keeps running: no broadcast");
}

static DECLARE_DELAYED_WORK(tb_work, tb_work_fn);

static int __init tb_init(void)
{
	if (tb_enabled)
		schedule_delayed_work_on(0, &tb_work, msecs_to_jiffies(TB_DELAY_MS));
	if (tc_enabled)
		schedule_delayed_work_on(0, &tc_work, msecs_to_jiffies(TB_DELAY_MS));
	return 0;
}
late_initcall(tb_init);
