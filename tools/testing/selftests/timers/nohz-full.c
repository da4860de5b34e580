// SPDX-License-Identifier: GPL-2.0
/*
 * nohz-full: what a CPU listed in nohz_full= does with its tick while one
 * task runs on it alone in user space, and what must keep working there
 * meanwhile.
 *
 * The target is the last online CPU of /sys/devices/system/cpu/nohz_full;
 * without one the test skips.  This process stays off the target, and
 * children pinned to the target do the work:
 *
 * - busy-alone: a child spinning in user space alone on the target lets
 *   it take at most busy_bound(HZ) timer interrupts per second over BUSY_S
 *   seconds, after SETTLE_S to stop the tick.  A running tick takes HZ;
 *   6.12 keeps a residual of about one a second.
 * - jiffies: meanwhile CLOCK_MONOTONIC_COARSE, which the timekeeping CPU's
 *   tick advances, never stands still for more than GAP_TICKS tick periods
 *   while the child watches it: a stalled timekeeper stands for seconds.
 * - two-tasks: a second child on the target restarts its tick: at least
 *   HZ/4 timer interrupts per second over SHORT_S seconds.
 * - cputimer: a process CPU-time timer of CPUTIMER_MS, armed CPUTIMER_ROUNDS
 *   times by a child spinning alone on the target, signals each time
 *   within CPUTIMER_WALL_S seconds, at no less than its CPU time and at
 *   most GAP_TICKS tick periods more.  The tick runs the CPU timers: while
 *   one is armed the tick must stay on, or the signal never comes.
 * - timers: there a CLOCK_MONOTONIC interval timer of INTERVAL_MS signals
 *   while the child spins for TIMER_RUN_S, then SLEEP_ROUNDS absolute
 *   sleeps of SLEEP_MS follow spins of SPIN_MS.  For each kind the median
 *   lateness is at most LATE_TICKS tick periods, the worst at most
 *   LATE_MAX_MS, none early, and no expiry goes without its signal.
 * - hotplug: the target goes offline and back online, and is still listed;
 *   then a child spinning alone there stops its tick again, as in
 *   busy-alone, over SHORT_S seconds.
 *
 * Timer interrupts are counted per CPU as idle-ticks counts them, from the
 * rows of /proc/interrupts labelled LOC or whose description names a
 * timer.  Every child has an alarm, and so does this process, so that
 * nothing hangs the test; the target comes back online on every way out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "tick-util.h"

#define NOHZ_FULL_PATH "/sys/devices/system/cpu/nohz_full"
#define MAX_CPUS 256
#define MAX_KIDS 2
#define MSEC (NSEC_PER_SEC / 1000)

#define SETTLE_S 1		/* for the target to stop its tick */
#define BUSY_S 10		/* busy-alone window */
#define SHORT_S 5		/* two-tasks and hotplug windows */
#define READY_S 5		/* for a child to start on the target */
#define GAP_TICKS 25
#define CPUTIMER_MS 200
#define CPUTIMER_ROUNDS 3
#define CPUTIMER_WALL_S 5
#define INTERVAL_MS 50
#define TIMER_RUN_S 2
#define MAX_SIGNALS 128
#define SLEEP_ROUNDS 20
#define SPIN_MS 100
#define SLEEP_MS 20
#define LATE_TICKS 5
#define LATE_MAX_MS 100
#define CHILD_SLACK_S 10	/* a child's alarm beyond its own run */
#define WATCHDOG_S 120		/* the whole test; it takes about 40 s */

/* What the children tell this process, in memory they share with it. */
struct shared {
	int stop;				/* set here: the spinners end */
	int ready[MAX_KIDS];			/* child i spins on the target */
	char why[MAX_KIDS][160];		/* why child i gave up */
	long long max_gap;			/* coarse clock standing still, ns */
	long long updates;			/* coarse clock steps seen */
	long long max_away;			/* longest the spinner looked away */
	int rounds;				/* CPU-time timer rounds done */
	int fired[CPUTIMER_ROUNDS];
	long long cpu_ns[CPUTIMER_ROUNDS];	/* CPU time from arming to signal */
	long long wall_ns[CPUTIMER_ROUNDS];	/* wall time from arming to signal */
	int ntimer, nsleep;
	long long timer_late[MAX_SIGNALS];
	long long sleep_late[SLEEP_ROUNDS];
};

static struct shared *sh;
static int target = -1;
static long long period;	/* the tick period, ns */
static int hz;
static pid_t kids[MAX_KIDS];	/* the watchdog reads them too */
static int offlined;		/* the target is offline by our hand */
static char online_path[64];

/* At most this many timer interrupts a second with the tick stopped. */
static double busy_bound(void)
{
	return hz / 25.0 > 5 ? hz / 25.0 : 5;
}

static long long coarse_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static long long cputime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void sleep_until(long long ns)
{
	struct timespec ts = tick_ns_to_ts(ns);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Spin in user space until @ns on CLOCK_MONOTONIC. */
static void spin_until(long long ns)
{
	while (tick_now_ns() < ns)
		;
}

/*
 * The last resort when the test outlives WATCHDOG_S (SIGALRM) or the
 * runner ends it (SIGTERM): no child may outlive it and the target must
 * come back online.  Nothing but async-signal-safe calls here.
 */
static void watchdog(int sig)
{
	static const char alarm_msg[] = "Bail out! nohz-full outlived its time bound\n";
	static const char term_msg[] = "Bail out! nohz-full terminated\n";
	const char *msg = sig == SIGALRM ? alarm_msg : term_msg;
	size_t len = sig == SIGALRM ? sizeof(alarm_msg) - 1 : sizeof(term_msg) - 1;
	struct timespec tenth = { 0, NSEC_PER_SEC / 10 };
	int i, fd, tries, left = 1;
	pid_t pid;

	for (i = 0; i < MAX_KIDS; i++) {
		pid = __atomic_load_n(&kids[i], __ATOMIC_RELAXED);
		if (pid > 0)
			kill(pid, SIGKILL);
	}
	/* Reaped, so that none spins on beside the next test; a few seconds at most. */
	for (tries = 0; left && tries < 30; tries++) {
		for (i = 0, left = 0; i < MAX_KIDS; i++) {
			if (kids[i] > 0 && waitpid(kids[i], NULL, WNOHANG))
				kids[i] = 0;
			left |= kids[i] > 0;
		}
		if (left)
			nanosleep(&tenth, NULL);
	}
	if (__atomic_load_n(&offlined, __ATOMIC_RELAXED)) {
		fd = open(online_path, O_WRONLY);
		if (fd >= 0) {
			offlined = write(fd, "1", 1) != 1;
			close(fd);
		}
	}
	if (write(STDOUT_FILENO, msg, len) < 0)
		_exit(KSFT_FAIL);
	_exit(KSFT_FAIL);
}

/* On every exit: children killed and reaped, the target online. */
static void cleanup(void)
{
	int i;

	for (i = 0; i < MAX_KIDS; i++) {
		if (kids[i] <= 0)
			continue;
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
		kids[i] = 0;
	}
	if (offlined && !tick_set_cpu_online(target, 1))
		offlined = 0;
}

/* In a child: say why it gives up, and end it. */
static __printf(2, 3) void child_fail(int idx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sh->why[idx], sizeof(sh->why[idx]), fmt, ap);
	va_end(ap);
	_exit(1);
}

/* In a child: move to the target, and make sure it runs there. */
static void pin_to_target(int idx)
{
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	CPU_SET(target, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		child_fail(idx, "cannot pin a child to CPU %d: %s", target, strerror(errno));
	cpu = sched_getcpu();
	if (cpu != target)
		child_fail(idx, "a child pinned to CPU %d runs on CPU %d", target, cpu);
}

/*
 * A child that spins on the target until told to stop, watching
 * CLOCK_MONOTONIC_COARSE.  It stands still from one step to the next: by
 * how much the value stepped when the child looked just before the step
 * (less than a tick before, so that no step went unseen), else at least
 * as long as the child saw one value.
 */
static void spinner(int idx)
{
	long long now, prev, seen, coarse, last, gap;
	long long max_gap = 0, max_away = 0, updates = 0;

	pin_to_target(idx);
	__atomic_store_n(&sh->ready[idx], 1, __ATOMIC_RELEASE);
	last = coarse_ns();
	prev = tick_now_ns();
	seen = prev;
	while (!__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) {
		now = tick_now_ns();
		coarse = coarse_ns();
		if (now - prev > max_away)
			max_away = now - prev;
		if (coarse != last) {
			gap = now - prev < period ? coarse - last : prev - seen;
			if (gap > max_gap)
				max_gap = gap;
			updates++;
			last = coarse;
			seen = now;
		}
		prev = now;
	}
	if (prev - seen > max_gap)
		max_gap = prev - seen;
	if (!idx) {
		sh->max_gap = max_gap;
		sh->updates = updates;
		sh->max_away = max_away;
	}
}

static int got_signal;		/* set by on_cputimer(), read atomically */
static struct timespec signal_cpu, signal_wall;

static void on_cputimer(int sig)
{
	(void)sig;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &signal_cpu);
	clock_gettime(CLOCK_MONOTONIC, &signal_wall);
	__atomic_store_n(&got_signal, 1, __ATOMIC_RELEASE);
}

static void set_handler(int sig, void (*fn)(int))
{
	struct sigaction sa = { .sa_handler = fn };

	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/*
 * A child that arms a one-shot process CPU-time timer while it spins alone
 * on the target, CPUTIMER_ROUNDS times, and says how much CPU time and
 * wall time each took to signal; it stops at the first without a signal.
 */
static void cputimer_child(int idx)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	struct itimerspec its = { .it_value = tick_ns_to_ts(CPUTIMER_MS * MSEC) };
	struct itimerspec off = { 0 };
	long long cpu0, wall0;
	timer_t tid;
	int r;

	pin_to_target(idx);
	spin_until(tick_now_ns() + SETTLE_S * NSEC_PER_SEC);
	set_handler(SIGUSR1, on_cputimer);
	if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &sev, &tid))
		child_fail(idx, "timer_create(CLOCK_PROCESS_CPUTIME_ID): %s", strerror(errno));
	for (r = 0; r < CPUTIMER_ROUNDS; r++) {
		__atomic_store_n(&got_signal, 0, __ATOMIC_RELAXED);
		cpu0 = cputime_ns();
		wall0 = tick_now_ns();
		if (timer_settime(tid, 0, &its, NULL))
			child_fail(idx, "timer_settime: %s", strerror(errno));
		while (!__atomic_load_n(&got_signal, __ATOMIC_ACQUIRE) &&
		       tick_now_ns() - wall0 < CPUTIMER_WALL_S * NSEC_PER_SEC)
			;
		sh->fired[r] = __atomic_load_n(&got_signal, __ATOMIC_ACQUIRE);
		sh->rounds = r + 1;
		if (!sh->fired[r]) {
			timer_settime(tid, 0, &off, NULL);
			break;
		}
		sh->cpu_ns[r] = signal_cpu.tv_sec * NSEC_PER_SEC + signal_cpu.tv_nsec - cpu0;
		sh->wall_ns[r] = signal_wall.tv_sec * NSEC_PER_SEC + signal_wall.tv_nsec - wall0;
	}
	timer_delete(tid);
}

static timer_t interval_timer;
static int nsignals;
static long long signal_at[MAX_SIGNALS];
static int signal_overrun[MAX_SIGNALS];

static void on_interval(int sig)
{
	int i = __atomic_load_n(&nsignals, __ATOMIC_RELAXED);

	(void)sig;
	if (i >= MAX_SIGNALS)
		return;
	signal_at[i] = tick_now_ns();
	signal_overrun[i] = timer_getoverrun(interval_timer);
	__atomic_store_n(&nsignals, i + 1, __ATOMIC_RELEASE);
}

/*
 * A child alone on the target: first an interval timer signals while it
 * spins, each signal late by how long after the last expiry it stands
 * for (with its overruns) it came; then absolute sleeps between spins,
 * each late by how long after its end it woke.
 */
static void timers_child(int idx)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR2 };
	long long start, end, expiry, due, now;
	struct itimerspec its = { 0 };
	struct timespec ts;
	int i, n;

	pin_to_target(idx);
	spin_until(tick_now_ns() + SETTLE_S * NSEC_PER_SEC);
	set_handler(SIGUSR2, on_interval);
	if (timer_create(CLOCK_MONOTONIC, &sev, &interval_timer))
		child_fail(idx, "timer_create(CLOCK_MONOTONIC): %s", strerror(errno));
	start = tick_now_ns();
	end = start + TIMER_RUN_S * NSEC_PER_SEC;
	its.it_value = tick_ns_to_ts(start + INTERVAL_MS * MSEC);
	its.it_interval = tick_ns_to_ts(INTERVAL_MS * MSEC);
	if (timer_settime(interval_timer, TIMER_ABSTIME, &its, NULL))
		child_fail(idx, "timer_settime: %s", strerror(errno));
	spin_until(end);
	memset(&its, 0, sizeof(its));
	timer_settime(interval_timer, 0, &its, NULL);
	timer_delete(interval_timer);

	n = __atomic_load_n(&nsignals, __ATOMIC_ACQUIRE);
	for (i = 0, expiry = 0; i < n; i++) {
		expiry += 1 + signal_overrun[i];
		sh->timer_late[i] = signal_at[i] - (start + expiry * INTERVAL_MS * MSEC);
	}
	sh->ntimer = n;
	/* An expiry not signalled LATE_MAX_MS after it is too late. */
	due = (end - start - LATE_MAX_MS * MSEC) / (INTERVAL_MS * MSEC);
	if (expiry < due)
		child_fail(idx, "%lld of the %lld expiries due %d ms before the end signalled",
			   expiry, due, LATE_MAX_MS);

	for (i = 0; i < SLEEP_ROUNDS; i++) {
		spin_until(tick_now_ns() + SPIN_MS * MSEC);
		now = tick_now_ns() + SLEEP_MS * MSEC;
		ts = tick_ns_to_ts(now);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		sh->sleep_late[i] = tick_now_ns() - now;
		sh->nsleep = i + 1;
	}
}

/* Start child @idx running @fn, with an alarm @limit_s seconds away. */
static void start_child(int idx, void (*fn)(int), int limit_s)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		signal(SIGALRM, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		alarm(limit_s);
		fn(idx);
		_exit(0);
	}
	kids[idx] = pid;
}

/*
 * Wait up to @wait_s seconds for child @idx to end, then kill it.  0 when
 * it exited 0, else -1 with what became of it in @why.
 */
static int reap(int idx, int wait_s, char *why, size_t len)
{
	long long until = tick_now_ns() + wait_s * NSEC_PER_SEC;
	pid_t pid = kids[idx];
	int status, ret;

	while ((ret = waitpid(pid, &status, WNOHANG)) == 0 && tick_now_ns() < until)
		usleep(10000);
	if (!ret) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		snprintf(why, len, "a child did not end within %d s", wait_s);
		kids[idx] = 0;
		return -1;
	}
	kids[idx] = 0;
	if (ret < 0) {
		snprintf(why, len, "waitpid: %s", strerror(errno));
		return -1;
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (sh->why[idx][0])
		snprintf(why, len, "%s", sh->why[idx]);
	else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		snprintf(why, len, "a child outlived its time bound");
	else if (WIFSIGNALED(status))
		snprintf(why, len, "a child died of signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(why, len, "a child exited %d", WEXITSTATUS(status));
	return -1;
}

/* Involuntary context switches of @pid so far, -1 when unknown. */
static long long preemptions(pid_t pid)
{
	char path[64], line[128];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "nonvoluntary_ctxt_switches: %lld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* The target's timer interrupts per second over the next @secs seconds. */
static int target_irq_rate(int secs, double *rate, char *why, size_t len)
{
	static unsigned long long before[MAX_CPUS], after[MAX_CPUS];
	static int col0[MAX_CPUS], col1[MAX_CPUS];
	long long t0, t1;
	int ret;

	ret = tick_read_timer_irqs(before, col0, MAX_CPUS);
	t0 = tick_now_ns();
	sleep_until(t0 + secs * NSEC_PER_SEC);
	if (!ret)
		ret = tick_read_timer_irqs(after, col1, MAX_CPUS);
	t1 = tick_now_ns();
	if (ret) {
		snprintf(why, len, "cannot read /proc/interrupts: %s", strerror(-ret));
		return -1;
	}
	if (!col0[target] || !col1[target]) {
		snprintf(why, len, "/proc/interrupts has no column for CPU %d", target);
		return -1;
	}
	*rate = (double)(after[target] - before[target]) * NSEC_PER_SEC / (t1 - t0);
	return 0;
}

/*
 * Run @n spinners on the target; after SETTLE_S, count its timer interrupts
 * over @secs seconds, and stop them.  0, or -1 with the reason in @why.
 * @preempted gets how often the first spinner was preempted meanwhile.
 */
static int run_spinners(int n, int secs, double *rate, long long *preempted,
			char *why, size_t len)
{
	long long until, p0;
	int i, ready, ret = 0;
	char other[256];

	memset(sh, 0, sizeof(*sh));
	for (i = 0; i < n; i++)
		start_child(i, spinner, SETTLE_S + secs + READY_S + CHILD_SLACK_S);
	until = tick_now_ns() + READY_S * NSEC_PER_SEC;
	do {
		usleep(10000);
		for (i = 0, ready = 0; i < n; i++)
			ready += __atomic_load_n(&sh->ready[i], __ATOMIC_ACQUIRE);
	} while (ready < n && tick_now_ns() < until);
	if (ready < n) {
		snprintf(why, len, "%d of %d spinners started on CPU %d within %d s", ready, n,
			 target, READY_S);
		ret = -1;
	}
	if (!ret) {
		sleep_until(tick_now_ns() + SETTLE_S * NSEC_PER_SEC);
		p0 = preemptions(kids[0]);
		ret = target_irq_rate(secs, rate, why, len);
		*preempted = p0 < 0 ? -1 : preemptions(kids[0]) - p0;
	}
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < n; i++) {
		/* The first reason stands. */
		if (reap(i, READY_S, ret ? other : why, ret ? sizeof(other) : len))
			ret = -1;
	}
	return ret;
}

/*
 * Case @name: one task spins alone on the target for @secs, after @what
 * happened there, and its tick must stay stopped.  -1 when the spinner
 * could not run (@name failed, the reason in @why).
 */
static int check_alone(const char *name, const char *what, int secs, char *why, size_t len)
{
	long long preempted;
	double rate;

	if (run_spinners(1, secs, &rate, &preempted, why, len)) {
		ksft_test_result_fail("%s: CPU %d%s: %s\n", name, target, what, why);
		return -1;
	}
	ksft_print_msg("%s: CPU %d: %.1f timer interrupts/s (HZ %d), %s %lld times\n",
		       name, target, rate, hz, "spinner preempted", preempted);
	ksft_test_result(rate <= busy_bound(),
			 "%s: CPU %d%s took %.1f timer interrupts/s over %d s with one task spinning, at most %.0f/s\n",
			 name, target, what, rate, secs, busy_bound());
	return 0;
}

static void check_busy_alone(void)
{
	long long bound = GAP_TICKS * period;
	char why[256] = "";

	if (check_alone("busy-alone", "", BUSY_S, why, sizeof(why))) {
		ksft_test_result_fail("jiffies: CPU %d: %s\n", target, why);
		return;
	}
	ksft_print_msg("jiffies: %lld coarse clock steps, longest look away %.1f ms\n",
		       sh->updates, (double)sh->max_away / MSEC);
	ksft_test_result(sh->max_gap <= bound,
			 "jiffies: CLOCK_MONOTONIC_COARSE stood still for at most %.1f ms (%.1f ticks) seen from CPU %d, at most %d ticks\n",
			 (double)sh->max_gap / MSEC, (double)sh->max_gap / period, target,
			 GAP_TICKS);
}

static void check_two_tasks(void)
{
	long long preempted;
	char why[256] = "";
	double rate;

	if (run_spinners(2, SHORT_S, &rate, &preempted, why, sizeof(why))) {
		ksft_test_result_fail("two-tasks: CPU %d: %s\n", target, why);
		return;
	}
	ksft_print_msg("two-tasks: CPU %d: %.1f timer interrupts/s (HZ %d)\n", target, rate, hz);
	ksft_test_result(rate >= hz / 4.0,
			 "two-tasks: CPU %d took %.1f timer interrupts/s over %d s with two tasks spinning, at least %.1f/s\n",
			 target, rate, SHORT_S, hz / 4.0);
}

static void check_cputimer(void)
{
	long long lo = CPUTIMER_MS * MSEC, hi = lo + GAP_TICKS * period;
	char why[256] = "", list[CPUTIMER_ROUNDS * 32] = "";
	int r, off = 0, ok = 1;

	memset(sh, 0, sizeof(*sh));
	start_child(0, cputimer_child,
		    SETTLE_S + CPUTIMER_ROUNDS * CPUTIMER_WALL_S + CHILD_SLACK_S);
	if (reap(0, SETTLE_S + CPUTIMER_ROUNDS * CPUTIMER_WALL_S + CHILD_SLACK_S + 2,
		 why, sizeof(why))) {
		ksft_test_result_fail("cputimer: CPU %d: %s\n", target, why);
		return;
	}
	for (r = 0; r < sh->rounds; r++) {
		if (!sh->fired[r]) {
			off += snprintf(list + off, sizeof(list) - off, " none in %d s",
					CPUTIMER_WALL_S);
			ok = 0;
			continue;
		}
		off += snprintf(list + off, sizeof(list) - off, " %.1f/%.1f",
				(double)sh->cpu_ns[r] / MSEC, (double)sh->wall_ns[r] / MSEC);
		ok &= sh->cpu_ns[r] >= lo && sh->cpu_ns[r] <= hi &&
		      sh->wall_ns[r] <= CPUTIMER_WALL_S * NSEC_PER_SEC;
	}
	ok &= sh->rounds == CPUTIMER_ROUNDS;
	ksft_test_result(ok,
			 "cputimer: CPU %d: %d ms CPU-time timer signalled at CPU/wall ms:%s; %d rounds, each at %.0f-%.1f ms CPU time within %d s\n",
			 target, CPUTIMER_MS, list, CPUTIMER_ROUNDS, (double)lo / MSEC,
			 (double)hi / MSEC, CPUTIMER_WALL_S);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/*
 * Sort @n latenesses and describe them in @buf; 1 when their median, worst
 * and best are within bounds.
 */
static int judge_lateness(const char *what, long long *late, int n, char *buf, size_t len)
{
	long long med_bound = LATE_TICKS * period, max_bound = LATE_MAX_MS * MSEC;

	if (!n) {
		snprintf(buf, len, "%s: none", what);
		return 0;
	}
	qsort(late, n, sizeof(*late), cmp_ll);
	snprintf(buf, len, "%s: %d, median %.2f ms, max %.2f ms, min %.2f ms", what, n,
		 (double)late[n / 2] / MSEC, (double)late[n - 1] / MSEC, (double)late[0] / MSEC);
	return late[n / 2] <= med_bound && late[n - 1] <= max_bound && late[0] >= 0;
}

static void check_timers(void)
{
	int limit = SETTLE_S + TIMER_RUN_S + SLEEP_ROUNDS * (SPIN_MS + SLEEP_MS) / 1000 +
		    CHILD_SLACK_S;
	char why[256] = "", timers[128], sleeps[128];
	int ok;

	memset(sh, 0, sizeof(*sh));
	start_child(0, timers_child, limit);
	if (reap(0, limit + 2, why, sizeof(why))) {
		ksft_test_result_fail("timers: CPU %d: %s\n", target, why);
		return;
	}
	ok = judge_lateness("timer signals", sh->timer_late, sh->ntimer, timers,
			    sizeof(timers));
	ok &= judge_lateness("sleeps", sh->sleep_late, sh->nsleep, sleeps, sizeof(sleeps));
	ksft_print_msg("timers: %s\n", timers);
	ksft_print_msg("timers: %s\n", sleeps);
	ksft_test_result(ok,
			 "timers: CPU %d: %s; %s; median at most %.1f ms (%d ticks), max %d ms, none early\n",
			 target, timers, sleeps, (double)LATE_TICKS * period / MSEC, LATE_TICKS,
			 LATE_MAX_MS);
}

/* Take the target offline and back; 0, 1 to skip, -1 with @why. */
static int cycle_target(char *why, size_t len)
{
	int in[MAX_CPUS], ret;

	ret = tick_set_cpu_online(target, 0);
	if (ret == -EACCES || ret == -EPERM) {
		snprintf(why, len, "not allowed to take CPU %d offline: %s", target,
			 strerror(-ret));
		return 1;
	}
	if (ret) {
		snprintf(why, len, "taking CPU %d offline: %s", target, strerror(-ret));
		return -1;
	}
	offlined = 1;
	if (tick_cpu_online(target) != 0) {
		snprintf(why, len, "CPU %d still online after it went offline", target);
		return -1;
	}
	ret = tick_set_cpu_online(target, 1);
	if (ret) {
		snprintf(why, len, "bringing CPU %d back online: %s", target, strerror(-ret));
		return -1;
	}
	offlined = 0;
	if (tick_cpu_online(target) != 1) {
		snprintf(why, len, "CPU %d not online after it came back", target);
		return -1;
	}
	if (tick_read_cpulist(NOHZ_FULL_PATH, in, MAX_CPUS) <= 0 || !in[target]) {
		snprintf(why, len, "CPU %d no longer in %s after it came back", target,
			 NOHZ_FULL_PATH);
		return -1;
	}
	return 0;
}

static void check_hotplug(void)
{
	char why[256] = "";
	int ret;

	if (access(online_path, F_OK)) {
		ksft_test_result_skip("hotplug: CPU %d has no online file: it cannot go offline\n",
				      target);
		return;
	}
	ret = cycle_target(why, sizeof(why));
	if (offlined && !tick_set_cpu_online(target, 1))
		offlined = 0;
	if (ret > 0) {
		ksft_test_result_skip("hotplug: %s\n", why);
		return;
	}
	if (ret) {
		ksft_test_result_fail("hotplug: %s\n", why);
		return;
	}
	check_alone("hotplug", " offline and back, then", SHORT_S, why, sizeof(why));
}

/* Keep this process off the target: on the CPUs that are not nohz_full. */
static void pin_self_off_target(const int *nohz)
{
	cpu_set_t set;
	int cpu, n = 0, pass;

	for (pass = 0; pass < 2 && !n; pass++) {
		CPU_ZERO(&set);
		for (cpu = 0; cpu < MAX_CPUS; cpu++) {
			if ((pass ? cpu == target : nohz[cpu]) || tick_cpu_online(cpu) != 1)
				continue;
			CPU_SET(cpu, &set);
			n++;
		}
	}
	if (!n || sched_setaffinity(0, sizeof(set), &set))
		ksft_print_msg("cannot keep this process off CPU %d: %s\n", target,
			       n ? strerror(errno) : "no other CPU online");
}

int main(void)
{
	int nohz[MAX_CPUS], cpu, n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	n = tick_read_cpulist(NOHZ_FULL_PATH, nohz, MAX_CPUS);
	if (n < 0)
		ksft_exit_fail_msg("%s is no CPU list\n", NOHZ_FULL_PATH);
	if (!n)
		ksft_exit_skip("no nohz_full CPUs (%s missing, empty or (null)): %s\n",
			       NOHZ_FULL_PATH, "boot a NO_HZ_FULL kernel with nohz_full=");
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (nohz[cpu] && tick_cpu_online(cpu) == 1)
			target = cpu;
	if (target < 0)
		ksft_exit_skip("no nohz_full CPUs online\n");
	hz = tick_hz();
	period = tick_period_ns();
	if (hz <= 0)
		ksft_exit_fail_msg("no HZ from CLOCK_MONOTONIC_COARSE's resolution (%lld ns)\n",
				   period);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	snprintf(online_path, sizeof(online_path), "/sys/devices/system/cpu/cpu%d/online",
		 target);

	signal(SIGALRM, watchdog);
	signal(SIGTERM, watchdog);
	alarm(WATCHDOG_S);
	atexit(cleanup);
	pin_self_off_target(nohz);
	ksft_set_plan(6);
	ksft_print_msg("target CPU %d, %d nohz_full CPUs, HZ %d; %s %.0f timer interrupts/s\n",
		       target, n, hz, "tick stopped: at most", busy_bound());

	check_busy_alone();
	check_two_tasks();
	check_cputimer();
	check_timers();
	check_hotplug();
	alarm(0);
	ksft_finished();
}
