/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decisions of the tick device layer, the broadcast tick and NO_HZ that are
 * static in a normal build and visible to their KUnit suites
 * (kernel/time/tick_*_test.c) when KUnit is enabled.
 */
#ifndef _KERNEL_TIME_TICK_KUNIT_H
#define _KERNEL_TIME_TICK_KUNIT_H

#include <linux/clockchips.h>
#include <linux/types.h>

/* A CPU's and the broadcast's state, as entering deep idle sees it. */
struct bc_enter_state {
	bool periodic;		/* the broadcast runs periodic */
	bool hrtimer_bc;	/* the broadcast device is an hrtimer */
	bool bc_bound_here;	/* ... armed and queued on this CPU */
	bool asleep;		/* this CPU already sleeps on the broadcast */
	bool overdue;		/* its event was due when it last woke */
	ktime_t local_next;	/* its device's next event */
	ktime_t bc_next;	/* the broadcast device's next event */
};

/* A CPU's state, as leaving deep idle sees it. */
struct bc_exit_state {
	bool asleep;		/* it slept on the broadcast */
	bool woken;		/* the broadcast handler sent it its event */
	ktime_t local_next;	/* its device's next event */
	ktime_t bc_next;	/* the broadcast device's next event */
	ktime_t now;
};

/* A hosted CPU's event, as programming its dummy device sees it. */
struct bc_carry_state {
	ktime_t expires;	/* the event; KTIME_MAX: nothing pending */
	ktime_t prev;		/* the event it replaces */
	ktime_t now;		/* when the CPU asked (not after the lock) */
	ktime_t bc_next;	/* the broadcast device's next event */
	bool force;		/* fire at once if @expires has passed */
};

/* Steps of entering and leaving deep idle, for the broadcast code to take. */
#define BC_JOIN			0x01	/* join the sleepers */
#define BC_STOP_LOCAL		0x02	/* stop the CPU's own device */
#define BC_ARM			0x04	/* arm the broadcast for its event */
#define BC_LEAVE		0x08	/* leave the sleepers, restart the device */
#define BC_CLEAR_WOKEN		0x10	/* its event was delivered */
#define BC_MARK_OVERDUE		0x20	/* let the broadcast handler run its event */
#define BC_REARM_LOCAL		0x40	/* re-arm its own device */
#define BC_REAIM		0x80	/* aim the broadcast at the next sleeper */

/* What decides when an idle CPU's tick must fire next (tick-sched.c). */
struct tick_idle_view {
	u64 basemono;		/* when jiffies last advanced */
	u64 next_timer;		/* earliest timer, wheel or hrtimer; KTIME_MAX: none */
	u64 max_deferment;	/* longest sleep the clocksource allows */
	bool needs_tick;	/* RCU, irq_work, the arch or a timer softirq wants it */
	bool stopped;		/* the tick is already stopped */
	bool keeps_time;	/* the CPU has, or last had, the jiffies duty */
};

#if IS_ENABLED(CONFIG_KUNIT)
bool tick_device_preferred(const struct clock_event_device *curdev,
			   const struct clock_event_device *newdev,
			   int cpu, bool oneshot_active, bool irq_movable);
ktime_t tick_first_future_period(struct clock_event_device *dev, ktime_t next,
				 void (*on_miss)(int cpu), int cpu);
ktime_t tick_boot_next_period(ktime_t now);
ktime_t tick_grid_round_up(ktime_t t);
bool tick_broadcast_suitable(const struct clock_event_device *curdev,
			     const struct clock_event_device *newdev, bool oneshot);
ktime_t tick_broadcast_scan(const struct cpumask *sleepers, const struct cpumask *woken,
			    ktime_t (*expiry_of)(int cpu), ktime_t now,
			    struct cpumask *due, int *next_cpu);
int tick_broadcast_enter_plan(const struct bc_enter_state *in, unsigned int *todo);
unsigned int tick_broadcast_exit_plan(const struct bc_exit_state *in);
bool tick_broadcast_can_host(const struct clock_event_device *bc);
int tick_broadcast_carry_plan(const struct bc_carry_state *in, unsigned int *todo);
bool tick_broadcast_arm(struct clock_event_device *bc, int cpu, ktime_t expires,
			void (*wake)(const struct cpumask *mask));
u64 tick_jiffies_due(ktime_t now, ktime_t next_period);
ktime_t tick_period_after(ktime_t grid, ktime_t now);
u64 tick_skew_offset(unsigned int cpu, unsigned int nr_cpus);
ktime_t tick_idle_sum_at(ktime_t sum, bool open, ktime_t since, ktime_t now);
u64 tick_nohz_pick_deadline(const struct tick_idle_view *v);
bool tick_duty_after_stop(int *owner, int cpu, bool was_last);
#ifdef CONFIG_NO_HZ_FULL
unsigned int tick_dep_reason(unsigned int global, unsigned int cpu,
			     unsigned int task, unsigned int signal);
bool tick_duty_pinned(bool full_running, int owner, int cpu);
bool tick_nohz_full_boot_trim(struct cpumask *full, unsigned int boot_cpu,
			      bool suspend_on_boot);
#endif
#endif

#endif /* _KERNEL_TIME_TICK_KUNIT_H */
