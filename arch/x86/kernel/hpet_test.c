// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the HPET driver: register decoding, the comparator race
 * check, the role every channel gets, the RTC emulation's catch-up, and
 * the limits of the legacy channel registered on this machine.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/clockchips.h>
#include <linux/hpet.h>

#include <asm/hpet.h>
#include <asm/time.h>

#include "hpet-kunit.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static void hpet_period_decoding(struct kunit *test)
{
	/* 10 ns per count (QEMU): 100 MHz; 69.841279 ns (ICH): 14.318179 MHz, truncated */
	KUNIT_EXPECT_EQ(test, hpet_freq_of(10000000), 100000000UL);
	KUNIT_EXPECT_EQ(test, hpet_freq_of(69841279), 14318179UL);
	KUNIT_EXPECT_TRUE(test, hpet_period_valid(10000000));
	KUNIT_EXPECT_TRUE(test, hpet_period_valid(100000000));	/* 10 MHz, the slowest */
	KUNIT_EXPECT_FALSE(test, hpet_period_valid(100000001));
	KUNIT_EXPECT_FALSE(test, hpet_period_valid(99999));
	KUNIT_EXPECT_FALSE(test, hpet_period_valid(0));
	KUNIT_EXPECT_FALSE(test, hpet_period_valid(0xffffffff));
}

static void hpet_id_decoding(struct kunit *test)
{
	/* the field holds the number of the last channel */
	KUNIT_EXPECT_EQ(test, hpet_channels_of(0x8086a201), 3U);
	KUNIT_EXPECT_EQ(test, hpet_channels_of(0x00000000), 1U);
	KUNIT_EXPECT_EQ(test, hpet_channels_of(0x00001f00), 32U);
}

static void hpet_compare_race(struct kunit *test)
{
	/* far enough ahead */
	KUNIT_EXPECT_FALSE(test, hpet_cmp_missed(1000, 1000 - HPET_MIN_CYCLES));
	KUNIT_EXPECT_FALSE(test, hpet_cmp_missed(1000000, 1000));
	/* too close after the write, reached, or passed */
	KUNIT_EXPECT_TRUE(test, hpet_cmp_missed(1000, 1000 - HPET_MIN_CYCLES + 1));
	KUNIT_EXPECT_TRUE(test, hpet_cmp_missed(1000, 1000));
	KUNIT_EXPECT_TRUE(test, hpet_cmp_missed(1000, 1001));
	/* across the 32-bit wrap */
	KUNIT_EXPECT_FALSE(test, hpet_cmp_missed(100, 0xffffff00));
	KUNIT_EXPECT_TRUE(test, hpet_cmp_missed(0xffffff00, 100));
	/* the core never asks for less than the margin it needs */
	KUNIT_EXPECT_GT(test, HPET_MIN_PROG_DELTA, HPET_MIN_CYCLES);
}

static void hpet_cycle_conversion(struct kunit *test)
{
	struct clock_event_device ced = {};

	/* mult/shift as the core derives them for a 100 MHz channel */
	clockevents_calc_mult_shift(&ced, 100000000, 5);
	KUNIT_EXPECT_LE(test, abs((s64)hpet_cycles_of(NSEC_PER_MSEC, ced.mult, ced.shift) -
				  100000), 1LL);
	KUNIT_EXPECT_LE(test, abs((s64)hpet_cycles_of(NSEC_PER_SEC / 64, ced.mult, ced.shift) -
				  1562500), 2LL);
}

static void hpet_roles(struct kunit *test)
{
	const u32 msi = HPET_TN_FSB_CAP;
	u32 cfg[6] = { 0, 0, 0, msi, msi, msi };
	enum hpet_role role[6];
	struct hpet_role_plan plan = { .nr = 6, .boot_cfg = cfg };

	/* legacy 0 and 1, /dev/hpet built in, two CPUs want a channel */
	memset(role, 0, sizeof(role));
	role[0] = HPET_ROLE_LEGACY;
	role[1] = HPET_ROLE_LEGACY;
	plan.want_device = true;
	plan.percpu_max = 2;
	KUNIT_EXPECT_EQ(test, hpet_plan_roles(&plan, role), 2U);
	KUNIT_EXPECT_EQ(test, role[0], HPET_ROLE_LEGACY);
	KUNIT_EXPECT_EQ(test, role[2], HPET_ROLE_DEVICE);
	KUNIT_EXPECT_EQ(test, role[3], HPET_ROLE_PERCPU);
	KUNIT_EXPECT_EQ(test, role[4], HPET_ROLE_PERCPU);
	KUNIT_EXPECT_EQ(test, role[5], HPET_ROLE_FREE);

	/* no /dev/hpet: the MSI channels go first to CPUs; ARAT: none */
	memset(role, 0, sizeof(role));
	plan.want_device = false;
	plan.percpu_max = 8;
	KUNIT_EXPECT_EQ(test, hpet_plan_roles(&plan, role), 3U);
	KUNIT_EXPECT_EQ(test, role[0], HPET_ROLE_FREE);
	KUNIT_EXPECT_EQ(test, role[3], HPET_ROLE_PERCPU);
	memset(role, 0, sizeof(role));
	plan.percpu_max = 0;
	KUNIT_EXPECT_EQ(test, hpet_plan_roles(&plan, role), 0U);
	KUNIT_EXPECT_EQ(test, role[3], HPET_ROLE_FREE);

	/* QEMU's three channels without MSI: nothing per-CPU */
	memset(role, 0, sizeof(role));
	role[0] = HPET_ROLE_LEGACY;
	role[1] = HPET_ROLE_LEGACY;
	plan.nr = 3;
	plan.percpu_max = 2;
	KUNIT_EXPECT_EQ(test, hpet_plan_roles(&plan, role), 0U);
	KUNIT_EXPECT_EQ(test, role[2], HPET_ROLE_FREE);
}

static void hpet_rtc_catch_up(struct kunit *test)
{
#ifdef CONFIG_HPET_EMULATE_RTC
	u32 cmp = 1000;

	/* on time: one step, nothing lost */
	KUNIT_EXPECT_EQ(test, hpet_rtc_advance(&cmp, 100, 1050), 0U);
	KUNIT_EXPECT_EQ(test, cmp, 1100U);
	/* three periods late: three lost, the match lands ahead */
	KUNIT_EXPECT_EQ(test, hpet_rtc_advance(&cmp, 100, 1420), 3U);
	KUNIT_EXPECT_EQ(test, cmp, 1500U);
	/* exactly on a period: that one is gone too */
	KUNIT_EXPECT_EQ(test, hpet_rtc_advance(&cmp, 100, 1600), 1U);
	KUNIT_EXPECT_EQ(test, cmp, 1700U);
	/* across the wrap */
	cmp = 0xffffffa0;
	KUNIT_EXPECT_EQ(test, hpet_rtc_advance(&cmp, 0x100, 0x10), 0U);
	KUNIT_EXPECT_EQ(test, cmp, 0xa0U);
#else
	kunit_skip(test, "no RTC emulation built in");
#endif
}

static void hpet_legacy_device(struct kunit *test)
{
	struct clock_event_device *ced = global_clock_event;
	unsigned long freq;

	if (!is_hpet_enabled() || !ced || strcmp(ced->name, "hpet"))
		kunit_skip(test, "the HPET is not the IRQ0 device here");
	KUNIT_EXPECT_EQ(test, ced->rating, 50);
	KUNIT_EXPECT_TRUE(test, ced->features & CLOCK_EVT_FEAT_PERIODIC);
	KUNIT_EXPECT_TRUE(test, ced->features & CLOCK_EVT_FEAT_ONESHOT);
	KUNIT_EXPECT_EQ(test, ced->min_delta_ticks, (unsigned long)HPET_MIN_PROG_DELTA);
	KUNIT_EXPECT_EQ(test, ced->max_delta_ticks, (unsigned long)HPET_MAX_PROG_DELTA);
	/* the counter rate the PERIOD register gives, through mult/shift */
	freq = hpet_freq_of(hpet_readl(HPET_PERIOD));
	KUNIT_EXPECT_LE(test, abs((s64)hpet_cycles_of(NSEC_PER_SEC, ced->mult, ced->shift) -
				  (s64)freq), (s64)freq / 1000);
	KUNIT_EXPECT_NOT_NULL(test, ced->tick_resume);
}

/* Per-CPU channels that cannot be had after all go back to the free pool. */
static void hpet_roles_rollback_step(struct kunit *test)
{
	enum hpet_role role[6] = { HPET_ROLE_LEGACY, HPET_ROLE_LEGACY, HPET_ROLE_DEVICE,
				   HPET_ROLE_PERCPU, HPET_ROLE_PERCPU, HPET_ROLE_FREE };

	KUNIT_EXPECT_EQ(test, hpet_roles_rollback(role, 6), 2U);
	KUNIT_EXPECT_EQ(test, role[0], HPET_ROLE_LEGACY);
	KUNIT_EXPECT_EQ(test, role[1], HPET_ROLE_LEGACY);
	KUNIT_EXPECT_EQ(test, role[2], HPET_ROLE_DEVICE);
	KUNIT_EXPECT_EQ(test, role[3], HPET_ROLE_FREE);
	KUNIT_EXPECT_EQ(test, role[4], HPET_ROLE_FREE);
	KUNIT_EXPECT_EQ(test, role[5], HPET_ROLE_FREE);
	/* Nothing left to roll back the second time. */
	KUNIT_EXPECT_EQ(test, hpet_roles_rollback(role, 6), 0U);
}

static struct kunit_case hpet_cases[] = {
	KUNIT_CASE(hpet_period_decoding),
	KUNIT_CASE(hpet_id_decoding),
	KUNIT_CASE(hpet_compare_race),
	KUNIT_CASE(hpet_cycle_conversion),
	KUNIT_CASE(hpet_roles),
	KUNIT_CASE(hpet_roles_rollback_step),
	KUNIT_CASE(hpet_rtc_catch_up),
	KUNIT_CASE(hpet_legacy_device),
	{}
};

static struct kunit_suite hpet_suite = {
	.name = "hpet",
	.test_cases = hpet_cases,
};

kunit_test_suite(hpet_suite);

MODULE_DESCRIPTION("KUnit tests for the HPET driver");
MODULE_LICENSE("GPL");
