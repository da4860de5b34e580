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
 * have woken and finished, and none may have returned early.  How late
 * they woke is judged per CPU, the one each sleep started on (its timer's):
 * the median overshoot of every CPU at most TICK_LATE_MEDIAN_US plus two clock
 * resolutions (a CPU whose timer came back late after hotplug is late on
 * most of its sleeps, while a host that stalls the guest now and then
 * makes a few sleeps of every CPU late); and no sleep LOST_US or more late
 * (a wakeup lost and found only by a later event).
 * A single worst case is not judged: on a shared host it measures the
 * host.  A sleeper that has not finished a few-millisecond sleep after
 * STUCK_AFTER_S seconds has lost its timer.
 *
 * Usage: tick-hotplug [-c cycles]   (default 20)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
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
#define STUCK_AFTER_S 10
/* Overshoot histograms per CPU: HIST_STEP_US wide buckets, the last open. */
#define HIST_STEP_US 100
#define HIST_BUCKETS 1000
#define LOST_US 2000000
/* Judge a CPU's median only over this many sleeps or more. */
#define MIN_SLEEPS 50

struct sleeper {
	pthread_t thread;
	long long sleep_ns;
	unsigned long wakes;
	unsigned long early;
	long long worst_ns;	/* its longest overshoot */
	int done;
};

static struct sleeper sleepers[MAX_SLEEPERS];
static int stop;	/* set by main when the sleepers should finish */
/* Every sleep's overshoot, shared by the sleepers (atomic increments). */
static unsigned long hist[MAX_CPUS][HIST_BUCKETS];
static unsigned long lost;	/* sleeps LOST_US or more late */

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void note_overshoot(struct sleeper *s, int cpu, long long ns)
{
	long long us = ns / 1000, bucket = us / HIST_STEP_US;

	if (ns > s->worst_ns)
		s->worst_ns = ns;
	if (us >= LOST_US)
		__atomic_add_fetch(&lost, 1, __ATOMIC_RELAXED);
	else
		__atomic_add_fetch(&hist[cpu][bucket < HIST_BUCKETS ? bucket : HIST_BUCKETS - 1],
				   1, __ATOMIC_RELAXED);
}

/* @cpu's median overshoot in us (upper bucket edge); *@n gets its sleeps. */
static long long median_overshoot(int cpu, unsigned long *n)
{
	unsigned long seen = 0;
	int i;

	for (*n = 0, i = 0; i < HIST_BUCKETS; i++)
		*n += hist[cpu][i];
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += hist[cpu][i];
		if (seen * 2 >= *n)
			break;
	}
	return (long long)(i + 1) * HIST_STEP_US;
}

static void *sleeper_main(void *arg)
{
	struct sleeper *s = arg;
	struct timespec ts = { 0, s->sleep_ns };

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		long long t0 = now_ns(), slept;
		int cpu = sched_getcpu();

		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		slept = now_ns() - t0;
		if (slept < s->sleep_ns)
			s->early++;
		else
			note_overshoot(s, cpu >= 0 && cpu < MAX_CPUS ? cpu : 0,
				       slept - s->sleep_ns);
		__atomic_add_fetch(&s->wakes, 1, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
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
		err = tick_set_cpu_online(cpus[i], 0);
		if (!err && tick_cpu_online(cpus[i]) != 0)
			err = -EBUSY;
		if (!err)
			usleep(20000);	/* let sleepers run without it */
		if (!err)
			err = tick_set_cpu_online(cpus[i], 1);
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
	unsigned long jiffies, early = 0, sleeps = 0;
	long long deadline, median, bound, worst_median = 0, worst = 0;
	unsigned long n, worst_n = 0;
	int worst_cpu = -1, cpu;

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
	ksft_set_plan(cycles + 4);

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
		sleeps += sleepers[i].wakes;
		if (sleepers[i].worst_ns > worst)
			worst = sleepers[i].worst_ns;
	}
	ksft_test_result(!stuck, "all %d sleepers woke and finished (%d stuck for %d s)\n",
			 nsleepers, stuck, STUCK_AFTER_S);
	ksft_test_result(!early, "no sleep returned early (%lu early)\n", early);
	bound = TICK_LATE_MEDIAN_US + 2 * tick_monotonic_res_us();
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		median = median_overshoot(cpu, &n);
		if (n >= MIN_SLEEPS && median > worst_median) {
			worst_median = median;
			worst_cpu = cpu;
			worst_n = n;
		}
	}
	ksft_test_result(worst_median <= bound,
			 "every CPU's median overshoot at most %lld us (highest: cpu%d, %lld us over %lu sleeps; %lu sleeps in all)\n",
			 bound, worst_cpu, worst_median, worst_n, sleeps);
	ksft_test_result(!lost, "no sleep %d ms or more late (%lu; worst %lld us)\n",
			 LOST_US / 1000, lost, worst / 1000);
	ksft_finished();
}
