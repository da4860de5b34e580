/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parts of the clockevents core that are static in a normal build and
 * visible to its KUnit suite (kernel/time/clockevents_test.c) when KUnit is
 * enabled.
 */
#ifndef _KERNEL_TIME_CLOCKEVENTS_INTERNAL_H
#define _KERNEL_TIME_CLOCKEVENTS_INTERNAL_H

#include <linux/clockchips.h>
#include <linux/types.h>

#if IS_ENABLED(CONFIG_KUNIT)
int clockevents_config(struct clock_event_device *dev, u32 freq);
u64 clockevents_ticks_to_ns(unsigned long ticks, struct clock_event_device *dev,
			    bool upper);
unsigned long clockevents_ns_to_ticks(u64 ns, struct clock_event_device *dev);
int clockevents_parse_name(const char *buf, size_t count, char *name);
void clockevents_note_event_at(struct clock_event_device *dev, ktime_t now);
#endif

#endif /* _KERNEL_TIME_CLOCKEVENTS_INTERNAL_H */
