// SPDX-License-Identifier: GPL-2.0
/*
 * highres: timers behave as the resolution /proc/timer_list says they have.
 * High resolution timers are active when the CPUs' records say
 * "hres_active: 1" and ".highres: 1"; a kernel without them prints neither.
 *
 * - clock_getres(CLOCK_MONOTONIC) is 1 ns with high resolution timers and
 *   the tick period (TICK_NSEC, 1e9 / HZ rounded) without;
 * - with them, the median 100 us sleep lasts less than half a jiffy;
 *   without, hrtimers expire from the tick, so a 100 us sleep may last a
 *   whole jiffy and only "not shorter than asked" holds;
 * - no sleep returns early: relative and absolute ones from 1 us to one
 *   and a half ticks;
 * - a timerfd armed for an absolute CLOCK_MONOTONIC time 1 ms ahead fires
 *   once, not early.
 *
 * Mean, median and max of the 100 us sleeps are reported; only the median
 * is judged: on a shared host the max, and with it the mean, measures the
 * host (a build beside QEMU stalls a few sleeps by milliseconds), while
 * expiry from the tick makes every sleep in the loop last a whole jiffy.  /proc/timer_list is
 * needed (root): without it nothing can be expected, so that fails the test.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "tick-util.h"

#define NSEC_PER_SEC 1000000000LL
#define MAX_CPUS 256
#define NR_SHORT 200
#define SHORT_NS 100000LL
#define NR_EACH 10
#define TFD_AHEAD_NS 1000000LL
#define TFD_GIVE_UP_MS 10000

/*
 * Whether high resolution timers are active: 1, 0, or -1 when online CPUs
 * disagree (in @why).  Both per-CPU flags are read: hrtimer's hres_active
 * and the tick's .highres are set by the same switch.  -2 without
 * timer_list.
 */
static int highres_active(char *why, size_t len)
{
	static long long hres[MAX_CPUS], flag[MAX_CPUS];
	int cpu, on = 0, off = 0;

	if (tick_cpu_field("hres_active", hres, MAX_CPUS) < 0 ||
	    tick_cpu_field("highres", flag, MAX_CPUS) < 0)
		return -2;
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (tick_cpu_online(cpu) != 1)
			continue;
		if (hres[cpu] >= 0 && flag[cpu] >= 0 && hres[cpu] != flag[cpu]) {
			snprintf(why, len, "cpu%d: hres_active %lld but .highres %lld", cpu,
				 hres[cpu], flag[cpu]);
			return -1;
		}
		if (hres[cpu] == 1 || flag[cpu] == 1)
			on++;
		else
			off++;
	}
	if (on && off) {
		snprintf(why, len, "%d CPUs with high resolution timers, %d without", on, off);
		return -1;
	}
	return on > 0;
}

static void check_getres(int active, long long period, int hz)
{
	long long want = active ? 1 : period;
	struct timespec res;
	char what[64];

	if (clock_getres(CLOCK_MONOTONIC, &res)) {
		ksft_test_result_fail("clock_getres(CLOCK_MONOTONIC): %s\n", strerror(errno));
		return;
	}
	if (active)
		snprintf(what, sizeof(what), "high resolution: 1 ns");
	else
		snprintf(what, sizeof(what), "low resolution: the %lld ns tick of HZ %d", want, hz);
	ksft_test_result(!res.tv_sec && res.tv_nsec == want,
			 "clock_getres(CLOCK_MONOTONIC) %lld ns; %s\n",
			 res.tv_sec * NSEC_PER_SEC + res.tv_nsec, what);
}

/* Sleep @ns relative to now; returns how long it took, -1 with errno set on error. */
static long long sleep_rel(long long ns)
{
	struct timespec ts = tick_ns_to_ts(ns);
	long long t0 = tick_now_ns();

	errno = clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	return errno ? -1 : tick_now_ns() - t0;
}

/*
 * Sleep until @ns from now, as an absolute time; returns how late it woke
 * (negative: early).  An error counts as early by the whole sleep.
 */
static long long sleep_abs_late(long long ns)
{
	long long deadline = tick_now_ns() + ns;
	struct timespec ts = tick_ns_to_ts(deadline);

	if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		return -ns;
	return tick_now_ns() - deadline;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static void check_short_sleeps(int active, long long period)
{
	static long long took[NR_SHORT];
	long long sum = 0, mean;
	int i;

	for (i = 0; i < NR_SHORT; i++) {
		took[i] = sleep_rel(SHORT_NS);
		if (took[i] < 0) {
			ksft_test_result_fail("clock_nanosleep(%lld us): %s\n", SHORT_NS / 1000,
					      strerror(errno));
			return;
		}
		sum += took[i];
	}
	qsort(took, NR_SHORT, sizeof(took[0]), cmp_ll);
	mean = sum / NR_SHORT;
	ksft_print_msg("%d sleeps of %lld us took: mean %lld, median %lld, min %lld, max %lld us\n",
		       NR_SHORT, SHORT_NS / 1000, mean / 1000, took[NR_SHORT / 2] / 1000,
		       took[0] / 1000, took[NR_SHORT - 1] / 1000);
	if (active) {
		ksft_test_result(took[NR_SHORT / 2] < period / 2,
				 "high resolution: the median %lld us sleep lasts %lld us, under half a tick (%lld us)\n",
				 SHORT_NS / 1000, took[NR_SHORT / 2] / 1000, period / 2000);
		return;
	}
	/* Each wake-up waits for the next tick: a jiffy bound says nothing. */
	ksft_test_result(took[0] >= SHORT_NS,
			 "low resolution: %lld us sleeps expire on the tick, none shorter (min %lld us)\n",
			 SHORT_NS / 1000, took[0] / 1000);
}

/*
 * Relative and absolute sleeps from 1 us to one and a half ticks, across
 * tick boundaries at any resolution: none may end before its time.
 */
static void check_never_early(long long period)
{
	const long long lengths[] = {
		1000, 10000, SHORT_NS, 1000000, period / 2, period, period + period / 2,
	};
	long long took, late, short_by = 0, short_of = 0;
	int i, n, early = 0, total = 0;

	for (i = 0; i < (int)ARRAY_SIZE(lengths); i++) {
		for (n = 0; n < NR_EACH; n++, total += 2) {
			took = sleep_rel(lengths[i]);
			late = sleep_abs_late(lengths[i]);
			if (took < lengths[i] || late < 0) {
				early++;
				short_of = lengths[i];
				short_by = took < lengths[i] ? lengths[i] - took : -late;
			}
		}
	}
	ksft_test_result(!early, "no sleep early: %d of 1 us to %lld us, relative and absolute\n",
			 total, lengths[ARRAY_SIZE(lengths) - 1] / 1000);
	if (early)
		ksft_print_msg("%d early, the last %lld ns short of %lld ns\n", early, short_by,
			       short_of);
}

/* An absolute timerfd 1 ms ahead: it fires once and not early. */
static void check_timerfd_abs(void)
{
	struct itimerspec its = { 0 };
	struct pollfd pfd;
	long long deadline, woke;
	uint64_t expiries = 0;
	int fd, ready;

	fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (fd < 0) {
		ksft_test_result_fail("timerfd_create(CLOCK_MONOTONIC): %s\n", strerror(errno));
		return;
	}
	deadline = tick_now_ns() + TFD_AHEAD_NS;
	its.it_value = tick_ns_to_ts(deadline);
	if (timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL)) {
		ksft_test_result_fail("timerfd_settime(TFD_TIMER_ABSTIME): %s\n", strerror(errno));
		close(fd);
		return;
	}
	/* poll() first: a lost timer must fail the case, not hang the test. */
	pfd.fd = fd;
	pfd.events = POLLIN;
	ready = poll(&pfd, 1, TFD_GIVE_UP_MS);
	woke = tick_now_ns();
	if (ready == 1 && read(fd, &expiries, sizeof(expiries)) != sizeof(expiries))
		expiries = 0;
	close(fd);
	if (ready != 1) {
		ksft_test_result_fail("absolute timerfd 1 ms ahead: not fired after %d ms\n",
				      TFD_GIVE_UP_MS);
		return;
	}
	ksft_test_result(expiries == 1 && woke >= deadline,
			 "absolute timerfd 1 ms ahead: read() says %llu expiries, %lld us late\n",
			 (unsigned long long)expiries, (woke - deadline) / 1000);
}

int main(void)
{
	long long period = tick_period_ns();
	int hz = tick_hz(), active;
	char why[96] = "";

	ksft_print_header();
	if (hz <= 0)
		ksft_exit_fail_msg("no HZ from CLOCK_MONOTONIC_COARSE's resolution (%lld ns)\n",
				   period);
	active = highres_active(why, sizeof(why));
	if (active == -2)
		ksft_exit_fail_msg("cannot read /proc/timer_list (%s): it tells the resolution\n",
				   strerror(errno));
	if (active < 0)
		ksft_exit_fail_msg("timer_list is inconsistent: %s\n", why);
	ksft_print_msg("high resolution timers %sactive, HZ %d\n", active ? "" : "not ", hz);
	ksft_set_plan(4);

	check_getres(active, period, hz);
	check_short_sleeps(active, period);
	check_never_early(period);
	check_timerfd_abs();
	ksft_finished();
}
