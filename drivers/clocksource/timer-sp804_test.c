// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the SP804 driver: its decisions, and what its clock event
 * device writes, run against an ordinary buffer standing in for the
 * registers, so it needs no timer hardware.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/io.h>

#include "timer-sp.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define FAKE_BLOCK_BYTES	0x80

static int events_seen;

static void count_event(struct clock_event_device *ced)
{
	events_seen++;
}

/* A zeroed register block and an event device on @half of it. */
static u32 *fake_event(struct kunit *test, struct sp804_event *ev,
		       const struct sp804_layout *regs, int half)
{
	u32 *mem = kunit_kzalloc(test, FAKE_BLOCK_BYTES, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, mem);
	sp804_event_fill(ev, (void __force __iomem *)mem, regs, half,
			 1000000, "sp804-test", 42);
	ev->ced.event_handler = count_event;
	events_seen = 0;
	return mem;
}

static u32 reg_at(const u32 *mem, unsigned int offset)
{
	return mem[offset / 4];
}

static void sp804_ctrl_words(struct kunit *test)
{
	const u32 always = SP804_CTRL_32BIT | SP804_CTRL_ENABLE;
	enum sp804_use use;

	for (use = SP804_FREE_RUN; use <= SP804_ONESHOT; use++) {
		u32 w = sp804_ctrl_word(use);

		KUNIT_EXPECT_EQ(test, w & always, always);
		KUNIT_EXPECT_EQ(test, w & SP804_CTRL_PRESCALE, 0);
	}
	KUNIT_EXPECT_EQ(test, sp804_ctrl_word(SP804_FREE_RUN), always);
	KUNIT_EXPECT_EQ(test, sp804_ctrl_word(SP804_PERIODIC),
			always | SP804_CTRL_PERIODIC | SP804_CTRL_IE);
	KUNIT_EXPECT_EQ(test, sp804_ctrl_word(SP804_ONESHOT),
			always | SP804_CTRL_ONESHOT | SP804_CTRL_IE);
}

static void sp804_period_rounding(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sp804_period_of(1000UL * HZ), 1000);
	/* nearest count: just under half a count down, half or more up */
	KUNIT_EXPECT_EQ(test, sp804_period_of(1000UL * HZ + (HZ - 1) / 2), 1000);
	KUNIT_EXPECT_EQ(test, sp804_period_of(1000UL * HZ + (HZ + 1) / 2), 1001);
	/* a clock slower than HZ still ticks, once per count */
	KUNIT_EXPECT_EQ(test, sp804_period_of(0), 1);
	KUNIT_EXPECT_EQ(test, sp804_period_of(HZ / 3), 1);
}

static void sp804_halves_and_clocks(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sp804_event_half(false, 0), 0);
	KUNIT_EXPECT_EQ(test, sp804_event_half(true, 1), 0);
	KUNIT_EXPECT_EQ(test, sp804_event_half(true, 2), 1);
	/* A value naming no timer falls back to timer 1, as in 6.12. */
	KUNIT_EXPECT_EQ(test, sp804_event_half(true, 0), 0);
	KUNIT_EXPECT_EQ(test, sp804_event_half(true, 3), 0);

	KUNIT_EXPECT_EQ(test, sp804_clock_index(3, 0), 0);
	KUNIT_EXPECT_EQ(test, sp804_clock_index(3, 1), 1);
	KUNIT_EXPECT_EQ(test, sp804_clock_index(1, 1), 0);
	KUNIT_EXPECT_EQ(test, sp804_clock_index(2, 1), 0);
	KUNIT_EXPECT_EQ(test, sp804_clock_index(0, 1), 0);
}

static void sp804_device_description(struct kunit *test)
{
	struct sp804_event ev;

	fake_event(test, &ev, &sp804_arm_layout, 0);
	KUNIT_EXPECT_STREQ(test, ev.ced.name, "sp804-test");
	KUNIT_EXPECT_EQ(test, ev.ced.irq, 42);
	KUNIT_EXPECT_EQ(test, ev.ced.features & CLOCK_EVT_FEAT_PERIODIC,
			CLOCK_EVT_FEAT_PERIODIC);
	KUNIT_EXPECT_EQ(test, ev.ced.features & CLOCK_EVT_FEAT_ONESHOT,
			CLOCK_EVT_FEAT_ONESHOT);
	/* a global device: its interrupt follows the CPU it serves */
	KUNIT_EXPECT_EQ(test, ev.ced.features & CLOCK_EVT_FEAT_DYNIRQ,
			CLOCK_EVT_FEAT_DYNIRQ);
	KUNIT_EXPECT_EQ(test, ev.ced.features & CLOCK_EVT_FEAT_C3STOP, 0);
	KUNIT_EXPECT_PTR_EQ(test, ev.ced.cpumask, cpu_possible_mask);
	KUNIT_EXPECT_NOT_NULL(test, ev.ced.set_state_oneshot_stopped);
	KUNIT_EXPECT_NOT_NULL(test, ev.ced.tick_resume);
	KUNIT_EXPECT_EQ(test, ev.period, sp804_period_of(1000000));
	/* What it is registered with: 6.12's floor, the whole 32-bit counter. */
	KUNIT_EXPECT_EQ(test, ev.ced.min_delta_ticks, 0xfUL);
	KUNIT_EXPECT_EQ(test, ev.ced.max_delta_ticks, (unsigned long)U32_MAX);
}

static void sp804_oneshot_writes(struct kunit *test)
{
	const struct sp804_layout *l = &sp804_arm_layout;
	struct sp804_event ev;
	u32 *mem = fake_event(test, &ev, l, 1);
	unsigned int h = l->half[1], other;

	KUNIT_EXPECT_EQ(test, ev.ced.set_next_event(1234, &ev.ced), 0);
	KUNIT_EXPECT_EQ(test, reg_at(mem, h + l->load), 1234);
	KUNIT_EXPECT_EQ(test, reg_at(mem, h + l->ctrl),
			sp804_ctrl_word(SP804_ONESHOT));
	/* the clocksource half is not touched */
	for (other = 0; other < l->half[1]; other += 4)
		KUNIT_EXPECT_EQ(test, reg_at(mem, other), 0);

	KUNIT_EXPECT_EQ(test, ev.ced.set_state_shutdown(&ev.ced), 0);
	KUNIT_EXPECT_EQ(test, reg_at(mem, h + l->ctrl), 0);
	KUNIT_EXPECT_NE(test, reg_at(mem, h + l->intclr), 0);
}

static void sp804_periodic_writes(struct kunit *test)
{
	const struct sp804_layout *l = &sp804_arm_layout;
	struct sp804_event ev;
	u32 *mem = fake_event(test, &ev, l, 0);

	ev.ced.set_next_event(99, &ev.ced);
	KUNIT_EXPECT_EQ(test, ev.ced.set_state_periodic(&ev.ced), 0);
	KUNIT_EXPECT_EQ(test, reg_at(mem, l->load), sp804_period_of(1000000));
	KUNIT_EXPECT_EQ(test, reg_at(mem, l->ctrl),
			sp804_ctrl_word(SP804_PERIODIC));
	/* an expiry raised under the old mode is acknowledged first */
	KUNIT_EXPECT_NE(test, reg_at(mem, l->intclr), 0);

	mem[l->intclr / 4] = 0;
	KUNIT_EXPECT_EQ(test, ev.ced.set_state_oneshot_stopped(&ev.ced), 0);
	KUNIT_EXPECT_EQ(test, reg_at(mem, l->ctrl), 0);
	KUNIT_EXPECT_NE(test, reg_at(mem, l->intclr), 0);
}

static void sp804_irq_acknowledge(struct kunit *test)
{
	const struct sp804_layout *l = &sp804_arm_layout;
	struct sp804_event ev;
	u32 *mem = fake_event(test, &ev, l, 0);

	/* nothing pending: not ours, nothing acknowledged, no event */
	KUNIT_EXPECT_EQ(test, sp804_event_irq(42, &ev), IRQ_NONE);
	KUNIT_EXPECT_EQ(test, events_seen, 0);
	KUNIT_EXPECT_EQ(test, reg_at(mem, l->intclr), 0);

	mem[l->mis / 4] = 1;
	KUNIT_EXPECT_EQ(test, sp804_event_irq(42, &ev), IRQ_HANDLED);
	KUNIT_EXPECT_EQ(test, events_seen, 1);
	KUNIT_EXPECT_NE(test, reg_at(mem, l->intclr), 0);
}

static void sp804_hisi_layout_writes(struct kunit *test)
{
	const struct sp804_layout *l = &sp804_hisi_layout;
	struct sp804_event ev;
	u32 *mem = fake_event(test, &ev, l, 1);

	KUNIT_EXPECT_EQ(test, l->half[1], 0x40);
	ev.ced.set_next_event(77, &ev.ced);
	KUNIT_EXPECT_EQ(test, reg_at(mem, 0x40 + 0x00), 77);
	KUNIT_EXPECT_EQ(test, reg_at(mem, 0x40 + 0x10),
			sp804_ctrl_word(SP804_ONESHOT));
	mem[(0x40 + 0x1c) / 4] = 1;
	KUNIT_EXPECT_EQ(test, sp804_event_irq(0, &ev), IRQ_HANDLED);
	KUNIT_EXPECT_NE(test, reg_at(mem, 0x40 + 0x14), 0);
}

static struct kunit_case sp804_cases[] = {
	KUNIT_CASE(sp804_ctrl_words),
	KUNIT_CASE(sp804_period_rounding),
	KUNIT_CASE(sp804_halves_and_clocks),
	KUNIT_CASE(sp804_device_description),
	KUNIT_CASE(sp804_oneshot_writes),
	KUNIT_CASE(sp804_periodic_writes),
	KUNIT_CASE(sp804_irq_acknowledge),
	KUNIT_CASE(sp804_hisi_layout_writes),
	{}
};

static struct kunit_suite sp804_suite = {
	.name = "sp804",
	.test_cases = sp804_cases,
};

kunit_test_suite(sp804_suite);

MODULE_DESCRIPTION("KUnit tests for the SP804 timer driver");
MODULE_LICENSE("GPL");
