// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/timer_list and SysRq-Q: a snapshot of every online CPU's hrtimer
 * bases with their queued timers, its NO_HZ state, and the tick and
 * broadcast devices, in the "v0.10" layout that existing tools parse.
 */
#include <linux/kallsyms.h>
#include <linux/nmi.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>

#include "tick-internal.h"

/* To a seq_file for /proc, to the console (@m == NULL) for SysRq-Q. */
__printf(2, 3)
static void tl_out(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (m)
		seq_vprintf(m, fmt, ap);
	else
		vprintk(fmt, ap);
	va_end(ap);
}

/* One "  .name           : value" line, optionally in nanoseconds. */
static void __maybe_unused tl_field(struct seq_file *m, const char *name, u64 value, bool ns)
{
	tl_out(m, "  .%-15s: %llu%s\n", name, value, ns ? " nsecs" : "");
}

/* What is printed of one queued hrtimer, copied under the base lock. */
struct tl_timer {
	const struct hrtimer *addr;
	enum hrtimer_restart (*function)(struct hrtimer *timer);
	u8 state;
	s64 soft, hard;
};

#define TL_BATCH	8

/*
 * Copy up to TL_BATCH timers of @base, starting with the @skip-th, so that
 * printing happens without the lock.  Returns how many were copied.
 */
static int tl_grab_timers(struct hrtimer_clock_base *base, unsigned int skip,
			  struct tl_timer *out)
{
	struct timerqueue_node *node;
	const struct hrtimer *timer;
	int n = 0;

	guard(raw_spinlock_irqsave)(&base->cpu_base->lock);
	for (node = timerqueue_getnext(&base->active); node && skip; skip--)
		node = timerqueue_iterate_next(node);

	for (; node && n < TL_BATCH; node = timerqueue_iterate_next(node), n++) {
		timer = container_of(node, struct hrtimer, node);
		out[n].addr = timer;
		out[n].function = timer->function;
		out[n].state = timer->state;
		out[n].soft = ktime_to_ns(hrtimer_get_softexpires(timer));
		out[n].hard = ktime_to_ns(hrtimer_get_expires(timer));
	}
	return n;
}

/* Every timer queued on @base; @now is in @base's own clock. */
static void tl_show_timers(struct seq_file *m, struct hrtimer_clock_base *base, s64 now)
{
	struct tl_timer batch[TL_BATCH];
	unsigned int done = 0;
	int n, i;

	do {
		/* A long list must not look like a lockup. */
		touch_nmi_watchdog();
		n = tl_grab_timers(base, done, batch);
		for (i = 0; i < n; i++, done++) {
			tl_out(m, " #%u: <%p>, %ps, S:%02x\n", done, batch[i].addr,
			       batch[i].function, batch[i].state);
			tl_out(m, " # expires at %llu-%llu nsecs [in %lld to %lld nsecs]\n",
			       (u64)batch[i].soft, (u64)batch[i].hard,
			       batch[i].soft - now, batch[i].hard - now);
		}
	} while (n == TL_BATCH);
}

static void tl_show_base(struct seq_file *m, struct hrtimer_clock_base *base, s64 now)
{
	tl_out(m, "  .base:       %p\n", base);
	tl_out(m, "  .index:      %d\n", base->index);
	tl_out(m, "  .resolution: %u nsecs\n", hrtimer_resolution);
	tl_out(m, "  .get_time:   %ps\n", base->get_time);
	if (IS_ENABLED(CONFIG_HIGH_RES_TIMERS))
		tl_out(m, "  .offset:     %llu nsecs\n", (u64)ktime_to_ns(base->offset));
	tl_out(m, "active timers:\n");
	tl_show_timers(m, base, now + ktime_to_ns(base->offset));
}

static void tl_show_hrtimer_cpu(struct seq_file *m, struct hrtimer_cpu_base *cb)
{
#ifdef CONFIG_HIGH_RES_TIMERS
	tl_field(m, "expires_next", ktime_to_ns(cb->expires_next), true);
	tl_field(m, "hres_active", cb->hres_active, false);
	tl_field(m, "nr_events", cb->nr_events, false);
	tl_field(m, "nr_retries", cb->nr_retries, false);
	tl_field(m, "nr_hangs", cb->nr_hangs, false);
	tl_field(m, "max_hang_time", cb->max_hang_time, false);
#endif
}

static void tl_show_tick_sched(struct seq_file *m, int cpu)
{
#ifdef CONFIG_TICK_ONESHOT
	struct tick_sched *ts = tick_get_tick_sched(cpu);

	tl_out(m, "  .%-15s: %d\n", "nohz", !!(ts->flags & TS_FLAG_NOHZ));
	tl_out(m, "  .%-15s: %d\n", "highres", !!(ts->flags & TS_FLAG_HIGHRES));
	tl_field(m, "last_tick", ktime_to_ns(ts->last_tick), true);
	tl_out(m, "  .%-15s: %d\n", "tick_stopped", !!(ts->flags & TS_FLAG_STOPPED));
	tl_field(m, "idle_jiffies", ts->idle_jiffies, false);
	tl_field(m, "idle_calls", ts->idle_calls, false);
	tl_field(m, "idle_sleeps", ts->idle_sleeps, false);
	tl_field(m, "idle_entrytime", ktime_to_ns(ts->idle_entrytime), true);
	tl_field(m, "idle_waketime", ktime_to_ns(ts->idle_waketime), true);
	tl_field(m, "idle_exittime", ktime_to_ns(ts->idle_exittime), true);
	tl_field(m, "idle_sleeptime", ktime_to_ns(ts->idle_sleeptime), true);
	tl_field(m, "iowait_sleeptime", ktime_to_ns(ts->iowait_sleeptime), true);
	tl_field(m, "last_jiffies", ts->last_jiffies, false);
	tl_field(m, "next_timer", ts->next_timer, false);
	tl_field(m, "idle_expires", ktime_to_ns(ts->idle_expires), true);
	tl_out(m, "jiffies: %llu\n", (u64)jiffies);
#endif
}

/* A CPU's record: its clock bases, hrtimer statistics and NO_HZ state. */
static void tl_show_cpu(struct seq_file *m, int cpu, s64 now)
{
	struct hrtimer_cpu_base *cb = &per_cpu(hrtimer_bases, cpu);
	int i;

	tl_out(m, "cpu: %d\n", cpu);
	for (i = 0; i < HRTIMER_MAX_CLOCK_BASES; i++) {
		tl_out(m, " clock %d:\n", i);
		tl_show_base(m, &cb->clock_base[i], now);
	}
	tl_show_hrtimer_cpu(m, cb);
	tl_show_tick_sched(m, cpu);
	tl_out(m, "\n");
}

#ifdef CONFIG_GENERIC_CLOCKEVENTS
/* A driver callback, printed only when the device has one. */
static void tl_callback(struct seq_file *m, const char *label, const void *fn)
{
	if (fn)
		tl_out(m, " %-15s %ps\n", label, fn);
}

static void tl_show_event_device(struct seq_file *m, struct clock_event_device *dev)
{
	tl_out(m, "%s\n", dev->name);
	tl_out(m, " max_delta_ns:   %llu\n", dev->max_delta_ns);
	tl_out(m, " min_delta_ns:   %llu\n", dev->min_delta_ns);
	tl_out(m, " mult:           %u\n", dev->mult);
	tl_out(m, " shift:          %u\n", dev->shift);
	tl_out(m, " mode:           %d\n", clockevent_get_state(dev));
	tl_out(m, " next_event:     %lld nsecs\n", ktime_to_ns(dev->next_event));
	tl_out(m, " set_next_event: %ps\n", dev->set_next_event);
	tl_callback(m, "shutdown:", dev->set_state_shutdown);
	tl_callback(m, "periodic:", dev->set_state_periodic);
	tl_callback(m, "oneshot:", dev->set_state_oneshot);
	/* Longer than the column: the layout tools know has no padding. */
	if (dev->set_state_oneshot_stopped)
		tl_out(m, " oneshot stopped: %ps\n", dev->set_state_oneshot_stopped);
	tl_callback(m, "resume:", dev->tick_resume);
	tl_out(m, " event_handler:  %ps\n\n", dev->event_handler);
	tl_out(m, " retries:        %lu\n", dev->retries);
	/* Only a device that fired early has these (6.12 has neither). */
	if (dev->nr_early)
		tl_out(m, " early events:   %u\n", dev->nr_early);
	if (dev->nr_rate_fixes || dev->nr_rate_refused)
		tl_out(m, " rate corrected: %u Hz (declared %u Hz, %u corrections, %u refused)\n",
		       dev->freq, dev->freq_declared, dev->nr_rate_fixes, dev->nr_rate_refused);
}

/* A tick device: @cpu's, or the broadcast device when @cpu < 0. */
static void tl_show_tick_device(struct seq_file *m, struct tick_device *td, int cpu)
{
	touch_nmi_watchdog();
	tl_out(m, "Tick Device: mode:     %d\n", td->mode);
	if (cpu < 0)
		tl_out(m, "Broadcast device\n");
	else
		tl_out(m, "Per CPU device: %d\n", cpu);
	tl_out(m, "Clock Event Device: ");
	if (!td->evtdev) {
		tl_out(m, "<NULL>\n");
		return;
	}
	tl_show_event_device(m, td->evtdev);
#ifdef CONFIG_GENERIC_CLOCKEVENTS_BROADCAST
	if (cpu >= 0) {
		const struct clock_event_device *wd = tick_get_wakeup_device(cpu);

		tl_out(m, "Wakeup Device: %s\n", wd ? wd->name : "<NULL>");
	}
#endif
	tl_out(m, "\n");
}

/* The broadcast device and masks, ahead of the per-CPU tick devices. */
static void tl_show_broadcast(struct seq_file *m)
{
#ifdef CONFIG_GENERIC_CLOCKEVENTS_BROADCAST
	tl_show_tick_device(m, tick_get_broadcast_device(), -1);
	tl_out(m, "tick_broadcast_mask: %*pb\n", cpumask_pr_args(tick_get_broadcast_mask()));
#ifdef CONFIG_TICK_ONESHOT
	tl_out(m, "tick_broadcast_oneshot_mask: %*pb\n",
	       cpumask_pr_args(tick_get_broadcast_oneshot_mask()));
	/* Ours only, and only when there are any: 6.12 has no such CPUs. */
	if (!cpumask_empty(tick_get_broadcast_hosted_mask()))
		tl_out(m, "tick_broadcast_hosted_mask: %*pb\n",
		       cpumask_pr_args(tick_get_broadcast_hosted_mask()));
#endif
	tl_out(m, "\n");
#endif
}
#else
static void tl_show_broadcast(struct seq_file *m) { }
#endif

static void tl_show_header(struct seq_file *m, s64 now)
{
	tl_out(m, "Timer List Version: v0.10\n");
	tl_out(m, "HRTIMER_MAX_CLOCK_BASES: %d\n", HRTIMER_MAX_CLOCK_BASES);
	tl_out(m, "now at %lld nsecs\n\n", now);
}

/*
 * The file is a sequence of records: the header, one per online CPU for
 * its timers, the broadcast device, one per online CPU for its tick
 * device.  The tick device half exists only with clockevents.
 */
enum tl_kind { TL_HEADER, TL_CPU, TL_BROADCAST, TL_TICK_DEVICE };

struct tl_iter {
	s64 now;		/* one time for the whole snapshot */
	enum tl_kind kind;
	int cpu;
};

/* Set @it to the first record at or after (@kind, @cpu); false at the end. */
static bool tl_settle(struct tl_iter *it, enum tl_kind kind, int cpu)
{
	if (kind == TL_CPU || kind == TL_TICK_DEVICE) {
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids) {
			if (kind == TL_TICK_DEVICE || !IS_ENABLED(CONFIG_GENERIC_CLOCKEVENTS))
				return false;
			kind = TL_BROADCAST;
		}
	}
	it->kind = kind;
	it->cpu = cpu;
	return true;
}

/* Move @it on by one record. */
static bool tl_advance(struct tl_iter *it)
{
	switch (it->kind) {
	case TL_HEADER:
		return tl_settle(it, TL_CPU, -1);
	case TL_BROADCAST:
		return tl_settle(it, TL_TICK_DEVICE, -1);
	default:
		return tl_settle(it, it->kind, it->cpu);
	}
}

static void *tl_start(struct seq_file *file, loff_t *pos)
{
	struct tl_iter *it = file->private;
	loff_t i;

	if (!*pos)
		it->now = ktime_to_ns(ktime_get());
	it->kind = TL_HEADER;
	it->cpu = -1;
	for (i = 0; i < *pos; i++)
		if (!tl_advance(it))
			return NULL;
	return it;
}

static void *tl_next(struct seq_file *file, void *v, loff_t *pos)
{
	++*pos;
	return tl_advance(v) ? v : NULL;
}

static void tl_stop(struct seq_file *file, void *v)
{
}

static int tl_show(struct seq_file *m, void *v)
{
	struct tl_iter *it = v;

	switch (it->kind) {
	case TL_HEADER:
		tl_show_header(m, it->now);
		break;
	case TL_CPU:
		tl_show_cpu(m, it->cpu, it->now);
		break;
	case TL_BROADCAST:
		tl_show_broadcast(m);
		break;
	case TL_TICK_DEVICE:
#ifdef CONFIG_GENERIC_CLOCKEVENTS
		tl_show_tick_device(m, tick_get_device(it->cpu), it->cpu);
#endif
		break;
	}
	return 0;
}

/**
 * sysrq_timer_list_show - print the timer list on the console (SysRq-Q)
 */
void sysrq_timer_list_show(void)
{
	struct tl_iter it = { .now = ktime_to_ns(ktime_get()), .kind = TL_HEADER, .cpu = -1 };

	do {
		tl_show(NULL, &it);
	} while (tl_advance(&it));
}

#ifdef CONFIG_PROC_FS
static const struct seq_operations tl_seq_ops = {
	.start	= tl_start,
	.next	= tl_next,
	.stop	= tl_stop,
	.show	= tl_show,
};

static int __init tl_init_procfs(void)
{
	/* Addresses of kernel objects: readable by root only. */
	if (!proc_create_seq_private("timer_list", 0400, NULL, &tl_seq_ops,
				     sizeof(struct tl_iter), NULL))
		return -ENOMEM;
	return 0;
}
device_initcall(tl_init_procfs);
#endif
