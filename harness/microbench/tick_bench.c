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
 */
#include <linux/clockchips.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/sort.h>
#include <linux/tick.h>
#include <linux/timex.h>
#include <linux/workqueue.h>

#include "tick-internal.h"

#define TB_RUNS		31
#define TB_CALLS	200
#define TB_DELAY_MS	3000

static bool tb_enabled;

static int __init tb_setup(char *arg)
{
	tb_enabled = true;
	return 1;
}
__setup("tick_bench", tb_setup);

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
	tb_dev.max_delta_ns = 10 * NSEC_PER_SEC;
	tb_dev.min_delta_ticks = 1000;
	tb_dev.max_delta_ticks = 10 * NSEC_PER_SEC;
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
	return 0;
}
late_initcall(tb_init);
