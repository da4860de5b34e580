/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decisions of the tick device layer and the broadcast tick that are
 * static in a normal build and visible to their KUnit suites
 * (kernel/time/tick_*_test.c) when KUnit is enabled.
 */
#ifndef _KERNEL_TIME_TICK_KUNIT_H
#define _KERNEL_TIME_TICK_KUNIT_H

#include <linux/clockchips.h>
#include <linux/types.h>

#if IS_ENABLED(CONFIG_KUNIT)
bool tick_device_preferred(const struct clock_event_device *curdev,
			   const struct clock_event_device *newdev,
			   int cpu, bool oneshot_active, bool irq_movable);
ktime_t tick_first_future_period(struct clock_event_device *dev, ktime_t next,
				 void (*on_miss)(int cpu), int cpu);
bool tick_broadcast_suitable(const struct clock_event_device *curdev,
			     const struct clock_event_device *newdev, bool oneshot);
ktime_t tick_broadcast_scan(const struct cpumask *sleepers,
			    ktime_t (*expiry_of)(int cpu), ktime_t now,
			    struct cpumask *due, int *next_cpu);
#endif

#endif /* _KERNEL_TIME_TICK_KUNIT_H */
