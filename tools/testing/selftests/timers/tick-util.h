/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the tick selftests (tick-hotplug, clockevents-sysfs,
 * timer-list): whether a CPU is online, how far jiffies got, and which
 * CPUs /proc/timer_list shows a tick device for.
 */
#ifndef TICK_UTIL_H
#define TICK_UTIL_H

#include <stdio.h>
#include <string.h>
#include <sys/times.h>
#include <unistd.h>

/*
 * jiffies in USER_HZ units: times() counts jiffies in every tick mode,
 * while /proc/timer_list prints them only when the tick can be oneshot.
 */
static inline unsigned long tick_jiffies(void)
{
	struct tms unused;

	return (unsigned long)times(&unused);
}

/*
 * 1 when @cpu is online, 0 when it is offline or absent, -1 when its state
 * cannot be read.  A present CPU without an "online" file cannot go
 * offline, so it is online.
 */
static inline int tick_cpu_online(int cpu)
{
	char path[64];
	FILE *f;
	int v = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	f = fopen(path, "r");
	if (!f) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
		return access(path, F_OK) == 0;
	}
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/*
 * Set has_dev[cpu] for each CPU below @max whose tick device is not
 * <NULL>, and *has_bc when there is a broadcast device section.
 * Returns the number of CPUs with a tick device, -1 without timer_list.
 */
static inline int tick_read_devices(int *has_dev, int max, int *has_bc)
{
	FILE *f = fopen("/proc/timer_list", "r");
	char line[256];
	int cpu = -1, n = 0;

	memset(has_dev, 0, sizeof(int) * max);
	*has_bc = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Per CPU device: %d", &cpu) == 1)
			continue;
		if (!strncmp(line, "Tick Device:", 12))
			cpu = -1;
		if (!strncmp(line, "Broadcast device", 16))
			*has_bc = 1;
		if (cpu >= 0 && cpu < max &&
		    !strncmp(line, "Clock Event Device: ", 20) &&
		    strncmp(line + 20, "<NULL>", 6)) {
			has_dev[cpu] = 1;
			n++;
			cpu = -1;
		}
	}
	fclose(f);
	return n;
}

#endif /* TICK_UTIL_H */
