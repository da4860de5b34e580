/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ARM SP804 dual timer and its relatives (Integrator/CP timers, the
 * HiSilicon 64-bit variant): register map and the driver state its KUnit
 * suite (timer-sp804_test.c) drives on a fake register block.
 *
 * An SP804 holds two identical halves; each counts down from LOAD and
 * raises its interrupt when it reaches zero.
 */
#ifndef _CLOCKSOURCE_TIMER_SP_H
#define _CLOCKSOURCE_TIMER_SP_H

#include <linux/clockchips.h>
#include <linux/interrupt.h>
#include <linux/types.h>

/* Control register bits (the same in every variant). */
#define SP804_CTRL_ONESHOT	BIT(0)	/* stop at zero instead of wrapping */
#define SP804_CTRL_32BIT	BIT(1)	/* 32-bit counter, else 16-bit */
#define SP804_CTRL_PRESCALE	GENMASK(3, 2)	/* input divided by 1, 16, 256 */
#define SP804_CTRL_IE		BIT(5)	/* interrupt enable */
#define SP804_CTRL_PERIODIC	BIT(6)	/* wrap to LOAD, else to all ones */
#define SP804_CTRL_ENABLE	BIT(7)

/* Where a variant keeps its registers, as offsets from the block. */
struct sp804_layout {
	u16 half[2];		/* each half's first register */
	u16 load;		/* count to start from (write restarts) */
	u16 value;		/* the current count */
	u16 ctrl;
	u16 intclr;		/* any write acknowledges the interrupt */
	u16 mis;		/* bit 0: interrupt raised and enabled */
	u16 load_hi;		/* upper words of 64-bit variants, else 0 */
	u16 value_hi;
};

/* How a half is used. */
enum sp804_use {
	SP804_FREE_RUN,		/* clocksource: wraps, no interrupt */
	SP804_PERIODIC,		/* tick every period */
	SP804_ONESHOT,		/* one interrupt, then halt */
};

/**
 * struct sp804_event - the half of an SP804 that is a clock event device
 * @ced:	the device registered with the clockevents core
 * @base:	the half's first register
 * @regs:	register offsets of the variant
 * @period:	LOAD value of one tick at HZ in periodic mode
 */
struct sp804_event {
	struct clock_event_device ced;
	void __iomem *base;
	const struct sp804_layout *regs;
	u32 period;
};

#if IS_ENABLED(CONFIG_KUNIT)
extern const struct sp804_layout sp804_arm_layout;
extern const struct sp804_layout sp804_hisi_layout;

u32 sp804_ctrl_word(enum sp804_use use);
u32 sp804_period_of(unsigned long rate);
int sp804_event_half(bool has_prop, u32 has_irq);
int sp804_clock_index(int nr_clocks, int half);
void sp804_event_fill(struct sp804_event *ev, void __iomem *block,
		      const struct sp804_layout *regs, int half,
		      unsigned long rate, const char *name, int irq);
irqreturn_t sp804_event_irq(int irq, void *dev_id);
#endif

#endif /* _CLOCKSOURCE_TIMER_SP_H */
