// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the i8253/i8254 PIT driver: the control words against the
 * datasheet's encoding, the tick count for HZ, the jiffies-extended
 * clocksource arithmetic, and the limits the clockevents core derived for
 * the registered device.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/clockchips.h>
#include <linux/i8253.h>
#include <linux/timex.h>

#include "i8253-kunit.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static void pit_control_words(struct kunit *test)
{
	/* channel 0 (bits 7-6 = 0), lobyte/hibyte (5-4 = 3), binary (0 = 0) */
	KUNIT_EXPECT_EQ(test, PIT_CW_PERIODIC, 0x34);	/* mode 2 */
	KUNIT_EXPECT_EQ(test, PIT_CW_ONESHOT, 0x38);	/* mode 4 */
	KUNIT_EXPECT_EQ(test, PIT_CW_STOP, 0x30);	/* mode 0 */
	KUNIT_EXPECT_EQ(test, PIT_CW_LATCH, 0x00);	/* counter latch */
}

static void pit_latch_for_hz(struct kunit *test)
{
	long long err = (long long)PIT_LATCH * HZ - PIT_TICK_RATE;

	KUNIT_EXPECT_EQ(test, PIT_TICK_RATE, 1193182);
	/* the nearest whole count: off by at most half a count per tick */
	KUNIT_EXPECT_LE(test, 2 * abs(err), (long long)HZ);
	/* and it fits the 16-bit counter */
	KUNIT_EXPECT_LE(test, PIT_LATCH, 0x10000);
}

static void pit_clocksource_arithmetic(struct kunit *test)
{
	struct pit_cs_last last = { .jiffies = 7, .count = PIT_LATCH - 1 };
	u64 base = 7ULL * PIT_LATCH;

	/* the count runs down within a jiffy: time runs up */
	KUNIT_EXPECT_EQ(test, pit_cs_compose(&last, 7, PIT_LATCH - 1), base);
	KUNIT_EXPECT_EQ(test, pit_cs_compose(&last, 7, PIT_LATCH - 100), base + 99);
	KUNIT_EXPECT_EQ(test, pit_cs_compose(&last, 7, 0), base + PIT_LATCH - 1);
	/* wrapped, jiffies not advanced yet: hold, do not go back */
	KUNIT_EXPECT_EQ(test, pit_cs_compose(&last, 7, PIT_LATCH - 5), base + PIT_LATCH - 1);
	/* the tick came: the next period starts where the last one ended */
	KUNIT_EXPECT_EQ(test, pit_cs_compose(&last, 8, PIT_LATCH - 5),
			base + PIT_LATCH + 4);
	KUNIT_EXPECT_EQ(test, last.jiffies, 8);
	KUNIT_EXPECT_EQ(test, last.count, PIT_LATCH - 5);
}

static void pit_registered_limits(struct kunit *test)
{
	struct clock_event_device *ced = &i8253_clockevent;
	u64 ms_in_counts;

	if (!ced->mult)
		kunit_skip(test, "the PIT was not registered on this machine");

	/* 6.12's range, which other users of this driver rely on. */
	KUNIT_EXPECT_EQ(test, ced->min_delta_ticks, 0xfUL);
	KUNIT_EXPECT_EQ(test, ced->max_delta_ticks, 0x7fffUL);
	/* 15 counts = 12.57 us, 32767 counts = 27.46 ms (1 % either way) */
	KUNIT_EXPECT_GE(test, ced->min_delta_ns, 12440ULL);
	KUNIT_EXPECT_LE(test, ced->min_delta_ns, 12700ULL);
	KUNIT_EXPECT_GE(test, ced->max_delta_ns, 27180000ULL);
	KUNIT_EXPECT_LE(test, ced->max_delta_ns, 27470000ULL);
	/* 1 ms converts to 1193 counts */
	ms_in_counts = (NSEC_PER_MSEC * (u64)ced->mult) >> ced->shift;
	KUNIT_EXPECT_GE(test, ms_in_counts, 1192ULL);
	KUNIT_EXPECT_LE(test, ms_in_counts, 1194ULL);
	KUNIT_EXPECT_TRUE(test, ced->features & CLOCK_EVT_FEAT_PERIODIC);
	KUNIT_EXPECT_EQ(test, ced->rating, 0);
}

static struct kunit_case pit_cases[] = {
	KUNIT_CASE(pit_control_words),
	KUNIT_CASE(pit_latch_for_hz),
	KUNIT_CASE(pit_clocksource_arithmetic),
	KUNIT_CASE(pit_registered_limits),
	{}
};

static struct kunit_suite pit_suite = {
	.name = "i8253",
	.test_cases = pit_cases,
};

kunit_test_suite(pit_suite);

MODULE_DESCRIPTION("KUnit tests for the i8253/i8254 PIT driver");
MODULE_LICENSE("GPL");
