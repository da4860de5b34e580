// SPDX-License-Identifier: GPL-2.0
/*
 * tick-hotplug: take every hotpluggable CPU offline and back online, over
 * and over, while sleeper threads run short clock_nanosleep()s on all CPUs.
 *
 * After each cycle every online CPU must have a tick device in
 * /proc/timer_list and jiffies must have advanced (the timekeeping duty
 * survived the CPU that held it going away).  At the end every sleeper must
 * wake, none may return early, and none may overshoot by more than a
 * generous bound (1 s under emulation).
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

#define NSEC_PER_SEC 1000000000LL
#define MAX_CPUS 64
#define MAX_SLEEPERS 32
#define OVERSHOOT_LIMIT_NS NSEC_PER_SEC

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

static int is_online(int cpu)
{
	char path[64];
	FILE *f;
	int v = 1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	f = fopen(path, "r");
	if (!f)
		return 1;	/* no online file: the CPU cannot go offline */
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
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
		if (access(path, W_OK) == 0 && is_online(cpu) == 1)
			cpus[n++] = cpu;
	}
	return n;
}

/*
 * Read jiffies and which CPUs have a tick device from /proc/timer_list.
 * Returns the number of per-CPU tick devices found.
 */
static int read_timer_list(unsigned long long *jiffies, int *has_dev)
{
	FILE *f = fopen("/proc/timer_list", "r");
	char line[256];
	int cpu = -1, n = 0;

	memset(has_dev, 0, sizeof(int) * MAX_CPUS);
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "jiffies: %llu", jiffies) == 1)
			continue;
		if (sscanf(line, "Per CPU device: %d", &cpu) == 1)
			continue;
		if (!strncmp(line, "Tick Device:", 12))
			cpu = -1;
		if (cpu >= 0 && cpu < MAX_CPUS &&
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

static void run_cycle(int nr, const int *cpus, int ncpus,
		      unsigned long long *last_jiffies)
{
	int has_dev[MAX_CPUS], i, err = 0, missing = -1;
	unsigned long long now_jiffies = 0;
	char why[128] = "";

	for (i = 0; i < ncpus && !err; i++) {
		err = set_online(cpus[i], 0);
		if (!err && is_online(cpus[i]) != 0)
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
	read_timer_list(&now_jiffies, has_dev);
	for (i = 0; i < MAX_CPUS && !err; i++)
		if (cpu_present(i) && is_online(i) == 1 && !has_dev[i])
			missing = i;
	if (!err && missing >= 0)
		snprintf(why, sizeof(why), "cpu%d online without a tick device",
			 missing);
	else if (!err && now_jiffies <= *last_jiffies)
		snprintf(why, sizeof(why), "jiffies stuck at %llu", now_jiffies);
	ksft_test_result(!why[0], "cycle %d: %d cpus off and on, tick devices, jiffies %llu %s\n",
			 nr, ncpus, now_jiffies, why);
	*last_jiffies = now_jiffies;
}

int main(int argc, char **argv)
{
	int cpus[MAX_CPUS], ncpus, nsleepers, cycles = 20, opt, i, stuck = 0;
	unsigned long long jiffies = 0;
	unsigned long early = 0;
	long long worst = 0, deadline;
	int has_dev[MAX_CPUS];

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
	ksft_set_plan(cycles + 3);

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
	read_timer_list(&jiffies, has_dev);
	for (i = 1; i <= cycles; i++)
		run_cycle(i, cpus, ncpus, &jiffies);

	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	deadline = now_ns() + 5 * NSEC_PER_SEC;
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
	ksft_test_result(!stuck, "all %d sleepers woke and finished (%d stuck)\n",
			 nsleepers, stuck);
	ksft_test_result(!early, "no sleep returned early (%lu early)\n", early);
	ksft_test_result(worst < OVERSHOOT_LIMIT_NS,
			 "worst overshoot %lld us (limit %lld us)\n",
			 worst / 1000, OVERSHOOT_LIMIT_NS / 1000);
	ksft_finished();
}
