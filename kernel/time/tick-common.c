// SPDX-License-Identifier: GPL-2.0
/*
 * The tick device layer: which clock event device drives each CPU's tick,
 * the periodic tick (native or emulated on a oneshot device), which CPU
 * keeps jiffies and timekeeping going, and the tick's part in CPU hotplug,
 * suspend and suspend-to-idle.  NO_HZ and high resolution timers build on
 * it in tick-oneshot.c and tick-sched.c; CPUs whose device stops in deep
 * idle are served by tick-broadcast.c.
 */
#include <linux/cpu.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/nmi.h>
#include <linux/percpu.h>
#include <linux/profile.h>
#include <linux/sched.h>
#include <kunit/visibility.h>
#include <trace/events/power.h>

#include <asm/irq_regs.h>

#include "tick-internal.h"
#include "tick-kunit.h"

/*
 * The CPU that advances jiffies and timekeeping, so that not every CPU
 * fights for jiffies_lock on every tick.  TICK_DO_TIMER_BOOT until the
 * first tick device is set up; TICK_DO_TIMER_NONE while its owner sleeps
 * with the tick stopped, and then the first CPU to tick takes it over.
 * Written with WRITE_ONCE() by the owner, by tick-sched.c when it hands
 * the duty around, and during CPU hotplug; read locklessly.
 */
int tick_do_timer_cpu __read_mostly = TICK_DO_TIMER_BOOT;

/*
 * Expiry of the next periodic tick.  Advanced by the CPU in
 * tick_do_timer_cpu under jiffies_lock, inside jiffies_seq; read under
 * jiffies_seq.
 */
ktime_t tick_next_period;

/*
 * Each CPU's tick device.  Changed only with clockevents_lock held and
 * interrupts off, on the CPU itself (or, for a dead CPU, by the CPU that
 * cleans up after it); read locklessly by that CPU with interrupts off.
 */
DEFINE_PER_CPU(struct tick_device, tick_cpu_device);

/**
 * tick_is_oneshot_available - whether this CPU's tick may go oneshot
 *
 * A device that stops in deep idle only qualifies when a oneshot
 * broadcast device can cover for it, a dummy when one can host it.
 *
 * Return: 1 when it may, else 0.
 */
int tick_is_oneshot_available(void)
{
	struct clock_event_device *dev = tick_this_cpu_device();
	unsigned int features = dev ? dev->features : 0;

	if (dev && !tick_device_is_functional(dev))
		return tick_broadcast_can_host_now();
	if (!(features & CLOCK_EVT_FEAT_ONESHOT))
		return 0;
	return !(features & CLOCK_EVT_FEAT_C3STOP) || tick_broadcast_oneshot_available();
}

/* One period of jiffies and timekeeping, by the CPU that owns the duty. */
static void tick_advance_jiffies(void)
{
	raw_spin_lock(&jiffies_lock);
	write_seqcount_begin(&jiffies_seq);
	do_timer(1);
	tick_next_period = ktime_add_ns(tick_next_period, TICK_NSEC);
	write_seqcount_end(&jiffies_seq);
	raw_spin_unlock(&jiffies_lock);
}

/* The work of one periodic tick on @cpu. */
static void tick_periodic(int cpu)
{
	if (READ_ONCE(tick_do_timer_cpu) == cpu) {
		tick_advance_jiffies();
		update_wall_time();
	}

	profile_tick(CPU_PROFILING);
	update_process_times(user_mode(get_irq_regs()));
}

/**
 * tick_read_next_period - tick_next_period, read consistently from any CPU
 * @basej:	if not NULL, set to jiffies as of the same moment
 *
 * Return: when jiffies are due to advance next.
 */
ktime_t tick_read_next_period(unsigned long *basej)
{
	unsigned long j;
	unsigned int snap;
	ktime_t at;

	do {
		snap = read_seqcount_begin(&jiffies_seq);
		at = tick_next_period;
		j = jiffies;
	} while (read_seqcount_retry(&jiffies_seq, snap));
	if (basej)
		*basej = j;
	return at;
}

/**
 * tick_first_future_period - the first period boundary a device can take
 * @dev:	oneshot device emulating the periodic tick
 * @next:	the boundary to try first
 * @on_miss:	called for each boundary that has already passed, or NULL
 * @cpu:	passed to @on_miss
 *
 * Programs @dev for @next, @next + TICK_NSEC, ... until one lies in the
 * future.
 *
 * Return: the boundary @dev is armed for.
 */
VISIBLE_IF_KUNIT ktime_t tick_first_future_period(struct clock_event_device *dev,
						  ktime_t next,
						  void (*on_miss)(int cpu), int cpu)
{
	while (tick_program_dev(dev, next, false)) {
		if (on_miss)
			on_miss(cpu);
		next = ktime_add_ns(next, TICK_NSEC);
	}
	return next;
}
EXPORT_SYMBOL_IF_KUNIT(tick_first_future_period);

/**
 * tick_handle_periodic - event handler of the periodic tick
 * @dev:	the CPU's tick device
 *
 * A device without a periodic mode is re-armed for the next period here.
 * Periods that passed while the CPU could not take the interrupt are
 * accounted one by one, unless timekeeping itself runs on jiffies: then
 * accounting a period moves time on and the loop would never end.
 */
void tick_handle_periodic(struct clock_event_device *dev)
{
	int cpu = smp_processor_id();
	ktime_t period_start = dev->next_event;

	tick_periodic(cpu);

	/*
	 * Only an emulated period needs re-arming, and only while this is
	 * still the handler: hrtimer_run_queues() may just have moved this
	 * CPU to oneshot mode.
	 */
	if (dev->event_handler == tick_handle_periodic && clockevent_state_oneshot(dev))
		tick_first_future_period(dev, ktime_add_ns(period_start, TICK_NSEC),
					 timekeeping_valid_for_hres() ? tick_periodic : NULL,
					 cpu);
}

/* Start @dev's periodic interrupts, natively or emulated. */
static void tick_start_periods(struct clock_event_device *dev)
{
	bool native = dev->features & CLOCK_EVT_FEAT_PERIODIC;

	/* A oneshot broadcast device cannot feed a periodic one. */
	if (native && !tick_broadcast_oneshot_active()) {
		clockevents_switch_state(dev, CLOCK_EVT_STATE_PERIODIC);
	} else {
		clockevents_switch_state(dev, CLOCK_EVT_STATE_ONESHOT);
		tick_first_future_period(dev, tick_read_next_period(NULL), NULL, 0);
	}
}

/**
 * tick_setup_periodic - start the periodic tick on a device
 * @dev:	the device
 * @broadcast:	@dev is the broadcast device
 *
 * A device without periodic mode, or any device while broadcast runs in
 * oneshot mode, emulates it from the next period boundary on.
 *
 * Context: interrupts disabled.
 */
void tick_setup_periodic(struct clock_event_device *dev, int broadcast)
{
	tick_set_periodic_handler(dev, broadcast);
	/* A dummy device never fires: broadcast ticks for it. */
	if (tick_device_is_functional(dev))
		tick_start_periods(dev);
}

#ifdef CONFIG_NO_HZ_FULL
/*
 * The nohz_full boot CPU that holds the jiffies duty for now, -1 when
 * there is none.  Written during CPU bring-up only.
 */
static int tick_do_timer_boot_cpu __read_mostly = -1;

/* A nohz_full boot CPU only holds the duty until a housekeeping CPU is up. */
static void tick_boot_duty_taken(int cpu)
{
	if (tick_nohz_full_cpu(cpu))
		tick_do_timer_boot_cpu = cpu;
}

static void tick_boot_duty_offer(int cpu)
{
	if (tick_do_timer_boot_cpu == -1 || tick_nohz_full_cpu(cpu))
		return;
	/*
	 * Only tick_periodic() on the boot CPU reads the duty now, and it
	 * does not matter which of the two CPUs ticks once more.
	 */
	tick_do_timer_boot_cpu = -1;
	WRITE_ONCE(tick_do_timer_cpu, cpu);
}
#else
static inline void tick_boot_duty_taken(int cpu) { }
static inline void tick_boot_duty_offer(int cpu) { }
#endif

/**
 * tick_boot_next_period - tick_next_period as the first tick device sets it
 * @now:	ktime_get() at its registration
 *
 * Timekeeping still runs on the jiffies clocksource then: ktime_get()
 * moves in whole ticks plus the boot offset.  A periodic tick emulated on
 * a oneshot device is armed a period after each tick's clock reading, so
 * the first boundary must be a whole period after @now too.  A boundary
 * on the TICK_NSEC grid would be d < TICK_NSEC after it, every time: the
 * early jiffies would run TICK_NSEC/d times too fast, and with d near the
 * device's minimum delta the tick would never let the boot go on.
 * tick_align_next_period() moves the boundaries to the grid later.
 *
 * Return: @now, the end of the jiffy in progress.
 */
VISIBLE_IF_KUNIT ktime_t tick_boot_next_period(ktime_t now)
{
	return now;
}
EXPORT_SYMBOL_IF_KUNIT(tick_boot_next_period);

/**
 * tick_grid_round_up - the first multiple of TICK_NSEC at or after a time
 * @t:	the time
 *
 * Return: @t itself when it is on the grid.
 */
VISIBLE_IF_KUNIT ktime_t tick_grid_round_up(ktime_t t)
{
	u32 into;

	div_u64_rem(t, TICK_NSEC, &into);
	return into ? ktime_add_ns(t, TICK_NSEC - into) : t;
}
EXPORT_SYMBOL_IF_KUNIT(tick_grid_round_up);

/* tick_next_period has been put on the grid; under jiffies_lock. */
static bool tick_period_aligned;

/**
 * tick_align_next_period - put the jiffies boundaries on the TICK_NSEC grid
 *
 * Jiffies end on multiples of TICK_NSEC from then on, which the timer code
 * assumes when it rounds a low resolution hrtimer up to the tick that will
 * expire it.  Done once, when the first CPU's tick goes oneshot
 * (tick_setup_sched_timer()): by then timekeeping runs on a real
 * clocksource.  The jiffy in progress grows by less than a period.
 */
void tick_align_next_period(void)
{
	raw_spin_lock(&jiffies_lock);
	write_seqcount_begin(&jiffies_seq);
	if (!tick_period_aligned) {
		tick_next_period = tick_grid_round_up(tick_next_period);
		tick_period_aligned = true;
	}
	write_seqcount_end(&jiffies_seq);
	raw_spin_unlock(&jiffies_lock);
}

/* The first tick device of @cpu: take the jiffies duty if nobody has it. */
static void tick_take_duty_if_unowned(int cpu)
{
	if (READ_ONCE(tick_do_timer_cpu) != TICK_DO_TIMER_BOOT) {
		tick_boot_duty_offer(cpu);
		return;
	}
	tick_next_period = tick_boot_next_period(ktime_get());
	WRITE_ONCE(tick_do_timer_cpu, cpu);
	tick_boot_duty_taken(cpu);
}

/*
 * Make @newdev @cpu's tick device.  It continues in the mode of the device
 * it replaces, with that device's handler and pending expiry.
 */
static void tick_setup_device(struct tick_device *td,
			      struct clock_event_device *newdev, int cpu)
{
	void (*handler)(struct clock_event_device *) = NULL;
	struct clock_event_device *old = td->evtdev;
	ktime_t next_event = 0;

	if (!old) {
		tick_take_duty_if_unowned(cpu);
		td->mode = TICKDEV_MODE_PERIODIC;
	} else {
		handler = old->event_handler;
		next_event = old->next_event;
		old->event_handler = clockevents_handle_noop;
	}

	/* A global device serving this CPU must interrupt this CPU. */
	if (!cpumask_equal(newdev->cpumask, cpumask_of(cpu)))
		irq_set_affinity(newdev->irq, cpumask_of(cpu));

	/*
	 * Installs @newdev.  A placeholder device (or a CPU in broadcast)
	 * leaves the tick to the broadcast.
	 */
	if (tick_device_uses_broadcast(td, newdev, cpu))
		return;

	if (td->mode == TICKDEV_MODE_ONESHOT)
		tick_setup_oneshot(newdev, handler, next_event);
	else
		tick_setup_periodic(newdev, 0);
}

/* Give @newdev to this CPU in place of @curdev (may be NULL). */
static void tick_take_device(struct tick_device *td,
			     struct clock_event_device *curdev,
			     struct clock_event_device *newdev, int cpu)
{
	clockevents_exchange_device(curdev, newdev);
	tick_setup_device(td, newdev, cpu);
	if (newdev->features & CLOCK_EVT_FEAT_ONESHOT)
		tick_oneshot_notify();
}

/**
 * tick_install_replacement - make a device this CPU's tick device
 * @newdev:	the device, detached, with a module reference held
 *
 * Context: clockevents_lock held, interrupts disabled.
 */
void tick_install_replacement(struct clock_event_device *newdev)
{
	int cpu = smp_processor_id();
	struct tick_device *td = &per_cpu(tick_cpu_device, cpu);

	tick_take_device(td, td->evtdev, newdev, cpu);
}

/**
 * tick_device_preferred - whether a device should become a CPU's tick device
 * @curdev:		the CPU's current device, or NULL
 * @newdev:		the candidate
 * @cpu:		the CPU
 * @oneshot_active:	the CPU's tick runs in oneshot mode
 * @irq_movable:	@newdev's interrupt can be steered to @cpu
 *
 * The rules, in order: @newdev must serve @cpu; a global device needs a
 * movable interrupt and never displaces a device local to @cpu; a device
 * without oneshot mode never displaces one with it, nor serves a tick
 * that is oneshot already; then a local device beats a global one and a
 * higher rating beats a lower one.
 *
 * Return: true when @newdev is the better choice.
 */
VISIBLE_IF_KUNIT bool tick_device_preferred(const struct clock_event_device *curdev,
					    const struct clock_event_device *newdev,
					    int cpu, bool oneshot_active, bool irq_movable)
{
	const struct cpumask *mine = cpumask_of(cpu);
	bool new_local = cpumask_equal(newdev->cpumask, mine);

	if (!cpumask_test_cpu(cpu, newdev->cpumask))
		return false;
	if (!new_local) {
		if (!irq_movable)
			return false;
		if (curdev && cpumask_equal(curdev->cpumask, mine))
			return false;
	}

	if (!(newdev->features & CLOCK_EVT_FEAT_ONESHOT)) {
		if (oneshot_active)
			return false;
		if (curdev && (curdev->features & CLOCK_EVT_FEAT_ONESHOT))
			return false;
	}

	if (!curdev || newdev->rating > curdev->rating)
		return true;
	/* Lower or equal rating: only a local device beats a global one. */
	return !cpumask_equal(curdev->cpumask, newdev->cpumask);
}
EXPORT_SYMBOL_IF_KUNIT(tick_device_preferred);

/**
 * tick_check_replacement - whether a device should replace this CPU's
 *	tick device
 * @curdev:	the current device, or NULL
 * @newdev:	the candidate
 *
 * Context: interrupts disabled.
 * Return: true when @newdev is the better choice for this CPU.
 */
bool tick_check_replacement(struct clock_event_device *curdev,
			    struct clock_event_device *newdev)
{
	bool irq_movable = newdev->irq < 0 || irq_can_set_affinity(newdev->irq);

	return tick_device_preferred(curdev, newdev, smp_processor_id(),
				     tick_oneshot_mode_active(), irq_movable);
}

/*
 * What to hand back to clockevents when @curdev is replaced: nothing when
 * it is the broadcast device standing in, which stays with the broadcast
 * code, stopped.
 */
static struct clock_event_device *tick_released_device(struct clock_event_device *curdev)
{
	if (!tick_is_broadcast_device(curdev))
		return curdev;
	clockevents_shutdown(curdev);
	return NULL;
}

/**
 * tick_check_new_device - offer a newly available device to this CPU
 * @newdev:	the device, detached
 *
 * A device this CPU does not want may still become the broadcast device.
 * A broadcast device that was standing in as this CPU's tick device is
 * shut down but stays with the broadcast code.
 *
 * Context: clockevents_lock held, interrupts disabled.
 */
void tick_check_new_device(struct clock_event_device *newdev)
{
	int cpu = smp_processor_id();
	struct tick_device *td = &per_cpu(tick_cpu_device, cpu);
	struct clock_event_device *curdev = td->evtdev;

	if (!tick_check_replacement(curdev, newdev)) {
		tick_install_broadcast_device(newdev, cpu);
		return;
	}
	if (try_module_get(newdev->owner))
		tick_take_device(td, tick_released_device(curdev), newdev, cpu);
}

#ifdef CONFIG_HOTPLUG_CPU
/**
 * tick_assert_timekeeping_handover - check that an outgoing CPU gave up
 *	the jiffies duty
 */
void tick_assert_timekeeping_handover(void)
{
	WARN_ON_ONCE(READ_ONCE(tick_do_timer_cpu) == smp_processor_id());
}

/**
 * tick_shutdown - forget the tick device of a dead CPU
 * @cpu:	the dead CPU
 *
 * The device cannot be reached any more, so it is marked detached
 * without calling its driver.
 *
 * Context: clockevents_lock held, on a surviving CPU.
 */
void tick_shutdown(unsigned int cpu)
{
	struct tick_device *td = tick_get_device(cpu);
	struct clock_event_device *dev = td->evtdev;

	td->evtdev = NULL;
	td->mode = TICKDEV_MODE_PERIODIC;
	if (dev) {
		dev->event_handler = clockevents_handle_noop;
		/* Marked detached first, so that its driver is not called. */
		clockevent_set_state(dev, CLOCK_EVT_STATE_DETACHED);
		clockevents_exchange_device(dev, NULL);
	}
}

/**
 * tick_cpu_dying - take the tick off a CPU that goes offline
 * @dying_cpu:	the CPU, which is running this
 *
 * Every other online CPU is held in stop_machine, so none of them is idle
 * and the jiffies duty can go to any of them.
 *
 * Context: the dying CPU, interrupts disabled.
 * Return: 0.
 */
int tick_cpu_dying(unsigned int dying_cpu)
{
	if (READ_ONCE(tick_do_timer_cpu) == dying_cpu)
		WRITE_ONCE(tick_do_timer_cpu, cpumask_any_but(cpu_online_mask, dying_cpu));

	/* Its tick-sched state must not take the duty back. */
	tick_sched_timer_dying(dying_cpu);
	tick_offline_cpu(dying_cpu);
	return 0;
}
#endif

/**
 * tick_suspend_local - stop this CPU's tick device
 *
 * Context: interrupts disabled; this CPU's device cannot change.
 */
void tick_suspend_local(void)
{
	clockevents_shutdown(tick_this_cpu_device());
}

/**
 * tick_resume_local - restart this CPU's tick device in its mode
 *
 * A CPU that broadcast serves is restarted by the broadcast code instead.
 * The hrtimers are brought up to date, which also re-arms the device
 * when high resolution timers are on.
 *
 * Context: interrupts disabled.
 */
void tick_resume_local(void)
{
	struct tick_device *td = this_cpu_ptr(&tick_cpu_device);
	bool served_by_broadcast = tick_resume_check_broadcast();

	clockevents_tick_resume(td->evtdev);
	if (!served_by_broadcast) {
		if (td->mode == TICKDEV_MODE_ONESHOT)
			tick_resume_oneshot();
		else
			tick_setup_periodic(td->evtdev, 0);
	}
	hrtimers_resume_local();
}

/**
 * tick_resume - restart the broadcast device and this CPU's tick
 *
 * Context: system resume with one CPU online; interrupts disabled.
 */
void tick_resume(void)
{
	lockdep_assert_irqs_disabled();
	tick_resume_broadcast();
	tick_resume_local();
}

/**
 * tick_suspend - stop the last CPU's tick and the broadcast device
 *
 * Context: system suspend with one CPU online, or tick_freeze(); interrupts
 * disabled.
 */
void tick_suspend(void)
{
	lockdep_assert_irqs_disabled();
	tick_suspend_local();
	tick_suspend_broadcast();
}

/**
 * tick_broadcast_oneshot_control - enter or leave a state where this CPU's
 *	tick device may stop
 * @state:	TICK_BROADCAST_ENTER or TICK_BROADCAST_EXIT
 *
 * Only devices that stop in deep idle (C3STOP) involve broadcast.
 *
 * Context: interrupts disabled, so this CPU's device cannot change.
 * Return: 0, or -EBUSY when this CPU must stay awake to broadcast.
 */
int tick_broadcast_oneshot_control(enum tick_broadcast_state state)
{
	if (tick_this_cpu_device()->features & CLOCK_EVT_FEAT_C3STOP)
		return __tick_broadcast_oneshot_control(state);
	return 0;
}
EXPORT_SYMBOL_GPL(tick_broadcast_oneshot_control);

#ifdef CONFIG_SUSPEND
/* Counts the CPUs inside tick_freeze(); protected by tick_freeze_lock. */
static unsigned int tick_frozen_cpus;
static DEFINE_RAW_SPINLOCK(tick_freeze_lock);

/*
 * The last CPU to freeze suspends timekeeping under tick_freeze_lock, which
 * may take sleeping locks on PREEMPT_RT.  Nothing can contend then: every
 * other CPU is in suspend-to-idle and tasks are frozen.  This map tells
 * lockdep so.
 */
static DEFINE_WAIT_OVERRIDE_MAP(tick_freeze_map, LD_WAIT_SLEEP);

/*
 * The last CPU into suspend-to-idle stops timekeeping (@freeze), the first
 * one out restarts it.
 */
static void tick_freeze_timekeeping(bool freeze)
{
	if (freeze)
		trace_suspend_resume(TPS("timekeeping_freeze"), smp_processor_id(), true);
	lock_map_acquire_try(&tick_freeze_map);
	if (freeze) {
		sched_clock_suspend();
		system_state = SYSTEM_SUSPEND;
		timekeeping_suspend();
	} else {
		timekeeping_resume();
		sched_clock_resume();
		system_state = SYSTEM_RUNNING;
	}
	lock_map_release(&tick_freeze_map);
	if (!freeze)
		trace_suspend_resume(TPS("timekeeping_freeze"), smp_processor_id(), false);
}

/**
 * tick_freeze - stop this CPU's tick for suspend-to-idle
 *
 * The last online CPU to get here suspends timekeeping as a whole; the
 * others only stop their own tick device.  Balanced by tick_unfreeze().
 *
 * Context: interrupts disabled until the matching tick_unfreeze().
 */
void tick_freeze(void)
{
	guard(raw_spinlock)(&tick_freeze_lock);

	if (++tick_frozen_cpus == num_online_cpus())
		tick_freeze_timekeeping(true);
	else
		tick_suspend_local();
}

/**
 * tick_unfreeze - restart this CPU's tick after suspend-to-idle
 *
 * The first CPU to leave resumes timekeeping; the others restart their own
 * tick device.
 *
 * Context: interrupts disabled since the matching tick_freeze().
 */
void tick_unfreeze(void)
{
	guard(raw_spinlock)(&tick_freeze_lock);

	if (tick_frozen_cpus == num_online_cpus()) {
		tick_freeze_timekeeping(false);
	} else {
		touch_softlockup_watchdog();
		tick_resume_local();
	}
	tick_frozen_cpus--;
}
#endif /* CONFIG_SUSPEND */

/**
 * tick_get_device - the tick device of a CPU
 * @cpu:	the CPU
 *
 * Return: @cpu's struct tick_device, for /proc/timer_list.
 */
struct tick_device *tick_get_device(int cpu)
{
	return &per_cpu(tick_cpu_device, cpu);
}

/**
 * tick_init - set up the broadcast and NO_HZ state at boot
 */
void __init tick_init(void)
{
	tick_nohz_init();
	tick_broadcast_init();
}
