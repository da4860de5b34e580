// SPDX-License-Identifier: GPL-2.0
/*
 * x86's use of the PIT: whether the boot tick comes from it, and (32-bit
 * UP only) whether it may serve as clocksource.
 */
#include <linux/clockchips.h>
#include <linux/i8253.h>
#include <linux/init.h>
#include <linux/timex.h>

#include <asm/apic.h>
#include <asm/hpet.h>
#include <asm/time.h>

/*
 * The device behind IRQ0 (the PIT, or the HPET in legacy replacement
 * mode), whose handler time.c's timer interrupt calls.
 */
struct clock_event_device *global_clock_event;

/*
 * A machine whose TSC and local APIC timer frequencies are known without
 * measuring need not run the PIT at all; chipsets that gate its clock off
 * make it useless there anyway.  Without a TSC, or when the APIC timer
 * still has to be calibrated against a tick, it is needed.
 */
static bool __init pit_needed(void)
{
	bool have_tsc = IS_ENABLED(CONFIG_X86_TSC) && boot_cpu_has(X86_FEATURE_TSC);

	return !have_tsc || apic_needs_pit();
}

/**
 * pit_timer_init() - make the PIT the boot tick device, or silence it
 *
 * An unused PIT is stopped explicitly rather than left alone: under a
 * hypervisor a running channel 0 costs host time even while its
 * interrupt is masked.
 *
 * Return: true when the PIT was registered and IRQ0 is its interrupt.
 */
bool __init pit_timer_init(void)
{
	bool needed = pit_needed();

	if (needed) {
		clockevent_i8253_init(true);
		global_clock_event = &i8253_clockevent;
	} else {
		clockevent_i8253_disable();
	}
	return needed;
}

#ifndef CONFIG_X86_64
/*
 * The jiffies-extended PIT count is a clocksource only where nothing else
 * is: it serialises readers on i8253_lock (no good on SMP), and it needs
 * channel 0 running periodic, which the HPET or a local APIC tick ends.
 */
static int __init pit_clocksource_init(void)
{
	bool alone = num_possible_cpus() == 1 && !is_hpet_enabled();

	if (alone && clockevent_state_periodic(&i8253_clockevent))
		return clocksource_i8253_init();
	return 0;
}
arch_initcall(pit_clocksource_init);
#endif
