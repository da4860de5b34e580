// SPDX-License-Identifier: GPL-2.0
/*
 * The tick once a CPU's tick device runs oneshot: emulated by a per-CPU
 * hrtimer in high resolution mode, or driven by the device handler in low
 * resolution NO_HZ mode; advancing jiffies on the CPU that holds the duty;
 * and, with NO_HZ, stopping the tick while the CPU idles until the earliest
 * event that needs it, then restarting it on its period grid.
 *
 * The decisions (how many jiffies are due, when an idle CPU must wake, who
 * keeps time after a stop, how idle time sums up) are functions of their
 * inputs, tested by the tick_sched KUnit suite; the code around them
 * applies them to the per-CPU state and the hardware.
 */
#include <linux/context_tracking.h>
#include <linux/cpu.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/kernel_stat.h>
#include <linux/mm.h>
#include <linux/nmi.h>
#include <linux/percpu.h>
#include <linux/profile.h>
#include <linux/sched/clock.h>
#include <linux/sched/loadavg.h>
#include <linux/sched/nohz.h>
#include <linux/sched/signal.h>
#include <linux/sched/stat.h>
#include <linux/string_choices.h>
#include <kunit/visibility.h>

#include <asm/irq_regs.h>

#include "tick-internal.h"
#include "tick-kunit.h"

#include <trace/events/timer.h>

/* Each CPU's tick state; struct tick_sched says who touches which field. */
static DEFINE_PER_CPU(struct tick_sched, tick_cpu_sched);

/**
 * tick_get_tick_sched - a CPU's tick state
 * @cpu:	the CPU
 *
 * Return: the state, for /proc/timer_list and the tick layer.
 */
struct tick_sched *tick_get_tick_sched(int cpu)
{
	return &per_cpu(tick_cpu_sched, cpu);
}

static bool tick_sched_has(const struct tick_sched *ts, unsigned long flags)
{
	return ts->flags & flags;
}

/*
 * Flags change only on the CPU itself, with interrupts off.  Inline: a
 * periodic high-res kernel never clears one.
 */
static inline void tick_sched_mark(struct tick_sched *ts, unsigned long flags)
{
	lockdep_assert_irqs_disabled();
	ts->flags |= flags;
}

static inline void tick_sched_unmark(struct tick_sched *ts, unsigned long flags)
{
	lockdep_assert_irqs_disabled();
	ts->flags &= ~flags;
}

/*
 * Jiffies.  tick_next_period (tick-common.c) is when the next jiffy ends;
 * the current one started TICK_NSEC earlier.  Both it and jiffies_64 are
 * written under jiffies_lock inside jiffies_seq, by the periodic tick or
 * by tick_update_jiffies() here.
 */

/**
 * tick_jiffies_due - jiffies that have ended by a given time
 * @now:	the time
 * @next_period:	when the current jiffy ends
 *
 * Return: 0 before @next_period, else 1 plus the whole periods after it.
 */
VISIBLE_IF_KUNIT u64 tick_jiffies_due(ktime_t now, ktime_t next_period)
{
	s64 late = ktime_sub(now, next_period);

	if (late < 0)
		return 0;
	/* The common case on a busy CPU spares a 64-bit division. */
	if (late < TICK_NSEC)
		return 1;
	return 1 + div_u64(late, TICK_NSEC);
}
EXPORT_SYMBOL_IF_KUNIT(tick_jiffies_due);

/**
 * tick_period_after - the first point of a tick's period grid after a time
 * @grid:	any point of the grid
 * @now:	the time
 *
 * Return: @grid if it is after @now, else @grid plus the periods that
 * have passed since, plus one.
 */
VISIBLE_IF_KUNIT ktime_t tick_period_after(ktime_t grid, ktime_t now)
{
	return ktime_add_ns(grid, tick_jiffies_due(now, grid) * TICK_NSEC);
}
EXPORT_SYMBOL_IF_KUNIT(tick_period_after);

/*
 * Whether jiffies may be due, without the lock: tick_update_jiffies() takes
 * it only then, and checks again under it.
 */
static bool tick_jiffies_maybe_due(ktime_t now)
{
	ktime_t next;

	if (IS_ENABLED(CONFIG_64BIT)) {
		/*
		 * The periodic tick's plain stores are only seen late, which
		 * the check under the lock absorbs.
		 */
		next = smp_load_acquire(&tick_next_period); /* tick_publish_next_period() */
	} else {
		/* The halves of a 64-bit value are consistent only under the seqcount. */
		next = tick_read_next_period(NULL);
	}
	return !ktime_before(now, next);
}

/* Context: jiffies_lock held, inside jiffies_seq. */
static void tick_publish_next_period(ktime_t next)
{
	if (IS_ENABLED(CONFIG_64BIT)) {
		/* jiffies_64 is visible before the new period ends the peek. */
		smp_store_release(&tick_next_period, next);
	} else {
		tick_next_period = next;
	}
}

/*
 * Advance jiffies and timekeeping to @now, by as many jiffies as ended:
 * after a long idle sleep that is more than one.
 * Context: interrupts disabled.
 */
static void tick_update_jiffies(ktime_t now)
{
	u64 ticks;

	if (!tick_jiffies_maybe_due(now))
		return;

	raw_spin_lock(&jiffies_lock);
	/* Another CPU may have advanced them since the peek. */
	ticks = tick_jiffies_due(now, tick_next_period);
	if (ticks) {
		write_seqcount_begin(&jiffies_seq);
		jiffies_64 += ticks;
		tick_publish_next_period(ktime_add_ns(tick_next_period, ticks * TICK_NSEC));
		write_seqcount_end(&jiffies_seq);
		/*
		 * do_timer() minus the seqcount: readers of jiffies (on 32-bit
		 * every jiffies_64 reader) need not retry for the load average.
		 */
		calc_global_load();
	}
	raw_spin_unlock(&jiffies_lock);

	if (ticks)
		update_wall_time();
}

/* jiffies and when they last advanced, consistently. */
static ktime_t tick_jiffies_snapshot(unsigned long *basej)
{
	return ktime_sub_ns(tick_read_next_period(basej), TICK_NSEC);
}

/*
 * The tick itself.
 */

/*
 * Ticks in a row that may find jiffies unchanged before a CPU advances
 * them itself: the duty owner can be stuck in a long VM exit or in
 * stop_machine().
 */
#define TICK_STALL_LIMIT	5

/*
 * Keep jiffies and timekeeping going on a tick.  A duty abandoned by a
 * sleeping CPU goes to the first CPU that ticks; two that take it at once
 * are still serialised by jiffies_lock.
 */
static void tick_sched_keep_time(struct tick_sched *ts, int cpu, ktime_t now)
{
	int owner = READ_ONCE(tick_do_timer_cpu);
	unsigned long seen;

	if (IS_ENABLED(CONFIG_NO_HZ_COMMON) && unlikely(owner == TICK_DO_TIMER_NONE)) {
		WRITE_ONCE(tick_do_timer_cpu, cpu);
		owner = cpu;
	}
	if (owner == cpu)
		tick_update_jiffies(now);

	seen = READ_ONCE(jiffies);
	if (seen != ts->last_tick_jiffies) {
		ts->stalled_jiffies = 0;
	} else if (++ts->stalled_jiffies == TICK_STALL_LIMIT) {
		tick_update_jiffies(now);
		ts->stalled_jiffies = 0;
		seen = READ_ONCE(jiffies);
	}
	ts->last_tick_jiffies = seen;

	if (tick_sched_has(ts, TS_FLAG_INIDLE))
		ts->got_idle_tick = 1;
}

/* Profiling, process time and the timer wheel, from the tick interrupt. */
static void tick_sched_account(struct tick_sched *ts, struct pt_regs *regs)
{
	if (IS_ENABLED(CONFIG_NO_HZ_COMMON) && tick_sched_has(ts, TS_FLAG_STOPPED)) {
		/*
		 * The stopped tick fired for the event it was set to.  The
		 * next stop must program the device even if its deadline
		 * looks unchanged.  update_process_times() accounts this
		 * jiffy as idle, so the idle tick accounting on exit must
		 * not count it again.  And the CPU may not schedule for
		 * long: keep the soft lockup watchdog quiet.
		 */
		ts->next_tick = 0;
		ts->idle_jiffies += is_idle_task(current);
		touch_softlockup_watchdog_sched();
	}

	profile_tick(CPU_PROFILING);
	update_process_times(user_mode(regs));
}

/*
 * The tick: the sched_timer callback in high resolution mode, called by
 * tick_nohz_lowres_handler() in low resolution mode.  A stopped tick is
 * re-armed by the idle code, not here.
 * Context: hard interrupt, interrupts disabled.
 */
static enum hrtimer_restart tick_nohz_handler(struct hrtimer *timer)
{
	struct tick_sched *ts = container_of(timer, struct tick_sched, sched_timer);
	ktime_t now = ktime_get();
	struct pt_regs *regs;

	tick_sched_keep_time(ts, smp_processor_id(), now);

	/* Without registers this is not the timer interrupt: no process to charge. */
	regs = get_irq_regs();
	if (regs)
		tick_sched_account(ts, regs);
	else
		ts->next_tick = 0;

	if (likely(!tick_sched_has(ts, TS_FLAG_STOPPED))) {
		hrtimer_forward(timer, now, TICK_NSEC);
		return HRTIMER_RESTART;
	}
	return HRTIMER_NORESTART;
}

/* Arm the tick for @expires: the hrtimer in high resolution mode, else the device. */
static void tick_sched_arm(struct tick_sched *ts, ktime_t expires)
{
	if (tick_sched_has(ts, TS_FLAG_HIGHRES)) {
		hrtimer_start(&ts->sched_timer, expires, HRTIMER_MODE_ABS_PINNED_HARD);
	} else {
		hrtimer_set_expires(&ts->sched_timer, expires);
		tick_program_event(expires, 1);
	}
}

static void tick_sched_disarm(struct tick_sched *ts)
{
	if (tick_sched_has(ts, TS_FLAG_HIGHRES))
		hrtimer_cancel(&ts->sched_timer);
	else if (tick_sched_has(ts, TS_FLAG_NOHZ))
		tick_program_event(KTIME_MAX, 1);
}

/*
 * skew_tick=1 spreads the CPUs' ticks over half a period, so that they do
 * not all contend for jiffies_lock and the timer locks at the same instant.
 */
static int sched_skew_tick;

static int __init setup_skew_tick(char *str)
{
	char *p = str;

	/* The forms get_option() takes, as in 6.12 ("1", "0x1", "1,"). */
	if (!p || !get_option(&p, &sched_skew_tick))
		pr_warn("skew_tick=%s: not a number, ignored\n", str ?: "");
	return 0;
}
early_param("skew_tick", setup_skew_tick);

/**
 * tick_skew_offset - where a CPU's tick lies within the period with skew_tick=1
 * @cpu:	the CPU
 * @nr_cpus:	possible CPUs
 *
 * Return: the offset from the jiffies grid, in nanoseconds; below half a
 * period for @cpu below @nr_cpus.
 */
VISIBLE_IF_KUNIT u64 tick_skew_offset(unsigned int cpu, unsigned int nr_cpus)
{
	return div_u64(TICK_NSEC / 2, nr_cpus) * cpu;
}
EXPORT_SYMBOL_IF_KUNIT(tick_skew_offset);

static void tick_nohz_activate(struct tick_sched *ts);

/**
 * tick_setup_sched_timer - run the tick on this CPU's oneshot device
 * @hrtimer:	emulate it with the sched_timer hrtimer (high resolution
 *		mode); false when the device handler drives it (low
 *		resolution NO_HZ)
 *
 * The tick continues on the jiffies grid, shifted by its skew.
 * Context: interrupts disabled, on the CPU itself.
 */
void tick_setup_sched_timer(bool hrtimer)
{
	struct tick_sched *ts = this_cpu_ptr(&tick_cpu_sched);
	unsigned long basej;
	ktime_t grid;

	tick_align_next_period();
	grid = tick_jiffies_snapshot(&basej);
	hrtimer_init(&ts->sched_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
	if (IS_ENABLED(CONFIG_HIGH_RES_TIMERS) && hrtimer) {
		tick_sched_mark(ts, TS_FLAG_HIGHRES);
		ts->sched_timer.function = tick_nohz_handler;
	}

	if (sched_skew_tick)
		grid = ktime_add_ns(grid, tick_skew_offset(smp_processor_id(),
							   num_possible_cpus()));
	tick_sched_arm(ts, tick_period_after(grid, ktime_get()));
	tick_nohz_activate(ts);
}

/**
 * tick_sched_timer_dying - stop the tick of a CPU going offline
 * @cpu:	the dying CPU
 *
 * Everything but the idle statistics starts afresh when the CPU comes
 * back: /proc/stat and cpufreq expect those to only grow.
 * Context: on the dying CPU, interrupts disabled.
 */
void tick_sched_timer_dying(int cpu)
{
	struct clock_event_device *dev = per_cpu(tick_cpu_device, cpu).evtdev;
	struct tick_sched *ts = &per_cpu(tick_cpu_sched, cpu);

	tick_sched_disarm(ts);
	/* The device may still fire once before it is shut down. */
	if (tick_sched_has(ts, TS_FLAG_NOHZ))
		dev->event_handler = clockevents_handle_noop;

	memset(ts, 0, offsetof(struct tick_sched, idle_calls));
}

/**
 * tick_clock_notify - the clocksource changed: every CPU re-checks its tick mode
 */
void tick_clock_notify(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		set_bit(0, &per_cpu(tick_cpu_sched, cpu).check_clocks);
}

/**
 * tick_oneshot_notify - this CPU's tick device changed: re-check its tick mode
 */
void tick_oneshot_notify(void)
{
	set_bit(0, this_cpu_ptr(&tick_cpu_sched.check_clocks));
}

#ifdef CONFIG_NO_HZ_COMMON

/*
 * Bit 0 set once the first CPU runs with NO_HZ: from then on the timer
 * wheel and hrtimers account for CPUs that sleep with their tick stopped.
 */
unsigned long tick_nohz_active __read_mostly;

/* nohz= on the command line: whether idle CPUs may stop their tick. */
bool tick_nohz_enabled __read_mostly = true;

static int __init setup_tick_nohz(char *str)
{
	if (!kstrtobool(str, &tick_nohz_enabled))
		return 1;
	pr_warn("nohz=%s: not on or off, NO_HZ stays %s\n", str,
		str_on_off(tick_nohz_enabled));
	/* As 6.12: init is told of the parameter it did not take. */
	return 0;
}
__setup("nohz=", setup_tick_nohz);

/**
 * tick_nohz_tick_stopped - whether this CPU's tick is stopped
 *
 * Return: true while the CPU runs without its periodic tick.
 */
bool tick_nohz_tick_stopped(void)
{
	return tick_sched_has(this_cpu_ptr(&tick_cpu_sched), TS_FLAG_STOPPED);
}

/**
 * tick_nohz_tick_stopped_cpu - whether a CPU's tick is stopped
 * @cpu:	the CPU
 *
 * Return: true while @cpu runs without its periodic tick; a snapshot.
 */
bool tick_nohz_tick_stopped_cpu(int cpu)
{
	return tick_sched_has(per_cpu_ptr(&tick_cpu_sched, cpu), TS_FLAG_STOPPED);
}

/*
 * Idle time.  A CPU accounts the idle period it is in from idle entry (or
 * the end of an interrupt taken in idle) to idle exit (or the start of the
 * next interrupt): to iowait while tasks of this CPU wait for I/O, else to
 * idle.  Other CPUs read the sums under idle_sleeptime_seq.
 */

/**
 * tick_idle_sum_at - an idle sum as it stands at a given time
 * @sum:	time accounted so far
 * @open:	an idle period is open and counts toward this sum
 * @since:	when it opened
 * @now:	the time
 *
 * Return: @sum plus the open period up to @now; a period stamped after
 * @now (read from another CPU) adds nothing.
 */
VISIBLE_IF_KUNIT ktime_t tick_idle_sum_at(ktime_t sum, bool open, ktime_t since, ktime_t now)
{
	if (open && ktime_after(now, since))
		sum = ktime_add(sum, ktime_sub(now, since));
	return sum;
}
EXPORT_SYMBOL_IF_KUNIT(tick_idle_sum_at);

static void tick_nohz_start_idle(struct tick_sched *ts)
{
	ktime_t now = ktime_get();

	write_seqcount_begin(&ts->idle_sleeptime_seq);
	ts->idle_entrytime = now;
	tick_sched_mark(ts, TS_FLAG_IDLE_ACTIVE);
	write_seqcount_end(&ts->idle_sleeptime_seq);

	sched_clock_idle_sleep_event();
}

static void tick_nohz_stop_idle(struct tick_sched *ts, ktime_t now)
{
	bool iowait = nr_iowait_cpu(smp_processor_id()) > 0;

	if (WARN_ON_ONCE(!tick_sched_has(ts, TS_FLAG_IDLE_ACTIVE)))
		return;

	write_seqcount_begin(&ts->idle_sleeptime_seq);
	if (iowait)
		ts->iowait_sleeptime = tick_idle_sum_at(ts->iowait_sleeptime, true,
							ts->idle_entrytime, now);
	else
		ts->idle_sleeptime = tick_idle_sum_at(ts->idle_sleeptime, true,
						      ts->idle_entrytime, now);
	ts->idle_entrytime = now;
	tick_sched_unmark(ts, TS_FLAG_IDLE_ACTIVE);
	write_seqcount_end(&ts->idle_sleeptime_seq);

	sched_clock_idle_wakeup_event();
}

/* @sum of @cpu up to now, in microseconds; the open period counts if @open_counts. */
static u64 tick_idle_sum_us(int cpu, const ktime_t *sum, bool open_counts,
			    u64 *last_update_time)
{
	struct tick_sched *ts = &per_cpu(tick_cpu_sched, cpu);
	unsigned int seq;
	ktime_t now, total;

	if (!tick_nohz_active)
		return -1;

	now = ktime_get();
	do {
		seq = read_seqcount_begin(&ts->idle_sleeptime_seq);
		total = tick_idle_sum_at(*sum, open_counts &&
					 tick_sched_has(ts, TS_FLAG_IDLE_ACTIVE),
					 ts->idle_entrytime, now);
	} while (read_seqcount_retry(&ts->idle_sleeptime_seq, seq));

	if (last_update_time)
		*last_update_time = ktime_to_us(now);
	return ktime_to_us(total);
}

/**
 * get_cpu_idle_time_us - idle time of a CPU, without I/O wait
 * @cpu:		the CPU
 * @last_update_time:	if not NULL, set to the time of the reading, in us
 *
 * Includes the idle period @cpu is in, unless it waits for I/O.  Read from
 * another CPU, the open period is counted here or by
 * get_cpu_iowait_time_us() as that CPU's I/O waiters stand at the moment
 * of reading, so when they change mid-period a later reading can be
 * smaller than an earlier one (the time moves to the other sum).
 *
 * Return: microseconds since boot, or -1 when NO_HZ is not active (the
 * caller then falls back to tick-based accounting).
 */
u64 get_cpu_idle_time_us(int cpu, u64 *last_update_time)
{
	return tick_idle_sum_us(cpu, &per_cpu(tick_cpu_sched, cpu).idle_sleeptime,
				!nr_iowait_cpu(cpu), last_update_time);
}
EXPORT_SYMBOL_GPL(get_cpu_idle_time_us);

/**
 * get_cpu_iowait_time_us - idle time of a CPU while tasks wait for I/O
 * @cpu:		the CPU
 * @last_update_time:	if not NULL, set to the time of the reading, in us
 *
 * Includes the idle period @cpu is in if it waits for I/O.
 *
 * Return: microseconds since boot, or -1 when NO_HZ is not active.
 */
u64 get_cpu_iowait_time_us(int cpu, u64 *last_update_time)
{
	return tick_idle_sum_us(cpu, &per_cpu(tick_cpu_sched, cpu).iowait_sleeptime,
				nr_iowait_cpu(cpu), last_update_time);
}
EXPORT_SYMBOL_GPL(get_cpu_iowait_time_us);

/*
 * When an idle CPU must wake.
 */

/**
 * tick_nohz_pick_deadline - when an idle CPU's tick must fire next
 * @v:	what the CPU's next events and duties are
 *
 * The earliest timer (wheel or hrtimer), or the next jiffy when RCU,
 * irq_work, the architecture or a pending timer softirq needs the tick,
 * bounded by the clocksource's max deferment on the CPU that keeps time.
 *
 * Return: the deadline; 0 when the tick should keep running because the
 * deadline is within one period and the tick is not stopped yet.
 */
VISIBLE_IF_KUNIT u64 tick_nohz_pick_deadline(const struct tick_idle_view *v)
{
	u64 next = v->needs_tick ? v->basemono + TICK_NSEC : v->next_timer;
	u64 limit = KTIME_MAX;

	/*
	 * The timer code never reports an expiry before the jiffy it was
	 * asked from (tick_nohz_next_event() warns if it does); were it to,
	 * the deadline is that jiffy, never the past.
	 */
	next = max(next, v->basemono);

	/* Stopping for a period or less saves no interrupt. */
	if (next - v->basemono <= TICK_NSEC && !v->stopped)
		return 0;

	if (v->keeps_time && v->max_deferment < KTIME_MAX - v->basemono)
		limit = v->basemono + v->max_deferment;
	return min(next, limit);
}
EXPORT_SYMBOL_IF_KUNIT(tick_nohz_pick_deadline);

/**
 * tick_duty_after_stop - who keeps time once a CPU stops its tick
 * @owner:	tick_do_timer_cpu; updated
 * @cpu:	the CPU stopping its tick
 * @was_last:	@cpu had given the duty up before and nobody took it since
 *
 * A sleeping CPU cannot advance jiffies, so the owner gives the duty up;
 * until another CPU takes it, the CPU that had it last bounds its sleep so
 * that timekeeping does not overflow.
 *
 * Return: whether @cpu is now the CPU that had the duty last.
 */
VISIBLE_IF_KUNIT bool tick_duty_after_stop(int *owner, int cpu, bool was_last)
{
	if (*owner == cpu) {
		*owner = TICK_DO_TIMER_NONE;
		return true;
	}
	return *owner == TICK_DO_TIMER_NONE && was_last;
}
EXPORT_SYMBOL_IF_KUNIT(tick_duty_after_stop);

static bool tick_keeps_time(struct tick_sched *ts, int cpu)
{
	int owner = READ_ONCE(tick_do_timer_cpu);

	return owner == cpu ||
	       (owner == TICK_DO_TIMER_NONE && tick_sched_has(ts, TS_FLAG_DO_TIMER_LAST));
}

static bool local_timer_softirq_pending(void)
{
	return local_softirq_pending() & BIT(TIMER_SOFTIRQ);
}

/*
 * Compute this CPU's next event from its jiffy of now and remember both
 * for tick_nohz_stop_tick().
 * Return: the deadline, 0 to keep the tick.
 */
static ktime_t tick_nohz_next_event(struct tick_sched *ts, int cpu)
{
	struct tick_idle_view v = { .max_deferment = KTIME_MAX };
	unsigned long basej;

	v.basemono = tick_jiffies_snapshot(&basej);
	ts->last_jiffies = basej;
	ts->timer_expires_base = v.basemono;

	v.needs_tick = rcu_needs_cpu() || arch_needs_cpu() ||
		       irq_work_needs_cpu() || local_timer_softirq_pending();
	if (!v.needs_tick) {
		v.next_timer = get_next_timer_interrupt(basej, v.basemono);
		ts->next_timer = v.next_timer;
		/* A timer before the jiffy asked from: the timer base is broken. */
		WARN_ON_ONCE(v.next_timer < v.basemono);
	}
	v.stopped = tick_sched_has(ts, TS_FLAG_STOPPED);
	v.keeps_time = tick_keeps_time(ts, cpu);
	if (v.keeps_time)
		v.max_deferment = timekeeping_max_deferment();

	ts->timer_expires = tick_nohz_pick_deadline(&v);
	return ts->timer_expires;
}

/*
 * Stop the tick, or move the stopped tick, to the deadline the last
 * tick_nohz_next_event() computed.
 */
static void tick_nohz_stop_tick(struct tick_sched *ts, int cpu)
{
	bool base_idle = tick_sched_has(ts, TS_FLAG_STOPPED);
	int owner, had;
	u64 expires, basemono;

	/*
	 * The timer base must be idle too, or a timer queued from now on
	 * would not wake this CPU.  A timer removed since the computation
	 * makes the base report a later expiry: the computed one is early,
	 * but safe.  Either way the computation is used up.
	 */
	basemono = ts->timer_expires_base;
	expires = timer_base_try_to_set_idle(ts->last_jiffies, basemono, &base_idle);
	expires = min_t(u64, expires, ts->timer_expires);
	ts->timer_expires_base = 0;

	/* A timer due within the next jiffy keeps the base busy, and the tick. */
	if (!base_idle)
		return;

	owner = READ_ONCE(tick_do_timer_cpu);
	had = owner;
	if (tick_duty_after_stop(&owner, cpu, tick_sched_has(ts, TS_FLAG_DO_TIMER_LAST)))
		tick_sched_mark(ts, TS_FLAG_DO_TIMER_LAST);
	else
		tick_sched_unmark(ts, TS_FLAG_DO_TIMER_LAST);
	if (owner != had)
		WRITE_ONCE(tick_do_timer_cpu, owner);

	/* Already asleep until exactly this deadline. */
	if (tick_sched_has(ts, TS_FLAG_STOPPED) && expires == ts->next_tick) {
		if (expires == KTIME_MAX || expires == hrtimer_get_expires(&ts->sched_timer))
			return;
		/*
		 * Stopped for this deadline, yet armed for another: a wakeup
		 * may have been lost.  Re-armed below; 6.12's words, which
		 * bug reports quote.
		 */
		WARN_ONCE(1,
			  "basemono: %llu ts->next_tick: %llu dev->next_event: %llu timer->active: %d timer->expires: %llu\n",
			  basemono, ts->next_tick,
			  tick_this_cpu_device()->next_event, hrtimer_active(&ts->sched_timer),
			  hrtimer_get_expires(&ts->sched_timer));
	}

	if (!tick_sched_has(ts, TS_FLAG_STOPPED)) {
		/* Where the tick would have fired: it restarts on this grid. */
		ts->last_tick = hrtimer_get_expires(&ts->sched_timer);
		tick_sched_mark(ts, TS_FLAG_STOPPED);
		quiet_vmstat();
		calc_load_nohz_start();
		trace_tick_stop(1, TICK_DEP_MASK_NONE);
	}

	ts->next_tick = expires;
	if (expires == KTIME_MAX)
		tick_sched_disarm(ts);
	else
		tick_sched_arm(ts, expires);
}

/*
 * Restart the stopped tick at the next point of the grid it was stopped
 * on, bringing jiffies and the timer base up to date first.
 */
static void tick_nohz_restart_tick(struct tick_sched *ts, ktime_t now)
{
	tick_update_jiffies(now);
	touch_softlockup_watchdog_sched();
	calc_load_nohz_stop();
	timer_clear_idle();

	tick_sched_unmark(ts, TS_FLAG_STOPPED);
	tick_sched_arm(ts, tick_period_after(ts->last_tick, now));
	ts->next_tick = 0;
}

/*
 * The idle jiffies the tick did not account while stopped; the tick that
 * ended the sleep accounted its own (see tick_sched_account()).
 */
static void tick_nohz_account_idle_ticks(struct tick_sched *ts, ktime_t now)
{
	long missed = jiffies - ts->idle_jiffies;

	ts->idle_exittime = now;
	/* Virtual time accounting measures idle time itself. */
	if (missed > 0 && !vtime_accounting_enabled_this_cpu())
		account_idle_ticks(missed);
}

static void tick_nohz_resume_tick(struct tick_sched *ts, ktime_t now)
{
	tick_nohz_restart_tick(ts, now);
	tick_nohz_account_idle_ticks(ts, now);
}

/*
 * Softirqs pending on the way into idle were raised but are not being run:
 * with the tick stopped nothing may run them.  Expected while bottom halves
 * are blocked, and, on a CPU going offline, for the softirqs hotplug
 * migrates; otherwise a bug, reported a few times in the words that tools
 * look for.  Either way the tick keeps running, so they run on its exit.
 */
static bool tick_nohz_softirq_pending(void)
{
	static unsigned int reports;
	unsigned int pending = local_softirq_pending();

	if (likely(!pending))
		return false;
	if (!cpu_active(smp_processor_id()))
		pending &= ~SOFTIRQ_HOTPLUG_SAFE_MASK;
	if (!pending)
		return false;

	if (!local_bh_blocked() && reports < 10) {
		reports++;
		pr_warn("NOHZ tick-stop error: local softirq work is pending, handler #%02x!!!\n",
			pending);
	}
	return true;
}

#ifdef CONFIG_NO_HZ_FULL
/*
 * Full dynticks.  A CPU of nohz_full= whose tick runs re-decides at the end
 * of every interrupt (tick_nohz_irq_exit()): with no tick dependency set it
 * stops the tick until its next timer, as an idle CPU would, else it keeps
 * or restarts it.  Whoever sets a dependency that a CPU had none of kicks
 * that CPU with an irq_work self-IPI, whose interrupt exit re-decides.
 * Timekeeping stays on a housekeeping CPU, whose tick never stops.
 */

/* Set once, at boot, by the housekeeping code (nohz_full=). */
bool tick_nohz_full_running;
EXPORT_SYMBOL_GPL(tick_nohz_full_running);
cpumask_var_t tick_nohz_full_mask;
EXPORT_SYMBOL_GPL(tick_nohz_full_mask);

/* Dependencies that keep the tick of every nohz_full CPU. */
static atomic_t tick_dep_global = ATOMIC_INIT(0);

/**
 * tick_dep_reason - why a CPU running a task must keep its tick
 * @global:	dependencies of all CPUs
 * @cpu:	dependencies of this CPU
 * @task:	dependencies of the task it runs
 * @signal:	dependencies of that task's thread group
 *
 * Return: the lowest TICK_DEP_MASK_* bit of the first mask, in the order
 * above, that has one; TICK_DEP_MASK_NONE when the tick may stop.
 */
VISIBLE_IF_KUNIT unsigned int tick_dep_reason(unsigned int global, unsigned int cpu,
					      unsigned int task, unsigned int signal)
{
	unsigned int deps = global ?: cpu ?: task ?: signal;

	return deps & -deps;
}
EXPORT_SYMBOL_IF_KUNIT(tick_dep_reason);

/**
 * tick_duty_pinned - whether a CPU must keep the timekeeping duty
 * @full_running:	nohz_full= CPUs exist
 * @owner:		tick_do_timer_cpu
 * @cpu:		the CPU
 *
 * nohz_full CPUs never advance jiffies, so the housekeeping CPU that keeps
 * time for them keeps its tick in idle and may not go offline.
 *
 * Return: true when @cpu holds the duty for nohz_full CPUs.
 */
VISIBLE_IF_KUNIT bool tick_duty_pinned(bool full_running, int owner, int cpu)
{
	return full_running && owner == cpu;
}
EXPORT_SYMBOL_IF_KUNIT(tick_duty_pinned);

/**
 * tick_nohz_full_boot_trim - take the boot CPU out of nohz_full= if it must
 * @full:		the nohz_full CPUs; updated
 * @boot_cpu:		the boot CPU
 * @suspend_on_boot:	suspend offlines every CPU but the boot CPU, which
 *			must then be able to keep time
 *
 * Return: true when @boot_cpu was removed from @full.
 */
VISIBLE_IF_KUNIT bool tick_nohz_full_boot_trim(struct cpumask *full, unsigned int boot_cpu,
					       bool suspend_on_boot)
{
	return suspend_on_boot && cpumask_test_and_clear_cpu(boot_cpu, full);
}
EXPORT_SYMBOL_IF_KUNIT(tick_nohz_full_boot_trim);

/*
 * Add @bit to a dependency mask.  Return: true when the mask had none, so
 * that the CPUs it concerns may run with their tick stopped and must be
 * kicked.  Fully ordered: see tick_nohz_kick_task().
 */
static bool tick_dep_add(atomic_t *deps, enum tick_dep_bits bit)
{
	return !atomic_fetch_or(BIT(bit), deps);
}

/* Clearing kicks nobody: the ticks stop at their next evaluation. */
static void tick_dep_drop(atomic_t *deps, enum tick_dep_bits bit)
{
	atomic_andnot(BIT(bit), deps);
}

static void tick_nohz_full_update(struct tick_sched *ts);

/*
 * The kick's work is done by the interrupt exit that follows it, unless
 * the work runs in task context: a CPU leaving idle flushes the queue of
 * remote irq_work, and no interrupt exit follows.  Then it decides here.
 */
static void tick_nohz_full_kicked(struct irq_work *work)
{
	struct tick_sched *ts = this_cpu_ptr(&tick_cpu_sched);

	if (in_hardirq() || WARN_ON_ONCE(tick_sched_has(ts, TS_FLAG_INIDLE)))
		return;
	tick_nohz_full_update(ts);
}

static DEFINE_PER_CPU(struct irq_work, tick_nohz_full_kick) =
	IRQ_WORK_INIT_HARD(tick_nohz_full_kicked);

/* NMI-safe: perf sets a dependency of its own CPU from NMI. */
static void tick_nohz_full_kick_self(void)
{
	if (tick_nohz_full_cpu(smp_processor_id()))
		irq_work_queue(this_cpu_ptr(&tick_nohz_full_kick));
}

/**
 * tick_nohz_full_kick_cpu - make a nohz_full CPU re-decide about its tick
 * @cpu:	the CPU; nothing happens unless it is a nohz_full CPU
 *
 * Context: any but NMI; @cpu online.
 */
void tick_nohz_full_kick_cpu(int cpu)
{
	if (tick_nohz_full_cpu(cpu))
		irq_work_queue_on(&per_cpu(tick_nohz_full_kick, cpu), cpu);
}

static void tick_nohz_full_kick_online(void)
{
	int cpu;

	preempt_disable();
	for_each_cpu_and(cpu, tick_nohz_full_mask, cpu_online_mask)
		tick_nohz_full_kick_cpu(cpu);
	preempt_enable();
}

/*
 * A task that is not queued evaluates its dependencies when it is switched
 * in (__tick_nohz_task_switch()); the scheduler orders that read after
 * on_rq is set, and the fully ordered setting of the bit before this read
 * of on_rq, so one of the two sees the other.
 */
static void tick_nohz_kick_task(struct task_struct *tsk)
{
	int cpu;

	if (!sched_task_on_rq(tsk))
		return;
	preempt_disable();
	cpu = task_cpu(tsk);
	if (cpu_online(cpu))
		tick_nohz_full_kick_cpu(cpu);
	preempt_enable();
}

/**
 * tick_nohz_dep_set - keep the tick of every nohz_full CPU
 * @bit:	the reason
 */
void tick_nohz_dep_set(enum tick_dep_bits bit)
{
	if (tick_dep_add(&tick_dep_global, bit))
		tick_nohz_full_kick_online();
}

/**
 * tick_nohz_dep_clear - drop a reason set by tick_nohz_dep_set()
 * @bit:	the reason
 */
void tick_nohz_dep_clear(enum tick_dep_bits bit)
{
	tick_dep_drop(&tick_dep_global, bit);
}

/**
 * tick_nohz_dep_set_cpu - keep the tick of one nohz_full CPU
 * @cpu:	the CPU
 * @bit:	the reason
 *
 * Context: any; from NMI only for the local CPU.
 */
void tick_nohz_dep_set_cpu(int cpu, enum tick_dep_bits bit)
{
	struct tick_sched *ts = per_cpu_ptr(&tick_cpu_sched, cpu);

	if (!tick_dep_add(&ts->tick_dep_mask, bit))
		return;
	preempt_disable();
	if (cpu == smp_processor_id())
		tick_nohz_full_kick_self();
	else if (!WARN_ON_ONCE(in_nmi()) && cpu_online(cpu))
		tick_nohz_full_kick_cpu(cpu);
	preempt_enable();
}
EXPORT_SYMBOL_GPL(tick_nohz_dep_set_cpu);

/**
 * tick_nohz_dep_clear_cpu - drop a reason set by tick_nohz_dep_set_cpu()
 * @cpu:	the CPU
 * @bit:	the reason
 */
void tick_nohz_dep_clear_cpu(int cpu, enum tick_dep_bits bit)
{
	tick_dep_drop(&per_cpu(tick_cpu_sched, cpu).tick_dep_mask, bit);
}
EXPORT_SYMBOL_GPL(tick_nohz_dep_clear_cpu);

/**
 * tick_nohz_dep_set_task - keep the tick wherever a task runs
 * @tsk:	the task
 * @bit:	the reason
 */
void tick_nohz_dep_set_task(struct task_struct *tsk, enum tick_dep_bits bit)
{
	if (tick_dep_add(&tsk->tick_dep_mask, bit))
		tick_nohz_kick_task(tsk);
}
EXPORT_SYMBOL_GPL(tick_nohz_dep_set_task);

/**
 * tick_nohz_dep_clear_task - drop a reason set by tick_nohz_dep_set_task()
 * @tsk:	the task
 * @bit:	the reason
 */
void tick_nohz_dep_clear_task(struct task_struct *tsk, enum tick_dep_bits bit)
{
	tick_dep_drop(&tsk->tick_dep_mask, bit);
}
EXPORT_SYMBOL_GPL(tick_nohz_dep_clear_task);

/**
 * tick_nohz_dep_set_signal - keep the tick wherever a thread group runs
 * @tsk:	a task of the group
 * @bit:	the reason (process CPU-time timers)
 *
 * Context: @tsk's siglock held, which keeps the thread list stable.
 */
void tick_nohz_dep_set_signal(struct task_struct *tsk, enum tick_dep_bits bit)
{
	struct signal_struct *sig = tsk->signal;
	struct task_struct *t;

	if (!tick_dep_add(&sig->tick_dep_mask, bit))
		return;
	lockdep_assert_held(&tsk->sighand->siglock);
	__for_each_thread(sig, t)
		tick_nohz_kick_task(t);
}

/**
 * tick_nohz_dep_clear_signal - drop a reason set by tick_nohz_dep_set_signal()
 * @sig:	the thread group
 * @bit:	the reason
 */
void tick_nohz_dep_clear_signal(struct signal_struct *sig, enum tick_dep_bits bit)
{
	tick_dep_drop(&sig->tick_dep_mask, bit);
}

/**
 * __tick_nohz_task_switch - a nohz_full CPU switched to another task
 *
 * A stopped tick restarts if the new task or its thread group needs it;
 * dependencies the new task lacks stop the tick at the next evaluation.
 * Context: the scheduler's task switch, interrupts disabled.
 */
void __tick_nohz_task_switch(void)
{
	struct tick_sched *ts = this_cpu_ptr(&tick_cpu_sched);

	if (!tick_nohz_full_cpu(smp_processor_id()) || !tick_sched_has(ts, TS_FLAG_STOPPED))
		return;
	if (atomic_read(&current->tick_dep_mask) ||
	    atomic_read(&current->signal->tick_dep_mask))
		tick_nohz_full_kick_self();
}

/* Whether this busy nohz_full CPU may stop its tick; why not, traced. */
static bool tick_nohz_full_may_stop(struct tick_sched *ts, int cpu)
{
	unsigned int why;

	if (unlikely(!cpu_online(cpu)))
		return false;
	why = tick_dep_reason(atomic_read(&tick_dep_global), atomic_read(&ts->tick_dep_mask),
			      atomic_read(&current->tick_dep_mask),
			      atomic_read(&current->signal->tick_dep_mask));
	if (why)
		trace_tick_stop(0, why);
	return !why;
}

/*
 * Stop, move or restart the tick of this nohz_full CPU as its dependencies
 * and timers say.
 * Context: interrupts disabled, not in idle.
 */
static void tick_nohz_full_update(struct tick_sched *ts)
{
	int cpu = smp_processor_id();

	if (!tick_nohz_full_cpu(cpu) || !tick_sched_has(ts, TS_FLAG_NOHZ))
		return;
	if (!tick_nohz_full_may_stop(ts, cpu)) {
		if (tick_sched_has(ts, TS_FLAG_STOPPED))
			tick_nohz_restart_tick(ts, ktime_get());
	} else if (tick_nohz_next_event(ts, cpu)) {
		tick_nohz_stop_tick(ts, cpu);
	} else {
		/* A timer, RCU or softirq wants the next tick: keep it. */
		ts->timer_expires_base = 0;
	}
}

static bool tick_nohz_duty_pinned_here(int cpu)
{
	return tick_duty_pinned(tick_nohz_full_running, READ_ONCE(tick_do_timer_cpu), cpu);
}

/**
 * tick_nohz_full_setup - the CPUs of nohz_full=
 * @cpumask:	the CPUs, as the housekeeping code parsed them
 */
void __init tick_nohz_full_setup(cpumask_var_t cpumask)
{
	tick_nohz_full_running = true;
	alloc_bootmem_cpumask_var(&tick_nohz_full_mask);
	cpumask_copy(tick_nohz_full_mask, cpumask);
}

/**
 * tick_nohz_cpu_hotpluggable - whether a CPU may go offline, as the tick sees it
 * @cpu:	the CPU
 *
 * Return: false for the CPU that keeps time for nohz_full CPUs.
 */
bool tick_nohz_cpu_hotpluggable(unsigned int cpu)
{
	return !tick_nohz_duty_pinned_here(cpu);
}

static int tick_nohz_cpu_predown(unsigned int cpu)
{
	return tick_nohz_cpu_hotpluggable(cpu) ? 0 : -EBUSY;
}

/**
 * tick_nohz_init - start full dynticks on the CPUs of nohz_full=
 *
 * Context: boot, on the boot CPU, before the other CPUs come up.
 */
void __init tick_nohz_init(void)
{
	bool suspend_on_boot = IS_ENABLED(CONFIG_PM_SLEEP_SMP) &&
			       !IS_ENABLED(CONFIG_PM_SLEEP_SMP_NONZERO_CPU);
	int cpu = smp_processor_id();

	if (!tick_nohz_full_running)
		return;
	/* Without a self-IPI a stopped tick could never be kicked back on. */
	if (!arch_irq_work_has_interrupt()) {
		pr_warn("NO_HZ: Can't run full dynticks because arch doesn't support IRQ work self-IPIs\n");
		tick_nohz_full_running = false;
		cpumask_clear(tick_nohz_full_mask);
		return;
	}
	if (tick_nohz_full_boot_trim(tick_nohz_full_mask, cpu, suspend_on_boot))
		pr_warn("NO_HZ: Clearing %d from nohz_full range for timekeeping\n", cpu);

	for_each_cpu(cpu, tick_nohz_full_mask)
		ct_cpu_track_user(cpu);
	WARN_ON(cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "kernel/nohz:predown",
					  NULL, tick_nohz_cpu_predown) < 0);
	pr_info("NO_HZ: Full dynticks CPUs: %*pbl.\n", cpumask_pr_args(tick_nohz_full_mask));
}
#else /* !CONFIG_NO_HZ_FULL */
static inline void tick_nohz_full_update(struct tick_sched *ts) { }
static inline bool tick_nohz_duty_pinned_here(int cpu) { return false; }
#endif /* !CONFIG_NO_HZ_FULL */

static bool tick_nohz_may_stop(struct tick_sched *ts, int cpu)
{
	WARN_ON_ONCE(cpu_is_offline(cpu));

	return tick_sched_has(ts, TS_FLAG_NOHZ) && !need_resched() &&
	       !tick_nohz_softirq_pending() && !tick_nohz_duty_pinned_here(cpu);
}

/**
 * tick_nohz_idle_stop_tick - stop the tick of this idle CPU if it may
 *
 * Uses the deadline tick_nohz_get_sleep_length() computed for the idle
 * governor in this round, if it did.
 * Context: idle task, interrupts disabled, after tick_nohz_idle_enter().
 */
void tick_nohz_idle_stop_tick(void)
{
	struct tick_sched *ts = this_cpu_ptr(&tick_cpu_sched);
	int cpu = smp_processor_id();
	bool was_stopped = tick_sched_has(ts, TS_FLAG_STOPPED);
	ktime_t expires;

	if (ts->timer_expires_base)
		expires = ts->timer_expires;
	else if (tick_nohz_may_stop(ts, cpu))
		expires = tick_nohz_next_event(ts, cpu);
	else
		return;

	ts->idle_calls++;
	if (!expires) {
		ts->timer_expires_base = 0;
		return;
	}

	tick_nohz_stop_tick(ts, cpu);
	ts->idle_sleeps++;
	ts->idle_expires = expires;

	if (!was_stopped && tick_sched_has(ts, TS_FLAG_STOPPED)) {
		ts->idle_jiffies = ts->last_jiffies;
		nohz_balance_enter_idle(cpu);
	}
}

/**
 * tick_nohz_idle_retain_tick - keep the tick of this idle CPU running
 *
 * The idle governor chose a shallow state: drop the deadline computed for it.
 * Context: idle task, interrupts disabled.
 */
void tick_nohz_idle_retain_tick(void)
{
	this_cpu_ptr(&tick_cpu_sched)->timer_expires_base = 0;
}

static void tick_nohz_idle_begin(struct tick_sched *ts)
{
	/* The deadline of the previous idle round was used or dropped. */
	WARN_ON_ONCE(ts->timer_expires_base);
	tick_sched_mark(ts, TS_FLAG_INIDLE);
	tick_nohz_start_idle(ts);
}

/**
 * tick_nohz_idle_enter - this CPU enters the idle loop
 *
 * Starts its idle time accounting; the tick is stopped later, by
 * tick_nohz_idle_stop_tick(), if the idle governor wants.
 * Context: idle task, interrupts enabled.
 */
void tick_nohz_idle_enter(void)
{
	lockdep_assert_irqs_enabled();
	local_irq_disable();
	tick_nohz_idle_begin(this_cpu_ptr(&tick_cpu_sched));
	local_irq_enable();
}

/*
 * Idle ends with the tick stopped.  A nohz_full CPU keeps it stopped if the
 * task it runs next may run without it.
 */
static void tick_nohz_idle_end_stopped(struct tick_sched *ts, ktime_t now)
{
	if (tick_nohz_full_cpu(smp_processor_id())) {
		tick_nohz_full_update(ts);
		tick_nohz_account_idle_ticks(ts, now);
	} else {
		tick_nohz_resume_tick(ts, now);
	}
}

/**
 * tick_nohz_idle_exit - this CPU leaves the idle loop
 *
 * Closes its idle time and restarts its tick if it was stopped.
 * Context: idle task, interrupts enabled.
 */
void tick_nohz_idle_exit(void)
{
	struct tick_sched *ts = this_cpu_ptr(&tick_cpu_sched);
	ktime_t now;

	local_irq_disable();

	WARN_ON_ONCE(!tick_sched_has(ts, TS_FLAG_INIDLE));
	WARN_ON_ONCE(ts->timer_expires_base);
	tick_sched_unmark(ts, TS_FLAG_INIDLE);

	if (tick_sched_has(ts, TS_FLAG_IDLE_ACTIVE | TS_FLAG_STOPPED)) {
		now = ktime_get();
		if (tick_sched_has(ts, TS_FLAG_IDLE_ACTIVE))
			tick_nohz_stop_idle(ts, now);
		if (tick_sched_has(ts, TS_FLAG_STOPPED))
			tick_nohz_idle_end_stopped(ts, now);
	}

	local_irq_enable();
}

/**
 * tick_nohz_idle_restart_tick - restart this idle CPU's tick if stopped
 *
 * For an idle loop that polls instead of sleeping.
 * Context: idle task, interrupts disabled.
 */
void tick_nohz_idle_restart_tick(void)
{
	struct tick_sched *ts = this_cpu_ptr(&tick_cpu_sched);

	if (tick_sched_has(ts, TS_FLAG_STOPPED))
		tick_nohz_resume_tick(ts, ktime_get());
}

/**
 * tick_nohz_irq_exit - an interrupt taken in idle or on a nohz_full CPU ends
 *
 * In idle, idle time accounting resumes; whether the tick stays stopped
 * the idle loop decides when it runs again.  A busy nohz_full CPU decides
 * here.
 * Context: hard interrupt exit, interrupts disabled.
 */
void tick_nohz_irq_exit(void)
{
	struct tick_sched *ts = this_cpu_ptr(&tick_cpu_sched);

	if (tick_sched_has(ts, TS_FLAG_INIDLE))
		tick_nohz_start_idle(ts);
	else
		tick_nohz_full_update(ts);
}

/* An interrupt wakes an idle CPU: its handler expects current jiffies. */
static void tick_nohz_irq_enter(void)
{
	struct tick_sched *ts = this_cpu_ptr(&tick_cpu_sched);
	ktime_t now;

	if (!tick_sched_has(ts, TS_FLAG_STOPPED | TS_FLAG_IDLE_ACTIVE))
		return;

	now = ktime_get();
	if (tick_sched_has(ts, TS_FLAG_IDLE_ACTIVE))
		tick_nohz_stop_idle(ts, now);
	if (tick_sched_has(ts, TS_FLAG_STOPPED)) {
		ts->idle_waketime = now;
		tick_update_jiffies(now);
		touch_softlockup_watchdog_sched();
	}
}

/**
 * tick_nohz_idle_got_tick - whether the tick ran since the last call
 *
 * Tells the idle governor that the CPU woke for the tick, not for the
 * event it predicted.
 *
 * Return: true once per tick taken in idle.
 */
bool tick_nohz_idle_got_tick(void)
{
	struct tick_sched *ts = this_cpu_ptr(&tick_cpu_sched);
	bool got = ts->got_idle_tick;

	ts->got_idle_tick = 0;
	return got;
}

/**
 * tick_nohz_get_next_hrtimer - when this CPU's tick device fires next
 *
 * Return: the device's next event, including the tick itself.
 * Context: interrupts disabled.
 */
ktime_t tick_nohz_get_next_hrtimer(void)
{
	return tick_this_cpu_device()->next_event;
}

/**
 * tick_nohz_get_sleep_length - how long this idle CPU may sleep
 * @delta_next:	set to the time until the tick device's next event
 *
 * The deadline computed here is kept for tick_nohz_idle_stop_tick() in
 * the same idle round.  The idle entry time stands in for now.
 *
 * Return: the time until the next event if the tick were stopped, or
 * *@delta_next when it may not be.  Both are measured from the idle entry
 * time, so they can be negative when that event has already passed.
 * Context: idle task, interrupts disabled, after tick_nohz_idle_enter().
 */
ktime_t tick_nohz_get_sleep_length(ktime_t *delta_next)
{
	struct tick_sched *ts = this_cpu_ptr(&tick_cpu_sched);
	int cpu = smp_processor_id();
	ktime_t now = ts->idle_entrytime;
	ktime_t next;

	WARN_ON_ONCE(!tick_sched_has(ts, TS_FLAG_INIDLE));

	*delta_next = ktime_sub(tick_this_cpu_device()->next_event, now);
	if (!tick_nohz_may_stop(ts, cpu))
		return *delta_next;

	next = tick_nohz_next_event(ts, cpu);
	if (!next)
		return *delta_next;

	/* An hrtimer other than the tick may come first: the governor must know. */
	next = min_t(u64, next, hrtimer_next_event_without(&ts->sched_timer));
	return ktime_sub(next, now);
}

/**
 * tick_nohz_get_idle_calls_cpu - how often a CPU tried to stop its tick in idle
 * @cpu:	the CPU
 *
 * Return: the count, for the scheduler's idle heuristics.
 */
unsigned long tick_nohz_get_idle_calls_cpu(int cpu)
{
	return tick_get_tick_sched(cpu)->idle_calls;
}

/**
 * get_jiffies_update - jiffies and when they last advanced
 * @basej:	set to jiffies
 *
 * Return: the time jiffies reached *@basej, on the jiffies grid.
 */
u64 get_jiffies_update(unsigned long *basej)
{
	return tick_jiffies_snapshot(basej);
}

/* The device handler of low resolution NO_HZ. */
static void tick_nohz_lowres_handler(struct clock_event_device *dev)
{
	struct hrtimer *tick = this_cpu_ptr(&tick_cpu_sched.sched_timer);

	/* The event is consumed: nothing is armed until the tick re-arms it. */
	dev->next_event = KTIME_MAX;
	if (tick_nohz_handler(tick) == HRTIMER_RESTART)
		tick_program_event(hrtimer_get_expires(tick), 1);
}

static void tick_nohz_activate(struct tick_sched *ts)
{
	if (!tick_nohz_enabled)
		return;
	tick_sched_mark(ts, TS_FLAG_NOHZ);
	/* The first NO_HZ CPU makes timers account for sleeping CPUs. */
	if (test_and_set_bit(0, &tick_nohz_active))
		return;
	timers_update_nohz();
}

/* Low resolution NO_HZ: the device handler runs the tick. */
static void tick_nohz_switch_to_nohz(void)
{
	if (tick_nohz_enabled && !tick_switch_to_oneshot(tick_nohz_lowres_handler))
		tick_setup_sched_timer(false);
}

#else /* !CONFIG_NO_HZ_COMMON */

static inline void tick_nohz_activate(struct tick_sched *ts) { }
static inline void tick_nohz_switch_to_nohz(void) { }
static inline void tick_nohz_irq_enter(void) { }

#endif /* !CONFIG_NO_HZ_COMMON */

/**
 * tick_irq_enter - an interrupt arrives on this CPU
 *
 * Runs a broadcast event this CPU missed while its device was stopped, and
 * brings jiffies up to date if its tick was stopped.
 * Context: hard interrupt entry, interrupts disabled.
 */
void tick_irq_enter(void)
{
	tick_check_oneshot_broadcast_this_cpu();
	tick_nohz_irq_enter();
}

/**
 * tick_check_oneshot_change - whether this CPU's tick may change mode now
 * @allow_nohz:	high resolution timers are off: switch to low resolution
 *		NO_HZ here if possible
 *
 * Called by hrtimer_run_queues(), from the periodic tick, after the
 * clocksource or the tick device changed.  Switches only once, from periodic mode, and only when
 * timekeeping and the tick device can run oneshot.
 *
 * Return: 1 when the caller may switch to high resolution mode.
 */
int tick_check_oneshot_change(int allow_nohz)
{
	struct tick_sched *ts = this_cpu_ptr(&tick_cpu_sched);

	if (!test_and_clear_bit(0, &ts->check_clocks) || tick_sched_has(ts, TS_FLAG_NOHZ))
		return 0;
	/* Both the tick device and the clocksource must do oneshot. */
	if (!tick_is_oneshot_available() || !timekeeping_valid_for_hres())
		return 0;
	if (allow_nohz) {
		tick_nohz_switch_to_nohz();
		return 0;
	}
	return 1;
}
