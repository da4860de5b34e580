// SPDX-License-Identifier: GPL-2.0
/*
 * The clockevents core: the layer between timer drivers and the tick code.
 *
 * Drivers register devices that raise an interrupt at a chosen time.  This
 * file keeps the list of them, converts nanoseconds to device ticks and
 * back, walks each device through its state machine, programs the next
 * event (forcing a slow device to fire when asked), hands devices to and
 * from the tick layer, and shows per-CPU devices in sysfs.  Which device a
 * CPU should use is the tick layer's decision (tick-common.c); this file
 * only carries it out.
 */

#include <linux/clockchips.h>
#include <linux/cpu.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/smp.h>
#include <kunit/visibility.h>

#include "tick-internal.h"
#include "clockevents-internal.h"

/*
 * Every registered device is on exactly one of two lists.  ce_registered
 * holds the devices the tick layer uses or may pick; ce_released holds the
 * devices the tick layer let go of while a new device was being offered,
 * until they are offered again.  Both lists, and every tick device's choice
 * of clock event device, are changed only with clockevents_lock held and
 * interrupts off.
 */
static LIST_HEAD(ce_registered);
static LIST_HEAD(ce_released);
static DEFINE_RAW_SPINLOCK(clockevents_lock);

/*
 * Serialises unbind requests, so that a device looked up under
 * clockevents_lock stays registered while another CPU is asked to let go
 * of it.
 */
static DEFINE_MUTEX(clockevents_mutex);

/* Shortest delay worth programming: below a microsecond it is noise. */
#define CE_MIN_DELTA_FLOOR_NS		1000ULL

/*
 * Devices counting with more than 32 bits could be armed for ages; capping
 * the conversion range at ten minutes keeps mult precise.
 */
#define CE_LONG_RANGE_CAP_S		600

/* The forced path raises min_delta_ns from at least this much... */
#define CE_MIN_DELTA_RAISE_FROM_NS	5000ULL
/* ...in steps of half its value, up to one jiffy. */
#define CE_MIN_DELTA_CEILING_NS		((u64)(NSEC_PER_SEC / HZ))

/*
 * Programming runs under the hrtimer base lock, where only deferred printk
 * is safe.
 */
#define CE_WARN				KERN_WARNING "clockevents: "
#define CE_INFO				KERN_INFO "clockevents: "

/* Tries with one min_delta_ns before raising it, or giving up without MIN_ADJUST. */
#define CE_TRIES_PER_DELTA		3
#define CE_TRIES_WITHOUT_ADJUST		10

/*
 * Early events (clockevents_note_event()).  Armings shorter than
 * CE_EARLY_MIN_SPAN_NS are not judged: there interrupt latency hides the
 * earliness of a device a few percent fast (and the re-arm for the rest of
 * an early event is one of those).  An event counts as early when it is
 * handled more than CE_EARLY_SLACK_NS (or two device ticks) before its
 * time; CE_EARLY_RUN early events in a row correct the conversion by the
 * second largest shortfall of the run, up to CE_EARLY_MAX_PPM of the
 * driver's frequency in all.  Every arming of the first CE_EARLY_WATCH is
 * watched, then one in CE_EARLY_SAMPLE, so a steady device pays one clock
 * read per CE_EARLY_SAMPLE interrupts.
 */
#define CE_EARLY_MIN_SPAN_NS		NSEC_PER_MSEC
#define CE_EARLY_SLACK_NS		(5 * NSEC_PER_USEC)
#define CE_EARLY_RUN			8
#define CE_EARLY_MAX_PPM		100000
#define CE_EARLY_WATCH			256
#define CE_EARLY_SAMPLE			16

/**
 * clockevents_ticks_to_ns - convert a number of device ticks to nanoseconds
 * @ticks:	ticks of @dev
 * @dev:	the device, with mult and shift set
 * @upper:	the result is an upper bound (max_delta_ns) rather than a
 *		lower bound
 *
 * A lower bound is rounded up, so that programming it gives the device at
 * least @ticks.  An upper bound is rounded up only while a nanosecond is
 * worth no more than one tick; for devices faster than 1 GHz rounding up
 * would overshoot the device's range, so it is rounded down.  A result
 * that does not fit saturates at the largest delay whose conversion back
 * (ns * mult) fits 64 bits, and nothing below a microsecond is returned.
 *
 * Return: the converted delay in nanoseconds.
 */
VISIBLE_IF_KUNIT u64 clockevents_ticks_to_ns(unsigned long ticks,
					     struct clock_event_device *dev,
					     bool upper)
{
	bool ns_coarser_than_tick, saturated;
	u64 scaled, ns;
	u32 rem;

	if (WARN_ON_ONCE(!dev->mult))
		dev->mult = 1;

	saturated = ticks && fls64(ticks) + dev->shift > 64;
	scaled = saturated ? U64_MAX : (u64)ticks << dev->shift;

	ns = div_u64_rem(scaled, dev->mult, &rem);
	ns_coarser_than_tick = dev->mult <= (1ULL << dev->shift);
	/* Saturated, ns * mult must still fit: no rounding up then. */
	if (rem && !saturated && (!upper || ns_coarser_than_tick))
		ns++;

	return max(ns, CE_MIN_DELTA_FLOOR_NS);
}
EXPORT_SYMBOL_IF_KUNIT(clockevents_ticks_to_ns);

/**
 * clockevents_ns_to_ticks - convert a delay in nanoseconds to device ticks
 * @ns:		delay, at most @dev's max_delta_ns
 * @dev:	the device
 *
 * Return: the number of ticks to hand to the device's set_next_event().
 */
VISIBLE_IF_KUNIT unsigned long clockevents_ns_to_ticks(u64 ns,
						       struct clock_event_device *dev)
{
	return (unsigned long)mul_u64_u32_shr(ns, dev->mult, dev->shift);
}
EXPORT_SYMBOL_IF_KUNIT(clockevents_ns_to_ticks);

/**
 * clockevent_delta2ns - convert device ticks to nanoseconds
 * @latch:	number of ticks
 * @evt:	the device, with mult and shift set
 *
 * Drivers use it to set min_delta_ns and max_delta_ns themselves.
 *
 * Return: @latch ticks in nanoseconds, rounded up, at least one microsecond.
 */
u64 clockevent_delta2ns(unsigned long latch, struct clock_event_device *evt)
{
	return clockevents_ticks_to_ns(latch, evt, false);
}
EXPORT_SYMBOL_GPL(clockevent_delta2ns);

typedef int (*ce_state_fn)(struct clock_event_device *dev);

/* The feature a device needs to enter @state; 0 when every device can. */
static unsigned int ce_feature_for_state(enum clock_event_state state)
{
	if (state == CLOCK_EVT_STATE_PERIODIC)
		return CLOCK_EVT_FEAT_PERIODIC;
	if (state == CLOCK_EVT_STATE_ONESHOT)
		return CLOCK_EVT_FEAT_ONESHOT;
	return 0;
}

/* The driver callback that puts @dev into @state (NULL: nothing to do). */
static ce_state_fn ce_callback_for_state(struct clock_event_device *dev,
					 enum clock_event_state state)
{
	switch (state) {
	case CLOCK_EVT_STATE_PERIODIC:
		return dev->set_state_periodic;
	case CLOCK_EVT_STATE_ONESHOT:
		return dev->set_state_oneshot;
	case CLOCK_EVT_STATE_ONESHOT_STOPPED:
		return dev->set_state_oneshot_stopped;
	default:
		/* Detaching a device stops it just as shutting it down does. */
		return dev->set_state_shutdown;
	}
}

/*
 * Ask the driver to enter @state.  Returns 0 when the device is there, so
 * the caller may record the new state.
 */
static int ce_enter_state(struct clock_event_device *dev,
			  enum clock_event_state state)
{
	unsigned int needed = ce_feature_for_state(state);
	ce_state_fn callback;

	/* A dummy device never fires, so there is nothing to switch. */
	if (dev->features & CLOCK_EVT_FEAT_DUMMY)
		return 0;
	if ((dev->features & needed) != needed)
		return -EOPNOTSUPP;
	if (state > CLOCK_EVT_STATE_ONESHOT_STOPPED)
		return -EOPNOTSUPP;

	callback = ce_callback_for_state(dev, state);
	if (state == CLOCK_EVT_STATE_ONESHOT_STOPPED) {
		if (WARN_ONCE(!clockevent_state_oneshot(dev),
			      "clockevents: %s stopped from state %d\n",
			      dev->name, clockevent_get_state(dev)))
			return -EINVAL;
		/* Without the callback the device stays armed: stay ONESHOT. */
		if (!callback)
			return -EOPNOTSUPP;
	}
	return callback ? callback(dev) : 0;
}

/**
 * clockevents_switch_state - move a clock event device to another state
 * @dev:	the device
 * @state:	the state to enter
 *
 * Calls the driver's callback for @state once; switching to the state the
 * device is already in does nothing.  When the driver refuses, the device
 * keeps its old state.
 *
 * Context: interrupts disabled, on a CPU the device serves.
 */
void clockevents_switch_state(struct clock_event_device *dev,
			      enum clock_event_state state)
{
	if (clockevent_get_state(dev) == state)
		return;
	if (ce_enter_state(dev, state))
		return;
	clockevent_set_state(dev, state);
	/* Only a oneshot arming is judged for earliness. */
	dev->fire_at = 0;

	/*
	 * The oneshot path divides by mult; a driver that left it 0 is buggy.
	 * A dummy is never programmed through it (the broadcast carries its
	 * events), so it may have none.
	 */
	if (state == CLOCK_EVT_STATE_ONESHOT && !(dev->features & CLOCK_EVT_FEAT_DUMMY) &&
	    WARN_ON(!dev->mult))
		dev->mult = 1;
}
EXPORT_SYMBOL_IF_KUNIT(clockevents_switch_state);

/**
 * clockevents_shutdown - stop a clock event device and forget its expiry
 * @dev:	the device
 *
 * Context: interrupts disabled.
 */
void clockevents_shutdown(struct clock_event_device *dev)
{
	dev->next_event = KTIME_MAX;
	clockevents_switch_state(dev, CLOCK_EVT_STATE_SHUTDOWN);
}
EXPORT_SYMBOL_IF_KUNIT(clockevents_shutdown);

/**
 * clockevents_tick_resume - let a device restore itself after a tick suspend
 * @dev:	the device
 *
 * Return: 0, or the error of the driver's tick_resume() callback.
 */
int clockevents_tick_resume(struct clock_event_device *dev)
{
	return dev->tick_resume ? dev->tick_resume(dev) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(clockevents_tick_resume);

/* @delta_ns, cut to the range @dev can be armed for. */
static u64 clamp_delta(struct clock_event_device *dev, s64 delta_ns)
{
	u64 ns = min_t(u64, delta_ns, dev->max_delta_ns);

	return max(ns, dev->min_delta_ns);
}

/* Arm @dev @ns from now; @ns is within the device's range. */
static int ce_arm_after(struct clock_event_device *dev, u64 ns)
{
	return dev->set_next_event(clockevents_ns_to_ticks(ns, dev), dev);
}

/*
 * Grow min_delta_ns after a device failed to fire that soon: half as much
 * again (from at least 5 us), never past one jiffy.  Returns false when it
 * was at one jiffy already.
 */
static bool ce_raise_min_delta(struct clock_event_device *dev)
{
	u64 next;

	if (dev->min_delta_ns >= CE_MIN_DELTA_CEILING_NS) {
		printk_deferred(CE_WARN "%s misses events even %llu ns ahead, giving up\n",
				dev->name ?: "?", dev->min_delta_ns);
		return false;
	}
	if (dev->min_delta_ns < CE_MIN_DELTA_RAISE_FROM_NS)
		next = CE_MIN_DELTA_RAISE_FROM_NS;
	else
		next = dev->min_delta_ns + dev->min_delta_ns / 2;
	dev->min_delta_ns = min(next, CE_MIN_DELTA_CEILING_NS);
	printk_deferred(CE_WARN "%s min_delta_ns raised to %llu\n",
			dev->name ?: "?", dev->min_delta_ns);
	return true;
}

/*
 * Make @dev fire as soon as it can, for callers that cannot take -ETIME.
 * With CONFIG_GENERIC_CLOCKEVENTS_MIN_ADJUST a device that keeps refusing
 * its minimum delay gets a larger minimum, for good; without it each retry
 * just asks for one more minimum delay.
 */
static int ce_arm_soonest(struct clock_event_device *dev)
{
	const bool adjust = IS_ENABLED(CONFIG_GENERIC_CLOCKEVENTS_MIN_ADJUST);
	u64 delay = dev->min_delta_ns;
	unsigned int tries = 0;

	for (;;) {
		dev->next_event = ktime_add_ns(ktime_get(), delay);
		dev->retries++;
		tries++;
		if (!ce_arm_after(dev, delay))
			return 0;

		if (!adjust) {
			if (tries >= CE_TRIES_WITHOUT_ADJUST)
				return -ETIME;
			delay += dev->min_delta_ns;
		} else if (tries % CE_TRIES_PER_DELTA == 0) {
			if (!ce_raise_min_delta(dev)) {
				dev->next_event = KTIME_MAX;
				return -ETIME;
			}
			delay = dev->min_delta_ns;
		}
	}
}

/* Watch the event just armed @ns after @now, when its turn has come. */
static void ce_watch_arming(struct clock_event_device *dev, ktime_t now, u64 ns)
{
	unsigned int n = dev->early_watch;

	dev->fire_at = 0;
	if (ns < CE_EARLY_MIN_SPAN_NS)
		return;
	dev->early_watch = n + 1 ?: CE_EARLY_WATCH;
	if (n >= CE_EARLY_WATCH && n % CE_EARLY_SAMPLE)
		return;
	dev->armed_at = now;
	dev->fire_at = ktime_add_ns(now, ns);
}

/**
 * clockevents_program_event - arm a device for an absolute expiry
 * @dev:	the device, in oneshot state
 * @expires:	CLOCK_MONOTONIC time of the event
 * @force:	when @expires cannot be met, fire as soon as possible instead
 *
 * A delay beyond the device's range is cut to max_delta_ns (the tick layer
 * re-arms on the early event); one below its minimum is raised to
 * min_delta_ns.  A shut-down device only records @expires.
 *
 * Context: interrupts disabled, on a CPU the device serves.
 * Return: 0 when the device is armed, -ETIME when @expires has passed (and
 * @force is false) or the device could not be made to fire.
 */
int clockevents_program_event(struct clock_event_device *dev, ktime_t expires,
			      bool force)
{
	ktime_t now;
	s64 delta;
	u64 ns;
	int err;

	if (WARN_ON_ONCE(ktime_to_ns(expires) < 0))
		return -ETIME;
	dev->next_event = expires;
	/*
	 * A dummy never fires: the tick layer hands its events to the
	 * broadcast device (tick_program_dev()), so here it is only noted.
	 */
	if (dev->features & CLOCK_EVT_FEAT_DUMMY)
		return 0;
	switch (clockevent_get_state(dev)) {
	case CLOCK_EVT_STATE_SHUTDOWN:
		/* Kept for when the device is started again. */
		return 0;
	case CLOCK_EVT_STATE_ONESHOT:
		break;
	default:
		WARN_ONCE(1, "clockevents: %s programmed in state %d\n",
			  dev->name, clockevent_get_state(dev));
	}

	if (dev->features & CLOCK_EVT_FEAT_KTIME)
		return dev->set_next_ktime(expires, dev);

	now = ktime_get();
	delta = ktime_sub(expires, now);
	if (delta > 0) {
		ns = clamp_delta(dev, delta);
		err = ce_arm_after(dev, ns);
		if (!err) {
			ce_watch_arming(dev, now, ns);
			return 0;
		}
		if (!force)
			return err;
	} else if (!force) {
		return -ETIME;
	}
	/* A forced arming fires at the device's minimum: not judged. */
	dev->fire_at = 0;
	return ce_arm_soonest(dev);
}
EXPORT_SYMBOL_IF_KUNIT(clockevents_program_event);

/*
 * Offer the devices the tick layer released back to it; a device it now
 * takes may release another one, so go on until none is left.
 *
 * Context: clockevents_lock held.
 */
static void clockevents_notify_released(void)
{
	struct clock_event_device *dev;

	while (!list_empty(&ce_released)) {
		dev = list_first_entry(&ce_released, struct clock_event_device,
				       list);
		list_move(&dev->list, &ce_registered);
		tick_check_new_device(dev);
	}
}

/*
 * Let go of @dev if the tick layer does not use it: 0 when it is now off
 * the lists, -EAGAIN when it is @cpu's tick device (the caller may look
 * for a successor on @cpu), -EBUSY when something else uses it.
 *
 * Context: clockevents_lock held.
 */
static int ce_release_if_unused(struct clock_event_device *dev, int cpu)
{
	if (clockevent_state_detached(dev)) {
		list_del_init(&dev->list);
		return 0;
	}
	if (dev == per_cpu(tick_cpu_device, cpu).evtdev)
		return -EAGAIN;
	return -EBUSY;
}

/*
 * Whether @dev may take over from @leaving and beats @best (may be NULL).
 * A dummy device leaves the tick to the broadcast device, which a CPU in
 * oneshot mode cannot run on: it would lose its hrtimers and NO_HZ.
 */
static bool ce_is_better_successor(struct clock_event_device *best,
				   struct clock_event_device *dev,
				   struct clock_event_device *leaving)
{
	if (dev == leaving || !clockevent_state_detached(dev))
		return false;
	if ((dev->features & CLOCK_EVT_FEAT_DUMMY) && tick_oneshot_mode_active())
		return false;
	return tick_check_replacement(best, dev);
}

/*
 * Install the best unused device in place of @leaving, this CPU's tick
 * device, and unregister @leaving.  -EBUSY when no device can take over.
 *
 * Context: clockevents_lock held, on the CPU @leaving serves.
 */
static int ce_hand_over(struct clock_event_device *leaving)
{
	struct clock_event_device *dev, *best = NULL;

	list_for_each_entry(dev, &ce_registered, list) {
		if (!ce_is_better_successor(best, dev, leaving))
			continue;
		if (!try_module_get(dev->owner))
			continue;
		if (best)
			module_put(best->owner);
		best = dev;
	}
	if (!best)
		return -EBUSY;

	tick_install_replacement(best);
	list_del_init(&leaving->list);
	return 0;
}

struct ce_unbind_request {
	struct clock_event_device *dev;
	int result;
};

/* Runs on the CPU whose device is to go: the tick device is per CPU. */
static void ce_unbind_here(void *arg)
{
	struct ce_unbind_request *req = arg;
	int ret;

	raw_spin_lock(&clockevents_lock);
	ret = ce_release_if_unused(req->dev, smp_processor_id());
	if (ret == -EAGAIN)
		ret = ce_hand_over(req->dev);
	req->result = ret;
	raw_spin_unlock(&clockevents_lock);
}

/* Context: clockevents_mutex held. */
static int ce_unbind_on(struct clock_event_device *dev, int cpu)
{
	/* Stays -ENODEV when @cpu is offline and the call never runs. */
	struct ce_unbind_request req = { .dev = dev, .result = -ENODEV };

	smp_call_function_single(cpu, ce_unbind_here, &req, 1);
	return req.result;
}

/**
 * clockevents_unbind_device - stop using a device and unregister it
 * @ced:	the device
 * @cpu:	the CPU whose tick device it may be
 *
 * An unused device is simply unregistered.  When @ced is @cpu's tick
 * device, the best unused device takes its place first.
 *
 * Context: process context; may sleep.
 * Return: 0 on success, -EBUSY when @ced is in use and nothing can take
 * over, -ENODEV when @cpu is offline.
 */
int clockevents_unbind_device(struct clock_event_device *ced, int cpu)
{
	int ret;

	mutex_lock(&clockevents_mutex);
	ret = ce_unbind_on(ced, cpu);
	mutex_unlock(&clockevents_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(clockevents_unbind_device);

/* Catch registrations whose cpumask cannot be right. */
static void ce_check_cpumask(struct clock_event_device *dev)
{
	if (!dev->cpumask) {
		/* Only a uniprocessor driver may leave it out. */
		WARN_ON(num_possible_cpus() != 1);
		dev->cpumask = cpumask_of(smp_processor_id());
	} else if (dev->cpumask == cpu_all_mask) {
		WARN(1, "clockevents: %s serves cpu_all_mask, using cpu_possible_mask\n",
		     dev->name);
		dev->cpumask = cpu_possible_mask;
	}
}

/**
 * clockevents_register_device - make a device available to the tick layer
 * @dev:	the device, with mult, shift and min/max_delta_ns set when it
 *		can do oneshot
 *
 * The tick layer may take @dev at once, for one CPU or as the broadcast
 * device, and may release a device it used before.
 *
 * Context: any; takes clockevents_lock with interrupts off.
 */
void clockevents_register_device(struct clock_event_device *dev)
{
	clockevent_set_state(dev, CLOCK_EVT_STATE_DETACHED);
	ce_check_cpumask(dev);

	guard(raw_spinlock_irqsave)(&clockevents_lock);
	list_add(&dev->list, &ce_registered);
	tick_check_new_device(dev);
	clockevents_notify_released();
}
EXPORT_SYMBOL_GPL(clockevents_register_device);

/**
 * clockevents_config - derive mult, shift and the delta limits from a frequency
 * @dev:	the device, with min_delta_ticks and max_delta_ticks set
 * @freq:	its frequency in Hz
 *
 * Only oneshot devices are programmed in ticks, so others are left alone.
 * For devices wider than 32 bits, mult and shift are chosen for ten
 * minutes, which keeps them precise; max_delta_ns is still the whole
 * range that converts without overflow (about 1466 s for a 3 GHz TSC
 * deadline, 1431 s for a 56-bit counter at 24 MHz), as in 6.12.
 *
 * Return: 0, or -EINVAL for a oneshot device of frequency 0 (then left
 * untouched: it cannot be programmed).
 */
VISIBLE_IF_KUNIT int clockevents_config(struct clock_event_device *dev, u32 freq)
{
	u64 range_s;

	if (!(dev->features & CLOCK_EVT_FEAT_ONESHOT))
		return 0;
	if (!freq)
		return -EINVAL;

	dev->freq = freq;
	range_s = div_u64(dev->max_delta_ticks, freq);
	if (dev->max_delta_ticks > U32_MAX)
		range_s = min_t(u64, range_s, CE_LONG_RANGE_CAP_S);
	range_s = max_t(u64, range_s, 1);
	clockevents_calc_mult_shift(dev, freq, range_s);

	dev->min_delta_ns = clockevents_ticks_to_ns(dev->min_delta_ticks, dev, false);
	dev->max_delta_ns = clockevents_ticks_to_ns(dev->max_delta_ticks, dev, true);
	/* A range the device declared upside down is at least not negative. */
	dev->max_delta_ns = max(dev->max_delta_ns, dev->min_delta_ns);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(clockevents_config);

static void ce_end_early_run(struct clock_event_device *dev)
{
	dev->early_run = 0;
	dev->early_top_ppm = 0;
	dev->early_next_ppm = 0;
}

/* What the driver says @dev runs at: corrections start again from it. */
static void ce_declare_freq(struct clock_event_device *dev, u32 freq)
{
	dev->freq_declared = freq;
	ce_end_early_run(dev);
	dev->early_watch = 0;
}

/**
 * __clockevents_update_freq - reconfigure a device for a new frequency
 * @dev:	the device
 * @freq:	its new frequency in Hz
 *
 * A running device is re-armed: a oneshot device for its pending expiry,
 * a periodic one by entering periodic mode again at the new rate.
 *
 * Context: interrupts disabled, on a CPU the device serves.
 * Return: 0, or the error of re-arming the device.
 */
int __clockevents_update_freq(struct clock_event_device *dev, u32 freq)
{
	int ret = clockevents_config(dev, freq);

	if (ret) {
		pr_err("clockevents: %s: new frequency 0 refused\n", dev->name);
		return ret;
	}

	switch (clockevent_get_state(dev)) {
	case CLOCK_EVT_STATE_ONESHOT:
		return clockevents_program_event(dev, dev->next_event, false);
	case CLOCK_EVT_STATE_PERIODIC:
		/* Not a state change: the driver just reloads its period. */
		return ce_enter_state(dev, CLOCK_EVT_STATE_PERIODIC);
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(__clockevents_update_freq);

/* Reconfigure @dev for @freq, through the broadcast code when it is its device. */
static int ce_update_freq(struct clock_event_device *dev, u32 freq)
{
	int ret = tick_broadcast_update_freq(dev, freq);

	/* -ENODEV: @dev is not the broadcast device, so it is ours to update. */
	return ret == -ENODEV ? __clockevents_update_freq(dev, freq) : ret;
}

/*
 * Correct @dev's conversion for a device that runs @ppm parts per million
 * fast: the events it was armed for came that much before their time.
 * Only ever upwards (an early event proves the device fast; a late one
 * proves nothing, interrupts are late for many reasons), so corrections
 * cannot oscillate.  Interrupt latency only shrinks a shortfall, so the
 * run's second largest (one outlier, say a spurious interrupt, is left
 * out) is at most what the device really is ahead: none overshoots.
 * min_delta_ns keeps a raise.
 */
static void ce_correct_rate(struct clock_event_device *dev, u32 ppm)
{
	u64 ceiling = dev->freq_declared +
		      div_u64((u64)dev->freq_declared * CE_EARLY_MAX_PPM, USEC_PER_SEC);
	u64 min_delta = dev->min_delta_ns, freq = U64_MAX;

	if (ppm <= CE_EARLY_MAX_PPM)
		freq = div_u64((u64)dev->freq * USEC_PER_SEC, USEC_PER_SEC - ppm);
	if (freq > ceiling || freq > U32_MAX) {
		if (!dev->nr_rate_refused++)
			printk_deferred(CE_WARN "%s fires %u ppm early, beyond the %u ppm of %u Hz corrected\n",
					dev->name, ppm, CE_EARLY_MAX_PPM, dev->freq_declared);
		return;
	}
	if (!dev->nr_rate_fixes++)
		printk_deferred(CE_INFO "%s fires %u ppm early, converting at %llu Hz instead of %u\n",
				dev->name, ppm, freq, dev->freq);
	ce_update_freq(dev, freq);
	dev->min_delta_ns = max(dev->min_delta_ns, min_delta);
}

/**
 * clockevents_note_event_at - judge a watched event handled at @now
 * @dev:	the device that fired
 * @now:	CLOCK_MONOTONIC time it is handled at
 *
 * Context: the device's interrupt, interrupts disabled.
 */
VISIBLE_IF_KUNIT void clockevents_note_event_at(struct clock_event_device *dev, ktime_t now)
{
	ktime_t at = dev->fire_at;
	u64 span = ktime_sub(at, dev->armed_at), tick_ns = 0;
	u32 ppm;

	dev->fire_at = 0;
	if (dev->freq)
		tick_ns = div_u64(NSEC_PER_SEC, dev->freq);
	if (ktime_add_ns(now, max_t(u64, CE_EARLY_SLACK_NS, 2 * tick_ns)) >= at || !span) {
		ce_end_early_run(dev);
		return;
	}
	dev->nr_early++;
	/* Without the frequency the conversion came from, only counted. */
	if (!dev->freq)
		return;
	/*
	 * The conversion to ticks truncates, so the device may fire up to one
	 * tick before @at even at its true rate: leave that tick out, or the
	 * correction would overshoot by it.  Early means more than two ticks.
	 */
	ppm = div64_u64((u64)(ktime_sub(at, now) - tick_ns) * USEC_PER_SEC, span);
	if (ppm > dev->early_top_ppm)
		swap(ppm, dev->early_top_ppm);
	dev->early_next_ppm = max(dev->early_next_ppm, ppm);
	if (++dev->early_run < CE_EARLY_RUN)
		return;
	ppm = dev->early_next_ppm;
	ce_end_early_run(dev);
	ce_correct_rate(dev, ppm);
}
EXPORT_SYMBOL_IF_KUNIT(clockevents_note_event_at);

/**
 * clockevents_note_event - judge whether a watched event came early
 * @dev:	the device that fired, with an event watched (@dev->fire_at)
 *
 * Called by clockevents_handle_event().
 *
 * Context: the device's interrupt, interrupts disabled.
 */
void clockevents_note_event(struct clock_event_device *dev)
{
	clockevents_note_event_at(dev, ktime_get());
}
EXPORT_SYMBOL_GPL(clockevents_note_event);

/**
 * clockevents_config_and_register - configure a device from its frequency
 *	and register it
 * @dev:	the device
 * @freq:	its frequency in Hz
 * @min_delta:	fewest ticks it can be armed for in oneshot mode
 * @max_delta:	most ticks it can be armed for in oneshot mode
 *
 * @min_delta and @max_delta may be 0 for a periodic-only device.  A
 * oneshot device of frequency 0 is not registered (6.12 warned and
 * registered it with zero delta limits): the error names it.
 *
 * Context: any; see clockevents_register_device().
 */
void clockevents_config_and_register(struct clock_event_device *dev, u32 freq,
				     unsigned long min_delta, unsigned long max_delta)
{
	ce_declare_freq(dev, freq);
	dev->max_delta_ticks = max_delta;
	dev->min_delta_ticks = min_delta;
	if (clockevents_config(dev, freq)) {
		pr_err("clockevents: %s has a frequency of 0, not registered\n", dev->name);
		return;
	}
	clockevents_register_device(dev);
}
EXPORT_SYMBOL_GPL(clockevents_config_and_register);

/**
 * clockevents_update_freq - change a device's frequency and re-arm it
 * @dev:	the device
 * @freq:	its new frequency in Hz
 *
 * For a per-CPU device, call it on that CPU.  The broadcast device is
 * serialised by the broadcast code.
 *
 * Return: 0, or -ETIME when the pending event has already passed.
 */
int clockevents_update_freq(struct clock_event_device *dev, u32 freq)
{
	guard(irqsave)();
	/* The driver's word replaces any correction made for early events. */
	ce_declare_freq(dev, freq);
	return ce_update_freq(dev, freq);
}

/**
 * clockevents_resume - let the drivers of devices in use restore their state
 *
 * Context: system resume, one CPU, interrupts disabled.
 */
void clockevents_resume(void)
{
	struct clock_event_device *dev;

	list_for_each_entry(dev, &ce_registered, list) {
		if (!clockevent_state_detached(dev) && dev->resume)
			dev->resume(dev);
	}
}

/**
 * clockevents_suspend - let the drivers of devices in use save their state
 *
 * Devices are suspended in the reverse order of their registration.
 *
 * Context: system suspend, one CPU left, interrupts disabled.
 */
void clockevents_suspend(void)
{
	struct clock_event_device *dev;

	list_for_each_entry_reverse(dev, &ce_registered, list) {
		if (!clockevent_state_detached(dev) && dev->suspend)
			dev->suspend(dev);
	}
}

/**
 * __clockevents_exchange_device - swap devices, keeping module references
 * @old:	device the tick layer lets go of, or NULL
 * @new:	device it takes, or NULL
 *
 * @new is shut down, ready to be set up; @old is detached and parked on
 * the released list, to be offered again after the current registration.
 *
 * Context: clockevents_lock held, interrupts disabled.
 */
void __clockevents_exchange_device(struct clock_event_device *old, struct clock_event_device *new)
{
	if (new) {
		WARN_ON(!clockevent_state_detached(new));
		clockevents_shutdown(new);
	}
	if (old) {
		clockevents_switch_state(old, CLOCK_EVT_STATE_DETACHED);
		list_move(&old->list, &ce_released);
	}
}

/**
 * clockevents_exchange_device - the tick layer swaps the device it uses
 * @old:	device it lets go of, or NULL
 * @new:	device it takes, or NULL
 *
 * As __clockevents_exchange_device(), and drops the module reference taken
 * when @old was picked.
 *
 * Context: clockevents_lock held, interrupts disabled.
 */
void clockevents_exchange_device(struct clock_event_device *old, struct clock_event_device *new)
{
	__clockevents_exchange_device(old, new);
	if (old)
		module_put(old->owner);
}

/**
 * clockevents_handle_noop - event handler of a device nobody listens to
 * @dev:	the device
 */
void clockevents_handle_noop(struct clock_event_device *dev)
{
}

#ifdef CONFIG_HOTPLUG_CPU

#ifdef CONFIG_GENERIC_CLOCKEVENTS_BROADCAST
/**
 * tick_offline_cpu - remove a CPU that is going offline from broadcast
 * @cpu:	the CPU, which is running this
 *
 * Context: the outgoing CPU, interrupts disabled.
 */
void tick_offline_cpu(unsigned int cpu)
{
	guard(raw_spinlock)(&clockevents_lock);
	tick_broadcast_offline(cpu);
}
#endif

/* Whether @dev can serve nobody but @cpu (and so dies with it). */
static bool ce_serves_only(struct clock_event_device *dev, int cpu)
{
	return cpumask_equal(dev->cpumask, cpumask_of(cpu)) &&
	       !tick_is_broadcast_device(dev);
}

/**
 * tick_cleanup_dead_cpu - drop the tick device and clock event devices of
 *	a CPU that went offline
 * @cpu:	the dead CPU
 *
 * Its drivers register the devices again when it comes back.
 *
 * Context: a surviving CPU, process context.
 */
void tick_cleanup_dead_cpu(int cpu)
{
	struct clock_event_device *dev, *tmp;

	guard(raw_spinlock_irqsave)(&clockevents_lock);
	tick_shutdown(cpu);

	list_for_each_entry_safe(dev, tmp, &ce_released, list)
		list_del(&dev->list);

	list_for_each_entry_safe(dev, tmp, &ce_registered, list) {
		if (!ce_serves_only(dev, cpu))
			continue;
		WARN_ON(!clockevent_state_detached(dev));
		list_del(&dev->list);
	}
}
#endif /* CONFIG_HOTPLUG_CPU */

/**
 * clockevents_parse_name - take a device name from a sysfs write
 * @buf:	what was written
 * @count:	its length
 * @name:	CS_NAME_LEN bytes for the name
 *
 * The sysfs ABI of 6.12: the write, newline included, must be shorter than
 * CS_NAME_LEN; one trailing newline is then dropped.  An empty name is
 * accepted here and matches no device (-ENODEV to the writer).
 *
 * Return: 0, or -EINVAL for an empty write or one that does not fit.
 */
VISIBLE_IF_KUNIT int clockevents_parse_name(const char *buf, size_t count,
					    char *name)
{
	if (!count || count >= CS_NAME_LEN)
		return -EINVAL;
	if (buf[count - 1] == '\n')
		count--;
	memcpy(name, buf, count);
	name[count] = '\0';
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(clockevents_parse_name);

#ifdef CONFIG_SYSFS
static const struct bus_type clockevents_subsys = {
	.dev_name	= "clockevent",
	.name		= "clockevents",
};

static DEFINE_PER_CPU(struct device, ce_cpu_sysfs_dev);

#ifdef CONFIG_GENERIC_CLOCKEVENTS_BROADCAST
static struct device ce_broadcast_sysfs_dev = {
	.init_name	= "broadcast",
	.id		= 0,
	.bus		= &clockevents_subsys,
};

/* The device a sysfs device shows.  Context: clockevents_lock held. */
static struct clock_event_device *ce_sysfs_current(struct device *dev)
{
	if (dev == &ce_broadcast_sysfs_dev)
		return tick_get_broadcast_device()->evtdev;
	return per_cpu(tick_cpu_device, dev->id).evtdev;
}
#else
static struct clock_event_device *ce_sysfs_current(struct device *dev)
{
	return per_cpu(tick_cpu_device, dev->id).evtdev;
}
#endif

static ssize_t current_device_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct clock_event_device *ce;
	ssize_t len = 0;

	raw_spin_lock_irq(&clockevents_lock);
	ce = ce_sysfs_current(dev);
	if (ce)
		len = sysfs_emit(buf, "%s\n", ce->name);
	raw_spin_unlock_irq(&clockevents_lock);
	return len;
}
static DEVICE_ATTR_RO(current_device);

/*
 * The registered device called @name, preferring one that serves @cpu:
 * per-CPU devices usually share one name.  Context: clockevents_lock held.
 */
static struct clock_event_device *ce_find_by_name(const char *name, int cpu)
{
	struct clock_event_device *dev, *found = NULL;

	list_for_each_entry(dev, &ce_registered, list) {
		if (strcmp(dev->name, name))
			continue;
		if (cpumask_test_cpu(cpu, dev->cpumask))
			return dev;
		if (!found)
			found = dev;
	}
	return found;
}

/*
 * Writing a device name unregisters it, handing the CPU's tick to the best
 * unused device first if need be.  The broadcast device cannot be removed.
 */
static ssize_t unbind_device_store(struct device *dev, struct device_attribute *attr,
				   const char *buf, size_t count)
{
	struct clock_event_device *ce;
	char name[CS_NAME_LEN];
	int ret;

	ret = clockevents_parse_name(buf, count, name);
	if (ret)
		return ret;

	mutex_lock(&clockevents_mutex);
	raw_spin_lock_irq(&clockevents_lock);
	ce = ce_find_by_name(name, dev->id);
	ret = ce ? ce_release_if_unused(ce, dev->id) : -ENODEV;
	raw_spin_unlock_irq(&clockevents_lock);
	/* clockevents_mutex keeps @ce registered until this is done. */
	if (ret == -EAGAIN)
		ret = ce_unbind_on(ce, dev->id);
	mutex_unlock(&clockevents_mutex);

	return ret < 0 ? ret : count;
}
static DEVICE_ATTR_WO(unbind_device);

static struct attribute *ce_cpu_attrs[] = {
	&dev_attr_current_device.attr,
	&dev_attr_unbind_device.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ce_cpu);

#ifdef CONFIG_GENERIC_CLOCKEVENTS_BROADCAST
static struct attribute *ce_broadcast_attrs[] = {
	&dev_attr_current_device.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ce_broadcast);
#endif

static int __init ce_sysfs_add_cpus(void)
{
	int cpu, err;

	for_each_possible_cpu(cpu) {
		struct device *dev = &per_cpu(ce_cpu_sysfs_dev, cpu);

		dev->id = cpu;
		dev->bus = &clockevents_subsys;
		dev->groups = ce_cpu_groups;
		err = device_register(dev);
		if (err) {
			pr_err("clockevents: no sysfs device for CPU %d: %d\n",
			       cpu, err);
			return err;
		}
	}
	return 0;
}

static int __init clockevents_init_sysfs(void)
{
	int err = subsys_system_register(&clockevents_subsys, NULL);

	if (!err)
		err = ce_sysfs_add_cpus();
#ifdef CONFIG_GENERIC_CLOCKEVENTS_BROADCAST
	if (!err) {
		ce_broadcast_sysfs_dev.groups = ce_broadcast_groups;
		err = device_register(&ce_broadcast_sysfs_dev);
	}
#endif
	return err;
}
device_initcall(clockevents_init_sysfs);
#endif /* CONFIG_SYSFS */
