// SPDX-License-Identifier: GPL-2.0
/*
 * timer-bad-input: the timer system calls reject malformed times with the
 * documented errno and change nothing, and a deadline already in the past
 * expires at once instead of being lost.
 *
 * Covers clock_nanosleep, nanosleep, timer_settime, timerfd_settime and
 * setitimer.  "At once" is checked against a generous bound (1 s): the
 * point is that the expiry happens, not how fast.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"

#define NSEC_PER_SEC 1000000000L
#define AT_ONCE_NS NSEC_PER_SEC

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * (long long)NSEC_PER_SEC + ts.tv_nsec;
}

/* Record one case: @ret is the call's result, @want_errno 0 for success. */
static void expect_errno(long ret, int want_errno, const char *what)
{
	int got = ret == -1 ? errno : 0;

	if (got == want_errno)
		ksft_test_result_pass("%s: %s\n", what,
				      want_errno ? strerror(want_errno) : "ok");
	else
		ksft_test_result_fail("%s: got %s, expected %s\n", what,
				      got ? strerror(got) : "success",
				      want_errno ? strerror(want_errno) : "success");
}

static void test_clock_nanosleep(void)
{
	static const struct {
		struct timespec ts;
		const char *name;
	} bad[] = {
		{ { 0, NSEC_PER_SEC }, "tv_nsec == 1e9" },
		{ { 0, -1 }, "tv_nsec == -1" },
		{ { -1, 0 }, "tv_sec == -1" },
	};
	struct timespec past = { 0, 0 };
	char what[96];
	long long t0;
	size_t i;
	int ret;

	/* clock_nanosleep returns the error number, it does not set errno. */
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ret = clock_nanosleep(CLOCK_MONOTONIC, 0, &bad[i].ts, NULL);
		snprintf(what, sizeof(what), "clock_nanosleep relative %s",
			 bad[i].name);
		ksft_test_result(ret == EINVAL, "%s: returned %d, expected EINVAL\n",
				 what, ret);
	}
	ret = clock_nanosleep(12345, 0, &past, NULL);
	ksft_test_result(ret == EINVAL, "clock_nanosleep unknown clock: %d\n", ret);

	t0 = now_ns();
	ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &past, NULL);
	ksft_test_result(ret == 0 && now_ns() - t0 < AT_ONCE_NS,
			 "clock_nanosleep absolute past deadline returns at once (%d)\n",
			 ret);

	errno = 0;
	expect_errno(nanosleep(&bad[0].ts, NULL), EINVAL, "nanosleep tv_nsec == 1e9");
	expect_errno(nanosleep(&bad[2].ts, NULL), EINVAL, "nanosleep tv_sec == -1");
}

static int fired;	/* written by the SIGALRM handler */

static void on_alarm(int sig)
{
	(void)sig;
	__atomic_add_fetch(&fired, 1, __ATOMIC_RELAXED);
}

/* Wait up to AT_ONCE_NS for the handler to count an expiry. */
static int wait_fired(void)
{
	long long deadline = now_ns() + AT_ONCE_NS;

	while (!__atomic_load_n(&fired, __ATOMIC_RELAXED) && now_ns() < deadline)
		usleep(1000);
	return __atomic_load_n(&fired, __ATOMIC_RELAXED);
}

static void test_timer_settime(void)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM };
	struct itimerspec its = { 0 }, old;
	struct timespec now;
	timer_t id;

	signal(SIGALRM, on_alarm);
	if (timer_create(CLOCK_MONOTONIC, &sev, &id)) {
		ksft_test_result_fail("timer_create: %s\n", strerror(errno));
		return;
	}
	its.it_value.tv_nsec = NSEC_PER_SEC;
	expect_errno(timer_settime(id, 0, &its, NULL), EINVAL,
		     "timer_settime it_value.tv_nsec == 1e9");
	its.it_value.tv_nsec = -1;
	expect_errno(timer_settime(id, 0, &its, NULL), EINVAL,
		     "timer_settime it_value.tv_nsec == -1");
	its.it_value.tv_nsec = 0;
	its.it_value.tv_sec = 1;
	its.it_interval.tv_nsec = NSEC_PER_SEC;
	expect_errno(timer_settime(id, 0, &its, NULL), EINVAL,
		     "timer_settime it_interval.tv_nsec == 1e9");
	timer_gettime(id, &old);
	ksft_test_result(old.it_value.tv_sec == 0 && old.it_value.tv_nsec == 0,
			 "rejected timer_settime left the timer disarmed\n");

	/* A huge expiry is accepted and does not fire. */
	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = INT_MAX;
	__atomic_store_n(&fired, 0, __ATOMIC_RELAXED);
	expect_errno(timer_settime(id, 0, &its, NULL), 0,
		     "timer_settime tv_sec == INT_MAX");
	usleep(20000);
	ksft_test_result(!__atomic_load_n(&fired, __ATOMIC_RELAXED),
			 "timer with a huge expiry did not fire\n");

	/* An absolute expiry in the past fires at once. */
	clock_gettime(CLOCK_MONOTONIC, &now);
	its.it_value.tv_sec = now.tv_sec - 1;
	its.it_value.tv_nsec = now.tv_nsec;
	__atomic_store_n(&fired, 0, __ATOMIC_RELAXED);
	expect_errno(timer_settime(id, TIMER_ABSTIME, &its, NULL), 0,
		     "timer_settime absolute past expiry");
	ksft_test_result(wait_fired(), "timer with a past expiry fired at once\n");

	timer_delete(id);
	expect_errno(timer_settime(id, 0, &its, NULL), EINVAL,
		     "timer_settime on a deleted timer");
	signal(SIGALRM, SIG_DFL);
}

static void test_timerfd(void)
{
	struct itimerspec its = { 0 };
	struct timespec now;
	unsigned long long ticks = 0;
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	long long deadline;
	ssize_t n = -1;

	if (fd < 0) {
		ksft_test_result_fail("timerfd_create: %s\n", strerror(errno));
		return;
	}
	its.it_value.tv_nsec = NSEC_PER_SEC;
	expect_errno(timerfd_settime(fd, 0, &its, NULL), EINVAL,
		     "timerfd_settime tv_nsec == 1e9");
	its.it_value.tv_nsec = 0;
	its.it_value.tv_sec = -1;
	expect_errno(timerfd_settime(fd, 0, &its, NULL), EINVAL,
		     "timerfd_settime tv_sec == -1");
	its.it_value.tv_sec = 1;
	expect_errno(timerfd_settime(fd, 0x100, &its, NULL), EINVAL,
		     "timerfd_settime unknown flag");

	clock_gettime(CLOCK_MONOTONIC, &now);
	its.it_value.tv_sec = now.tv_sec - 1;
	its.it_value.tv_nsec = now.tv_nsec;
	expect_errno(timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL), 0,
		     "timerfd_settime absolute past expiry");
	deadline = now_ns() + AT_ONCE_NS;
	while (now_ns() < deadline) {
		n = read(fd, &ticks, sizeof(ticks));
		if (n == sizeof(ticks))
			break;
		usleep(1000);
	}
	ksft_test_result(n == sizeof(ticks) && ticks == 1,
			 "timerfd with a past expiry expired once at once (%llu)\n",
			 ticks);
	close(fd);
}

static void test_setitimer(void)
{
	struct itimerval val = { 0 }, old;

	val.it_value.tv_usec = 1000000;
	expect_errno(setitimer(ITIMER_REAL, &val, NULL), EINVAL,
		     "setitimer tv_usec == 1000000");
	val.it_value.tv_usec = 0;
	val.it_value.tv_sec = -1;
	expect_errno(setitimer(ITIMER_REAL, &val, NULL), EINVAL,
		     "setitimer tv_sec == -1");
	val.it_value.tv_sec = 1;
	expect_errno(setitimer(99, &val, NULL), EINVAL, "setitimer unknown which");
	getitimer(ITIMER_REAL, &old);
	ksft_test_result(!old.it_value.tv_sec && !old.it_value.tv_usec,
			 "rejected setitimer left ITIMER_REAL disarmed\n");
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(25);
	test_clock_nanosleep();
	test_timer_settime();
	test_timerfd();
	test_setitimer();
	ksft_finished();
}
