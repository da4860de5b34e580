// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the tick device layer's decisions on mock devices: which
 * device a CPU prefers, how an emulated periodic tick finds its next
 * period after missed ones, which device may broadcast, which sleeping
 * CPUs a broadcast event is due for, and what entering and leaving deep
 * idle on the broadcast takes.  The mocks never reach the live tick
 * layer.
 */
#include <kunit/test.h>
#include <linux/clockchips.h>
#include <linux/cpumask.h>
#include <linux/ktime.h>
#include <linux/math64.h>

#include "tick-internal.h"
#include "tick-kunit.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* The CPU the decisions are made for, and one it is not. */
#define THIS_CPU	0
#define OTHER_CPU	1

static void mock_dev(struct clock_event_device *dev, const struct cpumask *mask,
		     unsigned int features, int rating)
{
	memset(dev, 0, sizeof(*dev));
	dev->name = "mock";
	dev->cpumask = mask;
	dev->features = features;
	dev->rating = rating;
	dev->irq = -1;
}

#define ONESHOT		CLOCK_EVT_FEAT_ONESHOT
#define PERIODIC	CLOCK_EVT_FEAT_PERIODIC

struct preference_case {
	const char *what;
	bool have_cur;
	bool cur_local;
	unsigned int cur_features;
	int cur_rating;
	int new_where;		/* 0: this CPU, 1: the other CPU, 2: global */
	unsigned int new_features;
	int new_rating;
	bool oneshot_active;
	bool irq_movable;
	bool preferred;
};

static const struct preference_case preference_cases[] = {
	{ "first device", false, false, 0, 0, 0, PERIODIC, 100, false, true, true },
	{ "device of another CPU", false, false, 0, 0, 1, ONESHOT, 500, false, true, false },
	{ "global device, pinned interrupt", false, false, 0, 0, 2, ONESHOT, 300, false, false,
	  false },
	{ "global device, movable interrupt", false, false, 0, 0, 2, ONESHOT, 300, false, true,
	  true },
	{ "higher rated local device", true, true, ONESHOT, 100, 0, ONESHOT, 150, false, true,
	  true },
	{ "lower rated local device", true, true, ONESHOT, 150, 0, ONESHOT, 100, false, true,
	  false },
	{ "equally rated local device", true, true, ONESHOT, 100, 0, ONESHOT, 100, false, true,
	  false },
	{ "global device over a local one", true, true, ONESHOT, 100, 2, ONESHOT, 400, false,
	  true, false },
	{ "lower rated local over a global one", true, false, ONESHOT, 400, 0, ONESHOT, 100,
	  false, true, true },
	{ "periodic-only over oneshot", true, true, ONESHOT, 100, 0, PERIODIC, 400, false, true,
	  false },
	{ "periodic-only while oneshot is on", false, false, 0, 0, 0, PERIODIC, 400, true, true,
	  false },
	{ "oneshot over periodic-only", true, true, PERIODIC, 100, 0, ONESHOT, 150, false, true,
	  true },
	{ "periodic-only over periodic-only", true, true, PERIODIC, 100, 0, PERIODIC, 150, false,
	  true, true },
};

static void preference_desc(const struct preference_case *c, char *desc)
{
	strscpy(desc, c->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(preference, preference_cases, preference_desc);

static const struct cpumask *mask_for(int where)
{
	if (where == 0)
		return cpumask_of(THIS_CPU);
	if (where == 1)
		return cpumask_of(OTHER_CPU);
	return cpu_possible_mask;
}

static void tick_preference(struct kunit *test)
{
	const struct preference_case *c = test->param_value;
	struct clock_event_device cur, new;

	/* With one possible CPU a global device is a local one. */
	if (nr_cpu_ids < 2 && (c->new_where || (c->have_cur && !c->cur_local)))
		kunit_skip(test, "needs two possible CPUs");
	mock_dev(&cur, mask_for(c->cur_local ? 0 : 2), c->cur_features, c->cur_rating);
	mock_dev(&new, mask_for(c->new_where), c->new_features, c->new_rating);
	KUNIT_EXPECT_EQ(test, tick_device_preferred(c->have_cur ? &cur : NULL, &new, THIS_CPU,
						    c->oneshot_active, c->irq_movable),
			c->preferred);
}

/*
 * The emulated period: a mock oneshot device that accepts every program
 * (but the first mock_refusals ones).
 */
static unsigned int mock_programs;
static int mock_refusals;

static int mock_next_event(unsigned long ticks, struct clock_event_device *dev)
{
	mock_programs++;
	if (mock_refusals > 0) {
		mock_refusals--;
		return -ETIME;
	}
	return 0;
}

static void mock_oneshot(struct clock_event_device *dev)
{
	mock_dev(dev, cpumask_of(THIS_CPU), ONESHOT, 100);
	dev->set_next_event = mock_next_event;
	dev->mult = 1 << 10;
	dev->shift = 10;	/* 1 GHz */
	dev->min_delta_ns = 1000;
	dev->max_delta_ns = NSEC_PER_SEC;
	dev->min_delta_ticks = 1000;
	dev->max_delta_ticks = NSEC_PER_SEC;
	clockevents_switch_state(dev, CLOCK_EVT_STATE_ONESHOT);
	mock_programs = 0;
	mock_refusals = 0;
}

static unsigned int missed;

static void count_missed(int cpu)
{
	missed++;
}

/* Missed periods are counted one by one; the result is on the period grid. */
static void tick_period_catch_up(struct kunit *test)
{
	struct clock_event_device dev;
	ktime_t start, armed, before, after;
	u64 periods;
	u32 rem;

	mock_oneshot(&dev);
	missed = 0;
	before = ktime_get();
	start = ktime_sub_ns(before, 3 * TICK_NSEC + TICK_NSEC / 2);
	armed = tick_first_future_period(&dev, start, count_missed, THIS_CPU);
	after = ktime_get();

	periods = div_u64_rem(ktime_sub(armed, start), TICK_NSEC, &rem);
	KUNIT_EXPECT_EQ(test, rem, 0);
	KUNIT_EXPECT_EQ(test, periods, missed);
	KUNIT_EXPECT_GE(test, missed, 4);
	KUNIT_EXPECT_GT(test, armed, before);
	KUNIT_EXPECT_LE(test, armed, ktime_add_ns(after, TICK_NSEC));
	KUNIT_EXPECT_EQ(test, mock_programs, 1);
	KUNIT_EXPECT_EQ(test, dev.next_event, armed);
}

/* A future period is armed as it is, with nothing counted as missed. */
static void tick_period_on_time(struct kunit *test)
{
	struct clock_event_device dev;
	ktime_t start;

	mock_oneshot(&dev);
	missed = 0;
	start = ktime_add_ns(ktime_get(), 10 * TICK_NSEC);
	KUNIT_EXPECT_EQ(test, tick_first_future_period(&dev, start, count_missed, THIS_CPU),
			start);
	KUNIT_EXPECT_EQ(test, missed, 0);
	KUNIT_EXPECT_EQ(test, mock_programs, 1);
}

/* Without a catch-up callback, passed periods are skipped silently. */
static void tick_period_skip(struct kunit *test)
{
	struct clock_event_device dev;
	ktime_t start, armed;
	u32 rem;

	mock_oneshot(&dev);
	start = ktime_sub_ns(ktime_get(), 2 * TICK_NSEC);
	armed = tick_first_future_period(&dev, start, NULL, THIS_CPU);
	KUNIT_EXPECT_GE(test, ktime_sub(armed, start), 2 * TICK_NSEC);
	div_u64_rem(ktime_sub(armed, start), TICK_NSEC, &rem);
	KUNIT_EXPECT_EQ(test, rem, 0);
}

/*
 * A simulated early-boot clock: timekeeping on the jiffies clocksource
 * reads the boot offset plus whole ticks.  The mock device takes absolute
 * expiries, so the test sees what is armed against that clock.
 */
static ktime_t sim_now, sim_armed;

static int sim_next_ktime(ktime_t expires, struct clock_event_device *dev)
{
	if (expires <= sim_now)
		return -ETIME;
	sim_armed = expires;
	return 0;
}

/*
 * The periodic tick emulated on a oneshot device from the first
 * registration on: each tick is armed a whole period after the clock's
 * reading, whatever the boot offset (6.4 armed d < TICK_NSEC after it).
 */
static void tick_boot_emulated_period(struct kunit *test)
{
	static const u64 offsets[] = { 0, 1, TICK_NSEC / 3, TICK_NSEC - 1000, TICK_NSEC - 1 };
	struct clock_event_device dev;
	unsigned int i, k;
	ktime_t armed;

	for (i = 0; i < ARRAY_SIZE(offsets); i++) {
		mock_oneshot(&dev);
		dev.features |= CLOCK_EVT_FEAT_KTIME;
		dev.set_next_ktime = sim_next_ktime;
		sim_now = offsets[i] + 1000 * (u64)TICK_NSEC;
		armed = tick_first_future_period(&dev, tick_boot_next_period(sim_now), NULL,
						 THIS_CPU);
		for (k = 0; k < 4; k++) {
			KUNIT_EXPECT_EQ_MSG(test, ktime_sub(armed, sim_now), TICK_NSEC,
					    "offset %llu, tick %u", offsets[i], k);
			KUNIT_EXPECT_EQ(test, sim_armed, armed);
			/* The tick advances jiffies: the clock moves one period. */
			sim_now = ktime_add_ns(sim_now, TICK_NSEC);
			armed = tick_first_future_period(&dev, ktime_add_ns(armed, TICK_NSEC),
							 NULL, THIS_CPU);
		}
	}
}

/* Aligning the boundaries later: onto the grid, never back, less than a period on. */
static void tick_grid_alignment(struct kunit *test)
{
	static const u64 times[] = { 1, TICK_NSEC - 1, TICK_NSEC, TICK_NSEC + 1,
				     123456789012ULL, 1000 * (u64)TICK_NSEC };
	unsigned int i;
	ktime_t up;
	u32 rem;

	for (i = 0; i < ARRAY_SIZE(times); i++) {
		up = tick_grid_round_up(times[i]);
		div_u64_rem(up, TICK_NSEC, &rem);
		KUNIT_EXPECT_EQ_MSG(test, rem, 0, "%llu", times[i]);
		KUNIT_EXPECT_GE(test, up, times[i]);
		KUNIT_EXPECT_LT(test, ktime_sub(up, times[i]), TICK_NSEC);
	}
	KUNIT_EXPECT_EQ(test, tick_grid_round_up(5 * (u64)TICK_NSEC), 5 * (u64)TICK_NSEC);
}

#if defined(CONFIG_GENERIC_CLOCKEVENTS_BROADCAST) && defined(CONFIG_TICK_ONESHOT)
/* Which devices may broadcast, and which one wins. */
static void tick_broadcast_choice(struct kunit *test)
{
	struct clock_event_device cur, new;

	mock_dev(&cur, cpu_possible_mask, ONESHOT | PERIODIC, 100);
	mock_dev(&new, cpu_possible_mask, ONESHOT | PERIODIC, 150);
	KUNIT_EXPECT_TRUE(test, tick_broadcast_suitable(NULL, &new, true));
	KUNIT_EXPECT_TRUE(test, tick_broadcast_suitable(&cur, &new, true));
	KUNIT_EXPECT_FALSE(test, tick_broadcast_suitable(&new, &cur, false));

	/* Stops in deep idle, a dummy, or per CPU: never a broadcast device. */
	new.features |= CLOCK_EVT_FEAT_C3STOP;
	KUNIT_EXPECT_FALSE(test, tick_broadcast_suitable(NULL, &new, false));
	new.features = ONESHOT | CLOCK_EVT_FEAT_DUMMY;
	KUNIT_EXPECT_FALSE(test, tick_broadcast_suitable(NULL, &new, false));
	new.features = ONESHOT | CLOCK_EVT_FEAT_PERCPU;
	KUNIT_EXPECT_FALSE(test, tick_broadcast_suitable(NULL, &new, false));

	/* A periodic-only device cannot serve a oneshot broadcast. */
	new.features = PERIODIC;
	KUNIT_EXPECT_FALSE(test, tick_broadcast_suitable(NULL, &new, true));
	KUNIT_EXPECT_TRUE(test, tick_broadcast_suitable(NULL, &new, false));
}

/* Expiries of four sleeping CPUs, relative to "now" = 1000. */
static ktime_t fake_expiry(int cpu)
{
	static const ktime_t expiry[] = { 900, 1000, 5000, 3000 };

	return expiry[cpu];
}

static const struct cpumask *bc_woken_mask;
static unsigned int bc_wakes;

static void bc_record_wake(const struct cpumask *mask)
{
	bc_woken_mask = mask;
	bc_wakes++;
}

/*
 * A broadcast device that CPUs depend on never drops their event: a
 * device that refuses a few times is armed all the same, one that cannot
 * be armed at all has the CPU sent its event at once.
 */
static void tick_broadcast_never_drops(struct kunit *test)
{
	ktime_t soon = ktime_add_ns(ktime_get(), 100000);
	struct clock_event_device dev;

	mock_oneshot(&dev);
	bc_wakes = 0;
	mock_refusals = 2;
	KUNIT_EXPECT_TRUE(test, tick_broadcast_arm(&dev, 1, soon, bc_record_wake));
	KUNIT_EXPECT_EQ(test, bc_wakes, 0);
	KUNIT_EXPECT_NE(test, dev.next_event, KTIME_MAX);

	mock_refusals = INT_MAX;
	KUNIT_EXPECT_FALSE(test, tick_broadcast_arm(&dev, 1, soon, bc_record_wake));
	KUNIT_EXPECT_EQ(test, bc_wakes, 1);
	KUNIT_EXPECT_PTR_EQ(test, bc_woken_mask, cpumask_of(1));

	/* A device left shut down is switched to oneshot first. */
	clockevents_switch_state(&dev, CLOCK_EVT_STATE_SHUTDOWN);
	mock_refusals = 0;
	KUNIT_EXPECT_TRUE(test, tick_broadcast_arm(&dev, 0, soon, bc_record_wake));
	KUNIT_EXPECT_TRUE(test, clockevent_state_oneshot(&dev));
	KUNIT_EXPECT_EQ(test, bc_wakes, 1);
}

static void tick_broadcast_due(struct kunit *test)
{
	cpumask_var_t sleepers, woken, due;
	int next_cpu = -1;
	ktime_t next;

	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&sleepers, GFP_KERNEL));
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&woken, GFP_KERNEL));
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&due, GFP_KERNEL));

	next = tick_broadcast_scan(sleepers, woken, fake_expiry, 1000, due, &next_cpu);
	KUNIT_EXPECT_EQ(test, next, KTIME_MAX);
	KUNIT_EXPECT_TRUE(test, cpumask_empty(due));

	if (nr_cpu_ids >= 4) {
		cpumask_set_cpu(0, sleepers);
		cpumask_set_cpu(1, sleepers);
		cpumask_set_cpu(2, sleepers);
		cpumask_set_cpu(3, sleepers);
		next = tick_broadcast_scan(sleepers, woken, fake_expiry, 1000, due, &next_cpu);
		/* Due at or before now: 0 and 1; the earliest later one is 3. */
		KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(0, due));
		KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(1, due));
		KUNIT_EXPECT_EQ(test, cpumask_weight(due), 2);
		KUNIT_EXPECT_EQ(test, next, 3000);
		KUNIT_EXPECT_EQ(test, next_cpu, 3);

		/*
		 * 0 was sent its event and has not left idle yet, 3 likewise
		 * with a later one: neither is owed anything, so 0 is not due
		 * again and 2 is the next.
		 */
		cpumask_set_cpu(0, woken);
		cpumask_set_cpu(3, woken);
		next = tick_broadcast_scan(sleepers, woken, fake_expiry, 1000, due, &next_cpu);
		KUNIT_EXPECT_FALSE(test, cpumask_test_cpu(0, due));
		KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(1, due));
		KUNIT_EXPECT_EQ(test, cpumask_weight(due), 1);
		KUNIT_EXPECT_EQ(test, next, 5000);
		KUNIT_EXPECT_EQ(test, next_cpu, 2);
	} else {
		cpumask_set_cpu(0, sleepers);
		next = tick_broadcast_scan(sleepers, woken, fake_expiry, 1000, due, &next_cpu);
		KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(0, due));
		KUNIT_EXPECT_EQ(test, next, KTIME_MAX);

		cpumask_set_cpu(0, woken);
		next = tick_broadcast_scan(sleepers, woken, fake_expiry, 1000, due, &next_cpu);
		KUNIT_EXPECT_TRUE(test, cpumask_empty(due));
		KUNIT_EXPECT_EQ(test, next, KTIME_MAX);
	}
	free_cpumask_var(sleepers);
	free_cpumask_var(woken);
	free_cpumask_var(due);
}

/* Entering deep idle: one row per situation, with the steps and result. */
static const struct {
	const char *what;
	struct bc_enter_state in;
	unsigned int todo;
	int ret;
} enter_cases[] = {
	{ "periodic broadcast", { .periodic = true, .local_next = 10, .bc_next = 20 }, 0, 0 },
	{ "periodic hrtimer broadcast", { .periodic = true, .hrtimer_bc = true }, 0, -EBUSY },
	{ "hrtimer broadcast queued here", { .hrtimer_bc = true, .bc_bound_here = true }, 0,
	  -EBUSY },
	{ "already asleep", { .asleep = true, .local_next = 10, .bc_next = 20 }, 0, 0 },
	{ "earliest sleeper", { .local_next = 10, .bc_next = 20 },
	  BC_JOIN | BC_STOP_LOCAL | BC_ARM, 0 },
	{ "later sleeper", { .local_next = 30, .bc_next = 20 }, BC_JOIN | BC_STOP_LOCAL, 0 },
	{ "overdue", { .overdue = true, .local_next = 10, .bc_next = 20 },
	  BC_JOIN | BC_STOP_LOCAL, -EBUSY },
	{ "earliest on an hrtimer broadcast", { .hrtimer_bc = true, .local_next = 10,
	  .bc_next = 20 }, BC_JOIN | BC_ARM, 0 },
	{ "later on an hrtimer broadcast", { .hrtimer_bc = true, .local_next = 30,
	  .bc_next = 20 }, BC_JOIN | BC_STOP_LOCAL, 0 },
};

static void tick_broadcast_enter_steps(struct kunit *test)
{
	unsigned int i, todo;
	int ret;

	for (i = 0; i < ARRAY_SIZE(enter_cases); i++) {
		ret = tick_broadcast_enter_plan(&enter_cases[i].in, &todo);
		KUNIT_EXPECT_EQ_MSG(test, ret, enter_cases[i].ret, "%s", enter_cases[i].what);
		KUNIT_EXPECT_EQ_MSG(test, todo, enter_cases[i].todo, "%s", enter_cases[i].what);
	}
}

/* Leaving deep idle. */
static const struct {
	const char *what;
	struct bc_exit_state in;
	unsigned int todo;
} exit_cases[] = {
	{ "never slept", { .local_next = 10, .now = 20 }, 0 },
	{ "woken by the broadcast", { .asleep = true, .woken = true, .local_next = 10, .now = 20 },
	  BC_LEAVE | BC_CLEAR_WOKEN },
	{ "nothing pending", { .asleep = true, .local_next = KTIME_MAX, .now = 20 }, BC_LEAVE },
	{ "event overdue", { .asleep = true, .local_next = 10, .now = 20 },
	  BC_LEAVE | BC_MARK_OVERDUE },
	{ "event due right now", { .asleep = true, .local_next = 20, .now = 20 },
	  BC_LEAVE | BC_MARK_OVERDUE },
	{ "event ahead", { .asleep = true, .local_next = 30, .bc_next = 25, .now = 20 },
	  BC_LEAVE | BC_REARM_LOCAL },
	{ "event ahead, broadcast armed for it", { .asleep = true, .local_next = 30,
	  .bc_next = 30, .now = 20 }, BC_LEAVE | BC_REARM_LOCAL | BC_REAIM },
	{ "overdue, broadcast armed for it", { .asleep = true, .local_next = 10,
	  .bc_next = 10, .now = 20 }, BC_LEAVE | BC_MARK_OVERDUE },
	{ "woken, broadcast re-armed for another", { .asleep = true, .woken = true,
	  .local_next = 30, .bc_next = 30, .now = 20 }, BC_LEAVE | BC_CLEAR_WOKEN },
};

static void tick_broadcast_exit_steps(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(exit_cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, tick_broadcast_exit_plan(&exit_cases[i].in),
				    exit_cases[i].todo, "%s", exit_cases[i].what);
}

/* Which broadcast devices can carry the events of CPUs with dummy devices. */
static void tick_broadcast_host_choice(struct kunit *test)
{
	struct clock_event_device bc;

	KUNIT_EXPECT_FALSE(test, tick_broadcast_can_host(NULL));
	/* HPET channel 0, the PIT, an SP804: global and oneshot. */
	mock_dev(&bc, cpu_possible_mask, ONESHOT | PERIODIC, 50);
	KUNIT_EXPECT_TRUE(test, tick_broadcast_can_host(&bc));
	/* Periodic only: today's periodic broadcast stays. */
	bc.features = PERIODIC;
	KUNIT_EXPECT_FALSE(test, tick_broadcast_can_host(&bc));
	/* The hrtimer pseudo device needs the local timer it would replace. */
	bc.features = ONESHOT | CLOCK_EVT_FEAT_HRTIMER;
	KUNIT_EXPECT_FALSE(test, tick_broadcast_can_host(&bc));
	bc.features = ONESHOT | CLOCK_EVT_FEAT_DUMMY;
	KUNIT_EXPECT_FALSE(test, tick_broadcast_can_host(&bc));
	bc.features = ONESHOT | CLOCK_EVT_FEAT_PERCPU;
	KUNIT_EXPECT_FALSE(test, tick_broadcast_can_host(&bc));
}

/* Programming a hosted CPU's dummy device: one row per situation. */
static const struct {
	const char *what;
	struct bc_carry_state in;
	unsigned int todo;
	int ret;
} carry_cases[] = {
	{ "earlier than the broadcast's event", { .expires = 10, .now = 5, .bc_next = 20 },
	  BC_JOIN | BC_ARM, 0 },
	{ "later than the broadcast's event", { .expires = 30, .now = 5, .bc_next = 20 },
	  BC_JOIN, 0 },
	{ "the broadcast's own event", { .expires = 20, .now = 5, .bc_next = 20 }, BC_JOIN, 0 },
	{ "broadcast idle", { .expires = 30, .now = 5, .bc_next = KTIME_MAX },
	  BC_JOIN | BC_ARM, 0 },
	{ "past, not forced", { .expires = 5, .now = 5, .bc_next = 20 }, 0, -ETIME },
	{ "past, forced", { .expires = 4, .now = 5, .bc_next = 20, .force = true },
	  BC_JOIN | BC_ARM, 0 },
	{ "nothing pending", { .expires = KTIME_MAX, .now = 5, .bc_next = 20 }, BC_LEAVE, 0 },
	{ "the broadcast's event moves later", { .expires = 30, .prev = 20, .now = 5,
	  .bc_next = 20 }, BC_JOIN | BC_REAIM, 0 },
	{ "the broadcast's event moves earlier", { .expires = 10, .prev = 20, .now = 5,
	  .bc_next = 20 }, BC_JOIN | BC_ARM, 0 },
	{ "the broadcast's event goes", { .expires = KTIME_MAX, .prev = 20, .now = 5,
	  .bc_next = 20 }, BC_LEAVE | BC_REAIM, 0 },
	{ "another CPU's event moves later", { .expires = 40, .prev = 30, .now = 5,
	  .bc_next = 20 }, BC_JOIN, 0 },
};

static void tick_broadcast_carry_steps(struct kunit *test)
{
	unsigned int i, todo;
	int ret;

	for (i = 0; i < ARRAY_SIZE(carry_cases); i++) {
		ret = tick_broadcast_carry_plan(&carry_cases[i].in, &todo);
		KUNIT_EXPECT_EQ_MSG(test, ret, carry_cases[i].ret, "%s", carry_cases[i].what);
		KUNIT_EXPECT_EQ_MSG(test, todo, carry_cases[i].todo, "%s", carry_cases[i].what);
	}
}
#endif

static struct kunit_case tick_common_test_cases[] = {
	KUNIT_CASE_PARAM(tick_preference, preference_gen_params),
	KUNIT_CASE(tick_period_catch_up),
	KUNIT_CASE(tick_period_on_time),
	KUNIT_CASE(tick_period_skip),
	KUNIT_CASE(tick_boot_emulated_period),
	KUNIT_CASE(tick_grid_alignment),
#if defined(CONFIG_GENERIC_CLOCKEVENTS_BROADCAST) && defined(CONFIG_TICK_ONESHOT)
	KUNIT_CASE(tick_broadcast_choice),
	KUNIT_CASE(tick_broadcast_due),
	KUNIT_CASE(tick_broadcast_never_drops),
	KUNIT_CASE(tick_broadcast_enter_steps),
	KUNIT_CASE(tick_broadcast_exit_steps),
	KUNIT_CASE(tick_broadcast_host_choice),
	KUNIT_CASE(tick_broadcast_carry_steps),
#endif
	{}
};

static struct kunit_suite tick_common_test_suite = {
	.name = "tick_common",
	.test_cases = tick_common_test_cases,
};

kunit_test_suite(tick_common_test_suite);

MODULE_DESCRIPTION("KUnit tests for the tick device layer");
MODULE_LICENSE("GPL");
