// SPDX-License-Identifier: GPL-2.0
/*
 * Channel 0 of the i8253/i8254 programmable interval timer, at
 * PIT_TICK_RATE (1.193182 MHz): a clock event device, periodic and, where
 * the platform allows it, one-shot; and on machines with nothing better a
 * clocksource that extends the 16-bit count with jiffies.
 *
 * The clock event device is meant for the boot tick and as the last-resort
 * broadcast device: its rating is the lowest there is, so a per-CPU timer
 * or the HPET replaces it as soon as one registers.
 */
#include <kunit/visibility.h>
#include <linux/clockchips.h>
#include <linux/i8253.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/timex.h>

#include "i8253-kunit.h"

/*
 * Serialises the PIT's ports (0x40-0x43) and the speaker gate in port 0x61:
 * a latch and its two reads, or a mode and its two count bytes, must not
 * interleave with the PC speaker, gameport or APM code using channel 2.
 */
raw_spinlock_t i8253_lock = __RAW_SPIN_LOCK_UNLOCKED(i8253_lock);
EXPORT_SYMBOL(i8253_lock);

static void __maybe_unused pit_write_count(unsigned int count)
{
	outb_p(count & 0xff, PIT_CH0);
	outb_p((count >> 8) & 0xff, PIT_CH0);
}

/* Built for the clocksource, and for its KUnit cases on any platform. */
#if IS_ENABLED(CONFIG_CLKSRC_I8253) || IS_ENABLED(CONFIG_KUNIT)
/**
 * pit_cs_compose() - the clocksource value from jiffies and a latched count
 * @last: the previous reading, updated
 * @jifs: jiffies, read before the count was latched
 * @count: the latched count, PIT_LATCH - 1 down to 0 within a jiffy
 *
 * The counter wraps once per jiffy, so the time is the jiffies count in
 * PIT periods plus how far the current period has run.  Jiffies is read
 * first, so it can only be older than the count: when the counter has
 * already wrapped but the tick has not yet advanced jiffies, the count
 * seems to jump back up within the same jiffy, and the previous count is
 * kept instead, so time never goes backwards.
 *
 * Return: the clocksource value (the core masks it to 32 bits).
 */
VISIBLE_IF_KUNIT u64 pit_cs_compose(struct pit_cs_last *last, u32 jifs, u32 count)
{
	if (jifs == last->jiffies && count > last->count)
		count = last->count;
	last->jiffies = jifs;
	last->count = count;
	return (u64)jifs * PIT_LATCH + (PIT_LATCH - 1 - count);
}
EXPORT_SYMBOL_IF_KUNIT(pit_cs_compose);
#endif

#ifdef CONFIG_CLKSRC_I8253
static u64 pit_cs_read(struct clocksource *cs)
{
	static struct pit_cs_last last;	/* under i8253_lock */
	unsigned long flags;
	u32 jifs, count;
	u64 now;

	raw_spin_lock_irqsave(&i8253_lock, flags);
	jifs = READ_ONCE(jiffies);
	outb_p(PIT_CW_LATCH, PIT_MODE);
	count = inb_p(PIT_CH0);
	count |= inb_p(PIT_CH0) << 8;
	/*
	 * Some chipsets (VIA 686a) lose the reload value: a count above it
	 * means the channel must be programmed again.
	 */
	if (count > PIT_LATCH) {
		outb_p(PIT_CW_PERIODIC, PIT_MODE);
		pit_write_count(PIT_LATCH);
		count = PIT_LATCH - 1;
	}
	now = pit_cs_compose(&last, jifs, count);
	raw_spin_unlock_irqrestore(&i8253_lock, flags);
	return now;
}

static struct clocksource pit_cs = {
	.read	= pit_cs_read,
	.mask	= CLOCKSOURCE_MASK(32),
	.name	= "pit",
	.rating	= 110,
};

/**
 * clocksource_i8253_init() - register the PIT as clocksource
 *
 * Only meaningful while channel 0 runs periodic at HZ, since the count is
 * extended with jiffies.
 *
 * Return: 0, or the error of clocksource registration.
 */
int __init clocksource_i8253_init(void)
{
	return clocksource_register_hz(&pit_cs, PIT_TICK_RATE);
}
#endif /* CONFIG_CLKSRC_I8253 */

#ifdef CONFIG_CLKEVT_I8253
/*
 * Only a running channel needs stopping; each port access is slow, and
 * under a hypervisor a trap, so a channel that never ran is left alone.
 */
static int pit_event_shutdown(struct clock_event_device *ced)
{
	if (clockevent_state_periodic(ced) || clockevent_state_oneshot(ced))
		clockevent_i8253_disable();
	return 0;
}

static int pit_event_periodic(struct clock_event_device *ced)
{
	guard(raw_spinlock)(&i8253_lock);

	outb_p(PIT_CW_PERIODIC, PIT_MODE);
	pit_write_count(PIT_LATCH);
	return 0;
}

/* Mode 4 counts only once a count is written: nothing starts here. */
static int pit_event_oneshot(struct clock_event_device *ced)
{
	guard(raw_spinlock)(&i8253_lock);

	outb_p(PIT_CW_ONESHOT, PIT_MODE);
	return 0;
}

static int pit_event_next(unsigned long counts, struct clock_event_device *ced)
{
	guard(raw_spinlock)(&i8253_lock);

	pit_write_count(counts);
	return 0;
}

/**
 * clockevent_i8253_disable() - stop channel 0 for good
 *
 * A mode write alone stops the count on real chips, but some emulations
 * act on it only at the next count write (KVM's in-kernel PIT) or the next
 * interrupt (QEMU), and Hyper-V keeps interrupting while a count runs.
 * So: mode 0, a zero count to make every one of them take the mode, then
 * mode 0 again, which leaves the channel waiting for a count that never
 * comes.
 *
 * Context: any; takes i8253_lock with interrupts disabled.
 */
void clockevent_i8253_disable(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&i8253_lock, flags);
	outb_p(PIT_CW_STOP, PIT_MODE);
	pit_write_count(0);
	outb_p(PIT_CW_STOP, PIT_MODE);
	raw_spin_unlock_irqrestore(&i8253_lock, flags);
}

/*
 * Rating 0: anything else that can tick is better.  Its interrupt goes to
 * the boot CPU; as broadcast device it wakes the others from there.
 */
struct clock_event_device i8253_clockevent = {
	.rating			= 0,
	.features		= CLOCK_EVT_FEAT_PERIODIC,
	.name			= "pit",
	.set_state_shutdown	= pit_event_shutdown,
	.set_state_periodic	= pit_event_periodic,
	.set_next_event		= pit_event_next,
};

/**
 * clockevent_i8253_init() - register channel 0 as clock event device
 * @oneshot: offer one-shot mode too (the platform's interrupt routing can
 *	take an isolated edge from the PIT)
 *
 * The device is bound to the boot CPU, which its interrupt reaches.
 */
void __init clockevent_i8253_init(bool oneshot)
{
	struct clock_event_device *ced = &i8253_clockevent;

	ced->cpumask = cpumask_of(smp_processor_id());
	if (oneshot) {
		ced->set_state_oneshot = pit_event_oneshot;
		ced->features |= CLOCK_EVT_FEAT_ONESHOT;
	}
	clockevents_config_and_register(ced, PIT_TICK_RATE, PIT_MIN_DELTA,
					PIT_MAX_DELTA);
}
#endif /* CONFIG_CLKEVT_I8253 */
