// SPDX-License-Identifier: GPL-2.0
/*
 * The broadcast tick: one global clock event device that stands in for
 * per-CPU devices which are dummies or stop in deep idle (C3STOP).
 *
 * In periodic mode the broadcast device ticks at HZ and passes every tick
 * on to the CPUs in tick_broadcast_mask.  In oneshot mode a CPU about to
 * stop its own device in deep idle joins bc_sleepers; the broadcast device
 * is armed for the earliest event among them and, when it fires, wakes
 * each CPU whose event is due with its device's broadcast() IPI.  A CPU
 * may also have a private per-CPU wakeup device that keeps running in
 * deep idle, in which case it needs no broadcast at all.
 *
 * A CPU whose tick device is a dummy (no usable local timer) is hosted by
 * a oneshot broadcast device for good: it sits among the sleepers whenever
 * it has an event, so it runs oneshot, NO_HZ and high resolution timers at
 * the cost of one IPI per event.  Programming its dummy device lands in
 * tick_broadcast_carry().
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <kunit/visibility.h>

#include "tick-internal.h"
#include "tick-kunit.h"

/*
 * Everything below is protected by tick_broadcast_lock, taken with
 * interrupts off.  It nests inside clockevents_lock.
 *
 * bc_tick:		the broadcast device and its mode
 * tick_broadcast_mask:	CPUs whose periodic tick comes from bc_tick
 * bc_wanted:		CPUs that asked for broadcast (tick_broadcast_control)
 * bc_scratch:		scratch mask for the handlers
 * bc_forced:		broadcast was forced on and can no longer be turned off
 */
static struct tick_device bc_tick;
static cpumask_var_t tick_broadcast_mask __cpumask_var_read_mostly;
static cpumask_var_t bc_wanted __cpumask_var_read_mostly;
static cpumask_var_t bc_scratch __cpumask_var_read_mostly;
static bool bc_forced;
static __cacheline_aligned_in_smp DEFINE_RAW_SPINLOCK(tick_broadcast_lock);

#ifdef CONFIG_TICK_ONESHOT
/*
 * Oneshot broadcast state, also under tick_broadcast_lock:
 *
 * bc_sleepers:	CPUs in deep idle whose device is stopped; bc_tick is armed
 *		for the earliest of their events
 * bc_woken:	CPUs the handler has sent their event to, which have not
 *		left idle yet; leaving idle must not re-arm their device
 * bc_overdue:	CPUs that left idle after their event was due; the next
 *		broadcast handler runs their event for them
 * bc_hosted:	CPUs with a dummy tick device whose events bc_tick carries
 *		for good; they never wake or sleep, they leave bc_sleepers
 *		when their event is sent and come back when they re-arm
 * tick_oneshot_wakeup_device: per-CPU devices that keep running in deep
 *		idle, so that their CPU needs no broadcast
 */
static cpumask_var_t bc_sleepers __cpumask_var_read_mostly;
static cpumask_var_t bc_woken __cpumask_var_read_mostly;
static cpumask_var_t bc_overdue __cpumask_var_read_mostly;
static cpumask_var_t bc_hosted __cpumask_var_read_mostly;
static DEFINE_PER_CPU(struct clock_event_device *, tick_oneshot_wakeup_device);

static void bc_start_oneshot(struct clock_event_device *bc, bool from_periodic);
static void bc_oneshot_with_hosting(struct clock_event_device *bc, bool from_periodic);
static void bc_forget_oneshot(int cpu);
static bool bc_host_new_cpu(struct clock_event_device *dev, int cpu);

static bool bc_hosting(void)
{
	return !cpumask_empty(bc_hosted);
}

/*
 * @cpu has a real tick device again (a driver's per-CPU device replaced
 * its dummy): its events are no longer the broadcast's to carry, and a
 * stale bit would keep bc_hosting() true and refuse hrtimer broadcasts.
 */
static void bc_unhost(int cpu)
{
	cpumask_clear_cpu(cpu, bc_hosted);
}

/**
 * tick_broadcast_can_host - whether a broadcast device can carry the events
 *	of CPUs whose tick device is a dummy
 * @bc:		the broadcast device, or NULL
 *
 * It must do oneshot, and it must not need a working local timer itself,
 * as the hrtimer pseudo device does.
 *
 * Return: true when it can.
 */
VISIBLE_IF_KUNIT bool tick_broadcast_can_host(const struct clock_event_device *bc)
{
	const unsigned int unfit = CLOCK_EVT_FEAT_HRTIMER | CLOCK_EVT_FEAT_DUMMY |
				   CLOCK_EVT_FEAT_PERCPU;

	return bc && (bc->features & CLOCK_EVT_FEAT_ONESHOT) && !(bc->features & unfit);
}
EXPORT_SYMBOL_IF_KUNIT(tick_broadcast_can_host);

/* While CPUs are hosted, a broadcast device that cannot host is refused. */
static bool bc_refused_while_hosting(const struct clock_event_device *dev)
{
	return bc_hosting() && !tick_broadcast_can_host(dev);
}
#else
/* Without oneshot ticks the broadcast never leaves periodic mode. */
static inline void bc_start_oneshot(struct clock_event_device *bc, bool from_periodic) { }

static inline void bc_oneshot_with_hosting(struct clock_event_device *bc,
					   bool from_periodic) { }

static inline void bc_forget_oneshot(int cpu) { }

static inline void bc_unhost(int cpu) { }

static inline bool bc_host_new_cpu(struct clock_event_device *dev, int cpu)
{
	return false;
}

static inline bool bc_hosting(void)
{
	return false;
}

static inline bool bc_refused_while_hosting(const struct clock_event_device *dev)
{
	return false;
}
#endif

/**
 * tick_get_broadcast_device - the broadcast tick device, for timer_list
 *
 * Return: the tick device whose evtdev is the broadcast device.
 */
struct tick_device *tick_get_broadcast_device(void)
{
	return &bc_tick;
}

/**
 * tick_get_broadcast_mask - CPUs on the periodic broadcast, for timer_list
 *
 * Return: the mask.
 */
struct cpumask *tick_get_broadcast_mask(void)
{
	return tick_broadcast_mask;
}

/**
 * tick_get_wakeup_device - a CPU's private deep-idle wakeup device
 * @cpu:	the CPU
 *
 * Return: the device, or NULL when @cpu has none.
 */
const struct clock_event_device *tick_get_wakeup_device(int cpu)
{
#ifdef CONFIG_TICK_ONESHOT
	return per_cpu(tick_oneshot_wakeup_device, cpu);
#else
	return NULL;
#endif
}

/* Start periodic broadcast ticks on @bc, if there is a device. */
static void bc_start_periodic(struct clock_event_device *bc)
{
	if (bc)
		tick_setup_periodic(bc, 1);
}

/* Restart @bc in the broadcast's current mode. */
static void bc_restart(struct clock_event_device *bc)
{
	if (bc_tick.mode == TICKDEV_MODE_ONESHOT)
		bc_start_oneshot(bc, false);
	else
		bc_start_periodic(bc);
}

/**
 * tick_broadcast_suitable - whether a device should become the broadcast
 *	device
 * @curdev:	the current broadcast device, or NULL
 * @newdev:	the candidate
 * @oneshot:	the broadcast runs in oneshot mode
 *
 * A broadcast device must keep running in deep idle and serve more than
 * one CPU: dummies, per-CPU devices and devices that stop in deep idle do
 * not qualify.  In oneshot mode it must do oneshot.  Then the higher
 * rating wins.
 *
 * Return: true when @newdev should replace @curdev.
 */
VISIBLE_IF_KUNIT bool tick_broadcast_suitable(const struct clock_event_device *curdev,
					      const struct clock_event_device *newdev,
					      bool oneshot)
{
	const unsigned int unfit = CLOCK_EVT_FEAT_DUMMY | CLOCK_EVT_FEAT_PERCPU |
				   CLOCK_EVT_FEAT_C3STOP;

	if (newdev->features & unfit)
		return false;
	if (oneshot && !(newdev->features & CLOCK_EVT_FEAT_ONESHOT))
		return false;
	return !curdev || curdev->rating < newdev->rating;
}
EXPORT_SYMBOL_IF_KUNIT(tick_broadcast_suitable);

#ifdef CONFIG_TICK_ONESHOT
/* A wakeup device's event: the broadcast path delivers it. */
static void tick_oneshot_wakeup_handler(struct clock_event_device *wd)
{
	/* Spurious when the tick was re-armed meanwhile; that is harmless. */
	tick_receive_broadcast();
}

/* Whether @newdev may be @cpu's private wakeup device instead of @curdev. */
static bool bc_wakeup_suitable(struct clock_event_device *curdev,
			       struct clock_event_device *newdev, int cpu)
{
	const unsigned int needed = CLOCK_EVT_FEAT_PERCPU | CLOCK_EVT_FEAT_ONESHOT;
	const unsigned int unfit = CLOCK_EVT_FEAT_DUMMY | CLOCK_EVT_FEAT_C3STOP;

	if ((newdev->features & needed) != needed || (newdev->features & unfit))
		return false;
	if (!cpumask_equal(newdev->cpumask, cpumask_of(cpu)))
		return false;
	return !curdev || curdev->rating < newdev->rating;
}

/*
 * Make @newdev (NULL: none) @cpu's wakeup device.  Returns true when it was
 * taken.  Context: tick_broadcast_lock held.
 */
static bool bc_set_wakeup_device(struct clock_event_device *newdev, int cpu)
{
	struct clock_event_device *curdev = per_cpu(tick_oneshot_wakeup_device, cpu);

	if (newdev) {
		if (!bc_wakeup_suitable(curdev, newdev, cpu) ||
		    !try_module_get(newdev->owner))
			return false;
		newdev->event_handler = tick_oneshot_wakeup_handler;
	}
	clockevents_exchange_device(curdev, newdev);
	per_cpu(tick_oneshot_wakeup_device, cpu) = newdev;
	return true;
}
#else
static bool bc_set_wakeup_device(struct clock_event_device *newdev, int cpu)
{
	return false;
}
#endif

/*
 * Swap the broadcast device for @dev, started in the broadcast's mode.
 * Returns the old device, whose module reference the caller drops outside
 * the lock.  In oneshot mode @dev gets its handler in the same hold of
 * the lock that makes it the broadcast device: a CPU that arms it in
 * between would have its event fire into no handler and be lost.
 */
static struct clock_event_device *bc_replace_device(struct clock_event_device *dev)
{
	struct clock_event_device *old = bc_tick.evtdev;

	__clockevents_exchange_device(old, dev);
	if (old)
		old->event_handler = clockevents_handle_noop;
	WRITE_ONCE(bc_tick.evtdev, dev);
	if (bc_tick.mode == TICKDEV_MODE_ONESHOT)
		bc_oneshot_with_hosting(dev, false);
	else if (!cpumask_empty(tick_broadcast_mask))
		bc_start_periodic(dev);
	return old;
}

/**
 * tick_install_broadcast_device - offer a device no CPU took as tick device
 * @dev:	the device
 * @cpu:	the CPU it was offered to
 *
 * It may become @cpu's private wakeup device or the broadcast device.
 *
 * Context: clockevents_lock held, interrupts disabled.
 */
void tick_install_broadcast_device(struct clock_event_device *dev, int cpu)
{
	struct clock_event_device *old = NULL;

	scoped_guard(raw_spinlock_irqsave, &tick_broadcast_lock) {
		if (bc_set_wakeup_device(dev, cpu))
			return;
		if (!tick_broadcast_suitable(bc_tick.evtdev, dev,
					     bc_tick.mode == TICKDEV_MODE_ONESHOT))
			return;
		/* The CPUs it hosts have no other way to get their events. */
		if (bc_refused_while_hosting(dev))
			return;
		if (!try_module_get(dev->owner))
			return;
		old = bc_replace_device(dev);
	}
	/* Dropping a module reference may sleep: not under the lock. */
	if (old)
		module_put(old->owner);

	/*
	 * CPUs whose devices stop in deep idle may have stayed periodic for
	 * want of a oneshot broadcast device: tell them there is one now.
	 */
	if ((dev->features & CLOCK_EVT_FEAT_ONESHOT) && !tick_broadcast_oneshot_active())
		tick_clock_notify();
}

/**
 * tick_is_broadcast_device - whether a device is the broadcast device
 * @dev:	the device, or NULL
 *
 * Return: nonzero when it is.
 */
int tick_is_broadcast_device(struct clock_event_device *dev)
{
	return dev && dev == bc_tick.evtdev;
}

/**
 * tick_broadcast_update_freq - change the broadcast device's frequency
 * @dev:	a device
 * @freq:	its new frequency in Hz
 *
 * Return: -ENODEV when @dev is not the broadcast device, else the result of
 * reconfiguring it.
 */
int tick_broadcast_update_freq(struct clock_event_device *dev, u32 freq)
{
	if (!tick_is_broadcast_device(dev))
		return -ENODEV;

	guard(raw_spinlock)(&tick_broadcast_lock);
	return __clockevents_update_freq(dev, freq);
}

static void bc_no_broadcast_function(const struct cpumask *mask)
{
	pr_crit_once("Failed to broadcast timer tick. Some CPUs may be unresponsive.\n");
}

/* Give @dev a way to receive the broadcast: the arch IPI if nothing else. */
static void bc_ensure_broadcast_function(struct clock_event_device *dev)
{
	if (!dev->broadcast)
		dev->broadcast = tick_broadcast;
	if (dev->broadcast)
		return;
	pr_warn_once("%s depends on broadcast, but no broadcast function available\n",
		     dev->name);
	dev->broadcast = bc_no_broadcast_function;
}

/*
 * A functional device starts ticking on @cpu: take @cpu off the periodic
 * broadcast unless it asked to stay on it.  Returns nonzero when its
 * device must stay shut down because the broadcast device ticks for it.
 */
static int bc_local_device_starts(struct clock_event_device *dev, int cpu)
{
	struct clock_event_device *bc = bc_tick.evtdev;

	bc_unhost(cpu);
	if (dev->features & CLOCK_EVT_FEAT_C3STOP)
		bc_ensure_broadcast_function(dev);
	if (!(dev->features & CLOCK_EVT_FEAT_C3STOP) ||
	    !cpumask_test_cpu(cpu, bc_wanted))
		cpumask_clear_cpu(cpu, tick_broadcast_mask);

	if (bc_tick.mode == TICKDEV_MODE_ONESHOT) {
		/* This CPU runs, so it is in no idle state: start afresh. */
		bc_forget_oneshot(cpu);
		return 0;
	}
	if (bc && cpumask_empty(tick_broadcast_mask))
		clockevents_shutdown(bc);
	/* An hrtimer broadcast runs on the CPUs it serves: never rely on it. */
	if (!bc || (bc->features & CLOCK_EVT_FEAT_HRTIMER))
		return 0;
	return cpumask_test_cpu(cpu, tick_broadcast_mask);
}

/**
 * tick_device_uses_broadcast - install a CPU's new tick device and set up
 *	broadcast for it
 * @td:		the CPU's tick device
 * @dev:	its new clock event device
 * @cpu:	the CPU
 *
 * A dummy device is a placeholder: the broadcast device ticks for it from
 * now on.  @dev is installed under tick_broadcast_lock, together with the
 * masks that say what the broadcast owes @cpu: a broadcast handler on
 * another CPU, which reads @cpu's device under that lock, never sees a
 * hosted CPU with its new real device (no ->broadcast function, an
 * unrelated ->next_event) or a new dummy not yet hosted.
 *
 * Context: clockevents_lock held, interrupts disabled.
 * Return: nonzero when the broadcast device ticks for @cpu and @dev must
 * not be started.
 */
int tick_device_uses_broadcast(struct tick_device *td, struct clock_event_device *dev,
			       int cpu)
{
	guard(raw_spinlock_irqsave)(&tick_broadcast_lock);

	td->evtdev = dev;
	if (tick_device_is_functional(dev))
		return bc_local_device_starts(dev, cpu);

	dev->event_handler = tick_handle_periodic;
	bc_ensure_broadcast_function(dev);
	if (bc_host_new_cpu(dev, cpu))
		return 1;
	cpumask_set_cpu(cpu, tick_broadcast_mask);
	bc_restart(bc_tick.evtdev);
	return 1;
}

/**
 * tick_receive_broadcast - run this CPU's tick on a broadcast IPI
 *
 * Context: the broadcast IPI handler, interrupts disabled.
 * Return: 0, -ENODEV without a tick device, -EINVAL without a handler.
 */
int tick_receive_broadcast(void)
{
	struct clock_event_device *dev = tick_this_cpu_device();

	if (!dev)
		return -ENODEV;
	if (!dev->event_handler)
		return -EINVAL;
	dev->event_handler(dev);
	return 0;
}

/*
 * IPI the CPUs in @mask.  Every device that needs the broadcast has the
 * same function (the arch's tick_broadcast(): the x86 LAPIC IPI), so any
 * one of theirs does for all.  One in the mask may have none: a CPU whose
 * event was overdue when it left deep idle (bc_overdue) and which then
 * swapped its device for one that never needs the broadcast.  The arch
 * function still reaches it; it runs its new device's handler once too
 * often, which is harmless.
 */
static void bc_ipi(const struct cpumask *mask)
{
	void (*ipi)(const struct cpumask *mask) = tick_broadcast;
	struct clock_event_device *dev;
	int cpu;

	for_each_cpu(cpu, mask) {
		dev = per_cpu(tick_cpu_device, cpu).evtdev;
		if (dev && dev->broadcast) {
			ipi = dev->broadcast;
			break;
		}
	}
	if (ipi)
		ipi(mask);
}

/*
 * Send the event to the CPUs in @mask (which is consumed).  Returns true
 * when this CPU is among them: the caller runs its handler after dropping
 * tick_broadcast_lock.  With an hrtimer broadcast device this CPU's own
 * handler is not run from here, as that would expire hrtimers from
 * within an hrtimer.
 */
static bool bc_send(struct cpumask *mask)
{
	struct clock_event_device *bc = bc_tick.evtdev;
	bool run_here = false;
	int cpu = smp_processor_id();

	if (cpumask_test_and_clear_cpu(cpu, mask))
		run_here = !(bc->features & CLOCK_EVT_FEAT_HRTIMER);

	if (!cpumask_empty(mask))
		bc_ipi(mask);
	return run_here;
}

/* Run this CPU's tick handler, outside tick_broadcast_lock. */
static void bc_run_local_handler(void)
{
	struct clock_event_device *dev = tick_this_cpu_device();

	dev->event_handler(dev);
}

/* Event handler of the broadcast device in periodic mode. */
static void tick_handle_periodic_broadcast(struct clock_event_device *dev)
{
	bool run_here = false;

	scoped_guard(raw_spinlock, &tick_broadcast_lock) {
		/* A late interrupt from a device that was shut down. */
		if (clockevent_state_shutdown(bc_tick.evtdev))
			return;

		cpumask_and(bc_scratch, cpu_online_mask, tick_broadcast_mask);
		run_here = bc_send(bc_scratch);

		/* A oneshot device emulates the period. */
		if (clockevent_state_oneshot(dev))
			clockevents_program_event(dev, ktime_add_ns(dev->next_event, TICK_NSEC),
						  true);
	}
	/* Outside the lock: the handler may switch this CPU to oneshot. */
	if (run_here)
		bc_run_local_handler();
}

/**
 * tick_set_periodic_handler - set a device's periodic event handler
 * @dev:	the device
 * @broadcast:	@dev is the broadcast device
 */
void tick_set_periodic_handler(struct clock_event_device *dev, int broadcast)
{
	dev->event_handler = broadcast ? tick_handle_periodic_broadcast : tick_handle_periodic;
}

/* TICK_BROADCAST_ON / FORCE for this CPU, whose device is @dev. */
static void bc_control_on(struct clock_event_device *dev, int cpu, bool force)
{
	struct clock_event_device *bc = bc_tick.evtdev;

	if (force)
		bc_forced = true;
	cpumask_set_cpu(cpu, bc_wanted);
	if (cpumask_test_and_set_cpu(cpu, tick_broadcast_mask))
		return;
	/*
	 * The periodic broadcast ticks for this CPU now.  Not with an
	 * hrtimer broadcast (it runs on the CPUs it serves), and not in
	 * oneshot mode, where the device stops only in deep idle.
	 */
	if (bc && !(bc->features & CLOCK_EVT_FEAT_HRTIMER) &&
	    bc_tick.mode == TICKDEV_MODE_PERIODIC)
		clockevents_shutdown(dev);
}

/* TICK_BROADCAST_OFF for this CPU, whose device is @dev. */
static void bc_control_off(struct clock_event_device *dev, int cpu)
{
	if (bc_forced)
		return;
	cpumask_clear_cpu(cpu, bc_wanted);
	if (cpumask_test_and_clear_cpu(cpu, tick_broadcast_mask) &&
	    bc_tick.mode == TICKDEV_MODE_PERIODIC)
		tick_setup_periodic(dev, 0);
}

/**
 * tick_broadcast_control - turn broadcast on or off for this CPU
 * @mode:	TICK_BROADCAST_ON, TICK_BROADCAST_OFF or TICK_BROADCAST_FORCE
 *
 * For CPUs whose device stops in deep idle states they are about to use.
 * TICK_BROADCAST_FORCE cannot be undone.
 *
 * Context: any; takes tick_broadcast_lock with interrupts off, which also
 * keeps this CPU's tick device in place.
 */
void tick_broadcast_control(enum tick_broadcast_mode mode)
{
	struct clock_event_device *dev, *bc;
	bool was_idle;
	int cpu;

	guard(raw_spinlock_irqsave)(&tick_broadcast_lock);
	cpu = smp_processor_id();
	dev = tick_this_cpu_device();
	if (!dev || !(dev->features & CLOCK_EVT_FEAT_C3STOP) ||
	    !tick_device_is_functional(dev))
		return;

	bc = bc_tick.evtdev;
	was_idle = cpumask_empty(tick_broadcast_mask);
	if (mode == TICK_BROADCAST_OFF)
		bc_control_off(dev, cpu);
	else
		bc_control_on(dev, cpu, mode == TICK_BROADCAST_FORCE);

	if (!bc)
		return;
	if (cpumask_empty(tick_broadcast_mask)) {
		if (!was_idle)
			clockevents_shutdown(bc);
	} else if (was_idle) {
		bc_restart(bc);
	}
}
EXPORT_SYMBOL_GPL(tick_broadcast_control);

#ifdef CONFIG_HOTPLUG_CPU
/**
 * tick_broadcast_offline - take a CPU going offline off the broadcast
 * @cpu:	the CPU
 *
 * Context: clockevents_lock held, on the outgoing CPU.
 */
void tick_broadcast_offline(unsigned int cpu)
{
	struct clock_event_device *bc;

	guard(raw_spinlock)(&tick_broadcast_lock);
	cpumask_clear_cpu(cpu, bc_wanted);
	cpumask_clear_cpu(cpu, tick_broadcast_mask);
#ifdef CONFIG_TICK_ONESHOT
	if (per_cpu(tick_oneshot_wakeup_device, cpu))
		bc_set_wakeup_device(NULL, cpu);
	/* The oneshot broadcast keeps running for the other CPUs. */
	bc_forget_oneshot(cpu);
	cpumask_clear_cpu(cpu, bc_overdue);
	bc_unhost(cpu);
#endif
	bc = bc_tick.evtdev;
	if (bc && bc_tick.mode == TICKDEV_MODE_PERIODIC &&
	    cpumask_empty(tick_broadcast_mask))
		clockevents_shutdown(bc);
}
#endif

/**
 * tick_suspend_broadcast - stop the broadcast device for system suspend
 */
void tick_suspend_broadcast(void)
{
	guard(raw_spinlock_irqsave)(&tick_broadcast_lock);
	if (bc_tick.evtdev)
		clockevents_shutdown(bc_tick.evtdev);
}

/**
 * tick_resume_check_broadcast - whether the periodic broadcast ticks for
 *	this CPU
 *
 * Neither the broadcast mode nor this CPU's bit can change during resume,
 * so no lock is needed.
 *
 * Return: true when it does, and this CPU's device must stay stopped.
 */
bool tick_resume_check_broadcast(void)
{
	return bc_tick.mode != TICKDEV_MODE_ONESHOT &&
	       cpumask_test_cpu(smp_processor_id(), tick_broadcast_mask);
}

/**
 * tick_resume_broadcast - restart the broadcast device after resume
 */
void tick_resume_broadcast(void)
{
	struct clock_event_device *bc;

	guard(raw_spinlock_irqsave)(&tick_broadcast_lock);
	bc = bc_tick.evtdev;
	if (!bc)
		return;
	clockevents_tick_resume(bc);
	if (cpumask_empty(tick_broadcast_mask) && !bc_hosting())
		return;
	if (bc_tick.mode == TICKDEV_MODE_ONESHOT)
		/* The first CPU to sleep arms it again. */
		clockevents_switch_state(bc, CLOCK_EVT_STATE_ONESHOT);
	else
		bc_start_periodic(bc);
}

#ifdef CONFIG_TICK_ONESHOT

/**
 * tick_get_broadcast_oneshot_mask - CPUs asleep on the oneshot broadcast,
 *	for timer_list
 *
 * Return: the mask.
 */
struct cpumask *tick_get_broadcast_oneshot_mask(void)
{
	return bc_sleepers;
}

/**
 * tick_check_broadcast_expired - whether this CPU's event is overdue and
 *	the broadcast handler is about to run it
 *
 * The idle loop uses it to skip a deep idle state it would leave at once.
 *
 * Return: nonzero when the event is overdue.
 */
noinstr int tick_check_broadcast_expired(void)
{
#ifdef _ASM_GENERIC_BITOPS_INSTRUMENTED_NON_ATOMIC_H
	return arch_test_bit(smp_processor_id(), cpumask_bits(bc_overdue));
#else
	return cpumask_test_cpu(smp_processor_id(), bc_overdue);
#endif
}

/**
 * tick_broadcast_arm - arm a broadcast device for a CPU's event
 * @bc:		the broadcast device
 * @cpu:	the CPU whose event it is
 * @expires:	the event
 * @wake:	sends @cpu its event now
 *
 * The device fires as soon as it can for an event already past.  When it
 * cannot be made to fire at all (its min_delta_ns raised to the ceiling
 * and still refused: clockevents gave up on it), nothing else would ever
 * wake @cpu, whose device is stopped or a hosted dummy: it is sent its
 * event now instead, early.  It re-arms on the way out, and so tries the
 * device again from a fresh interrupt, until the device takes it or the
 * event is due.
 *
 * Return: true when the device is armed, false when @cpu was woken.
 */
VISIBLE_IF_KUNIT bool tick_broadcast_arm(struct clock_event_device *bc, int cpu, ktime_t expires,
					 void (*wake)(const struct cpumask *mask))
{
	if (!clockevent_state_oneshot(bc))
		clockevents_switch_state(bc, CLOCK_EVT_STATE_ONESHOT);
	if (!clockevents_program_event(bc, expires, true))
		return true;
	wake(cpumask_of(cpu));
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(tick_broadcast_arm);

/* Arm @bc for @expires on behalf of @cpu, and steer its interrupt there. */
static void bc_arm_for(struct clock_event_device *bc, int cpu, ktime_t expires)
{
	tick_broadcast_arm(bc, cpu, expires, bc_ipi);

	if ((bc->features & CLOCK_EVT_FEAT_DYNIRQ) &&
	    !cpumask_equal(bc->cpumask, cpumask_of(cpu))) {
		bc->cpumask = cpumask_of(cpu);
		irq_set_affinity(bc->irq, bc->cpumask);
	}
}

/**
 * tick_check_oneshot_broadcast_this_cpu - restart this CPU's device when
 *	an interrupt ends its deep idle
 *
 * Context: irq_enter(), interrupts disabled.
 */
void tick_check_oneshot_broadcast_this_cpu(void)
{
	struct tick_device *td = this_cpu_ptr(&tick_cpu_device);

	/* Mid-way through a switch to oneshot, the device is left alone. */
	if (cpumask_test_cpu(smp_processor_id(), bc_sleepers) &&
	    td->mode == TICKDEV_MODE_ONESHOT)
		clockevents_switch_state(td->evtdev, CLOCK_EVT_STATE_ONESHOT);
}

/* The expiry of @cpu's tick device. */
static ktime_t bc_cpu_expiry(int cpu)
{
	return per_cpu(tick_cpu_device, cpu).evtdev->next_event;
}

/**
 * tick_broadcast_scan - sort sleeping CPUs into due and not yet due
 * @sleepers:	the CPUs to look at
 * @woken:	sleepers already sent their event, not out of idle yet: owed
 *		nothing (another IPI would be a duplicate, and their past
 *		event would make the broadcast fire at once for nobody)
 * @expiry_of:	the expiry of a CPU's event
 * @now:	the current time
 * @due:	set to the CPUs whose event is at or before @now
 * @next_cpu:	set to the CPU with the earliest event after @now
 *
 * Return: the earliest expiry after @now, KTIME_MAX when there is none.
 */
VISIBLE_IF_KUNIT ktime_t tick_broadcast_scan(const struct cpumask *sleepers,
					     const struct cpumask *woken,
					     ktime_t (*expiry_of)(int cpu), ktime_t now,
					     struct cpumask *due, int *next_cpu)
{
	ktime_t next = KTIME_MAX, expiry;
	int cpu;

	cpumask_clear(due);
	for_each_cpu_andnot(cpu, sleepers, woken) {
		expiry = expiry_of(cpu);
		if (expiry <= now) {
			cpumask_set_cpu(cpu, due);
		} else if (expiry < next) {
			next = expiry;
			*next_cpu = cpu;
		}
	}
	return next;
}
EXPORT_SYMBOL_IF_KUNIT(tick_broadcast_scan);

/*
 * The due CPUs in bc_scratch that are hosted get their event now and leave
 * the sleepers until they re-arm.  One still coming up (not online yet)
 * cannot take the IPI: it gets its event a tick later.  Returns the
 * earliest event after @now, which may now be such a CPU's.
 */
static ktime_t bc_hand_out_hosted(ktime_t now, ktime_t next, int *next_cpu)
{
	struct clock_event_device *dev;
	int cpu;

	for_each_cpu_and(cpu, bc_scratch, bc_hosted) {
		if (cpu_online(cpu)) {
			cpumask_clear_cpu(cpu, bc_sleepers);
			continue;
		}
		cpumask_clear_cpu(cpu, bc_scratch);
		dev = per_cpu(tick_cpu_device, cpu).evtdev;
		dev->next_event = ktime_add_ns(now, TICK_NSEC);
		if (dev->next_event < next) {
			next = dev->next_event;
			*next_cpu = cpu;
		}
	}
	return next;
}

/* Event handler of the broadcast device in oneshot mode. */
static void tick_handle_oneshot_broadcast(struct clock_event_device *dev)
{
	int next_cpu = 0;
	bool run_here, hosting;
	ktime_t next, now;

	scoped_guard(raw_spinlock, &tick_broadcast_lock) {
		dev->next_event = KTIME_MAX;
		now = ktime_get();
		next = tick_broadcast_scan(bc_sleepers, bc_woken, bc_cpu_expiry, now,
					   bc_scratch, &next_cpu);
		hosting = bc_hosting();
		if (hosting)
			next = bc_hand_out_hosted(now, next, &next_cpu);
		/*
		 * The woken CPUs must not re-arm their own device for an
		 * event that is being delivered; this CPU gets it below.
		 * Hosted CPUs never wake, so they are never marked.
		 */
		cpumask_or(bc_woken, bc_woken, bc_scratch);
		if (hosting)
			cpumask_andnot(bc_woken, bc_woken, bc_hosted);
		cpumask_clear_cpu(smp_processor_id(), bc_woken);

		cpumask_or(bc_scratch, bc_scratch, bc_overdue);
		cpumask_clear(bc_overdue);
		if (WARN_ON_ONCE(!cpumask_subset(bc_scratch, cpu_online_mask)))
			cpumask_and(bc_scratch, bc_scratch, cpu_online_mask);

		run_here = bc_send(bc_scratch);
		/* Sleepers whose events lie further out: wait for the next. */
		if (next != KTIME_MAX)
			bc_arm_for(dev, next_cpu, next);
	}
	if (run_here)
		bc_run_local_handler();
}

/*
 * With an hrtimer broadcast device, the CPU its hrtimer is queued on must
 * stay awake.  -EBUSY when that is @cpu.
 */
static int bc_hrtimer_needs(struct clock_event_device *bc, int cpu)
{
	if (!(bc->features & CLOCK_EVT_FEAT_HRTIMER) || bc->next_event == KTIME_MAX)
		return 0;
	return bc->bound_on == cpu ? -EBUSY : 0;
}

/**
 * tick_broadcast_enter_plan - what entering deep idle takes for a CPU
 * @in:		the CPU's and the broadcast's state
 * @todo:	set to BC_* steps for the caller to carry out
 *
 * A CPU sleeps on the broadcast only in oneshot mode, and only once (a
 * second entry changes nothing).  Its device stops, unless an hrtimer
 * broadcast needs it to fire first.  The broadcast is armed for its event
 * when that is the earliest.  A CPU whose event is already overdue, or
 * that carries the hrtimer broadcast, must not sleep deeply.
 *
 * Return: 0, or -EBUSY when the CPU must not enter deep idle.
 */
VISIBLE_IF_KUNIT int tick_broadcast_enter_plan(const struct bc_enter_state *in,
					       unsigned int *todo)
{
	*todo = 0;
	if (in->bc_bound_here)
		return -EBUSY;
	if (in->periodic)
		return in->hrtimer_bc ? -EBUSY : 0;
	if (in->asleep)
		return 0;

	*todo = BC_JOIN;
	if (!in->hrtimer_bc || in->local_next >= in->bc_next)
		*todo |= BC_STOP_LOCAL;
	/* About to be woken by the broadcast: deep idle is not worth it. */
	if (in->overdue)
		return -EBUSY;
	if (in->local_next < in->bc_next)
		*todo |= BC_ARM;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(tick_broadcast_enter_plan);

/**
 * tick_broadcast_exit_plan - what leaving deep idle takes for a CPU
 * @in:		the CPU's state
 *
 * A CPU that slept on the broadcast leaves it and restarts its device.  If
 * the broadcast handler delivered its event, that is all.  Otherwise, an
 * event already due is left to the broadcast handler, which is about to
 * run, rather than re-armed for a past time (which, with a large
 * min_delta, could ping-pong with the next idle entry); a future one
 * re-arms the device.  When the broadcast was armed for that very event,
 * it is aimed at the next sleeper instead: left as it is, it would fire
 * for nobody and wake the CPU that takes its interrupt (upstream leaves
 * it, one wasted interrupt per early wake).
 *
 * Return: the BC_* steps for the caller to carry out.
 */
VISIBLE_IF_KUNIT unsigned int tick_broadcast_exit_plan(const struct bc_exit_state *in)
{
	if (!in->asleep)
		return 0;
	if (in->woken)
		return BC_LEAVE | BC_CLEAR_WOKEN;
	if (in->local_next == KTIME_MAX)
		return BC_LEAVE;
	if (in->local_next <= in->now)
		return BC_LEAVE | BC_MARK_OVERDUE;
	if (in->bc_next == in->local_next)
		return BC_LEAVE | BC_REARM_LOCAL | BC_REAIM;
	return BC_LEAVE | BC_REARM_LOCAL;
}
EXPORT_SYMBOL_IF_KUNIT(tick_broadcast_exit_plan);

/* This CPU, whose device is @dev, enters deep idle on the broadcast @bc. */
static int bc_sleep(struct clock_event_device *bc, struct clock_event_device *dev, int cpu)
{
	struct bc_enter_state in = {
		.periodic	= bc_tick.mode == TICKDEV_MODE_PERIODIC,
		.hrtimer_bc	= bc->features & CLOCK_EVT_FEAT_HRTIMER,
		.bc_bound_here	= bc_hrtimer_needs(bc, cpu),
		.asleep		= cpumask_test_cpu(cpu, bc_sleepers),
		.overdue	= cpumask_test_cpu(cpu, bc_overdue),
		.local_next	= dev->next_event,
		.bc_next	= bc->next_event,
	};
	unsigned int todo;
	int ret = tick_broadcast_enter_plan(&in, &todo);

	if (todo & BC_JOIN) {
		WARN_ON_ONCE(cpumask_test_cpu(cpu, bc_woken));
		cpumask_set_cpu(cpu, bc_sleepers);
	}
	if (todo & BC_STOP_LOCAL)
		clockevents_switch_state(dev, CLOCK_EVT_STATE_SHUTDOWN);
	if (!(todo & BC_ARM))
		return ret;

	bc_arm_for(bc, cpu, dev->next_event);
	/* An hrtimer broadcast may have been queued on this very CPU. */
	ret = bc_hrtimer_needs(bc, cpu);
	if (ret)
		cpumask_clear_cpu(cpu, bc_sleepers);
	return ret;
}

/*
 * Aim the oneshot broadcast @bc at the earliest event of the CPUs still
 * asleep on it and owed one (not those woken already: see
 * tick_broadcast_scan()), unless it is armed for that already; out of the
 * way when none is left.  Left armed, it would fire for nobody at the
 * event the CPU took back, and that is the common case: a CPU that keeps
 * its tick in deep idle wakes early for other interrupts and then takes
 * its tick on its own device (x86-deepidle: IRQ 0 fired 799 times by
 * /init with the device left armed, 46-50 disarmed).
 */
static void bc_aim_at_sleepers(struct clock_event_device *bc)
{
	ktime_t next = KTIME_MAX, expiry;
	int cpu, next_cpu = -1;

	for_each_cpu_andnot(cpu, bc_sleepers, bc_woken) {
		expiry = bc_cpu_expiry(cpu);
		if (expiry < next) {
			next = expiry;
			next_cpu = cpu;
		}
	}
	if (next_cpu < 0) {
		if (clockevent_state_oneshot(bc))
			clockevents_program_event(bc, KTIME_MAX, false);
	} else if (next != bc->next_event || !clockevent_state_oneshot(bc)) {
		bc_arm_for(bc, next_cpu, next);
	}
}

/* This CPU, whose device is @dev, leaves deep idle on the broadcast @bc. */
static void bc_wake(struct clock_event_device *bc, struct clock_event_device *dev, int cpu)
{
	struct bc_exit_state in = { .asleep = cpumask_test_cpu(cpu, bc_sleepers) };
	unsigned int todo;

	/* The common case on every idle exit: nothing to undo. */
	if (!in.asleep)
		return;
	in.woken = cpumask_test_cpu(cpu, bc_woken);
	in.local_next = dev->next_event;
	in.bc_next = bc->next_event;
	in.now = ktime_get();
	todo = tick_broadcast_exit_plan(&in);

	if (todo & BC_LEAVE) {
		cpumask_clear_cpu(cpu, bc_sleepers);
		clockevents_switch_state(dev, CLOCK_EVT_STATE_ONESHOT);
	}
	if (todo & BC_CLEAR_WOKEN)
		cpumask_clear_cpu(cpu, bc_woken);
	/*
	 * The broadcast handler cannot be called from here (this may be a
	 * NO_HZ phase without the irq_enter() fixups): mark the CPU for it.
	 */
	if (todo & BC_MARK_OVERDUE)
		cpumask_set_cpu(cpu, bc_overdue);
	if (todo & BC_REARM_LOCAL)
		tick_program_event(dev->next_event, 1);
	if ((todo & BC_REAIM) && bc_tick.mode == TICKDEV_MODE_ONESHOT)
		bc_aim_at_sleepers(bc);
}

/* Enter or leave deep idle on this CPU's private wakeup device. */
static int bc_wakeup_device_control(enum tick_broadcast_state state,
				    struct tick_device *td, int cpu)
{
	struct clock_event_device *wd = per_cpu(tick_oneshot_wakeup_device, cpu);
	struct clock_event_device *dev = td->evtdev;

	if (td->mode != TICKDEV_MODE_ONESHOT)
		return -EINVAL;
	if (!wd)
		return -ENODEV;

	if (state == TICK_BROADCAST_ENTER) {
		clockevents_switch_state(dev, CLOCK_EVT_STATE_ONESHOT_STOPPED);
		clockevents_switch_state(wd, CLOCK_EVT_STATE_ONESHOT);
		clockevents_program_event(wd, dev->next_event, true);
		return 0;
	}
	/* The tick may have gone oneshot while this CPU was idle. */
	return clockevent_state_oneshot(wd) ? 0 : -ENODEV;
}

/**
 * __tick_broadcast_oneshot_control - this CPU enters or leaves deep idle
 * @state:	TICK_BROADCAST_ENTER or TICK_BROADCAST_EXIT
 *
 * Context: interrupts disabled, this CPU's device stops in deep idle.
 * Return: 0, or -EBUSY when this CPU must not enter deep idle.
 */
int __tick_broadcast_oneshot_control(enum tick_broadcast_state state)
{
	struct tick_device *td = this_cpu_ptr(&tick_cpu_device);
	int cpu = smp_processor_id();
	struct clock_event_device *bc;

	if (!bc_wakeup_device_control(state, td, cpu))
		return 0;
	/*
	 * A hosted CPU's events are on the broadcast device, idle or not.
	 * Its bit is cleared only on this CPU (its dummy replaced) or once
	 * it is dead, so a set bit is current without the lock.
	 */
	if (cpumask_test_cpu(cpu, bc_hosted))
		return 0;

	guard(raw_spinlock)(&tick_broadcast_lock);
	/* Hosted meanwhile, by another CPU's switch to oneshot. */
	if (cpumask_test_cpu(cpu, bc_hosted))
		return 0;
	bc = bc_tick.evtdev;
	/* Nothing would wake this CPU: it must not sleep deeply. */
	if (!bc)
		return -EBUSY;
	if (state == TICK_BROADCAST_ENTER)
		return bc_sleep(bc, td->evtdev, cpu);
	bc_wake(bc, td->evtdev, cpu);
	return 0;
}

/* Start afresh for a running CPU.  Context: tick_broadcast_lock held. */
static void bc_forget_oneshot(int cpu)
{
	cpumask_clear_cpu(cpu, bc_sleepers);
	cpumask_clear_cpu(cpu, bc_woken);
}

/*
 * Switch @bc to oneshot broadcast.  @from_periodic: the system leaves
 * periodic mode, and the CPUs that waited for periodic broadcast ticks are
 * handed over to the oneshot broadcast with the next tick as their event.
 * Otherwise @bc replaces a oneshot broadcast device and fires at once to
 * find the next event.
 */
static void bc_start_oneshot(struct clock_event_device *bc, bool from_periodic)
{
	int cpu = smp_processor_id();
	ktime_t first = 0;

	if (!bc)
		return;
	/*
	 * Every CPU passes here on its switch to oneshot; only the first
	 * sets the device up.  The others just drop their own bit, or
	 * their first deep idle entry would not arm the broadcast; not a
	 * hosted CPU, whose bit stands for an event the broadcast carries.
	 */
	if (bc->event_handler == tick_handle_oneshot_broadcast) {
		if (!cpumask_test_cpu(cpu, bc_hosted))
			bc_forget_oneshot(cpu);
		return;
	}
	bc->event_handler = tick_handle_oneshot_broadcast;
	bc->next_event = KTIME_MAX;

	if (from_periodic) {
		int waiting;

		cpumask_andnot(bc_scratch, tick_broadcast_mask, cpumask_of(cpu));
		cpumask_or(bc_sleepers, bc_sleepers, bc_scratch);
		/* Read under the lock: a 64-bit load may tear on 32-bit. */
		scoped_guard(raw_spinlock, &jiffies_lock)
			first = tick_next_period;
		for_each_cpu(waiting, bc_scratch)
			if (per_cpu(tick_cpu_device, waiting).evtdev)
				per_cpu(tick_cpu_device, waiting).evtdev->next_event = first;
		/* Armed for the next period by the periodic handler already. */
		if (clockevent_state_oneshot(bc))
			return;
	}
	if (!cpumask_empty(bc_sleepers))
		bc_arm_for(bc, cpu, first);
}

/* Whether @cpu's tick device is a dummy.  Context: tick_broadcast_lock. */
static bool bc_cpu_has_dummy(int cpu)
{
	struct clock_event_device *dev = per_cpu(tick_cpu_device, cpu).evtdev;

	return dev && !tick_device_is_functional(dev);
}

/*
 * Host @cpu, whose tick device is a dummy: from now on programming that
 * device arms the broadcast.  Its state is only bookkeeping (a dummy has
 * no driver to call), so it may be set from another CPU.
 * Context: tick_broadcast_lock held, oneshot broadcast.
 */
static void bc_host(int cpu)
{
	cpumask_set_cpu(cpu, bc_hosted);
	cpumask_clear_cpu(cpu, tick_broadcast_mask);
	clockevents_switch_state(per_cpu(tick_cpu_device, cpu).evtdev,
				 CLOCK_EVT_STATE_ONESHOT);
}

/*
 * The broadcast just went oneshot, or this CPU's tick did: host every CPU
 * with a dummy device that waited for the periodic broadcast (the switch
 * to oneshot made their next tick a sleeper's event) and this CPU if its
 * device is a dummy.  Context: tick_broadcast_lock held.
 */
static void bc_host_dummies(void)
{
	int cpu;

	for_each_cpu(cpu, tick_broadcast_mask)
		if (bc_cpu_has_dummy(cpu))
			bc_host(cpu);
	if (bc_cpu_has_dummy(smp_processor_id()))
		bc_host(smp_processor_id());
}

/*
 * Run @bc as the oneshot broadcast device, taking over the sleepers
 * (those of the periodic broadcast when @from_periodic, else those of the
 * device it replaces, firing at once to find the earliest) and hosting
 * the dummies that wait on it if it can.  Context: tick_broadcast_lock held.
 */
static void bc_oneshot_with_hosting(struct clock_event_device *bc, bool from_periodic)
{
	bc_start_oneshot(bc, from_periodic);
	if (tick_broadcast_can_host(bc))
		bc_host_dummies();
}

/*
 * A CPU coming up with a dummy @dev while the broadcast runs oneshot and
 * can host: hosted at once, its periodic tick starts a period from now.
 * Returns false when the broadcast cannot take it.
 * Context: tick_broadcast_lock held, on @cpu.
 */
static bool bc_host_new_cpu(struct clock_event_device *dev, int cpu)
{
	struct clock_event_device *bc = bc_tick.evtdev;

	if (bc_tick.mode != TICKDEV_MODE_ONESHOT || !tick_broadcast_can_host(bc))
		return false;
	bc_forget_oneshot(cpu);
	bc_host(cpu);
	dev->next_event = ktime_add_ns(ktime_get(), TICK_NSEC);
	cpumask_set_cpu(cpu, bc_sleepers);
	if (dev->next_event < bc->next_event)
		bc_arm_for(bc, cpu, dev->next_event);
	return true;
}

/**
 * tick_broadcast_can_host_now - whether the current broadcast device could
 *	host this CPU's dummy tick device
 *
 * Return: true when it could.
 */
bool tick_broadcast_can_host_now(void)
{
	return tick_broadcast_can_host(READ_ONCE(bc_tick.evtdev));
}

/**
 * tick_broadcast_carry_plan - what programming a hosted CPU's event takes
 * @in:		the CPU's and the broadcast's state
 * @todo:	set to BC_* steps for the caller to carry out
 *
 * Nothing pending: the CPU leaves the sleepers.  An event already past is
 * refused unless forced, as a real device would refuse it; a forced one
 * fires as soon as the broadcast device can.  Otherwise the CPU joins the
 * sleepers, and the broadcast is armed when this event is its earliest.
 * When the broadcast was armed for the CPU's previous event, which is now
 * later or gone (the tick stopping in idle), it is aimed at the earliest
 * sleeper instead: left alone it would fire for nobody.
 *
 * Return: 0, or -ETIME for a past event that is not forced.
 */
VISIBLE_IF_KUNIT int tick_broadcast_carry_plan(const struct bc_carry_state *in,
					       unsigned int *todo)
{
	unsigned int reaim = 0;

	*todo = 0;
	if (in->prev == in->bc_next && in->bc_next != KTIME_MAX && in->expires > in->bc_next)
		reaim = BC_REAIM;
	if (in->expires == KTIME_MAX) {
		*todo = BC_LEAVE | reaim;
		return 0;
	}
	if (in->expires <= in->now && !in->force)
		return -ETIME;
	*todo = BC_JOIN | reaim;
	if (in->expires < in->bc_next)
		*todo |= BC_ARM;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(tick_broadcast_carry_plan);

/**
 * tick_broadcast_carry - program a dummy device: arm the broadcast for the
 *	event of the hosted CPU it serves
 * @dev:	this CPU's dummy tick device
 * @expires:	the event, KTIME_MAX when nothing is pending
 * @force:	fire as soon as possible when the event has passed
 *
 * A dummy device that is not a hosted CPU's tick device (there is no
 * oneshot broadcast to carry it) only records the event.
 *
 * Context: interrupts disabled, on the CPU @dev serves.
 * Return: 0, or -ETIME when the event has passed and @force is not set.
 */
int tick_broadcast_carry(struct clock_event_device *dev, ktime_t expires, bool force)
{
	struct bc_carry_state in = { .expires = expires, .force = force };
	int cpu = smp_processor_id();
	struct clock_event_device *bc;
	unsigned int todo;
	int ret;

	/*
	 * Only the caller's own lateness makes an event past, as on a real
	 * device: time spent below waiting for the lock (whose holder may be
	 * arming the device and sending IPIs) must not.  An event that passes
	 * meanwhile is armed forced, to fire at once.
	 */
	if (expires != KTIME_MAX && !force)
		in.now = ktime_get();

	guard(raw_spinlock_irqsave)(&tick_broadcast_lock);
	in.prev = dev->next_event;
	dev->next_event = expires;
	bc = bc_tick.evtdev;
	if (!cpumask_test_cpu(cpu, bc_hosted) || tick_this_cpu_device() != dev)
		return 0;
	in.bc_next = bc->next_event;
	ret = tick_broadcast_carry_plan(&in, &todo);
	if (todo & BC_LEAVE)
		cpumask_clear_cpu(cpu, bc_sleepers);
	if (todo & BC_JOIN)
		cpumask_set_cpu(cpu, bc_sleepers);
	if (todo & BC_ARM)
		bc_arm_for(bc, cpu, expires);
	else if (todo & BC_REAIM)
		bc_aim_at_sleepers(bc);
	return ret;
}

/**
 * tick_get_broadcast_hosted_mask - CPUs the broadcast hosts, for timer_list
 *
 * Return: the mask.
 */
struct cpumask *tick_get_broadcast_hosted_mask(void)
{
	return bc_hosted;
}

/**
 * tick_broadcast_switch_to_oneshot - run the broadcast in oneshot mode
 *
 * Context: any; takes tick_broadcast_lock with interrupts off.
 */
void tick_broadcast_switch_to_oneshot(void)
{
	bool was_periodic;

	guard(raw_spinlock_irqsave)(&tick_broadcast_lock);
	was_periodic = bc_tick.mode == TICKDEV_MODE_PERIODIC;
	bc_tick.mode = TICKDEV_MODE_ONESHOT;
	bc_oneshot_with_hosting(bc_tick.evtdev, was_periodic);
}

#ifdef CONFIG_HOTPLUG_CPU
/**
 * hotplug_cpu__broadcast_tick_pull - take over an hrtimer broadcast from a
 *	dead CPU
 * @deadcpu:	the CPU that died
 *
 * Context: a surviving CPU.
 */
void hotplug_cpu__broadcast_tick_pull(int deadcpu)
{
	struct clock_event_device *bc;

	guard(raw_spinlock_irqsave)(&tick_broadcast_lock);
	bc = bc_tick.evtdev;
	if (!bc || !bc_hrtimer_needs(bc, deadcpu))
		return;
	/*
	 * This CPU may have left its event to the broadcast handler (it is
	 * overdue and its device is not armed).  Re-arming the hrtimer
	 * broadcast here would not fire before that event, so everybody
	 * waiting for the broadcast would starve: arm our device instead.
	 */
	if (tick_check_broadcast_expired()) {
		cpumask_clear_cpu(smp_processor_id(), bc_overdue);
		tick_program_event(tick_this_cpu_device()->next_event, 1);
	}
	/* Re-arming queues the broadcast hrtimer on this CPU. */
	clockevents_program_event(bc, bc->next_event, true);
}
#endif

/**
 * tick_broadcast_oneshot_active - whether the broadcast runs oneshot
 *
 * Return: nonzero when it does.
 */
int tick_broadcast_oneshot_active(void)
{
	return bc_tick.mode == TICKDEV_MODE_ONESHOT;
}

/**
 * tick_broadcast_oneshot_available - whether a oneshot broadcast device exists
 *
 * Return: true when the broadcast device can do oneshot.
 */
bool tick_broadcast_oneshot_available(void)
{
	struct clock_event_device *bc = READ_ONCE(bc_tick.evtdev);

	return bc && (bc->features & CLOCK_EVT_FEAT_ONESHOT);
}

#else /* !CONFIG_TICK_ONESHOT */

/**
 * __tick_broadcast_oneshot_control - may this CPU enter deep idle
 * @state:	TICK_BROADCAST_ENTER or TICK_BROADCAST_EXIT
 *
 * Without oneshot ticks only a periodic broadcast device can cover.
 *
 * Return: 0, or -EBUSY when this CPU must not enter deep idle.
 */
int __tick_broadcast_oneshot_control(enum tick_broadcast_state state)
{
	struct clock_event_device *bc = READ_ONCE(bc_tick.evtdev);

	return (bc && !(bc->features & CLOCK_EVT_FEAT_HRTIMER)) ? 0 : -EBUSY;
}
#endif /* !CONFIG_TICK_ONESHOT */

/**
 * tick_broadcast_init - allocate the broadcast masks at boot
 */
void __init tick_broadcast_init(void)
{
	zalloc_cpumask_var(&tick_broadcast_mask, GFP_NOWAIT);
	zalloc_cpumask_var(&bc_wanted, GFP_NOWAIT);
	zalloc_cpumask_var(&bc_scratch, GFP_NOWAIT);
#ifdef CONFIG_TICK_ONESHOT
	zalloc_cpumask_var(&bc_sleepers, GFP_NOWAIT);
	zalloc_cpumask_var(&bc_woken, GFP_NOWAIT);
	zalloc_cpumask_var(&bc_overdue, GFP_NOWAIT);
	zalloc_cpumask_var(&bc_hosted, GFP_NOWAIT);
#endif
}
