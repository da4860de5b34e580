// SPDX-License-Identifier: GPL-2.0
/*
 * tick-hotplug-states: CPU hotplug that stops half-way at the hotplug states
 * of the tick, the timers and the clock event drivers, and hotplug that fails
 * there.  Needs CONFIG_CPU_HOTPLUG_STATE_CONTROL, which gives each CPU
 * /sys/devices/system/cpu/cpuN/hotplug/{target,fail}.
 *
 * For every state whose name says it is one of theirs (STATE_WORDS) and the
 * last CPU that can go offline:
 * - half-way: the CPU is taken down to the state (its target) and brought
 *   back online.  A CPU that came back from below hrtimers:prepare has to
 *   switch to high resolution again (6.12.y's e00954d8b0a2: hres_active was
 *   left set on a CPU whose tick had been shut down);
 * - failure: the state is set to fail (once the CPU is offline, for a
 *   state of its bring-up), the CPU taken offline and brought online;
 *   either may fail there, and the hotplug core rolls back.
 * Half-way stops are made only where the hotplug core survives them with
 * any tick: below "RCU/tree:prepare" (a CPU taken down further comes back
 * without RCU's prepare step and warns in call_rcu(), on 6.12 as on ours)
 * and above "cpu:teardown" (a target among the atomic states trips the
 * core's BUG_ON in cpuhp_report_idle_dead()).  The kernel refuses some
 * states as failure points (atomic states, states without callbacks):
 * those attempts are reported, not judged.
 *
 * After each, the CPU must be online (brought online plainly once more if
 * the failure left it offline) with the tick device, mode and event
 * handler it had before, its .hres_active as before, and a
 * thread pinned to it must sleep 1 ms SLEEPS times, never early, with a
 * median overshoot of at most TICK_LATE_MEDIAN_US plus two clock resolutions.
 *
 * Usage: tick-hotplug-states
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "tick-util.h"

#define MAX_CPUS 64
#define MAX_STATES 64
#define SLEEPS 21
#define SLEEP_NS 1000000LL
#define STATE_WORDS "timer|tick|nohz|hpet|twd|tmigr|clockevents"
#define CPU_DIR "/sys/devices/system/cpu"

struct hp_state {
	int nr;
	char name[64];
};

static struct hp_state states[MAX_STATES];
static int nr_states, nr_targets, online_state = -1;
/* Half-way stops only below the first and above the second (see above). */
static int rcu_prepare_state = -1, teardown_state = -1;

static int safe_target(int nr)
{
	return nr < rcu_prepare_state || nr > teardown_state;
}

/* The states of /sys/devices/system/cpu/hotplug/states named after STATE_WORDS. */
static void read_states(void)
{
	FILE *f = fopen(CPU_DIR "/hotplug/states", "r");
	char line[128], name[64];
	regex_t words;
	int nr;

	if (!f)
		return;
	regcomp(&words, STATE_WORDS, REG_EXTENDED | REG_NOSUB | REG_ICASE);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %d: %63[^\n]", &nr, name) != 2)
			continue;
		if (!strcmp(name, "online"))
			online_state = nr;
		if (!strcmp(name, "RCU/tree:prepare"))
			rcu_prepare_state = nr;
		if (!strcmp(name, "cpu:teardown"))
			teardown_state = nr;
		if (regexec(&words, name, 0, NULL, 0) || nr_states == MAX_STATES)
			continue;
		states[nr_states].nr = nr;
		snprintf(states[nr_states].name, sizeof(states[0].name), "%s", name);
		nr_states++;
	}
	regfree(&words);
	fclose(f);
}

/* Write @val to CPU @cpu's hotplug file @file: 0 or -errno. */
static int hotplug_write(int cpu, const char *file, int val)
{
	char path[96], buf[16];
	int fd, ret = 0, len;

	snprintf(path, sizeof(path), CPU_DIR "/cpu%d/hotplug/%s", cpu, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%d", val);
	if (write(fd, buf, len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

/* The last CPU whose online file can be written, -1 when none. */
static int pick_cpu(void)
{
	char path[64];
	int cpu, found = -1;

	for (cpu = 1; cpu < MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/online", cpu);
		if (access(path, W_OK) == 0 && tick_cpu_online(cpu) == 1)
			found = cpu;
	}
	return found;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/*
 * Sleep 1 ms SLEEPS times on @cpu; *@median gets the median overshoot in
 * us.  The number of early sleeps, or -1 when the thread cannot run there.
 */
static int sleep_on(int cpu, long long *median)
{
	struct timespec ts = { 0, SLEEP_NS };
	long long over[SLEEPS], t0;
	cpu_set_t one, was;
	int i, early = 0;

	sched_getaffinity(0, sizeof(was), &was);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return -1;
	for (i = 0; i < SLEEPS; i++) {
		t0 = tick_now_ns();
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		over[i] = tick_now_ns() - t0 - SLEEP_NS;
		early += over[i] < 0;
	}
	sched_setaffinity(0, sizeof(was), &was);
	qsort(over, SLEEPS, sizeof(over[0]), cmp_ll);
	*median = over[SLEEPS / 2] / 1000;
	return early;
}

static struct tick_cpu_state before[MAX_CPUS];
static long long hres_before[MAX_CPUS];

/* Judge @cpu's tick after @what; @steps says how the hotplug went. */
static void judge(int cpu, const char *what, const char *steps)
{
	struct tick_cpu_state now[MAX_CPUS];
	long long hres[MAX_CPUS], median = 0;
	long long bound = TICK_LATE_MEDIAN_US + 2 * tick_monotonic_res_us();
	char why[200] = "";
	int early, waited;

	if (tick_cpu_online(cpu) != 1)
		tick_set_cpu_online(cpu, 1);
	/* A low-resolution CPU switches to oneshot on its first tick. */
	for (waited = 0; waited <= 20; waited++) {
		why[0] = '\0';
		tick_read_state(now, MAX_CPUS);
		tick_cpu_field("hres_active", hres, MAX_CPUS);
		if (tick_cpu_online(cpu) != 1)
			snprintf(why, sizeof(why), "; offline");
		else if (strcmp(now[cpu].dev, before[cpu].dev) ||
			 strcmp(now[cpu].handler, before[cpu].handler) ||
			 now[cpu].mode != before[cpu].mode)
			snprintf(why, sizeof(why), "; now %.31s/%d/%.63s, was %.31s/%d/%.63s",
				 now[cpu].dev, now[cpu].mode, now[cpu].handler,
				 before[cpu].dev, before[cpu].mode, before[cpu].handler);
		else if (hres[cpu] != hres_before[cpu])
			snprintf(why, sizeof(why), "; .hres_active %lld, was %lld",
				 hres[cpu], hres_before[cpu]);
		if (!why[0])
			break;
		usleep(50000);
	}
	if (!why[0]) {
		early = sleep_on(cpu, &median);
		if (early < 0)
			snprintf(why, sizeof(why), "; cannot run on it");
		else if (early)
			snprintf(why, sizeof(why), "; %d of %d sleeps early", early, SLEEPS);
		else if (median > bound)
			snprintf(why, sizeof(why), "; median overshoot %lld us above %lld",
				 median, bound);
	}
	ksft_test_result(!why[0], "cpu%d %s (%s): tick as before, 1 ms sleeps median +%lld us%s\n",
			 cpu, what, steps, median, why);
}

/*
 * Say the step about to be taken on the kernel log too: kselftest's runner
 * shows a test's output only once it ends, and a step may bring the kernel
 * down.
 */
static void step(const char *fmt, int cpu, int nr, const char *name)
{
	char line[160];
	int fd, len;

	len = snprintf(line, sizeof(line), "tick-hotplug-states: ");
	len += snprintf(line + len, sizeof(line) - len, fmt, cpu, nr, name);
	ksft_print_msg("%s", line + 21);
	fd = open("/dev/kmsg", O_WRONLY);
	if (fd >= 0) {
		if (write(fd, line, len) < 0)
			ksft_print_msg("/dev/kmsg: %s\n", strerror(errno));
		close(fd);
	}
}

static const char *said(int err)
{
	return err ? strerror(-err) : "ok";
}

/* Take @cpu down to @st and back online, then judge it. */
static void half_way(int cpu, const struct hp_state *st)
{
	char steps[160], what[96];
	int err, up;

	step("cpu%d: target %d (%s)\n", cpu, st->nr, st->name);
	err = hotplug_write(cpu, "target", st->nr);
	up = hotplug_write(cpu, "target", online_state);
	snprintf(steps, sizeof(steps), "target %d: %s; back online: %s",
		 st->nr, said(err), said(up));
	snprintf(what, sizeof(what), "down to %.63s and back", st->name);
	judge(cpu, what, steps);
}

/* Make @cpu's hotplug fail at @st, off and on, then judge it. */
static void failing_at(int cpu, const struct hp_state *st)
{
	char steps[160], what[96];
	int err, down, up;

	step("cpu%d: fail %d (%s), offline, online\n", cpu, st->nr, st->name);
	err = hotplug_write(cpu, "fail", st->nr);
	down = tick_set_cpu_online(cpu, 0);
	/* A state below cpu:bringup can be set to fail only while the CPU is down. */
	if (err == -EINVAL && !down)
		err = hotplug_write(cpu, "fail", st->nr);
	up = tick_set_cpu_online(cpu, 1);
	hotplug_write(cpu, "fail", -1);
	snprintf(steps, sizeof(steps), "offline: %s; fail %d: %s; online: %s",
		 said(down), st->nr, said(err), said(up));
	snprintf(what, sizeof(what), "failing at %.63s", st->name);
	judge(cpu, what, steps);
}

int main(void)
{
	int cpu, i;

	ksft_print_header();
	read_states();
	cpu = pick_cpu();
	if (cpu < 0)
		ksft_exit_skip("no CPU can go offline here\n");
	if (access(CPU_DIR "/cpu0/hotplug/fail", F_OK) || online_state < 0)
		ksft_exit_fail_msg("no " CPU_DIR "/cpuN/hotplug/fail: %s\n",
				   "CONFIG_CPU_HOTPLUG_STATE_CONTROL is needed");
	if (!nr_states || rcu_prepare_state < 0 || teardown_state < 0)
		ksft_exit_fail_msg("no hotplug state named after " STATE_WORDS
				   ", or no RCU/tree:prepare or cpu:teardown\n");
	for (i = 0; i < nr_states; i++)
		nr_targets += safe_target(states[i].nr);
	ksft_set_plan(nr_targets + nr_states);
	tick_read_state(before, MAX_CPUS);
	tick_cpu_field("hres_active", hres_before, MAX_CPUS);

	for (i = 0; i < nr_states; i++) {
		if (safe_target(states[i].nr))
			half_way(cpu, &states[i]);
		failing_at(cpu, &states[i]);
	}
	ksft_finished();
}
