// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the decisions NO_HZ and the tick emulation make
 * (kernel/time/tick-sched.c): how many jiffies a late or long-idle tick
 * catches up, where a restarted tick lands on its period grid, the skew
 * offsets, when an idle CPU must wake (timer wheel and hrtimers, RCU and
 * friends, the clocksource's max deferment), who keeps time after a CPU
 * stops its tick, and how idle time sums up; with NO_HZ_FULL, which tick
 * dependencies keep a busy CPU's tick and where the timekeeping duty must
 * stay.  Only inputs and results are
 * involved: the live tick is never touched.
 */
#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/math64.h>

#include "tick-internal.h"
#include "tick-kunit.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define THIS_CPU	1
#define OTHER_CPU	0

/* An arbitrary jiffy boundary well after boot, so that nothing is near 0. */
#define BASE		((u64)1000 * NSEC_PER_SEC)

static void tick_jiffies_catch_up(struct kunit *test)
{
	ktime_t next = BASE + TICK_NSEC;

	/* Before the period ends nothing is due, exactly at its end one is. */
	KUNIT_EXPECT_EQ(test, tick_jiffies_due(next - 1, next), 0ULL);
	KUNIT_EXPECT_EQ(test, tick_jiffies_due(BASE, next), 0ULL);
	KUNIT_EXPECT_EQ(test, tick_jiffies_due(next, next), 1ULL);
	KUNIT_EXPECT_EQ(test, tick_jiffies_due(next + TICK_NSEC - 1, next), 1ULL);
	KUNIT_EXPECT_EQ(test, tick_jiffies_due(next + TICK_NSEC, next), 2ULL);
	/* A long idle sleep: an hour and half a period late. */
	KUNIT_EXPECT_EQ(test, tick_jiffies_due(next + 3600 * (u64)NSEC_PER_SEC + TICK_NSEC / 2,
					       next), 3600 * (u64)HZ + 1);
	/* A day: the count does not overflow or lose periods. */
	KUNIT_EXPECT_EQ(test, tick_jiffies_due(next + 86400 * (u64)NSEC_PER_SEC, next),
			86400 * (u64)HZ + 1);
}

/* Advancing by the due count lands after now, on the grid, less than a period away. */
static void tick_jiffies_advance_invariant(struct kunit *test)
{
	static const u64 lateness[] = { 0, 1, TICK_NSEC - 1, TICK_NSEC, 7 * TICK_NSEC + 3,
					(u64)NSEC_PER_SEC * 600 + 12345 };
	ktime_t next = BASE + TICK_NSEC;
	unsigned int i;
	u32 rem;

	for (i = 0; i < ARRAY_SIZE(lateness); i++) {
		ktime_t now = next + lateness[i];
		ktime_t after = next + tick_jiffies_due(now, next) * TICK_NSEC;

		KUNIT_EXPECT_GT_MSG(test, after, now, "late by %llu", lateness[i]);
		KUNIT_EXPECT_LE_MSG(test, after - now, (s64)TICK_NSEC, "late by %llu",
				    lateness[i]);
		div_u64_rem(after - BASE, TICK_NSEC, &rem);
		KUNIT_EXPECT_EQ(test, rem, 0U);
	}
}

static void tick_restart_on_grid(struct kunit *test)
{
	ktime_t grid = BASE + TICK_NSEC / 3;

	/* A grid point still ahead is kept. */
	KUNIT_EXPECT_EQ(test, tick_period_after(grid, grid - 1), grid);
	/* Exactly at a grid point: the next one, never now. */
	KUNIT_EXPECT_EQ(test, tick_period_after(grid, grid), grid + TICK_NSEC);
	KUNIT_EXPECT_EQ(test, tick_period_after(grid, grid + 5 * TICK_NSEC),
			grid + 6 * TICK_NSEC);
	/* After a long sleep: the phase of the grid is kept. */
	KUNIT_EXPECT_EQ(test, tick_period_after(grid, grid + 1000 * (s64)TICK_NSEC + 1),
			grid + 1001 * (s64)TICK_NSEC);
}

static void tick_skew(struct kunit *test)
{
	unsigned int cpu;

	KUNIT_EXPECT_EQ(test, tick_skew_offset(0, 4), 0ULL);
	KUNIT_EXPECT_EQ(test, tick_skew_offset(0, 1), 0ULL);
	/* Distinct, increasing, and all within the first half period. */
	for (cpu = 1; cpu < 64; cpu++) {
		KUNIT_EXPECT_GT(test, tick_skew_offset(cpu, 64), tick_skew_offset(cpu - 1, 64));
		KUNIT_EXPECT_LT(test, tick_skew_offset(cpu, 64), (u64)TICK_NSEC / 2);
	}
}

/* An idle CPU that keeps no time, whose earliest timer is @next_timer. */
static struct tick_idle_view idle_view(u64 next_timer)
{
	return (struct tick_idle_view) {
		.basemono = BASE,
		.next_timer = next_timer,
		.max_deferment = KTIME_MAX,
	};
}

static void tick_deadline_timer_wins(struct kunit *test)
{
	struct tick_idle_view v = idle_view(BASE + 100 * TICK_NSEC);

	/* The wheel's (or an hrtimer's) expiry is the deadline. */
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), BASE + 100 * TICK_NSEC);

	/* No timer at all: sleep until something else wakes the CPU. */
	v = idle_view(KTIME_MAX);
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), (u64)KTIME_MAX);
}

static void tick_deadline_keep_tick(struct kunit *test)
{
	struct tick_idle_view v = idle_view(BASE + TICK_NSEC);

	/* Due within one period: stopping saves nothing, the tick stays. */
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), 0ULL);
	v.next_timer = BASE + TICK_NSEC / 2;
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), 0ULL);
	/* Just beyond one period: worth stopping. */
	v.next_timer = BASE + TICK_NSEC + 1;
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), BASE + TICK_NSEC + 1);

	/* An already stopped tick is moved to the near deadline, not kept. */
	v.next_timer = BASE + TICK_NSEC / 2;
	v.stopped = true;
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), BASE + TICK_NSEC / 2);
}

static void tick_deadline_needs_tick(struct kunit *test)
{
	struct tick_idle_view v = idle_view(BASE + 100 * TICK_NSEC);

	/* RCU (or irq_work, a pending timer softirq) wants the next jiffy. */
	v.needs_tick = true;
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), 0ULL);
	v.stopped = true;
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), BASE + TICK_NSEC);
}

static void tick_deadline_max_deferment(struct kunit *test)
{
	struct tick_idle_view v = idle_view(KTIME_MAX);

	v.max_deferment = 2 * (u64)NSEC_PER_SEC;

	/* A CPU without the duty sleeps past the clocksource's limit. */
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), (u64)KTIME_MAX);

	/* The time keeper is bounded by it ... */
	v.keeps_time = true;
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), BASE + 2 * (u64)NSEC_PER_SEC);

	/* ... unless a timer comes first. */
	v.next_timer = BASE + 10 * TICK_NSEC;
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), BASE + 10 * TICK_NSEC);

	/* A limit that would overflow means no limit. */
	v.next_timer = KTIME_MAX;
	v.max_deferment = KTIME_MAX - 1;
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), (u64)KTIME_MAX);
}

static void tick_deadline_never_before_base(struct kunit *test)
{
	struct tick_idle_view v = idle_view(BASE - 5 * TICK_NSEC);

	/* A stale timer is due now: keep the tick, or fire at once if stopped. */
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), 0ULL);
	v.stopped = true;
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), BASE);
}

static void tick_duty_hand_off(struct kunit *test)
{
	int owner;

	/* The owner gives the duty up and remembers it had it. */
	owner = THIS_CPU;
	KUNIT_EXPECT_TRUE(test, tick_duty_after_stop(&owner, THIS_CPU, false));
	KUNIT_EXPECT_EQ(test, owner, TICK_DO_TIMER_NONE);

	/* Nobody took it since: still the last one, still bounded. */
	KUNIT_EXPECT_TRUE(test, tick_duty_after_stop(&owner, THIS_CPU, true));
	KUNIT_EXPECT_EQ(test, owner, TICK_DO_TIMER_NONE);

	/* Another CPU holds it: this one is free of it. */
	owner = OTHER_CPU;
	KUNIT_EXPECT_FALSE(test, tick_duty_after_stop(&owner, THIS_CPU, true));
	KUNIT_EXPECT_EQ(test, owner, OTHER_CPU);

	/* Abandoned by someone else: not this CPU's to bound. */
	owner = TICK_DO_TIMER_NONE;
	KUNIT_EXPECT_FALSE(test, tick_duty_after_stop(&owner, THIS_CPU, false));
	KUNIT_EXPECT_EQ(test, owner, TICK_DO_TIMER_NONE);
}

static void tick_idle_sums(struct kunit *test)
{
	ktime_t sum = 0, entry = BASE;
	int i;

	/* Closed periods add up exactly. */
	for (i = 0; i < 1000; i++) {
		ktime_t exit = entry + 3 * TICK_NSEC + i;

		sum = tick_idle_sum_at(sum, true, entry, exit);
		entry = exit + TICK_NSEC;
	}
	KUNIT_EXPECT_EQ(test, sum, 1000 * 3 * (s64)TICK_NSEC + 999 * 1000 / 2);

	/* A reader sees the open period up to its now, and only if it counts. */
	KUNIT_EXPECT_EQ(test, tick_idle_sum_at(sum, true, entry, entry + 42), sum + 42);
	KUNIT_EXPECT_EQ(test, tick_idle_sum_at(sum, false, entry, entry + 42), sum);
	/* An entry stamped after the reader's now adds nothing, never subtracts. */
	KUNIT_EXPECT_EQ(test, tick_idle_sum_at(sum, true, entry, entry - 42), sum);
}

#ifdef CONFIG_NO_HZ_FULL
static void tick_full_dependencies(struct kunit *test)
{
	const unsigned int all = TICK_DEP_MASK_POSIX_TIMER | TICK_DEP_MASK_PERF_EVENTS |
				 TICK_DEP_MASK_SCHED | TICK_DEP_MASK_CLOCK_UNSTABLE |
				 TICK_DEP_MASK_RCU | TICK_DEP_MASK_RCU_EXP;
	unsigned int bit;

	/* Nothing set anywhere: a busy nohz_full CPU may stop its tick. */
	KUNIT_EXPECT_EQ(test, tick_dep_reason(0, 0, 0, 0), (unsigned int)TICK_DEP_MASK_NONE);

	/* Any one bit, in any one of the four masks, keeps it, and is the reason. */
	for (bit = 0; bit <= TICK_DEP_BIT_MAX; bit++) {
		KUNIT_EXPECT_EQ(test, tick_dep_reason(BIT(bit), 0, 0, 0), BIT(bit));
		KUNIT_EXPECT_EQ(test, tick_dep_reason(0, BIT(bit), 0, 0), BIT(bit));
		KUNIT_EXPECT_EQ(test, tick_dep_reason(0, 0, BIT(bit), 0), BIT(bit));
		KUNIT_EXPECT_EQ(test, tick_dep_reason(0, 0, 0, BIT(bit)), BIT(bit));
	}

	/* Several: the global mask's reason first, then the CPU's, task's, group's. */
	KUNIT_EXPECT_EQ(test, tick_dep_reason(TICK_DEP_MASK_RCU, TICK_DEP_MASK_SCHED,
					      TICK_DEP_MASK_POSIX_TIMER, 0),
			(unsigned int)TICK_DEP_MASK_RCU);
	KUNIT_EXPECT_EQ(test, tick_dep_reason(0, TICK_DEP_MASK_SCHED, TICK_DEP_MASK_POSIX_TIMER,
					      TICK_DEP_MASK_POSIX_TIMER),
			(unsigned int)TICK_DEP_MASK_SCHED);
	KUNIT_EXPECT_EQ(test, tick_dep_reason(0, 0, 0, TICK_DEP_MASK_POSIX_TIMER),
			(unsigned int)TICK_DEP_MASK_POSIX_TIMER);
	/* Within a mask, the lowest bit, as the tick_stop trace names it. */
	KUNIT_EXPECT_EQ(test, tick_dep_reason(all, 0, 0, 0),
			(unsigned int)TICK_DEP_MASK_POSIX_TIMER);
	KUNIT_EXPECT_EQ(test, tick_dep_reason(0, TICK_DEP_MASK_RCU | TICK_DEP_MASK_RCU_EXP, 0, 0),
			(unsigned int)TICK_DEP_MASK_RCU);
}

static void tick_full_busy_deadline(struct kunit *test)
{
	/* A busy nohz_full CPU decides as an idle one that does not keep time. */
	struct tick_idle_view v = idle_view(KTIME_MAX);

	v.keeps_time = false;
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), (u64)KTIME_MAX);
	v.next_timer = BASE + HZ * TICK_NSEC;
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), BASE + HZ * TICK_NSEC);
	/* RCU or a pending timer softirq wants the very next tick. */
	v.needs_tick = true;
	KUNIT_EXPECT_EQ(test, tick_nohz_pick_deadline(&v), 0ULL);
}

static void tick_full_duty_placement(struct kunit *test)
{
	struct cpumask *full;

	/* With nohz_full CPUs, the timekeeper is pinned: tick on, stays online. */
	KUNIT_EXPECT_TRUE(test, tick_duty_pinned(true, OTHER_CPU, OTHER_CPU));
	KUNIT_EXPECT_FALSE(test, tick_duty_pinned(true, OTHER_CPU, THIS_CPU));
	/* Without, the duty moves freely: nobody is pinned. */
	KUNIT_EXPECT_FALSE(test, tick_duty_pinned(false, OTHER_CPU, OTHER_CPU));
	KUNIT_EXPECT_FALSE(test, tick_duty_pinned(true, TICK_DO_TIMER_NONE, THIS_CPU));

	full = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, full);

	/* Suspend needs the boot CPU to keep time: it leaves nohz_full=. */
	cpumask_set_cpu(OTHER_CPU, full);
	cpumask_set_cpu(THIS_CPU, full);
	KUNIT_EXPECT_TRUE(test, tick_nohz_full_boot_trim(full, OTHER_CPU, true));
	KUNIT_EXPECT_FALSE(test, cpumask_test_cpu(OTHER_CPU, full));
	KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(THIS_CPU, full));
	/* Not in the list: nothing to take out. */
	KUNIT_EXPECT_FALSE(test, tick_nohz_full_boot_trim(full, OTHER_CPU, true));
	/* Without that constraint the boot CPU may stay tick-free. */
	cpumask_set_cpu(OTHER_CPU, full);
	KUNIT_EXPECT_FALSE(test, tick_nohz_full_boot_trim(full, OTHER_CPU, false));
	KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(OTHER_CPU, full));
}
#endif /* CONFIG_NO_HZ_FULL */

static struct kunit_case tick_sched_test_cases[] = {
	KUNIT_CASE(tick_jiffies_catch_up),
	KUNIT_CASE(tick_jiffies_advance_invariant),
	KUNIT_CASE(tick_restart_on_grid),
	KUNIT_CASE(tick_skew),
	KUNIT_CASE(tick_deadline_timer_wins),
	KUNIT_CASE(tick_deadline_keep_tick),
	KUNIT_CASE(tick_deadline_needs_tick),
	KUNIT_CASE(tick_deadline_max_deferment),
	KUNIT_CASE(tick_deadline_never_before_base),
	KUNIT_CASE(tick_duty_hand_off),
	KUNIT_CASE(tick_idle_sums),
#ifdef CONFIG_NO_HZ_FULL
	KUNIT_CASE(tick_full_dependencies),
	KUNIT_CASE(tick_full_busy_deadline),
	KUNIT_CASE(tick_full_duty_placement),
#endif
	{}
};

static struct kunit_suite tick_sched_test_suite = {
	.name = "tick_sched",
	.test_cases = tick_sched_test_cases,
};

kunit_test_suite(tick_sched_test_suite);

MODULE_DESCRIPTION("KUnit tests for NO_HZ and the tick emulation");
MODULE_LICENSE("GPL");
