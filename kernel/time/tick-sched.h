/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU state of the tick once it runs on a oneshot device: the tick
 * emulated by an hrtimer (high resolution) or by the device directly (low
 * resolution NO_HZ), whether it is stopped in idle, and the idle statistics
 * that cpufreq, /proc/stat and /proc/timer_list read.
 */
#ifndef _KERNEL_TIME_TICK_SCHED_H
#define _KERNEL_TIME_TICK_SCHED_H

#include <linux/hrtimer.h>

enum tick_device_mode {
	TICKDEV_MODE_PERIODIC,
	TICKDEV_MODE_ONESHOT,
};

/* A CPU's tick device and the mode the tick layer runs it in. */
struct tick_device {
	struct clock_event_device *evtdev;
	enum tick_device_mode mode;
};

/* Bits of tick_sched::flags */
#define TS_FLAG_INIDLE		BIT(0)	/* between idle entry and idle exit */
#define TS_FLAG_STOPPED		BIT(1)	/* the periodic tick is stopped */
#define TS_FLAG_IDLE_ACTIVE	BIT(2)	/* idle time is being accounted */
#define TS_FLAG_DO_TIMER_LAST	BIT(3)	/* gave up the jiffies duty to sleep */
#define TS_FLAG_NOHZ		BIT(4)	/* the tick may stop in idle */
#define TS_FLAG_HIGHRES		BIT(5)	/* an hrtimer emulates the tick */

/**
 * struct tick_sched - a CPU's tick emulation and idle state
 * @flags:		TS_FLAG_* bits
 * @stalled_jiffies:	ticks in a row that saw jiffies not move
 * @last_tick_jiffies:	jiffies at the previous tick
 * @sched_timer:	the hrtimer emulating the tick; in low resolution mode
 *			only its expiry is used, as the tick's next deadline
 * @last_tick:		deadline of the tick that stopping it cancelled; the
 *			restarted tick continues on its period grid
 * @next_tick:		deadline programmed while the tick is stopped, 0 when
 *			it must be reprogrammed even if unchanged
 * @idle_jiffies:	jiffies when the tick stopped, for idle tick accounting
 * @idle_waketime:	when an interrupt last woke the stopped CPU
 * @got_idle_tick:	the tick ran while the CPU was idle
 * @idle_sleeptime_seq:	orders @idle_entrytime, IDLE_ACTIVE and the sums
 *			for readers on other CPUs
 * @idle_entrytime:	start of the idle period being accounted
 * @last_jiffies:	jiffies the last next-event computation started from
 * @timer_expires_base:	time of that jiffy; 0 when no computation is pending
 * @timer_expires:	the computed next event (0: keep the tick)
 * @next_timer:		earliest timer seen by that computation (diagnostics)
 * @idle_expires:	deadline the idle CPU last slept until (diagnostics)
 * @idle_exittime:	when the CPU last left idle with its tick stopped
 * @check_clocks:	bit 0 set when the clocksource or tick device changed
 * @tick_dep_mask:	TICK_DEP_MASK_* reasons this CPU keeps its tick while
 *			it runs a task (NO_HZ_FULL), set and cleared from any
 *			CPU, NMIs included
 * @idle_calls:		idle stop attempts
 * @idle_sleeps:	idle stop attempts that found a deadline beyond the next
 *			tick (the timer base may still have kept it running)
 * @idle_sleeptime:	idle time without I/O waiting
 * @iowait_sleeptime:	idle time with I/O outstanding
 *
 * Every field but @check_clocks, @tick_dep_mask, the idle sums and their sequence count is
 * touched only by its own CPU with interrupts disabled; readers on other
 * CPUs (timer_list, the scheduler's idle call counter) accept torn values.
 */
struct tick_sched {
	unsigned long			flags;

	unsigned int			stalled_jiffies;
	unsigned long			last_tick_jiffies;

	struct hrtimer			sched_timer;
	ktime_t				last_tick;
	ktime_t				next_tick;
	unsigned long			idle_jiffies;
	ktime_t				idle_waketime;
	unsigned int			got_idle_tick;

	seqcount_t			idle_sleeptime_seq;
	ktime_t				idle_entrytime;

	unsigned long			last_jiffies;
	u64				timer_expires_base;
	u64				timer_expires;
	u64				next_timer;
	ktime_t				idle_expires;
	ktime_t				idle_exittime;

	unsigned long			check_clocks;
	atomic_t			tick_dep_mask;

	/* Kept when the CPU goes offline: tick_sched_timer_dying() */
	unsigned long			idle_calls;
	unsigned long			idle_sleeps;
	ktime_t				idle_sleeptime;
	ktime_t				iowait_sleeptime;
};

extern struct tick_sched *tick_get_tick_sched(int cpu);

extern void tick_setup_sched_timer(bool hrtimer);
#ifdef CONFIG_TICK_ONESHOT
extern void tick_sched_timer_dying(int cpu);
#else
static inline void tick_sched_timer_dying(int cpu) { }
#endif

#ifdef CONFIG_GENERIC_CLOCKEVENTS_BROADCAST
extern int __tick_broadcast_oneshot_control(enum tick_broadcast_state state);
#else
static inline int __tick_broadcast_oneshot_control(enum tick_broadcast_state state)
{
	return -EBUSY;
}
#endif

#endif /* _KERNEL_TIME_TICK_SCHED_H */
