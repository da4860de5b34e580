// SPDX-License-Identifier: GPL-2.0
/*
 * timer-list: read /proc/timer_list the way tools that parse its v0.10
 * layout do, and check what it says against the rest of the system.
 *
 * - the header names version v0.10 and a "now" that moves forward;
 * - every online CPU has a "cpu: N" record with all its clock bases, and a
 *   tick device record whose clock event device is the one sysfs shows in
 *   clockeventN/current_device;
 * - every "  .field: value" line is well formed;
 * - where NO_HZ is active (".nohz: 1"), each CPU's .idle_calls never goes
 *   down and the sum over all CPUs grows across a second of idleness.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest.h"
#include "tick-util.h"

#define MAX_CPUS 64
#define LINE_SZ 512

struct snapshot {
	char version[32];
	long long now;
	int bases;			/* HRTIMER_MAX_CLOCK_BASES */
	int cpu_seen[MAX_CPUS];
	int clocks[MAX_CPUS];		/* " clock N:" lines per CPU */
	unsigned long long idle_calls[MAX_CPUS];
	int have_idle_calls;
	int nohz_cpus;			/* CPUs with ".nohz: 1" */
	char device[MAX_CPUS][64];	/* per-CPU clock event device */
	int bad_lines;
	char first_bad[LINE_SZ];
};

/* "  .name   : 123" or "  .name   : 123 nsecs" (or a pointer/symbol for .base/.get_time). */
static int field_ok(const char *line)
{
	const char *colon = strchr(line, ':');
	char *end;

	if (!colon)
		return 0;
	if (!strncmp(line, "  .base:", 8) || !strncmp(line, "  .get_time:", 12))
		return colon[1] == ' ' && colon[2];
	errno = 0;
	strtoull(colon + 1, &end, 10);
	if (errno || end == colon + 1)
		return 0;
	return !*end || !strcmp(end, "\n") || !strcmp(end, " nsecs\n");
}

static void note_bad(struct snapshot *s, const char *line)
{
	if (!s->bad_lines++)
		snprintf(s->first_bad, sizeof(s->first_bad), "%s", line);
}

static int take(struct snapshot *s)
{
	FILE *f = fopen("/proc/timer_list", "r");
	char line[LINE_SZ];
	int cpu = -1, tick_cpu = -1, n;
	unsigned long long v;

	memset(s, 0, sizeof(*s));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Timer List Version: %31s", s->version) == 1 ||
		    sscanf(line, "HRTIMER_MAX_CLOCK_BASES: %d", &s->bases) == 1 ||
		    sscanf(line, "now at %lld nsecs", &s->now) == 1)
			continue;
		if (sscanf(line, "cpu: %d", &n) == 1 && n >= 0 && n < MAX_CPUS) {
			cpu = n;
			s->cpu_seen[cpu] = 1;
		} else if (sscanf(line, " clock %d:", &n) == 1 && cpu >= 0) {
			s->clocks[cpu]++;
		} else if (sscanf(line, "  .nohz : %llu", &v) == 1 && cpu >= 0) {
			s->nohz_cpus += v == 1;
		} else if (sscanf(line, "  .idle_calls : %llu", &v) == 1 && cpu >= 0) {
			s->idle_calls[cpu] = v;
			s->have_idle_calls = 1;
		} else if (!strncmp(line, "  .", 3) && !field_ok(line)) {
			note_bad(s, line);
		} else if (sscanf(line, "Per CPU device: %d", &n) == 1) {
			tick_cpu = n;
		} else if (!strncmp(line, "Tick Device:", 12)) {
			tick_cpu = -1;
		} else if (!strncmp(line, "Clock Event Device: ", 20) &&
			   tick_cpu >= 0 && tick_cpu < MAX_CPUS) {
			if (sscanf(line + 20, "%63s", s->device[tick_cpu]) != 1)
				note_bad(s, line);
		}
	}
	fclose(f);
	return 0;
}

static void sysfs_device(int cpu, char *name, size_t len)
{
	char path[96];
	FILE *f;

	name[0] = '\0';
	snprintf(path, sizeof(path),
		 "/sys/devices/system/clockevents/clockevent%d/current_device", cpu);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(name, len, f))
		name[0] = '\0';
	name[strcspn(name, "\n")] = '\0';
	fclose(f);
}

static unsigned long long idle_sum(const struct snapshot *s)
{
	unsigned long long sum = 0;
	int cpu;

	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		sum += s->idle_calls[cpu];
	return sum;
}

int main(void)
{
	static struct snapshot a, b;
	char why[160] = "", name[64];
	int cpu, ret, went_down = -1;

	ksft_print_header();
	ret = take(&a);
	if (ret == -ENOENT)
		ksft_exit_skip("no /proc/timer_list\n");
	if (ret)
		ksft_exit_fail_msg("cannot read /proc/timer_list: %s\n", strerror(-ret));
	ksft_set_plan(6);

	ksft_test_result(!strcmp(a.version, "v0.10") && a.bases > 0,
			 "header: version %s, %d clock bases\n", a.version, a.bases);

	for (cpu = 0; cpu < MAX_CPUS && !why[0]; cpu++) {
		if (tick_cpu_online(cpu) != 1)
			continue;
		if (!a.cpu_seen[cpu])
			snprintf(why, sizeof(why), ": cpu %d missing", cpu);
		else if (a.clocks[cpu] != a.bases)
			snprintf(why, sizeof(why), ": cpu %d has %d clock bases", cpu,
				 a.clocks[cpu]);
	}
	ksft_test_result(!why[0], "every online CPU has a record with all clock bases%s\n",
			 why);

	why[0] = '\0';
	for (cpu = 0; cpu < MAX_CPUS && !why[0]; cpu++) {
		if (tick_cpu_online(cpu) != 1)
			continue;
		sysfs_device(cpu, name, sizeof(name));
		if (strcmp(name, a.device[cpu]))
			snprintf(why, sizeof(why), ": cpu %d timer_list '%s', sysfs '%s'",
				 cpu, a.device[cpu], name);
	}
	ksft_test_result(!why[0], "tick devices match sysfs current_device%s\n", why);

	ksft_test_result(!a.bad_lines, "field lines well formed (%d bad%s%s)\n",
			 a.bad_lines, a.bad_lines ? ", first: " : "",
			 a.bad_lines ? a.first_bad : "");

	sleep(1);
	ret = take(&b);
	ksft_test_result(!ret && b.now > a.now, "now moves on: %lld -> %lld\n", a.now, b.now);

	if (!a.have_idle_calls || !a.nohz_cpus) {
		ksft_test_result_skip("NO_HZ is not active: idle_calls do not count\n");
	} else {
		for (cpu = 0; cpu < MAX_CPUS; cpu++)
			if (tick_cpu_online(cpu) == 1 && b.idle_calls[cpu] < a.idle_calls[cpu])
				went_down = cpu;
		ksft_test_result(went_down < 0 && idle_sum(&b) > idle_sum(&a),
				 "idle_calls grow over an idle second: %llu -> %llu%s\n",
				 idle_sum(&a), idle_sum(&b),
				 went_down < 0 ? "" : " (one CPU's went down)");
	}
	ksft_finished();
}
