/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the tick selftests (tick-hotplug, clockevents-sysfs,
 * timer-list, idle-ticks, highres, timer-stress, nohz-full): whether a CPU
 * is online, taking it offline and back, how far jiffies got, which CPUs
 * /proc/timer_list shows a tick device for, the tick period and HZ,
 * per-CPU fields of /proc/timer_list, and per-CPU timer interrupt counts
 * from /proc/interrupts.
 */
#ifndef TICK_UTIL_H
#define TICK_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/times.h>
#include <time.h>
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
 * Write @online (0 or 1) to @cpu's "online" file.  0 when the kernel took
 * it, else -errno: ENOENT when the CPU has no such file, EBUSY when it may
 * not go offline (the last online CPU, or a boot CPU that must stay).
 */
static inline int tick_set_cpu_online(int cpu, int online)
{
	char path[64], val = online ? '1' : '0';
	int fd, ret = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, &val, 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
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

/* What /proc/timer_list says of one CPU's tick device. */
struct tick_cpu_state {
	char dev[32];		/* "" when the CPU has no tick device */
	char handler[64];
	int mode;		/* "Tick Device: mode:", -1 when not shown */
};

/*
 * Fill st[cpu] for each CPU below @max from /proc/timer_list (CPUs without
 * a record get an empty name).  Returns the number of CPUs with a tick
 * device, -1 without timer_list.
 */
static inline int tick_read_state(struct tick_cpu_state *st, int max)
{
	FILE *f = fopen("/proc/timer_list", "r");
	char line[256];
	int cpu = -1, mode = -1, n = 0, i;

	for (i = 0; i < max; i++) {
		st[i].dev[0] = '\0';
		st[i].handler[0] = '\0';
		st[i].mode = -1;
	}
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "Tick Device: mode: %d", &mode) == 1) {
			cpu = -1;
		} else if (sscanf(line, "Per CPU device: %d", &cpu) == 1) {
			if (cpu >= 0 && cpu < max)
				st[cpu].mode = mode;
			else
				cpu = -1;
		} else if (cpu >= 0 && sscanf(line, "Clock Event Device: %31s",
					      st[cpu].dev) == 1) {
			if (!strcmp(st[cpu].dev, "<NULL>"))
				st[cpu].dev[0] = '\0';
			else
				n++;
		} else if (cpu >= 0 &&
			   sscanf(line, " event_handler: %63s", st[cpu].handler) == 1) {
			cpu = -1;	/* the last field read from a record */
		}
	}
	fclose(f);
	return n;
}

/*
 * The tick period, TICK_NSEC, in nanoseconds: the kernel reports it as the
 * resolution of CLOCK_MONOTONIC_COARSE in every tick mode, with or without
 * high resolution timers.  -1 when it cannot be read.
 */
static inline long long tick_period_ns(void)
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) || res.tv_sec || res.tv_nsec <= 0)
		return -1;
	return res.tv_nsec;
}

/*
 * HZ of the running kernel, from its tick period.  -1 when the period is
 * not TICK_NSEC of a whole HZ, rounded as the kernel rounds it, so that a
 * resolution that is no tick period is not taken for one.
 */
static inline int tick_hz(void)
{
	long long period = tick_period_ns(), hz;

	if (period <= 0)
		return -1;
	hz = (1000000000LL + period / 2) / period;
	if (!hz || (1000000000LL + hz / 2) / hz != period)
		return -1;
	return hz;
}

/*
 * Set val[cpu] for each CPU below @max whose /proc/timer_list record has
 * a "  .@field : N" line, and -1 for the others.  Fields that exist only
 * in some configurations (.nohz, .hres_active) are absent, not 0, when
 * the kernel lacks them.  Returns how many CPUs have the field, -1
 * without timer_list (errno tells why).
 */
static inline int tick_cpu_field(const char *field, long long *val, int max)
{
	FILE *f = fopen("/proc/timer_list", "r");
	int cpu = -1, n = 0, i;
	char line[256], name[32];
	long long v;

	for (i = 0; i < max; i++)
		val[i] = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu: %d", &cpu) == 1)
			continue;
		/* The tick device records that follow have no "  .name" fields. */
		if (!strncmp(line, "Tick Device:", 12))
			cpu = -1;
		if (cpu < 0 || cpu >= max)
			continue;
		if (sscanf(line, " .%31[^ :] : %lld", name, &v) == 2 &&
		    !strcmp(name, field)) {
			val[cpu] = v;
			n++;
		}
	}
	fclose(f);
	return n;
}

/*
 * jiffies as /proc/timer_list prints them, in HZ units (tick_jiffies()
 * counts in USER_HZ).  -1 when timer_list prints none, as on a kernel
 * without CONFIG_TICK_ONESHOT, or cannot be read.
 */
static inline long long tick_list_jiffies(void)
{
	FILE *f = fopen("/proc/timer_list", "r");
	long long j = -1;
	char line[256];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "jiffies: %lld", &j) == 1)
			break;
	fclose(f);
	return j;
}

/*
 * tick-assert's rule for the rows of /proc/interrupts that count timer
 * interrupts: x86 counts its local APIC timer, and the broadcast IPIs that
 * stand in for it, as LOC; elsewhere the description names the device
 * ("timer" for the IO-APIC/PIT timer, arch_timer and sp804, "twd", "hpet")
 * or the broadcast IPI ("Timer broadcast interrupts" on ARM).
 */
static inline int tick_is_timer_row(const char *label, const char *desc)
{
	return !strcmp(label, "LOC") || strstr(desc, "timer") || strstr(desc, "Timer") ||
	       strstr(desc, "twd") || strstr(desc, "hpet");
}

/*
 * Add the per-CPU counts of one /proc/interrupts row to @sum (@max CPUs)
 * when it is a timer's.  @col_cpu maps the @ncols columns to CPU numbers.
 */
static inline void tick_add_irq_row(char *line, const int *col_cpu, int ncols,
				    unsigned long long *sum, int max)
{
	char *colon = strchr(line, ':'), *label = line, *p, *end;
	unsigned long long v;
	int i;

	if (!colon)
		return;
	*colon = '\0';
	while (*label == ' ')
		label++;
	/* First the description after the counts, then the counts. */
	for (p = colon + 1, i = 0; i < ncols; i++, p = end) {
		strtoull(p, &end, 10);
		if (end == p)
			return;	/* not a per-CPU row, like ERR and MIS */
	}
	if (!tick_is_timer_row(label, p))
		return;
	for (p = colon + 1, i = 0; i < ncols; i++, p = end) {
		v = strtoull(p, &end, 10);
		if (col_cpu[i] < max)
			sum[col_cpu[i]] += v;
	}
}

/*
 * Timer interrupts so far of each CPU below @max, in @sum; @has_col[cpu]
 * is set for the CPUs /proc/interrupts has a column for (the online ones).
 * 0, or -errno (-ENODATA when there is no CPU column).
 */
static inline int tick_read_timer_irqs(unsigned long long *sum, int *has_col, int max)
{
	FILE *f = fopen("/proc/interrupts", "r");
	int *col_cpu = NULL, ncols = 0, cpu, off;
	char *line = NULL, *p;
	size_t len = 0;

	memset(sum, 0, sizeof(*sum) * max);
	memset(has_col, 0, sizeof(*has_col) * max);
	if (!f)
		return -errno;
	/* A column takes at least four characters: " CPUn". */
	if (getline(&line, &len, f) > 0)
		col_cpu = malloc(sizeof(*col_cpu) * (strlen(line) / 4 + 1));
	if (col_cpu)
		for (p = line; sscanf(p, " CPU%d%n", &cpu, &off) == 1 && cpu >= 0; p += off) {
			col_cpu[ncols++] = cpu;
			if (cpu < max)
				has_col[cpu] = 1;
		}
	while (ncols && getline(&line, &len, f) > 0)
		tick_add_irq_row(line, col_cpu, ncols, sum, max);
	free(col_cpu);
	free(line);
	fclose(f);
	return ncols ? 0 : -ENODATA;
}

#ifndef NSEC_PER_SEC
#define NSEC_PER_SEC 1000000000LL
#endif

/* CLOCK_MONOTONIC now, in nanoseconds. */
static inline long long tick_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/*
 * The bound on the median overshoot of a CPU's 1 ms sleeps, plus two
 * resolutions (tick_monotonic_res_us()): half of what a sleep woken by the
 * tick takes at HZ=250 (3,000 us), so a CPU whose events went to the jiffy
 * grid fails it (one made so after hotplug: 2,800 us); high resolution
 * gives 124-630 us on 6.12 and ours.  The final tick-assert's bound too.
 */
#define TICK_LATE_MEDIAN_US 1500

/*
 * The resolution of CLOCK_MONOTONIC in microseconds: a low-resolution
 * tick's period, 0 with high resolution (or when it cannot be read).
 */
static inline long long tick_monotonic_res_us(void)
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC, &res))
		return 0;
	return (res.tv_sec * NSEC_PER_SEC + res.tv_nsec) / 1000;
}

/* @ns nanoseconds as a timespec. */
static inline struct timespec tick_ns_to_ts(long long ns)
{
	struct timespec ts = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };

	return ts;
}

/*
 * Set in[cpu] for each CPU below @max that @path lists (a cpulist
 * such as /sys/devices/system/cpu/online).  The number
 * listed; 0 when the file is missing, empty or "(null)"; -1 when it is no
 * CPU list.
 */
static inline int tick_read_cpulist(const char *path, int *in, int max)
{
	FILE *f = fopen(path, "r");
	char buf[1024] = "", *p, *end;
	long first, last;
	int n = 0;

	memset(in, 0, sizeof(*in) * max);
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0] || !strcmp(buf, "(null)"))
		return 0;
	for (p = buf; *p; p = *end ? end + 1 : end) {
		first = strtol(p, &end, 10);
		if (end == p || first < 0)
			return -1;
		last = first;
		if (*end == '-') {
			p = end + 1;
			last = strtol(p, &end, 10);
			if (end == p || last < first)
				return -1;
		}
		if (*end && *end != ',')
			return -1;
		for (; first <= last && first < max; first++) {
			n += !in[first];
			in[first] = 1;
		}
	}
	return n;
}

#endif /* TICK_UTIL_H */
