// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the clockevents core on mock devices.
 *
 * The mocks are never registered, so the live tick layer never sees them:
 * the cases call the core's conversion, programming and state-machine
 * functions directly and count what the core asks of the "driver".
 */
#include <kunit/test.h>
#include <linux/clockchips.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/overflow.h>

#include "tick-internal.h"
#include "clockevents-internal.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct mock_ce {
	struct clock_event_device ce;
	unsigned int periodic_calls;
	unsigned int oneshot_calls;
	unsigned int stopped_calls;
	unsigned int shutdown_calls;
	unsigned int resume_calls;
	unsigned int next_event_calls;
	unsigned int next_ktime_calls;
	unsigned long last_ticks;
	ktime_t last_expiry;
	int fail_next_events;	/* set_next_event() fails this many times */
	int state_result;	/* what the set_state_*() callbacks return */
};

static struct mock_ce *to_mock(struct clock_event_device *ce)
{
	return container_of(ce, struct mock_ce, ce);
}

/* Count a callback and answer as the test told the mock to. */
static int mock_count(struct clock_event_device *ce, unsigned int *calls)
{
	(*calls)++;
	return to_mock(ce)->state_result;
}

static int mock_periodic(struct clock_event_device *ce)
{
	return mock_count(ce, &to_mock(ce)->periodic_calls);
}

static int mock_oneshot(struct clock_event_device *ce)
{
	return mock_count(ce, &to_mock(ce)->oneshot_calls);
}

static int mock_stopped(struct clock_event_device *ce)
{
	return mock_count(ce, &to_mock(ce)->stopped_calls);
}

static int mock_shutdown(struct clock_event_device *ce)
{
	return mock_count(ce, &to_mock(ce)->shutdown_calls);
}

static int mock_tick_resume(struct clock_event_device *ce)
{
	return mock_count(ce, &to_mock(ce)->resume_calls);
}

static int mock_next_event(unsigned long ticks, struct clock_event_device *ce)
{
	struct mock_ce *m = to_mock(ce);

	m->next_event_calls++;
	m->last_ticks = ticks;
	if (m->fail_next_events > 0) {
		m->fail_next_events--;
		return -ETIME;
	}
	return 0;
}

static int mock_next_ktime(ktime_t expires, struct clock_event_device *ce)
{
	to_mock(ce)->next_ktime_calls++;
	to_mock(ce)->last_expiry = expires;
	return 0;
}

/* A oneshot+periodic mock configured for @freq, left DETACHED. */
static void mock_init(struct mock_ce *m, u32 freq, unsigned long min_ticks,
		      unsigned long max_ticks)
{
	memset(m, 0, sizeof(*m));
	m->ce.name = "mock";
	m->ce.features = CLOCK_EVT_FEAT_ONESHOT | CLOCK_EVT_FEAT_PERIODIC;
	m->ce.set_state_periodic = mock_periodic;
	m->ce.set_state_oneshot = mock_oneshot;
	m->ce.set_state_oneshot_stopped = mock_stopped;
	m->ce.set_state_shutdown = mock_shutdown;
	m->ce.tick_resume = mock_tick_resume;
	m->ce.set_next_event = mock_next_event;
	m->ce.next_event = KTIME_MAX;
	m->ce.min_delta_ticks = min_ticks;
	m->ce.max_delta_ticks = max_ticks;
	clockevents_config(&m->ce, freq);
}

/* The same, switched to ONESHOT with the call counters cleared. */
static void mock_init_oneshot(struct mock_ce *m, u32 freq,
			      unsigned long min_ticks, unsigned long max_ticks)
{
	mock_init(m, freq, min_ticks, max_ticks);
	clockevents_switch_state(&m->ce, CLOCK_EVT_STATE_ONESHOT);
	m->oneshot_calls = 0;
}

struct ce_rate {
	const char *name;
	u32 freq;
	unsigned long min_ticks;
	unsigned long max_ticks;
};

static const struct ce_rate ce_rates[] = {
	{ "32.768 kHz RTC", 32768, 1, 0xffffffffUL },
	{ "PIT", 1193182, 0xf, 0x7fff },
	{ "HPET", 14318180, 0x30, 0x7fffffffUL },
	{ "24 MHz wide counter", 24000000, 0xf, ULONG_MAX },
	{ "1 GHz", 1000000000, 1, 0x7fffffffUL },
	{ "3 GHz TSC deadline", 3000000000U, 0xf, ULONG_MAX },
};

static void ce_rate_desc(const struct ce_rate *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ce_rate, ce_rates, ce_rate_desc);

/* The limits convert back into the device's range, and never overflow. */
static void ce_config_limits(struct kunit *test)
{
	const struct ce_rate *r = test->param_value;
	struct mock_ce m;
	u64 product;

	mock_init(&m, r->freq, r->min_ticks, r->max_ticks);
	KUNIT_ASSERT_NE(test, m.ce.mult, 0);

	KUNIT_EXPECT_GE(test, m.ce.min_delta_ns, 1000);
	KUNIT_EXPECT_GE(test, clockevents_ns_to_ticks(m.ce.min_delta_ns, &m.ce),
			r->min_ticks);
	KUNIT_EXPECT_LE(test, clockevents_ns_to_ticks(m.ce.max_delta_ns, &m.ce),
			r->max_ticks);
	KUNIT_EXPECT_GE(test, m.ce.max_delta_ns, m.ce.min_delta_ns);
	KUNIT_EXPECT_FALSE_MSG(test,
			       check_mul_overflow(m.ce.max_delta_ns, (u64)m.ce.mult,
						  &product),
			       "max_delta_ns %llu * mult %u overflows",
			       m.ce.max_delta_ns, m.ce.mult);
	/* Wider than 32 bits: the whole convertible range, not ten minutes (6.12). */
	if (r->max_ticks > U32_MAX)
		KUNIT_EXPECT_GT(test, m.ce.max_delta_ns, 600ULL * NSEC_PER_SEC);
}

/* A oneshot device of frequency 0 cannot be programmed: refused, untouched. */
static void ce_config_zero_freq(struct kunit *test)
{
	struct mock_ce m;

	mock_init(&m, 1000000, 0xf, 0xffff);
	m.ce.mult = 0;
	m.ce.shift = 0;
	m.ce.min_delta_ns = 0;
	m.ce.max_delta_ns = 0;
	KUNIT_EXPECT_EQ(test, clockevents_config(&m.ce, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, m.ce.mult, 0);
	KUNIT_EXPECT_EQ(test, m.ce.max_delta_ns, 0);
	/* A periodic-only device has no use for a frequency. */
	m.ce.features = CLOCK_EVT_FEAT_PERIODIC;
	KUNIT_EXPECT_EQ(test, clockevents_config(&m.ce, 0), 0);
}

/*
 * Ticks -> ns -> ticks gives back at least the ticks, and at most what one
 * nanosecond more is worth.
 */
static void ce_round_trip(struct kunit *test)
{
	const struct ce_rate *r = test->param_value;
	unsigned long ticks[] = { r->min_ticks, r->min_ticks + 1, 1000,
				  r->freq / 1000, r->freq };
	unsigned long slack, back;
	struct mock_ce m;
	unsigned int i;
	u64 ns;

	mock_init(&m, r->freq, r->min_ticks, r->max_ticks);
	/* Ticks one nanosecond is worth, rounded up, plus rounding. */
	slack = (unsigned long)(m.ce.mult >> m.ce.shift) + 1;
	for (i = 0; i < ARRAY_SIZE(ticks); i++) {
		if (ticks[i] > r->max_ticks)
			continue;
		ns = clockevents_ticks_to_ns(ticks[i], &m.ce, false);
		back = clockevents_ns_to_ticks(ns, &m.ce);
		KUNIT_EXPECT_GE_MSG(test, back, ticks[i], "%lu ticks -> %llu ns",
				    ticks[i], ns);
		if (ns > 1000)
			KUNIT_EXPECT_LE_MSG(test, back, ticks[i] + slack,
					    "%lu ticks -> %llu ns", ticks[i], ns);
	}
}

/* A device that claims no minimum still gets a safe one; no wrap-around. */
static void ce_delta2ns_bounds(struct kunit *test)
{
	struct mock_ce m;

	mock_init(&m, 1000000000, 0, 0x7fffffffUL);
	KUNIT_EXPECT_EQ(test, m.ce.min_delta_ns, 1000);
	KUNIT_EXPECT_EQ(test, clockevent_delta2ns(0, &m.ce), 1000);

	/* A shift that pushes the ticks past 64 bits saturates. */
	m.ce.mult = 1;
	m.ce.shift = 40;
	KUNIT_EXPECT_EQ(test, clockevent_delta2ns(1UL << 30, &m.ce), U64_MAX);
	KUNIT_EXPECT_GE(test, clockevent_delta2ns(ULONG_MAX, &m.ce),
			clockevent_delta2ns(1UL << 20, &m.ce));
}

static void ce_past_expiry(struct kunit *test)
{
	ktime_t past = ktime_sub_ns(ktime_get(), 1000000);
	struct mock_ce m;

	mock_init_oneshot(&m, 1000000, 2, 0xffff);
	KUNIT_EXPECT_EQ(test, clockevents_program_event(&m.ce, past, false), -ETIME);
	KUNIT_EXPECT_EQ(test, m.next_event_calls, 0);
	KUNIT_EXPECT_EQ(test, m.ce.next_event, past);

	KUNIT_EXPECT_EQ(test, clockevents_program_event(&m.ce, past, true), 0);
	KUNIT_EXPECT_EQ(test, m.next_event_calls, 1);
	KUNIT_EXPECT_EQ(test, m.last_ticks,
			clockevents_ns_to_ticks(m.ce.min_delta_ns, &m.ce));
	KUNIT_EXPECT_EQ(test, m.ce.retries, 1);
	KUNIT_EXPECT_GT(test, m.ce.next_event, past);
}

static void ce_expiry_clamped(struct kunit *test)
{
	struct mock_ce m;
	ktime_t now;
	int ret;

	mock_init_oneshot(&m, 1000000, 1000, 0xffff);
	now = ktime_get();
	ret = clockevents_program_event(&m.ce, ktime_add_ns(now, 10 * m.ce.max_delta_ns),
					false);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_LE(test, m.last_ticks, 0xffff);
	KUNIT_EXPECT_GE(test, m.last_ticks, 0xfff0);

	/* 100 us is under the 1 ms minimum: raised, unless already past. */
	ret = clockevents_program_event(&m.ce, ktime_add_us(ktime_get(), 100), false);
	if (!ret)
		KUNIT_EXPECT_EQ(test, m.last_ticks, 1000);
	else
		KUNIT_EXPECT_EQ(test, ret, -ETIME);
}

/* A device that misses its minimum delay gets a larger one (MIN_ADJUST). */
static void ce_force_raises_min_delta(struct kunit *test)
{
	ktime_t past = ktime_sub_ns(ktime_get(), 1000);
	struct mock_ce m;
	u64 min_before;

	mock_init_oneshot(&m, 1000000000, 1, 0x7fffffffUL);
	min_before = m.ce.min_delta_ns;
	m.fail_next_events = 3;
	KUNIT_EXPECT_EQ(test, clockevents_program_event(&m.ce, past, true), 0);
	KUNIT_EXPECT_EQ(test, m.next_event_calls, 4);
	KUNIT_EXPECT_EQ(test, m.ce.retries, 4);
	if (IS_ENABLED(CONFIG_GENERIC_CLOCKEVENTS_MIN_ADJUST)) {
		KUNIT_EXPECT_EQ(test, m.ce.min_delta_ns, 5000);
		KUNIT_EXPECT_EQ(test, m.last_ticks, 5000);
	} else {
		/* Each retry asks for one more minimum delay. */
		KUNIT_EXPECT_EQ(test, m.ce.min_delta_ns, min_before);
		KUNIT_EXPECT_EQ(test, m.last_ticks, 4 * min_before);
	}
}

/* A device that never fires: the forced path gives up, it does not spin. */
static void ce_force_gives_up(struct kunit *test)
{
	ktime_t past = ktime_sub_ns(ktime_get(), 1000);
	struct mock_ce m;

	mock_init_oneshot(&m, 1000000000, 1, 0x7fffffffUL);
	m.fail_next_events = INT_MAX;
	KUNIT_EXPECT_EQ(test, clockevents_program_event(&m.ce, past, true), -ETIME);
	if (IS_ENABLED(CONFIG_GENERIC_CLOCKEVENTS_MIN_ADJUST)) {
		KUNIT_EXPECT_EQ(test, m.ce.min_delta_ns, (u64)(NSEC_PER_SEC / HZ));
		KUNIT_EXPECT_EQ(test, m.ce.next_event, KTIME_MAX);
	} else {
		KUNIT_EXPECT_EQ(test, m.next_event_calls, 10);
	}
}

static void ce_ktime_device(struct kunit *test)
{
	ktime_t expiry = ktime_add_ns(ktime_get(), 5000000);
	struct mock_ce m;

	mock_init_oneshot(&m, 1000000, 1, 0xffff);
	m.ce.features |= CLOCK_EVT_FEAT_KTIME;
	m.ce.set_next_ktime = mock_next_ktime;
	KUNIT_EXPECT_EQ(test, clockevents_program_event(&m.ce, expiry, false), 0);
	KUNIT_EXPECT_EQ(test, m.next_ktime_calls, 1);
	KUNIT_EXPECT_EQ(test, m.last_expiry, expiry);
	KUNIT_EXPECT_EQ(test, m.next_event_calls, 0);
}

/* A shut-down device only remembers the expiry. */
static void ce_program_while_shutdown(struct kunit *test)
{
	ktime_t expiry = ktime_add_ns(ktime_get(), 5000000);
	struct mock_ce m;

	mock_init(&m, 1000000, 1, 0xffff);
	clockevents_shutdown(&m.ce);
	KUNIT_EXPECT_EQ(test, m.ce.next_event, KTIME_MAX);
	KUNIT_EXPECT_EQ(test, clockevents_program_event(&m.ce, expiry, true), 0);
	KUNIT_EXPECT_EQ(test, m.next_event_calls, 0);
	KUNIT_EXPECT_EQ(test, m.ce.next_event, expiry);
}

/*
 * A walk through every transition the tick layer makes, each step asked
 * twice: the callback counts after each step show that a real transition
 * calls its callback exactly once and a repeat calls nothing.
 */
static const struct {
	enum clock_event_state to;
	unsigned int periodic, oneshot, stopped, shutdown;
} ce_walk[] = {
	{ CLOCK_EVT_STATE_ONESHOT,		0, 1, 0, 0 },
	{ CLOCK_EVT_STATE_ONESHOT_STOPPED,	0, 1, 1, 0 },
	{ CLOCK_EVT_STATE_ONESHOT,		0, 2, 1, 0 },
	{ CLOCK_EVT_STATE_SHUTDOWN,		0, 2, 1, 1 },
	{ CLOCK_EVT_STATE_PERIODIC,		1, 2, 1, 1 },
	{ CLOCK_EVT_STATE_SHUTDOWN,		1, 2, 1, 2 },
	{ CLOCK_EVT_STATE_ONESHOT,		1, 3, 1, 2 },
	/* Detaching stops the device through its shutdown callback. */
	{ CLOCK_EVT_STATE_DETACHED,		1, 3, 1, 3 },
};

static void ce_state_callbacks(struct kunit *test)
{
	struct mock_ce m;
	unsigned int i;

	mock_init(&m, 1000000, 1, 0xffff);
	for (i = 0; i < ARRAY_SIZE(ce_walk); i++) {
		clockevents_switch_state(&m.ce, ce_walk[i].to);
		clockevents_switch_state(&m.ce, ce_walk[i].to);
		KUNIT_EXPECT_EQ_MSG(test, clockevent_get_state(&m.ce), ce_walk[i].to,
				    "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, m.periodic_calls, ce_walk[i].periodic, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, m.oneshot_calls, ce_walk[i].oneshot, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, m.stopped_calls, ce_walk[i].stopped, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, m.shutdown_calls, ce_walk[i].shutdown, "step %u", i);
	}
}

/* No feature, no callback or a refusing driver: the state stays. */
static void ce_state_refused(struct kunit *test)
{
	struct mock_ce m;

	mock_init(&m, 1000000, 1, 0xffff);
	m.ce.features &= ~CLOCK_EVT_FEAT_PERIODIC;
	clockevents_switch_state(&m.ce, CLOCK_EVT_STATE_PERIODIC);
	KUNIT_EXPECT_TRUE(test, clockevent_state_detached(&m.ce));
	KUNIT_EXPECT_EQ(test, m.periodic_calls, 0);

	clockevents_switch_state(&m.ce, CLOCK_EVT_STATE_ONESHOT);
	m.ce.set_state_oneshot_stopped = NULL;
	clockevents_switch_state(&m.ce, CLOCK_EVT_STATE_ONESHOT_STOPPED);
	KUNIT_EXPECT_TRUE(test, clockevent_state_oneshot(&m.ce));

	m.state_result = -EIO;
	clockevents_switch_state(&m.ce, CLOCK_EVT_STATE_SHUTDOWN);
	KUNIT_EXPECT_TRUE(test, clockevent_state_oneshot(&m.ce));
	/* Asked again, the driver is asked again. */
	clockevents_switch_state(&m.ce, CLOCK_EVT_STATE_SHUTDOWN);
	KUNIT_EXPECT_EQ(test, m.shutdown_calls, 2);
}

/*
 * A dummy device changes state without any callback, and programming it
 * only notes the expiry, even a past one: the tick layer, not the core,
 * hands a dummy's events to the broadcast device.
 */
static void ce_dummy_device(struct kunit *test)
{
	struct mock_ce m;

	mock_init(&m, 1000000, 1, 0xffff);
	m.ce.features |= CLOCK_EVT_FEAT_DUMMY;
	clockevents_switch_state(&m.ce, CLOCK_EVT_STATE_ONESHOT);
	KUNIT_EXPECT_EQ(test, clockevents_program_event(&m.ce, ktime_set(1, 0), false), 0);
	KUNIT_EXPECT_EQ(test, m.ce.next_event, ktime_set(1, 0));
	KUNIT_EXPECT_EQ(test, m.next_event_calls + m.next_ktime_calls, 0);
	clockevents_switch_state(&m.ce, CLOCK_EVT_STATE_SHUTDOWN);
	KUNIT_EXPECT_TRUE(test, clockevent_state_shutdown(&m.ce));
	KUNIT_EXPECT_EQ(test, m.oneshot_calls + m.shutdown_calls, 0);
}

static void ce_tick_resume(struct kunit *test)
{
	struct mock_ce m;

	mock_init(&m, 1000000, 1, 0xffff);
	KUNIT_EXPECT_EQ(test, clockevents_tick_resume(&m.ce), 0);
	m.state_result = -EIO;
	KUNIT_EXPECT_EQ(test, clockevents_tick_resume(&m.ce), -EIO);
	KUNIT_EXPECT_EQ(test, m.resume_calls, 2);
	m.ce.tick_resume = NULL;
	KUNIT_EXPECT_EQ(test, clockevents_tick_resume(&m.ce), 0);
}

/* A new frequency re-arms a running device at the new rate. */
static void ce_update_freq(struct kunit *test)
{
	struct mock_ce m;
	u32 old_mult;

	mock_init_oneshot(&m, 1000000, 1, 0xffffffUL);
	old_mult = m.ce.mult;
	m.ce.next_event = ktime_add_ms(ktime_get(), 500);
	KUNIT_EXPECT_EQ(test, __clockevents_update_freq(&m.ce, 2000000), 0);
	KUNIT_EXPECT_NE(test, m.ce.mult, old_mult);
	KUNIT_EXPECT_EQ(test, m.next_event_calls, 1);
	/* About 500 ms at 2 MHz. */
	KUNIT_EXPECT_GT(test, m.last_ticks, 900000);
	KUNIT_EXPECT_LE(test, m.last_ticks, 1000000);

	clockevents_switch_state(&m.ce, CLOCK_EVT_STATE_PERIODIC);
	KUNIT_EXPECT_EQ(test, __clockevents_update_freq(&m.ce, 1000000), 0);
	KUNIT_EXPECT_EQ(test, m.periodic_calls, 2);
}

/*
 * Early events.  A mock whose counter runs at @true_hz while the core
 * converts at its configured rate: an event armed for N ticks is handled
 * N / @true_hz seconds after the arming, plus @late_ns of interrupt latency.
 */
static void mock_fire(struct mock_ce *m, u64 true_hz, u64 late_ns)
{
	u64 ns = div64_u64((u64)m->last_ticks * NSEC_PER_SEC, true_hz);

	if (m->ce.fire_at)
		clockevents_note_event_at(&m->ce, ktime_add_ns(m->ce.armed_at, ns + late_ns));
}

/* Arm @m @ms milliseconds ahead and let it fire as its counter says. */
static void mock_arm_fire(struct kunit *test, struct mock_ce *m, u32 ms, u64 true_hz,
			  u64 late_ns)
{
	KUNIT_ASSERT_EQ(test, clockevents_program_event(&m->ce, ktime_add_ms(ktime_get(), ms),
							false), 0);
	mock_fire(m, true_hz, late_ns);
}

/* @n events of 10 ms on a counter running at @true_hz. */
static void mock_fire_n(struct kunit *test, struct mock_ce *m, int n, u64 true_hz)
{
	while (n--)
		mock_arm_fire(test, m, 10, true_hz, 0);
}

static void mock_init_declared(struct mock_ce *m, u32 freq)
{
	mock_init_oneshot(m, freq, 1, 0xffffffffUL);
	m->ce.freq_declared = freq;
}

/* 4 % fast: a run of early events corrects the rate to what it is. */
static void ce_early_fast_corrected(struct kunit *test)
{
	struct mock_ce m;

	mock_init_declared(&m, 1000000);
	mock_fire_n(test, &m, 8, 1040000);
	KUNIT_EXPECT_EQ(test, m.ce.nr_early, 8);
	KUNIT_EXPECT_EQ(test, m.ce.nr_rate_fixes, 1);
	KUNIT_EXPECT_GE(test, m.ce.freq, 1039000);
	KUNIT_EXPECT_LE(test, m.ce.freq, 1040000);
	KUNIT_EXPECT_EQ(test, m.ce.freq_declared, 1000000);
	/* Corrected, it fires on time: no early event after. */
	mock_fire_n(test, &m, 32, 1040000);
	KUNIT_EXPECT_EQ(test, m.ce.nr_early, 8);
	KUNIT_EXPECT_EQ(test, m.ce.nr_rate_fixes, 1);
}

/* 4 % slow: late is no proof of a rate (interrupts are late for many reasons). */
static void ce_early_slow_left(struct kunit *test)
{
	struct mock_ce m;

	mock_init_declared(&m, 1000000);
	mock_fire_n(test, &m, 32, 960000);
	KUNIT_EXPECT_EQ(test, m.ce.nr_early, 0);
	KUNIT_EXPECT_EQ(test, m.ce.nr_rate_fixes, 0);
	KUNIT_EXPECT_EQ(test, m.ce.freq, 1000000);
}

/*
 * Bounds: 20 % fast is counted but not corrected; 6 % fast is, and a
 * further 6 % beyond the 10 % of the declared rate is not.
 */
static void ce_early_bounds(struct kunit *test)
{
	struct mock_ce m;

	mock_init_declared(&m, 1000000);
	mock_fire_n(test, &m, 16, 1200000);
	KUNIT_EXPECT_EQ(test, m.ce.nr_early, 16);
	KUNIT_EXPECT_EQ(test, m.ce.nr_rate_fixes, 0);
	KUNIT_EXPECT_EQ(test, m.ce.nr_rate_refused, 2);
	KUNIT_EXPECT_EQ(test, m.ce.freq, 1000000);

	mock_init_declared(&m, 1000000);
	mock_fire_n(test, &m, 8, 1060000);
	KUNIT_EXPECT_EQ(test, m.ce.nr_rate_fixes, 1);
	KUNIT_EXPECT_GE(test, m.ce.freq, 1059000);
	mock_fire_n(test, &m, 16, 1123600);
	KUNIT_EXPECT_EQ(test, m.ce.nr_rate_fixes, 1);
	KUNIT_EXPECT_EQ(test, m.ce.nr_rate_refused, 2);
	KUNIT_EXPECT_LE(test, m.ce.freq, 1100000);
}

/*
 * Jitter: interrupts up to 300 us late, and early by less than the slack,
 * or early seven times and then on time: no correction.
 */
static void ce_early_jitter(struct kunit *test)
{
	struct mock_ce m;
	int i;

	mock_init_declared(&m, 1000000);
	for (i = 0; i < 64; i++)
		mock_arm_fire(test, &m, 10, 1000000, (i * 7919) % 300000);
	for (i = 0; i < 64; i++)
		mock_arm_fire(test, &m, 10, 1000300, 0);	/* 3 us early */
	KUNIT_EXPECT_EQ(test, m.ce.nr_early, 0);
	for (i = 0; i < 32; i++)
		mock_arm_fire(test, &m, 10, i % 8 == 7 ? 1000000 : 1040000, 0);
	KUNIT_EXPECT_EQ(test, m.ce.nr_early, 28);
	KUNIT_EXPECT_EQ(test, m.ce.nr_rate_fixes, 0);
	KUNIT_EXPECT_EQ(test, m.ce.freq, 1000000);
}

/* Armings under 1 ms are not judged; after the watch, one arming in 16 is. */
static void ce_early_watch(struct kunit *test)
{
	struct mock_ce m;
	int i, watched = 0;

	mock_init_declared(&m, 1000000);
	KUNIT_ASSERT_EQ(test, clockevents_program_event(&m.ce, ktime_add_us(ktime_get(), 500),
							false), 0);
	KUNIT_EXPECT_EQ(test, m.ce.fire_at, 0);
	for (i = 0; i < 256; i++)
		mock_arm_fire(test, &m, 2, 1000000, 0);
	for (i = 0; i < 160; i++) {
		KUNIT_ASSERT_EQ(test, clockevents_program_event(&m.ce,
								ktime_add_ms(ktime_get(), 2),
								false), 0);
		watched += m.ce.fire_at != 0;
	}
	KUNIT_EXPECT_EQ(test, watched, 10);
	/* The 417th is watched again; leaving oneshot drops the watch. */
	KUNIT_ASSERT_EQ(test, clockevents_program_event(&m.ce, ktime_add_ms(ktime_get(), 2),
							false), 0);
	KUNIT_EXPECT_NE(test, m.ce.fire_at, 0);
	clockevents_switch_state(&m.ce, CLOCK_EVT_STATE_PERIODIC);
	KUNIT_EXPECT_EQ(test, m.ce.fire_at, 0);
}

/*
 * A run with one event far earlier (a spurious interrupt) is corrected by
 * its second largest shortfall, not by the outlier.
 */
static void ce_early_outlier(struct kunit *test)
{
	struct mock_ce m;
	int i;

	mock_init_declared(&m, 1000000);
	for (i = 0; i < 8; i++)
		mock_arm_fire(test, &m, 10, i == 3 ? 1090000 : 1040000, 0);
	KUNIT_EXPECT_EQ(test, m.ce.nr_rate_fixes, 1);
	KUNIT_EXPECT_GE(test, m.ce.freq, 1039000);
	KUNIT_EXPECT_LE(test, m.ce.freq, 1040000);
}

/* The driver's own frequency replaces a correction and starts over. */
static void ce_early_declared_wins(struct kunit *test)
{
	struct mock_ce m;

	mock_init_declared(&m, 1000000);
	mock_fire_n(test, &m, 8, 1040000);
	KUNIT_EXPECT_EQ(test, m.ce.nr_rate_fixes, 1);
	KUNIT_EXPECT_EQ(test, clockevents_update_freq(&m.ce, 2000000), 0);
	KUNIT_EXPECT_EQ(test, m.ce.freq, 2000000);
	KUNIT_EXPECT_EQ(test, m.ce.freq_declared, 2000000);
	KUNIT_EXPECT_EQ(test, m.ce.early_run, 0);
}

static void ce_parse_name(struct kunit *test)
{
	char name[CS_NAME_LEN];
	char long_name[CS_NAME_LEN + 2];

	KUNIT_EXPECT_EQ(test, clockevents_parse_name("lapic\n", 6, name), 0);
	KUNIT_EXPECT_STREQ(test, name, "lapic");
	KUNIT_EXPECT_EQ(test, clockevents_parse_name("hpet", 4, name), 0);
	KUNIT_EXPECT_STREQ(test, name, "hpet");
	KUNIT_EXPECT_EQ(test, clockevents_parse_name("", 0, name), -EINVAL);
	/* An empty name parses; the lookup refuses it with -ENODEV (6.12). */
	KUNIT_EXPECT_EQ(test, clockevents_parse_name("\n", 1, name), 0);
	KUNIT_EXPECT_STREQ(test, name, "");

	/* The limit counts the newline: CS_NAME_LEN - 1 bytes in all fit. */
	memset(long_name, 'x', sizeof(long_name));
	long_name[CS_NAME_LEN - 2] = '\n';
	KUNIT_EXPECT_EQ(test, clockevents_parse_name(long_name, CS_NAME_LEN - 1, name), 0);
	KUNIT_EXPECT_EQ(test, strlen(name), CS_NAME_LEN - 2);
	memset(long_name, 'x', sizeof(long_name));
	KUNIT_EXPECT_EQ(test, clockevents_parse_name(long_name, CS_NAME_LEN - 1, name), 0);
	KUNIT_EXPECT_EQ(test, strlen(name), CS_NAME_LEN - 1);
	long_name[CS_NAME_LEN - 1] = '\n';
	KUNIT_EXPECT_EQ(test, clockevents_parse_name(long_name, CS_NAME_LEN, name), -EINVAL);
	KUNIT_EXPECT_EQ(test, clockevents_parse_name(long_name, CS_NAME_LEN + 2, name),
			-EINVAL);
}

static struct kunit_case clockevents_test_cases[] = {
	KUNIT_CASE_PARAM(ce_config_limits, ce_rate_gen_params),
	KUNIT_CASE(ce_config_zero_freq),
	KUNIT_CASE_PARAM(ce_round_trip, ce_rate_gen_params),
	KUNIT_CASE(ce_delta2ns_bounds),
	KUNIT_CASE(ce_past_expiry),
	KUNIT_CASE(ce_expiry_clamped),
	KUNIT_CASE(ce_force_raises_min_delta),
	KUNIT_CASE(ce_force_gives_up),
	KUNIT_CASE(ce_ktime_device),
	KUNIT_CASE(ce_program_while_shutdown),
	KUNIT_CASE(ce_state_callbacks),
	KUNIT_CASE(ce_state_refused),
	KUNIT_CASE(ce_dummy_device),
	KUNIT_CASE(ce_tick_resume),
	KUNIT_CASE(ce_update_freq),
	KUNIT_CASE(ce_early_fast_corrected),
	KUNIT_CASE(ce_early_slow_left),
	KUNIT_CASE(ce_early_bounds),
	KUNIT_CASE(ce_early_jitter),
	KUNIT_CASE(ce_early_watch),
	KUNIT_CASE(ce_early_outlier),
	KUNIT_CASE(ce_early_declared_wins),
	KUNIT_CASE(ce_parse_name),
	{}
};

static struct kunit_suite clockevents_test_suite = {
	.name = "clockevents",
	.test_cases = clockevents_test_cases,
};

kunit_test_suite(clockevents_test_suite);

MODULE_DESCRIPTION("KUnit tests for the clockevents core");
MODULE_LICENSE("GPL");
