// SPDX-License-Identifier: GPL-2.0
/*
 * Oneshot operation of the per-CPU tick device: switching a CPU's device
 * from periodic to oneshot mode (for NO_HZ idle or high resolution timers)
 * and programming it for the next hrtimer or tick.  Everything here acts
 * on the calling CPU's own tick device, with interrupts disabled.
 */
#include <linux/hrtimer.h>
#include <linux/percpu.h>
#include <linux/printk.h>

#include "tick-internal.h"

/* Nothing is pending: disarm @dev until the next expiry. */
static void tick_park(struct clock_event_device *dev)
{
	/* A hosted CPU's event leaves the broadcast device as well. */
	if (dev->features & CLOCK_EVT_FEAT_DUMMY)
		tick_broadcast_carry(dev, KTIME_MAX, false);
	else
		dev->next_event = KTIME_MAX;
	clockevents_switch_state(dev, CLOCK_EVT_STATE_ONESHOT_STOPPED);
}

/* Put @dev in oneshot mode, if it is not there yet, and arm it for @when. */
static int tick_arm_oneshot(struct clock_event_device *dev, ktime_t when, bool force)
{
	clockevents_switch_state(dev, CLOCK_EVT_STATE_ONESHOT);
	return tick_program_dev(dev, when, force);
}

/**
 * tick_program_event - arm this CPU's tick device for the next event
 * @expires:	CLOCK_MONOTONIC expiry, or KTIME_MAX when nothing is pending
 * @force:	fire as soon as possible when @expires has passed
 *
 * With nothing pending the device is stopped, so an idle CPU takes no
 * pointless interrupt when the device's range runs out; the next real
 * expiry starts it again.
 *
 * Context: interrupts disabled.
 * Return: 0, or -ETIME when @expires has passed and @force is not set.
 */
int tick_program_event(ktime_t expires, int force)
{
	struct clock_event_device *dev = tick_this_cpu_device();

	if (unlikely(expires == KTIME_MAX)) {
		tick_park(dev);
		return 0;
	}
	if (unlikely(clockevent_state_oneshot_stopped(dev)))
		return tick_arm_oneshot(dev, expires, force);
	return tick_program_dev(dev, expires, force);
}

/**
 * tick_resume_oneshot - restart this CPU's oneshot tick after a resume
 *
 * The pending expiry is unknown after the device lost its state, so the
 * device fires at once and its handler works out the next event.
 *
 * Context: interrupts disabled.
 */
void tick_resume_oneshot(void)
{
	tick_arm_oneshot(tick_this_cpu_device(), ktime_get(), true);
}

/**
 * tick_setup_oneshot - put a device in oneshot mode and arm it
 * @newdev:	the device
 * @handler:	its new event handler
 * @next_event:	first expiry; fired at once if already past
 *
 * Context: interrupts disabled, on a CPU @newdev serves.
 */
void tick_setup_oneshot(struct clock_event_device *newdev,
			void (*handler)(struct clock_event_device *), ktime_t next_event)
{
	newdev->event_handler = handler;
	tick_arm_oneshot(newdev, next_event, true);
}

/* Why @dev cannot run this CPU's tick in oneshot mode, or NULL if it can. */
static const char *tick_oneshot_refusal(struct clock_event_device *dev)
{
	if (!dev)
		return "no tick device";
	/* A dummy runs oneshot only through a broadcast device that hosts it. */
	if (!tick_device_is_functional(dev) && !tick_broadcast_can_host_now())
		return "is not functional";
	if (!(dev->features & CLOCK_EVT_FEAT_ONESHOT))
		return "does not support one-shot mode";
	return NULL;
}

/**
 * tick_switch_to_oneshot - move this CPU's tick device to oneshot mode
 * @handler:	event handler for oneshot mode (the NO_HZ tick handler or
 *		hrtimer_interrupt)
 *
 * The broadcast device follows, so that CPUs which depend on it keep
 * their events in oneshot mode too.
 *
 * Context: interrupts disabled.
 * Return: 0, or -EINVAL when this CPU's device cannot do oneshot.
 */
int tick_switch_to_oneshot(void (*handler)(struct clock_event_device *))
{
	struct clock_event_device *dev = tick_this_cpu_device();
	struct tick_device *td = this_cpu_ptr(&tick_cpu_device);
	const char *why = tick_oneshot_refusal(dev);

	if (why) {
		pr_info("Clockevents: could not switch to one-shot mode: %s%s%s.\n",
			dev ? dev->name : "", dev ? " " : "", why);
		return -EINVAL;
	}

	dev->event_handler = handler;
	clockevents_switch_state(dev, CLOCK_EVT_STATE_ONESHOT);
	td->mode = TICKDEV_MODE_ONESHOT;
	/* CPUs that rely on the broadcast device need it oneshot too. */
	tick_broadcast_switch_to_oneshot();
	return 0;
}

/**
 * tick_oneshot_mode_active - whether this CPU's tick runs in oneshot mode
 *
 * Return: 1 when NO_HZ or high resolution timers switched this CPU's
 * tick device to oneshot mode, else 0.
 */
int tick_oneshot_mode_active(void)
{
	return this_cpu_read(tick_cpu_device.mode) == TICKDEV_MODE_ONESHOT;
}

#if IS_ENABLED(CONFIG_HIGH_RES_TIMERS)
/**
 * tick_init_highres - hand this CPU's tick device to the hrtimer code
 *
 * Context: interrupts disabled.
 * Return: 0, or -EINVAL when the device cannot do oneshot.
 */
int tick_init_highres(void)
{
	return tick_switch_to_oneshot(hrtimer_interrupt);
}
#endif
