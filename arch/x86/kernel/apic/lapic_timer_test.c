// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the local APIC timer: its register words and rates, the
 * checks a calibration goes through, and what the devices registered on
 * this machine look like (limits, conversion, features per CPU model).
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/acpi_pmtmr.h>
#include <linux/clockchips.h>
#include <linux/cpufeature.h>
#include <linux/cpumask.h>

#include <asm/apic.h>
#include <asm/irq_vectors.h>

#include "lapic_timer.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static void lapic_lvtt_words(struct kunit *test)
{
	/* SDM: vector in bits 0-7, mask bit 16, timer mode in bits 17-18 */
	KUNIT_EXPECT_EQ(test, lapic_lvtt_word(LAPIC_ONESHOT, false, false),
			(u32)LOCAL_TIMER_VECTOR);
	KUNIT_EXPECT_EQ(test, lapic_lvtt_word(LAPIC_PERIODIC, false, false),
			LOCAL_TIMER_VECTOR | (1U << 17));
	KUNIT_EXPECT_EQ(test, lapic_lvtt_word(LAPIC_DEADLINE, false, false),
			LOCAL_TIMER_VECTOR | (2U << 17));
	KUNIT_EXPECT_EQ(test, lapic_lvtt_word(LAPIC_PERIODIC, true, false),
			LOCAL_TIMER_VECTOR | (1U << 17) | (1U << 16));
	/* the 82489DX's base divider in bits 18-19 */
	KUNIT_EXPECT_EQ(test, lapic_lvtt_word(LAPIC_ONESHOT, false, true),
			LOCAL_TIMER_VECTOR | (2U << 18));
}

static void lapic_rates(struct kunit *test)
{
	/* a 1 GHz bus counts 1e9 / HZ per jiffy, 62.5 MHz after the divider */
	KUNIT_EXPECT_EQ(test, lapic_counting_freq(1000000000U / HZ), 62500000U);
	/* QEMU's default APIC bus, 1 GHz too; a 100 MHz bus: 6.25 MHz */
	KUNIT_EXPECT_EQ(test, lapic_counting_freq(100000000U / HZ), 6250000U);
	/* TSC deadline deltas are TSC cycles / 8 */
	KUNIT_EXPECT_EQ(test, lapic_deadline_freq(3000000), 375000000U);
	KUNIT_EXPECT_EQ(test, lapic_deadline_freq(1000), 125000U);
}

static void lapic_pm_check(struct kunit *test)
{
	const u32 window = PMTMR_TICKS_PER_SEC / 10;
	bool corrected;

	/* no PM timer: trust the measurement */
	KUNIT_EXPECT_EQ(test, lapic_pm_corrected(6250000, 0, &corrected), 6250000L);
	KUNIT_EXPECT_FALSE(test, corrected);
	/* PM timer agrees within 1 % */
	KUNIT_EXPECT_EQ(test, lapic_pm_corrected(6250000, window + window / 200, &corrected),
			6250000L);
	KUNIT_EXPECT_FALSE(test, corrected);
	/* the window was really 200 ms: the delta halves */
	KUNIT_EXPECT_EQ(test, lapic_pm_corrected(6250000, 2 * window, &corrected), 3125000L);
	KUNIT_EXPECT_TRUE(test, corrected);
	/* or 50 ms: it doubles */
	KUNIT_EXPECT_EQ(test, lapic_pm_corrected(3125000, window / 2, &corrected), 6250000L);
	KUNIT_EXPECT_TRUE(test, corrected);
}

static void lapic_verification_bounds(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, lapic_jiffies_agree(LAPIC_CAL_TICKS));
	KUNIT_EXPECT_TRUE(test, lapic_jiffies_agree(LAPIC_CAL_TICKS - 2));
	KUNIT_EXPECT_TRUE(test, lapic_jiffies_agree(LAPIC_CAL_TICKS + 2));
	KUNIT_EXPECT_FALSE(test, lapic_jiffies_agree(LAPIC_CAL_TICKS - 3));
	KUNIT_EXPECT_FALSE(test, lapic_jiffies_agree(LAPIC_CAL_TICKS + 3));
	KUNIT_EXPECT_FALSE(test, lapic_jiffies_agree(0));
}

/* Every online CPU's device, as registered at boot or CPU bring-up. */
static void lapic_registered_devices(struct kunit *test)
{
	int cpu;

	for_each_online_cpu(cpu) {
		struct clock_event_device *ced = lapic_timer_device(cpu);
		u64 counts_per_ms;

		if (!ced->name)
			kunit_skip(test, "no local APIC timer registered");
		KUNIT_EXPECT_PTR_EQ(test, ced->cpumask, cpumask_of(cpu));
		KUNIT_EXPECT_NOT_NULL(test, ced->broadcast);
		KUNIT_EXPECT_EQ(test, !(ced->features & CLOCK_EVT_FEAT_C3STOP),
				boot_cpu_has(X86_FEATURE_ARAT));
		KUNIT_EXPECT_EQ(test, ced->rating, boot_cpu_has(X86_FEATURE_ARAT) ? 150 : 100);
		if (ced->features & CLOCK_EVT_FEAT_DUMMY) {
			KUNIT_EXPECT_STREQ(test, ced->name, "lapic");
			KUNIT_EXPECT_EQ(test, ced->mult, 1U);
			continue;
		}
		KUNIT_EXPECT_TRUE(test, ced->features & CLOCK_EVT_FEAT_ONESHOT);
		KUNIT_EXPECT_EQ(test, ced->min_delta_ticks, (unsigned long)LAPIC_MIN_DELTA);
		counts_per_ms = (NSEC_PER_MSEC * (u64)ced->mult) >> ced->shift;
		if (boot_cpu_has(X86_FEATURE_TSC_DEADLINE_TIMER)) {
			KUNIT_EXPECT_STREQ(test, ced->name, "lapic-deadline");
			KUNIT_EXPECT_FALSE(test, ced->features & CLOCK_EVT_FEAT_PERIODIC);
			KUNIT_EXPECT_EQ(test, ced->max_delta_ticks, ULONG_MAX);
			/* 1 ms is tsc_khz / 8 units, within 0.1 % */
			KUNIT_EXPECT_LE(test, abs((s64)counts_per_ms * 8 - (s64)tsc_khz),
					(s64)tsc_khz / 1000 + 8);
		} else {
			KUNIT_EXPECT_STREQ(test, ced->name, "lapic");
			KUNIT_EXPECT_TRUE(test, ced->features & CLOCK_EVT_FEAT_PERIODIC);
			KUNIT_EXPECT_EQ(test, ced->max_delta_ticks, (unsigned long)LAPIC_MAX_DELTA);
			/* one jiffy is lapic_timer_period / 16 counts, within 0.1 % */
			KUNIT_EXPECT_LE(test, abs((s64)counts_per_ms * 1000 / HZ * 16 -
						  (s64)lapic_timer_period),
					(s64)lapic_timer_period / 1000 + 16);
		}
		/* the core's limits in ns agree with the tick limits */
		KUNIT_EXPECT_GE(test, ced->max_delta_ns, 1000ULL * NSEC_PER_MSEC / HZ);
		KUNIT_EXPECT_LE(test, ced->min_delta_ns, 10ULL * NSEC_PER_USEC);
	}
}

static int mock_counting_next(unsigned long delta, struct clock_event_device *ced)
{
	return 0;
}

/*
 * A refined TSC rate retunes TSC-deadline devices only: a dummy (noapictimer,
 * also on a TSC-deadline CPU) and a counting device keep their conversion.
 */
static void lapic_retune_leaves_others(struct kunit *test)
{
	struct clock_event_device dummy = {
		.name = "lapic",
		.features = CLOCK_EVT_FEAT_PERIODIC | CLOCK_EVT_FEAT_ONESHOT |
			    CLOCK_EVT_FEAT_C3STOP | CLOCK_EVT_FEAT_DUMMY,
		.mult = 1,
	};
	struct clock_event_device counting = {
		.name = "lapic",
		.features = CLOCK_EVT_FEAT_PERIODIC | CLOCK_EVT_FEAT_ONESHOT,
		.set_next_event = mock_counting_next,
		.mult = 12345,
		.shift = 20,
		.min_delta_ns = 1000,
		.max_delta_ns = 2000000,
	};

	lapic_retune_device(&dummy, 3000000);
	KUNIT_EXPECT_EQ(test, dummy.mult, 1);
	KUNIT_EXPECT_EQ(test, dummy.shift, 0);
	KUNIT_EXPECT_EQ(test, dummy.max_delta_ns, 0);
	KUNIT_EXPECT_EQ(test, dummy.min_delta_ns, 0);

	lapic_retune_device(&counting, 3000000);
	KUNIT_EXPECT_EQ(test, counting.mult, 12345);
	KUNIT_EXPECT_EQ(test, counting.shift, 20);
	KUNIT_EXPECT_EQ(test, counting.max_delta_ns, 2000000);
}

static struct kunit_case lapic_timer_cases[] = {
	KUNIT_CASE(lapic_lvtt_words),
	KUNIT_CASE(lapic_rates),
	KUNIT_CASE(lapic_pm_check),
	KUNIT_CASE(lapic_verification_bounds),
	KUNIT_CASE(lapic_registered_devices),
	KUNIT_CASE(lapic_retune_leaves_others),
	{}
};

static struct kunit_suite lapic_timer_suite = {
	.name = "lapic_timer",
	.test_cases = lapic_timer_cases,
};

kunit_test_suite(lapic_timer_suite);

MODULE_DESCRIPTION("KUnit tests for the local APIC timer");
MODULE_LICENSE("GPL");
