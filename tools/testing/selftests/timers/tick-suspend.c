// SPDX-License-Identifier: GPL-2.0
/*
 * tick-suspend: suspend to idle (s2idle, "freeze") with the RTC as the
 * wake-up source, then check that time advanced across the sleep and that
 * the tick and hrtimers work again on every online CPU.
 *
 * Usage: tick-suspend [-n cycles] [-s seconds]   (defaults 1 and 3)
 * Skips where the kernel offers no s2idle or there is no RTC wake alarm.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"

#define NSEC_PER_SEC 1000000000LL
#define MAX_CPUS 64
#define WAKEALARM "/sys/class/rtc/rtc0/wakealarm"

static long long clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return -errno;
	if (fputs(text, f) < 0)
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

static int s2idle_available(void)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/power/state", "r");

	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return strstr(buf, "freeze") && access(WAKEALARM, W_OK) == 0;
}

struct probe {
	int cpu;
	int wakes;
	int early;
};

/* On one CPU: ten 10 ms sleeps, none early. */
static void *probe_cpu(void *arg)
{
	struct probe *p = arg;
	struct timespec ts = { 0, 10000000 };
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	CPU_SET(p->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return NULL;
	for (i = 0; i < 10; i++) {
		long long t0 = clock_ns(CLOCK_MONOTONIC);

		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		if (clock_ns(CLOCK_MONOTONIC) - t0 < ts.tv_nsec)
			p->early++;
		p->wakes++;
	}
	return NULL;
}

static void check_cpus_after(int cycle)
{
	struct probe probes[MAX_CPUS];
	pthread_t threads[MAX_CPUS];
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN), i, bad = 0;

	if (ncpu > MAX_CPUS)
		ncpu = MAX_CPUS;
	for (i = 0; i < ncpu; i++) {
		probes[i] = (struct probe){ .cpu = i };
		pthread_create(&threads[i], NULL, probe_cpu, &probes[i]);
	}
	for (i = 0; i < ncpu; i++) {
		pthread_join(threads[i], NULL);
		if (probes[i].wakes != 10 || probes[i].early)
			bad++;
	}
	ksft_test_result(!bad, "cycle %d: sleeps on all %d cpus wake on time after resume (%d bad)\n",
			 cycle, ncpu, bad);
}

static void check_timerfd_after(int cycle)
{
	struct itimerspec its = { .it_value = { 0, 50000000 } };
	unsigned long long ticks = 0;
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	ssize_t n = -1;

	if (fd >= 0 && !timerfd_settime(fd, 0, &its, NULL))
		n = read(fd, &ticks, sizeof(ticks));
	ksft_test_result(n == sizeof(ticks) && ticks == 1,
			 "cycle %d: a 50 ms timerfd expires after resume\n", cycle);
	if (fd >= 0)
		close(fd);
}

static void suspend_cycle(int cycle, int seconds)
{
	long long boot0, real0, boot_d, real_d;
	char alarm[32];
	int ret;

	snprintf(alarm, sizeof(alarm), "+%d\n", seconds);
	write_file(WAKEALARM, "0\n");
	ret = write_file(WAKEALARM, alarm);
	if (ret)
		ksft_exit_fail_msg("cannot set %s: %s\n", WAKEALARM, strerror(-ret));
	boot0 = clock_ns(CLOCK_BOOTTIME);
	real0 = clock_ns(CLOCK_REALTIME);
	ret = write_file("/sys/power/state", "freeze\n");
	boot_d = clock_ns(CLOCK_BOOTTIME) - boot0;
	real_d = clock_ns(CLOCK_REALTIME) - real0;
	ksft_test_result(!ret, "cycle %d: s2idle entered and resumed (%s)\n",
			 cycle, ret ? strerror(-ret) : "ok");
	/* The RTC counts whole seconds: the alarm is seconds - 1 .. seconds away. */
	ksft_test_result(boot_d >= (seconds - 1) * NSEC_PER_SEC &&
			 real_d >= (seconds - 1) * NSEC_PER_SEC,
			 "cycle %d: time advanced across the sleep (boottime %lld ms, realtime %lld ms)\n",
			 cycle, boot_d / 1000000, real_d / 1000000);
	check_cpus_after(cycle);
	check_timerfd_after(cycle);
}

int main(int argc, char **argv)
{
	int cycles = 1, seconds = 3, opt, i;

	while ((opt = getopt(argc, argv, "n:s:")) != -1) {
		if (opt == 'n')
			cycles = atoi(optarg);
		else if (opt == 's')
			seconds = atoi(optarg);
		else
			ksft_exit_fail_msg("usage: %s [-n cycles] [-s seconds]\n",
					   argv[0]);
	}
	ksft_print_header();
	if (!s2idle_available())
		ksft_exit_skip("no s2idle (freeze) or no RTC wake alarm\n");
	ksft_set_plan(4 * cycles);
	for (i = 1; i <= cycles; i++)
		suspend_cycle(i, seconds);
	ksft_finished();
}
