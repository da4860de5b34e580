/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The i8253/i8254 PIT driver's pure parts, static in a normal build and
 * visible to its KUnit suite (i8253_test.c) when KUnit is enabled.
 */
#ifndef _CLOCKSOURCE_I8253_KUNIT_H
#define _CLOCKSOURCE_I8253_KUNIT_H

#include <linux/types.h>

/* Control word fields (port 0x43). */
#define PIT_SEL_CH0		(0 << 6)
#define PIT_ACCESS_LATCH	(0 << 4)	/* latch the count for reading */
#define PIT_ACCESS_LOHI		(3 << 4)	/* low byte, then high byte */
#define PIT_MODE_TERMINAL	(0 << 1)	/* 0: output rises at zero, once */
#define PIT_MODE_RATE		(2 << 1)	/* 2: pulse every count, reload */
#define PIT_MODE_STROBE		(4 << 1)	/* 4: pulse at zero, once */

/* Channel 0's control words. */
#define PIT_CW_STOP	(PIT_SEL_CH0 | PIT_ACCESS_LOHI | PIT_MODE_TERMINAL)
#define PIT_CW_PERIODIC	(PIT_SEL_CH0 | PIT_ACCESS_LOHI | PIT_MODE_RATE)
#define PIT_CW_ONESHOT	(PIT_SEL_CH0 | PIT_ACCESS_LOHI | PIT_MODE_STROBE)
#define PIT_CW_LATCH	(PIT_SEL_CH0 | PIT_ACCESS_LATCH)

/*
 * Counts of the clock event device.  The counter takes 16 bits (0 meaning
 * 65536), but the range stays 6.12's: x86, MIPS boards and footbridge
 * share this driver, and no evidence says all their PITs take more.
 */
#define PIT_MIN_DELTA	0xf
#define PIT_MAX_DELTA	0x7fff

/* The last reading of the jiffies-extended clocksource. */
struct pit_cs_last {
	u32 jiffies;
	u32 count;
};

#if IS_ENABLED(CONFIG_KUNIT)
u64 pit_cs_compose(struct pit_cs_last *last, u32 jifs, u32 count);
#endif

#endif /* _CLOCKSOURCE_I8253_KUNIT_H */
