/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Clock event devices: hardware that raises an interrupt at a time chosen by
 * the kernel, either once (oneshot) or at a fixed rate (periodic).
 *
 * Timer drivers fill in a struct clock_event_device and register it; the
 * clockevents core (kernel/time/clockevents.c) converts nanoseconds to device
 * ticks and drives the device's state machine; the tick layer decides which
 * device each CPU uses.  Only timer drivers and the time-keeping core should
 * need this header.  See Documentation/timers/clockevents.rst.
 */
#ifndef _LINUX_CLOCKCHIPS_H
#define _LINUX_CLOCKCHIPS_H

#ifdef CONFIG_GENERIC_CLOCKEVENTS

# include <linux/clocksource.h>
# include <linux/cpumask_types.h>
# include <linux/ktime.h>
# include <linux/notifier.h>

struct clock_event_device;
struct module;

/**
 * enum clock_event_state - operating state of a clock event device
 * @CLOCK_EVT_STATE_DETACHED:	registered but unused by the tick layer; every
 *				device starts here and returns here when it is
 *				released
 * @CLOCK_EVT_STATE_SHUTDOWN:	owned by the tick layer, stopped
 * @CLOCK_EVT_STATE_PERIODIC:	firing at the tick rate by itself
 * @CLOCK_EVT_STATE_ONESHOT:	firing once at each programmed expiry
 * @CLOCK_EVT_STATE_ONESHOT_STOPPED: oneshot, with nothing armed until the next
 *				program; entered only from ONESHOT
 *
 * The core changes the state only through clockevents_switch_state(), which
 * calls the driver's matching set_state_*() callback.
 */
enum clock_event_state {
	CLOCK_EVT_STATE_DETACHED,
	CLOCK_EVT_STATE_SHUTDOWN,
	CLOCK_EVT_STATE_PERIODIC,
	CLOCK_EVT_STATE_ONESHOT,
	CLOCK_EVT_STATE_ONESHOT_STOPPED,
};

/* What the device can do: periodic mode, oneshot mode, absolute expiries. */
# define CLOCK_EVT_FEAT_PERIODIC	0x000001
# define CLOCK_EVT_FEAT_ONESHOT		0x000002
# define CLOCK_EVT_FEAT_KTIME		0x000004

/*
 * C3STOP: the device stops in deep idle states, so its CPU needs the
 * broadcast device there.  DUMMY: the device never fires (a per-CPU
 * placeholder that relies on broadcast); the core skips its callbacks.
 */
# define CLOCK_EVT_FEAT_C3STOP		0x000008
# define CLOCK_EVT_FEAT_DUMMY		0x000010

/*
 * DYNIRQ: as a broadcast device, steer the interrupt to the CPU whose event
 * comes first.  PERCPU: a per-CPU device even though its cpumask could say
 * otherwise; it never serves as broadcast device.
 */
# define CLOCK_EVT_FEAT_DYNIRQ		0x000020
# define CLOCK_EVT_FEAT_PERCPU		0x000040

/* HRTIMER: a software broadcast device built on an hrtimer. */
# define CLOCK_EVT_FEAT_HRTIMER		0x000080

/**
 * struct clock_event_device - a device that raises timer interrupts
 * @event_handler:	set by the tick layer; the driver's interrupt handler
 *			calls it on every event
 * @set_next_event:	arm the device @evt device ticks from now; returns
 *			0, or -ETIME when that moment has already passed
 * @set_next_ktime:	arm the device for an absolute CLOCK_MONOTONIC time
 *			(devices with CLOCK_EVT_FEAT_KTIME)
 * @next_event:		expiry last programmed, KTIME_MAX when none; core owned
 * @max_delta_ns:	longest delay the device can be armed for, in ns
 * @min_delta_ns:	shortest delay the device fires reliably for, in ns
 * @mult:		ns to ticks multiplier: ticks = (ns * @mult) >> @shift
 * @shift:		ns to ticks shift
 * @state_use_accessors: current state; read and set it only through the
 *			clockevent_state_*() helpers and the core
 * @features:		CLOCK_EVT_FEAT_* flags
 * @retries:		count of forced reprogramming attempts
 * @set_state_periodic:	start periodic interrupts at HZ
 * @set_state_oneshot:	prepare for oneshot programming
 * @set_state_oneshot_stopped: disarm a oneshot device until the next program
 * @set_state_shutdown:	stop the device
 * @tick_resume:	restore the device after the tick was suspended
 * @broadcast:		send the tick to the CPUs in the mask (for devices that
 *			serve CPUs in deep idle)
 * @suspend:		save the device's state for system suspend
 * @resume:		restore it on resume
 * @min_delta_ticks:	shortest delay in ticks, kept for frequency changes
 * @max_delta_ticks:	longest delay in ticks, kept for frequency changes
 * @name:		device name, as shown in sysfs and /proc/timer_list
 * @rating:		quality; the tick layer prefers higher ratings
 * @irq:		interrupt number of a device that is not CPU-local
 * @bound_on:		CPU the broadcast hrtimer device is bound to
 * @cpumask:		CPUs the device can serve
 * @list:		entry in the core's device lists
 * @owner:		module that provides the device
 * @armed_at:		when the event being watched for earliness was armed
 * @fire_at:		when it should fire; 0 when no event is watched
 * @freq:		the frequency the conversion (@mult, @shift) is for
 * @freq_declared:	the frequency the driver gave; corrections stay within
 *			CE_EARLY_MAX_PPM of it
 * @nr_early:		events handled before @fire_at, since registration
 * @nr_rate_fixes:	corrections of @freq made for early events
 * @nr_rate_refused:	runs of early events beyond what is corrected
 * @early_run:		early events in a row (the current run)
 * @early_watch:	watched armings since registration or the driver's
 *			last frequency (all of the first CE_EARLY_WATCH, then
 *			one in CE_EARLY_SAMPLE)
 * @early_top_ppm:	largest shortfall of the run, in parts per million of
 *			the armed delay
 * @early_next_ppm:	second largest shortfall of the run
 *
 * The early-event fields are the core's (clockevents_note_event()); a
 * driver leaves them zero.
 */
struct clock_event_device {
	void			(*event_handler)(struct clock_event_device *);
	int			(*set_next_event)(unsigned long evt, struct clock_event_device *);
	int			(*set_next_ktime)(ktime_t expires, struct clock_event_device *);
	ktime_t			next_event;
	u64			max_delta_ns;
	u64			min_delta_ns;
	u32			mult;
	u32			shift;
	enum clock_event_state	state_use_accessors;
	unsigned int		features;
	unsigned long		retries;

	int			(*set_state_periodic)(struct clock_event_device *);
	int			(*set_state_oneshot)(struct clock_event_device *);
	int			(*set_state_oneshot_stopped)(struct clock_event_device *);
	int			(*set_state_shutdown)(struct clock_event_device *);
	int			(*tick_resume)(struct clock_event_device *);

	void			(*broadcast)(const struct cpumask *mask);
	void			(*suspend)(struct clock_event_device *);
	void			(*resume)(struct clock_event_device *);
	unsigned long		min_delta_ticks;
	unsigned long		max_delta_ticks;

	const char		*name;
	int			rating;
	int			irq;
	int			bound_on;
	const struct cpumask	*cpumask;
	struct list_head	list;
	struct module		*owner;

	ktime_t			armed_at;
	ktime_t			fire_at;
	u32			freq;
	u32			freq_declared;
	unsigned int		nr_early;
	unsigned int		nr_rate_fixes;
	unsigned int		nr_rate_refused;
	unsigned int		early_run;
	unsigned int		early_watch;
	u32			early_top_ppm;
	u32			early_next_ppm;
} ____cacheline_aligned;

static inline bool clockevent_state_detached(struct clock_event_device *dev)
{
	return dev->state_use_accessors == CLOCK_EVT_STATE_DETACHED;
}

static inline bool clockevent_state_shutdown(struct clock_event_device *dev)
{
	return dev->state_use_accessors == CLOCK_EVT_STATE_SHUTDOWN;
}

static inline bool clockevent_state_periodic(struct clock_event_device *dev)
{
	return dev->state_use_accessors == CLOCK_EVT_STATE_PERIODIC;
}

static inline bool clockevent_state_oneshot(struct clock_event_device *dev)
{
	return dev->state_use_accessors == CLOCK_EVT_STATE_ONESHOT;
}

static inline bool clockevent_state_oneshot_stopped(struct clock_event_device *dev)
{
	return dev->state_use_accessors == CLOCK_EVT_STATE_ONESHOT_STOPPED;
}

/**
 * div_sc - scaled-math factor for a ticks per nanoseconds ratio
 * @ticks:	device ticks in the interval
 * @nsec:	length of the same interval in nanoseconds
 * @shift:	scale of the result
 *
 * Return: the multiplier m with ticks == (ns * m) >> @shift.
 */
static inline unsigned long
div_sc(unsigned long ticks, unsigned long nsec, int shift)
{
	u64 scaled = (u64)ticks << shift;

	do_div(scaled, nsec);
	return (unsigned long)scaled;
}

extern u64 clockevent_delta2ns(unsigned long latch, struct clock_event_device *evt);
extern void clockevents_register_device(struct clock_event_device *dev);
extern int clockevents_unbind_device(struct clock_event_device *ced, int cpu);

extern void clockevents_config_and_register(struct clock_event_device *dev,
					    u32 freq, unsigned long min_delta,
					    unsigned long max_delta);

extern int clockevents_update_freq(struct clock_event_device *ce, u32 freq);
void clockevents_note_event(struct clock_event_device *dev);

/**
 * clockevents_handle_event - run a device's event handler from its interrupt
 * @dev:	the device that fired
 *
 * Drivers call this rather than @dev->event_handler directly, so that the
 * core can judge whether a watched oneshot event came before its time.
 *
 * Context: the device's interrupt, interrupts disabled.
 */
static inline void clockevents_handle_event(struct clock_event_device *dev)
{
	if (dev->fire_at)
		clockevents_note_event(dev);
	dev->event_handler(dev);
}

/**
 * clockevents_calc_mult_shift - set @ce's mult and shift for a frequency
 * @ce:		the device
 * @freq:	its frequency in Hz
 * @maxsec:	longest interval, in seconds, the conversion must cover
 */
static inline void
clockevents_calc_mult_shift(struct clock_event_device *ce, u32 freq, u32 maxsec)
{
	clocks_calc_mult_shift(&ce->mult, &ce->shift, NSEC_PER_SEC, freq, maxsec);
}

extern void clockevents_suspend(void);
extern void clockevents_resume(void);

# ifdef CONFIG_GENERIC_CLOCKEVENTS_BROADCAST
#  ifdef CONFIG_ARCH_HAS_TICK_BROADCAST
extern void tick_broadcast(const struct cpumask *mask);
#  else
#   define tick_broadcast	NULL
#  endif
extern int tick_receive_broadcast(void);
# endif

# if defined(CONFIG_GENERIC_CLOCKEVENTS_BROADCAST) && defined(CONFIG_TICK_ONESHOT)
extern void tick_setup_hrtimer_broadcast(void);
extern int tick_check_broadcast_expired(void);
# else
static __always_inline int tick_check_broadcast_expired(void) { return 0; }
static inline void tick_setup_hrtimer_broadcast(void) { }
# endif

#else /* !CONFIG_GENERIC_CLOCKEVENTS: */

static inline void clockevents_suspend(void) { }
static inline void clockevents_resume(void) { }
static __always_inline int tick_check_broadcast_expired(void) { return 0; }
static inline void tick_setup_hrtimer_broadcast(void) { }

#endif /* !CONFIG_GENERIC_CLOCKEVENTS */

#endif /* _LINUX_CLOCKCHIPS_H */
