/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The local APIC timer's arithmetic and register words, static in a normal
 * build and visible to its KUnit suite (lapic_timer_test.c) with KUnit.
 */
#ifndef _X86_APIC_LAPIC_TIMER_H
#define _X86_APIC_LAPIC_TIMER_H

#include <linux/types.h>

struct clock_event_device;

/* The counting modes divide the bus clock by 16; TSC deadline counts TSC/8. */
#define LAPIC_TIMER_DIVISOR	16
#define LAPIC_DEADLINE_DIVISOR	8

/* Limits of the counting modes, in timer counts. */
#define LAPIC_MIN_DELTA		0xf
#define LAPIC_MAX_DELTA		0x7fffffff

/* Ticks of the reference a calibration measures over: 100 ms. */
#define LAPIC_CAL_TICKS		(HZ / 10)

enum lapic_timer_mode {
	LAPIC_PERIODIC,
	LAPIC_ONESHOT,
	LAPIC_DEADLINE,
};

#if IS_ENABLED(CONFIG_KUNIT)
u32 lapic_lvtt_word(enum lapic_timer_mode mode, bool masked, bool i82489dx);
u32 lapic_counting_freq(unsigned int period);
u32 lapic_deadline_freq(unsigned int tsc_khz);
long lapic_pm_corrected(long delta, u32 pm_delta, bool *corrected);
bool lapic_jiffies_agree(unsigned long jiffies_delta);
struct clock_event_device *lapic_timer_device(int cpu);
void lapic_retune_device(struct clock_event_device *ced, unsigned int khz);
#endif

#endif /* _X86_APIC_LAPIC_TIMER_H */
