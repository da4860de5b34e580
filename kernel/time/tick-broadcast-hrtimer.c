// SPDX-License-Identifier: GPL-2.0
/*
 * A broadcast device made of an hrtimer, for machines whose only timers
 * are per-CPU devices that stop in deep idle.  The hrtimer runs on some
 * CPU that stays awake (the broadcast code keeps that CPU, bound_on, out
 * of deep idle) and wakes the sleeping CPUs from there.
 */
#include <linux/clockchips.h>
#include <linux/hrtimer.h>

#include "tick-internal.h"

static struct hrtimer bc_hrtimer;

/*
 * Only try to cancel: the broadcast handler may be running on another CPU
 * and waiting for tick_broadcast_lock, which our caller holds, so waiting
 * for it here would deadlock.
 */
static int bc_hrtimer_shutdown(struct clock_event_device *bc)
{
	hrtimer_try_to_cancel(&bc_hrtimer);
	return 0;
}

/*
 * Called with tick_broadcast_lock held, from idle entry and exit or from
 * the broadcast handler itself, so hrtimer_cancel() is not an option here
 * either.  hrtimer_start() queues the timer on this CPU unless its
 * callback is running elsewhere, in which case it stays there; bound_on
 * tells the broadcast code which CPU must stay awake.  The lock keeps the
 * timer's base from changing until we have read it.
 */
static int bc_hrtimer_arm(ktime_t expires, struct clock_event_device *bc)
{
	hrtimer_start(&bc_hrtimer, expires, HRTIMER_MODE_ABS_PINNED_HARD);
	bc->bound_on = bc_hrtimer.base->cpu_base->cpu;
	return 0;
}

static struct clock_event_device bc_hrtimer_device = {
	.name			= "bc_hrtimer",
	.features		= CLOCK_EVT_FEAT_ONESHOT | CLOCK_EVT_FEAT_KTIME |
				  CLOCK_EVT_FEAT_HRTIMER,
	/* Any real device makes a better broadcast device. */
	.rating			= 0,
	.cpumask		= cpu_possible_mask,
	.bound_on		= -1,
	.set_state_shutdown	= bc_hrtimer_shutdown,
	.set_next_ktime		= bc_hrtimer_arm,
	/* Programmed in absolute time: no conversion, no limits. */
	.max_delta_ns		= KTIME_MAX,
	.max_delta_ticks	= ULONG_MAX,
	.min_delta_ns		= 1,
	.min_delta_ticks	= 1,
	.mult			= 1,
	.shift			= 0,
};

static enum hrtimer_restart bc_handler(struct hrtimer *timer)
{
	bc_hrtimer_device.event_handler(&bc_hrtimer_device);
	/* The handler re-arms the device for the next sleeper if need be. */
	return HRTIMER_NORESTART;
}

/**
 * tick_setup_hrtimer_broadcast - register the hrtimer broadcast device
 *
 * For architectures whose per-CPU timers stop in deep idle and which may
 * have no global timer to broadcast with.
 */
void tick_setup_hrtimer_broadcast(void)
{
	hrtimer_init(&bc_hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
	bc_hrtimer.function = bc_handler;
	clockevents_register_device(&bc_hrtimer_device);
}
