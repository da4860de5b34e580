// SPDX-License-Identifier: GPL-2.0
/*
 * tick-hotplug: take every hotpluggable CPU offline and back online, over
 * and over, while sleeper threads run short clock_nanosleep()s on all CPUs.
 *
 * After each cycle every online CPU must have a tick device in
 * /proc/timer_list, the same device, mode and event handler as before the
 * first cycle (within a second: a low-resolution CPU switches to oneshot
 * on its first tick), and jiffies must have advanced (the timekeeping duty
 * survived the CPU that held it going away).  At the end every sleeper must
 * have woken and finished, and none may have returned early.  The worst
 * overshoot is reported, not judged: on a shared host it measures the host.
 * A sleeper that has not finished a few-millisecond sleep after
 * STUCK_AFTER_S seconds has lost its timer.
 *
 * Usage: tick-hotplug [-c cycles]   (default 20)
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "tick-util.h"

#define NSEC_PER_SEC 1000000000LL
#define MAX_CPUS 64
#define MAX_SLEEPERS 32
#define STUCK_AFTER_S 60

struct sleeper {
	pthread_t thread;
	long long sleep_ns;
	unsigned long wakes;
	unsigned long early;
	long long worst_overshoot;
	int done;
};

static struct sleeper sleepers[MAX_SLEEPERS];
static int stop;	/* set by main when the sleepers should finish */

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void *sleeper_main(void *arg)
{
	struct sleeper *s = arg;
	struct timespec ts = { 0, s->sleep_ns };

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		long long t0 = now_ns(), slept;

		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		slept = now_ns() - t0;
		if (slept < s->sleep_ns)
			s->early++;
		else if (slept - s->sleep_ns > s->worst_overshoot)
			s->worst_overshoot = slept - s->sleep_ns;
		__atomic_add_fetch(&s->wakes, 1, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int set_online(int cpu, int online)
{
	char path[64];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	ret = fprintf(f, "%d\n", online) < 0 ? -EIO : 0;
	if (fclose(f))
		ret = -errno;
	return ret;
}

static int cpu_present(int cpu)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	return access(path, F_OK) == 0;
}

/* CPUs with an online file that are online now. */
static int hotpluggable_cpus(int *cpus)
{
	char path[64];
	int cpu, n = 0;

	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/online", cpu);
		if (access(path, W_OK) == 0 && tick_cpu_online(cpu) == 1)
			cpus[n++] = cpu;
	}
	return n;
}

/* Every CPU's tick before the first cycle. */
static struct tick_cpu_state before[MAX_CPUS];

/*
 * The first online CPU whose tick differs from @before, described in @why;
 * -1 when none does.
 */
static int tick_changed(char *why, size_t len)
{
	struct tick_cpu_state now[MAX_CPUS];
	int cpu;

	tick_read_state(now, MAX_CPUS);
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!cpu_present(cpu) || tick_cpu_online(cpu) != 1)
			continue;
		if (strcmp(now[cpu].dev, before[cpu].dev) ||
		    strcmp(now[cpu].handler, before[cpu].handler) ||
		    now[cpu].mode != before[cpu].mode) {
			snprintf(why, len, "cpu%d now %.31s/%d/%.63s, was %.31s/%d/%.63s", cpu,
				 now[cpu].dev, now[cpu].mode, now[cpu].handler,
				 before[cpu].dev, before[cpu].mode, before[cpu].handler);
			return cpu;
		}
	}
	return -1;
}

static void run_cycle(int nr, const int *cpus, int ncpus,
		      unsigned long *last_jiffies)
{
	int has_dev[MAX_CPUS], i, err = 0, missing = -1, has_bc, waited;
	unsigned long now_jiffies;
	char why[256] = "";

	for (i = 0; i < ncpus && !err; i++) {
		err = set_online(cpus[i], 0);
		if (!err && tick_cpu_online(cpus[i]) != 0)
			err = -EBUSY;
		if (!err)
			usleep(20000);	/* let sleepers run without it */
		if (!err)
			err = set_online(cpus[i], 1);
		if (err)
			snprintf(why, sizeof(why), "cpu%d: %s", cpus[i],
				 strerror(-err));
	}
	usleep(50000);
	tick_read_devices(has_dev, MAX_CPUS, &has_bc);
	now_jiffies = tick_jiffies();
	for (i = 0; i < MAX_CPUS && !err; i++)
		if (cpu_present(i) && tick_cpu_online(i) == 1 && !has_dev[i])
			missing = i;
	if (!err && missing >= 0)
		snprintf(why, sizeof(why), "cpu%d online without a tick device",
			 missing);
	else if (!err && now_jiffies == *last_jiffies)
		snprintf(why, sizeof(why), "jiffies stuck at %lu", now_jiffies);
	for (waited = 0; !err && !why[0] && tick_changed(why, sizeof(why)) >= 0 &&
	     waited < 20; waited++) {
		usleep(50000);
		why[0] = '\0';
	}
	ksft_test_result(!why[0], "cycle %d: %d cpus off and on, tick devices, jiffies %lu %s\n",
			 nr, ncpus, now_jiffies, why);
	*last_jiffies = now_jiffies;
}

int main(int argc, char **argv)
{
	int cpus[MAX_CPUS], ncpus, nsleepers, cycles = 20, opt, i, stuck = 0;
	unsigned long jiffies, early = 0;
	long long worst = 0, deadline;

	while ((opt = getopt(argc, argv, "c:")) != -1) {
		if (opt == 'c')
			cycles = atoi(optarg);
		else
			ksft_exit_fail_msg("usage: %s [-c cycles]\n", argv[0]);
	}
	ksft_print_header();
	ncpus = hotpluggable_cpus(cpus);
	if (!ncpus)
		ksft_exit_skip("no CPU can go offline here\n");
	ksft_set_plan(cycles + 2);

	nsleepers = 2 * (ncpus + 1);
	if (nsleepers > MAX_SLEEPERS)
		nsleepers = MAX_SLEEPERS;
	for (i = 0; i < nsleepers; i++) {
		/* 100 us .. 5 ms, so some sleeps span the hotplug windows */
		sleepers[i].sleep_ns = 100000LL + (i * 4900000LL) / nsleepers;
		if (pthread_create(&sleepers[i].thread, NULL, sleeper_main,
				   &sleepers[i]))
			ksft_exit_fail_msg("pthread_create failed\n");
	}
	tick_read_state(before, MAX_CPUS);
	jiffies = tick_jiffies();
	for (i = 1; i <= cycles; i++)
		run_cycle(i, cpus, ncpus, &jiffies);

	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	deadline = now_ns() + STUCK_AFTER_S * NSEC_PER_SEC;
	for (i = 0; i < nsleepers; i++) {
		while (!__atomic_load_n(&sleepers[i].done, __ATOMIC_ACQUIRE) &&
		       now_ns() < deadline)
			usleep(1000);
		if (!sleepers[i].done || !sleepers[i].wakes)
			stuck++;
		else
			pthread_join(sleepers[i].thread, NULL);
		early += sleepers[i].early;
		if (sleepers[i].worst_overshoot > worst)
			worst = sleepers[i].worst_overshoot;
	}
	ksft_test_result(!stuck, "all %d sleepers woke and finished (%d stuck for %d s)\n",
			 nsleepers, stuck, STUCK_AFTER_S);
	ksft_test_result(!early, "no sleep returned early (%lu early)\n", early);
	ksft_print_msg("worst overshoot %lld us\n", worst / 1000);
	ksft_finished();
}
