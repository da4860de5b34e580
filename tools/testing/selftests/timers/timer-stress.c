// SPDX-License-Identifier: GPL-2.0
/*
 * timer-stress: load the timer subsystem and check that it keeps its
 * promises meanwhile.
 *
 * - Load: when stress-ng is in PATH, its timer stressors run on every CPU
 *   for the duration, and its exit status must say that each of them ran
 *   or does not exist here.  Without stress-ng the checks below run on an
 *   otherwise quiet system: a lost or early timer is a bug there too.
 * - Sleepers: two SCHED_FIFO threads per online CPU wait 50 us to 20 ms,
 *   over and over, with clock_nanosleep() relative and absolute, a timerfd
 *   and a POSIX timer, all on CLOCK_MONOTONIC.  Every sleeper must finish
 *   its loop, no wait may end before its expiry time, and the worst
 *   overshoot must stay below -b: a generous bound, as a TCG guest on a
 *   busy host delays wake-ups a lot without any bug.
 * - Hotplug (-c N): meanwhile every CPU that can go offline does so N
 *   times; after each cycle every online CPU has a tick device and
 *   jiffies move on.
 *
 * A sleeper still blocked STUCK_AFTER_S seconds after the end has lost its
 * timer.  An alarm bounds the whole run, so that nothing lost hangs it.
 *
 * Usage: timer-stress [-d seconds] [-c hotplug cycles] [-b max overshoot ms]
 *        (defaults 30, 0 and 1000)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "tick-util.h"

#define NSEC_PER_SEC 1000000000LL
#define NSEC_PER_MSEC 1000000LL
#define MAX_CPUS 64
#define MAX_SLEEPERS 64
#define MIN_WAIT_NS 50000LL
#define MAX_WAIT_NS 20000000LL
#define WAIT_OCTAVES 9		/* 50 us << 9 passes MAX_WAIT_NS */
#define STUCK_AFTER_S 60
#define LOAD_GRACE_S 90		/* how late stress-ng may stop after -t */
#define LOAD_KILL_S 5		/* how long it gets to stop on SIGINT */
#define LOAD_MAX_LINES 100	/* of its output echoed */
#define HOTPLUG_OVERRUN_S 60	/* cycles may start this late after -d */
#define JIFFIES_WAIT_S 5
#define WATCHDOG_SLACK_S 30

/*
 * Real-time priorities: the sleepers run above every stressor (hrtimers
 * takes SCHED_RR (max - min) / 2, 49; cyclic would take 99 unless capped),
 * so that their overshoot is the timer's lateness and a wake-up, not the
 * time the stressors hold the CPU: SCHED_OTHER threads get only what RT
 * throttling leaves, 50 ms a second, and waited up to 1.5 s in a trial.
 */
#define SLEEPER_PRIO 90
#define CYCLIC_PRIO "50"

/* stress-ng's exit status when a stressor does not exist on this system. */
#define STRESS_NG_NOT_IMPLEMENTED 4

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

enum wait_kind { WAIT_REL, WAIT_ABS, WAIT_TIMERFD, WAIT_POSIX, NR_WAIT_KINDS };

static const char * const kind_name[NR_WAIT_KINDS] = {
	"clock_nanosleep relative", "clock_nanosleep absolute",
	"timerfd relative", "POSIX timer absolute",
};

struct wait_stats {
	unsigned long waits;	/* that ended without an error */
	unsigned long early;	/* of them, before their expiry time */
	unsigned long errors;
	int last_errno;
	long long earliest_ns;	/* how early the earliest one ended */
	long long sum_ns;	/* overshoot of the waits that were not early */
	long long worst_ns;
	long long worst_len_ns;	/* length of the worst one */
};

struct sleeper {
	pthread_t thread;
	unsigned int seed;
	int tfd;
	timer_t timer;
	int setup_err;		/* errno of timerfd_create() or timer_create() */
	int sched_err;		/* why it is not SCHED_FIFO, or 0 */
	int cur_kind;		/* the wait under way, for a stuck sleeper */
	long long cur_len_ns;
	struct wait_stats st[NR_WAIT_KINDS];
	int done;
};

struct load {
	char path[256];		/* of stress-ng, "" when it is not in PATH */
	pid_t pid;		/* -errno when it could not be started */
	int out;		/* its stdout and stderr */
	int status;
	int stopped;		/* it overran and was stopped */
	long long started;
};

struct hotplug {
	int cpus[MAX_CPUS];	/* online CPUs with an online file */
	int ncpus;
	int went_off[MAX_CPUS];	/* the CPU went offline at least once */
	int skip[MAX_CPUS];	/* it refused to go offline the first time */
	int cycles_done;
	int failures;
	char first_failure[160];
};

static struct sleeper sleepers[MAX_SLEEPERS];
static int stop;		/* set by main when the sleepers should finish */
static sigset_t timer_sigs;	/* the POSIX timers' signal, blocked everywhere */
static int load_pgrp;		/* for the watchdog to kill, set atomically */

/* Sleep to the absolute CLOCK_MONOTONIC time @ns, which no signal stretches. */
static void sleep_until(long long ns)
{
	struct timespec ts = tick_ns_to_ts(ns);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/*
 * 50 us to 20 ms, each octave as likely as any other: the short waits,
 * which work the hrtimer and clockevents reprogramming hardest, are as
 * frequent as the long ones that span ticks and idle periods.
 */
static long long wait_length(unsigned int *seed)
{
	long long lo = MIN_WAIT_NS << (rand_r(seed) % WAIT_OCTAVES);
	long long len = lo + rand_r(seed) % lo;

	return len < MAX_WAIT_NS ? len : MAX_WAIT_NS;
}

/* Arm @fd @len_ns from now and read its expiry count. */
static int wait_timerfd(int fd, long long len_ns)
{
	struct itimerspec its = { .it_value = tick_ns_to_ts(len_ns) };
	uint64_t expiries;
	ssize_t n;

	if (timerfd_settime(fd, 0, &its, NULL))
		return errno;
	n = read(fd, &expiries, sizeof(expiries));
	if (n < 0)
		return errno;
	return n == sizeof(expiries) ? 0 : EIO;
}

/* Arm @timer for the absolute time @due_ns and take its signal. */
static int wait_posix_timer(timer_t timer, long long due_ns)
{
	struct itimerspec its = { .it_value = tick_ns_to_ts(due_ns) };
	siginfo_t si;
	int sig;

	if (timer_settime(timer, TIMER_ABSTIME, &its, NULL))
		return errno;
	do {
		sig = sigwaitinfo(&timer_sigs, &si);
	} while (sig < 0 && errno == EINTR);
	if (sig < 0)
		return errno;
	return si.si_code == SI_TIMER ? 0 : EPROTO;
}

/*
 * One wait of @len_ns by @kind.  Returns 0 or an error number, and in
 * *late_ns how long after its expiry time it ended (< 0: early).  The
 * expiry time of a relative wait is taken before the call: the kernel
 * starts counting later, which can only make the wait look longer.
 */
static int wait_once(struct sleeper *s, int kind, long long len_ns, long long *late_ns)
{
	long long due = tick_now_ns() + len_ns;
	struct timespec ts;
	int ret;

	switch (kind) {
	case WAIT_REL:
		ts = tick_ns_to_ts(len_ns);
		ret = clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		break;
	case WAIT_ABS:
		ts = tick_ns_to_ts(due);
		ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		break;
	case WAIT_TIMERFD:
		ret = wait_timerfd(s->tfd, len_ns);
		break;
	default:
		ret = wait_posix_timer(s->timer, due);
		break;
	}
	*late_ns = tick_now_ns() - due;
	return ret;
}

static void record(struct wait_stats *w, int err, long long late_ns, long long len_ns)
{
	if (err) {
		w->errors++;
		w->last_errno = err;
		return;
	}
	w->waits++;
	if (late_ns < 0) {
		w->early++;
		if (-late_ns > w->earliest_ns)
			w->earliest_ns = -late_ns;
		return;
	}
	w->sum_ns += late_ns;
	if (late_ns > w->worst_ns) {
		w->worst_ns = late_ns;
		w->worst_len_ns = len_ns;
	}
}

/* A timerfd, and a POSIX timer that signals this thread alone. */
static int sleeper_setup(struct sleeper *s)
{
	struct sigevent sev = {
		.sigev_notify = SIGEV_THREAD_ID,
		.sigev_signo = SIGRTMIN,
	};
	int err;

	sev.sigev_notify_thread_id = gettid();
	s->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (s->tfd < 0)
		return errno;
	if (timer_create(CLOCK_MONOTONIC, &sev, &s->timer)) {
		err = errno;
		close(s->tfd);
		return err;
	}
	return 0;
}

static void *sleeper_main(void *arg)
{
	struct sched_param sp = { .sched_priority = SLEEPER_PRIO };
	struct sleeper *s = arg;
	unsigned long i = s - sleepers;	/* sleepers start on different kinds */
	long long late;
	int err;

	/* Without privilege it stays SCHED_OTHER, as stress-ng's stressors do. */
	s->sched_err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	s->setup_err = sleeper_setup(s);
	if (s->setup_err)
		goto out;
	/* One wait at least, however late the thread got to run. */
	do {
		s->cur_kind = i++ % NR_WAIT_KINDS;
		s->cur_len_ns = wait_length(&s->seed);
		err = wait_once(s, s->cur_kind, s->cur_len_ns, &late);
		record(&s->st[s->cur_kind], err, late, s->cur_len_ns);
	} while (!__atomic_load_n(&stop, __ATOMIC_RELAXED));
	timer_delete(s->timer);
	close(s->tfd);
out:
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void start_sleepers(int n)
{
	int i;

	for (i = 0; i < n; i++) {
		sleepers[i].seed = i + 1;
		if (pthread_create(&sleepers[i].thread, NULL, sleeper_main, &sleepers[i]))
			ksft_exit_fail_msg("pthread_create failed\n");
	}
}

/*
 * Stop the sleepers and wait for each to end its last wait, STUCK_AFTER_S
 * seconds at most in all: one still blocked then has lost its timer.
 * Returns how many are stuck; their counters are taken as they stand.
 */
static int stop_sleepers(int n)
{
	long long deadline;
	int i, stuck = 0;

	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	deadline = tick_now_ns() + STUCK_AFTER_S * NSEC_PER_SEC;
	for (i = 0; i < n; i++) {
		while (!__atomic_load_n(&sleepers[i].done, __ATOMIC_ACQUIRE) &&
		       tick_now_ns() < deadline)
			usleep(1000);
		if (__atomic_load_n(&sleepers[i].done, __ATOMIC_ACQUIRE)) {
			pthread_join(sleepers[i].thread, NULL);
			continue;
		}
		stuck++;
		ksft_print_msg("sleeper %d still blocked in a %lld us %s wait\n", i,
			       sleepers[i].cur_len_ns / 1000, kind_name[sleepers[i].cur_kind]);
	}
	return stuck;
}

static void add_stats(struct wait_stats *to, const struct wait_stats *w)
{
	to->waits += w->waits;
	to->early += w->early;
	to->errors += w->errors;
	if (w->errors)
		to->last_errno = w->last_errno;
	if (w->earliest_ns > to->earliest_ns)
		to->earliest_ns = w->earliest_ns;
	to->sum_ns += w->sum_ns;
	if (w->worst_ns > to->worst_ns) {
		to->worst_ns = w->worst_ns;
		to->worst_len_ns = w->worst_len_ns;
	}
}

static long long mean_us(const struct wait_stats *w)
{
	unsigned long late = w->waits - w->early;

	return late ? w->sum_ns / (long long)late / 1000 : 0;
}

static void print_stats(const char *what, const struct wait_stats *w)
{
	ksft_print_msg("%s: %lu waits, overshoot mean %lld us, worst %lld us (in a %lld us wait)\n",
		       what, w->waits, mean_us(w), w->worst_ns / 1000, w->worst_len_ns / 1000);
	if (w->early || w->errors)
		ksft_print_msg("%s: %lu early (by up to %lld ns), %lu failed (last: %s)\n", what,
			       w->early, w->earliest_ns, w->errors,
			       w->errors ? strerror(w->last_errno) : "none");
}

static void report_sleepers(int n, int stuck, int bound_ms)
{
	struct wait_stats kinds[NR_WAIT_KINDS] = { 0 }, all = { 0 };
	int i, k, setup_failed = 0, not_rt = 0, sched_err = 0;

	for (i = 0; i < n; i++) {
		if (sleepers[i].sched_err) {
			not_rt++;
			sched_err = sleepers[i].sched_err;
		}
		if (sleepers[i].setup_err) {
			setup_failed++;
			ksft_print_msg("sleeper %d: no timer: %s\n", i,
				       strerror(sleepers[i].setup_err));
		}
		for (k = 0; k < NR_WAIT_KINDS; k++)
			add_stats(&kinds[k], &sleepers[i].st[k]);
	}
	if (not_rt)
		ksft_print_msg("%d of %d sleepers not SCHED_FIFO: %s\n", not_rt, n,
			       strerror(sched_err));
	for (k = 0; k < NR_WAIT_KINDS; k++) {
		print_stats(kind_name[k], &kinds[k]);
		add_stats(&all, &kinds[k]);
	}
	print_stats("all", &all);
	ksft_test_result(!stuck && !setup_failed && !all.errors,
			 "all %d sleepers finished their loops (%d stuck %d s after the end, %d without timers, %lu failed waits)\n",
			 n, stuck, STUCK_AFTER_S, setup_failed, all.errors);
	ksft_test_result(!all.early, "no wait ended before its expiry time (%lu of %lu early)\n",
			 all.early, all.waits);
	ksft_test_result(all.waits && all.worst_ns < bound_ms * NSEC_PER_MSEC,
			 "worst overshoot %lld us, bound %d ms; mean %lld us over %lu waits\n",
			 all.worst_ns / 1000, bound_ms, mean_us(&all), all.waits);
}

/* The path of @name in $PATH into @buf; -1 when no directory has it. */
static int find_in_path(const char *name, char *buf, size_t len)
{
	const char *p = getenv("PATH"), *end;
	int n;

	for (; p && *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		n = end - p;
		/* An empty entry is the current directory. */
		snprintf(buf, len, "%.*s/%s", n ? n : 1, n ? p : ".", name);
		if (!access(buf, X_OK))
			return 0;
	}
	buf[0] = '\0';
	return -1;
}

/*
 * Fork stress-ng with the timer stressors, one instance each per CPU.
 * --cyclic-policy fifo: Debian's default policy, SCHED_DEADLINE, fails
 * admission for a second instance with the default runtime (EBUSY);
 * --cyclic-prio keeps it below the sleepers.
 * Unprivileged, cyclic skips itself and hrtimers stays SCHED_OTHER, and
 * the exit status is still 0.  --log-brief drops the "stress-ng: info:
 * [pid]" prefixes, --oomable keeps an OOM-killed stressor from being
 * restarted.  Its output goes to a memfd: a pipe could fill up and block
 * it, and /tmp may not be there.
 */
static void start_load(struct load *l, int duration)
{
	char secs[24];
	char *const argv[] = {
		"stress-ng", "--timer", "0", "--timerfd", "0", "--hrtimers", "0",
		"--clock", "0", "--nanosleep", "0", "--itimer", "0", "--cyclic", "0",
		"--cyclic-policy", "fifo", "--cyclic-prio", CYCLIC_PRIO,
		"--cyclic-method", "clock_ns",
		"-t", secs, "--metrics-brief", "--log-brief", "--oomable", NULL
	};
	char cmd[512] = "";
	sigset_t none;
	FILE *spill;
	size_t n;
	int i;

	if (find_in_path("stress-ng", l->path, sizeof(l->path))) {
		ksft_print_msg("no stress-ng in PATH: the checks run without external load\n");
		return;
	}
	snprintf(secs, sizeof(secs), "%ds", duration);
	l->out = memfd_create("stress-ng", MFD_CLOEXEC);
	if (l->out < 0) {
		spill = tmpfile();
		l->out = spill ? fileno(spill) : -1;
	}
	if (l->out < 0) {
		l->pid = -errno;
		return;
	}
	l->started = tick_now_ns();
	l->pid = fork();
	if (!l->pid) {
		/* Its timers must not find our blocked signal. */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		setpgid(0, 0);
		dup2(l->out, STDOUT_FILENO);
		dup2(l->out, STDERR_FILENO);
		execv(l->path, argv);
		fprintf(stderr, "cannot run %s: %s\n", l->path, strerror(errno));
		_exit(127);
	}
	if (l->pid < 0) {
		l->pid = -errno;
		return;
	}
	/* Both sides set the group, so that it exists whichever runs first. */
	setpgid(l->pid, l->pid);
	__atomic_store_n(&load_pgrp, l->pid, __ATOMIC_RELAXED);
	for (i = 1, n = 0; argv[i] && n < sizeof(cmd); i++)
		n += snprintf(cmd + n, sizeof(cmd) - n, " %s", argv[i]);
	ksft_print_msg("load: %s%s\n", l->path, cmd);
}

static int reaped(struct load *l)
{
	return waitpid(l->pid, &l->status, WNOHANG) == l->pid;
}

/* Wait for stress-ng until @deadline_ns; 1 when it has exited. */
static int wait_load(struct load *l, long long deadline_ns)
{
	while (!reaped(l)) {
		if (tick_now_ns() >= deadline_ns)
			return 0;
		usleep(10000);
	}
	return 1;
}

/*
 * stress-ng stops its stressors at -t but may take a while to tear them
 * down (tens of seconds for its many workers on a KASAN kernel under
 * TCG); past LOAD_GRACE_S it is asked to stop (SIGINT cleans up), and
 * LOAD_KILL_S later its whole group is killed.
 */
static void finish_load(struct load *l, int duration)
{
	if (l->pid <= 0)
		return;
	if (wait_load(l, l->started + (duration + LOAD_GRACE_S) * NSEC_PER_SEC))
		goto out;
	l->stopped = 1;
	kill(l->pid, SIGINT);
	if (wait_load(l, tick_now_ns() + LOAD_KILL_S * NSEC_PER_SEC))
		goto out;
	kill(-l->pid, SIGKILL);
	waitpid(l->pid, &l->status, 0);
out:
	__atomic_store_n(&load_pgrp, 0, __ATOMIC_RELAXED);
}

/* Skip stress-ng's "stress-ng: level: [pid] " prefix, if --log-brief left one. */
static char *strip_prefix(char *line)
{
	char *p = strstr(line, "] ");

	return !strncmp(line, "stress-ng: ", 11) && p ? p + 2 : line;
}

/*
 * Echo stress-ng's output as diagnostics, but for its metrics table, whose
 * rows ("name bogo-ops real usr sys ...") become "bogo-ops NAME N" lines.
 * Returns the total bogo ops.
 */
static unsigned long long print_load_output(int fd)
{
	unsigned long long ops, total = 0;
	int in_table = 0, lines = 0;
	char *line = NULL, *p, name[32];
	double real, usr, sys;
	size_t len = 0;
	FILE *f;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return 0;
	f = fdopen(fd, "r");
	if (!f)
		return 0;
	while (getline(&line, &len, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		p = strip_prefix(line);
		if (!strncmp(p, "stressor", 8) && strstr(p, "bogo ops")) {
			in_table = 1;
			continue;
		}
		if (in_table && sscanf(p, "%31s %llu %lf %lf %lf", name, &ops, &real, &usr,
				       &sys) == 5) {
			ksft_print_msg("bogo-ops %s %llu\n", name, ops);
			total += ops;
			continue;
		}
		if (in_table && (*p == ' ' || !*p))
			continue;	/* the units row under the header */
		in_table = 0;
		if (lines++ < LOAD_MAX_LINES)
			ksft_print_msg("stress-ng: %s\n", p);
	}
	if (lines > LOAD_MAX_LINES)
		ksft_print_msg("stress-ng: (%d more lines)\n", lines - LOAD_MAX_LINES);
	free(line);
	fclose(f);
	return total;
}

/* What stress-ng's exit status means (its man page, EXIT STATUS). */
static const char *load_status(int code)
{
	static const char * const meaning[] = {
		"success", "bad option or harness error", "a stressor failed",
		"a stressor lacked resources", "a stressor does not exist here",
		"a stressor died of a signal", "a stressor exited unexpectedly",
		"bogo ops untrustworthy",
	};

	if (code == 127)
		return "could not be run";
	return code >= 0 && code < (int)ARRAY_SIZE(meaning) ? meaning[code] : "unknown";
}

static void report_load(struct load *l, int duration)
{
	unsigned long long total;
	int code;

	if (!l->path[0]) {
		ksft_test_result_skip("no stress-ng in PATH: %s\n",
				      "the sleepers ran without external load");
		return;
	}
	if (l->pid < 0) {
		ksft_test_result_fail("cannot start stress-ng: %s\n", strerror(-l->pid));
		return;
	}
	total = print_load_output(l->out);
	ksft_print_msg("bogo-ops total %llu\n", total);
	if (WIFSIGNALED(l->status)) {
		ksft_test_result_fail("stress-ng killed by signal %d%s\n", WTERMSIG(l->status),
				      l->stopped ? " after it overran" : "");
		return;
	}
	code = WEXITSTATUS(l->status);
	ksft_test_result(!l->stopped && total &&
			 (code == 0 || code == STRESS_NG_NOT_IMPLEMENTED),
			 "stress-ng timer stressors for %d s%s: exit %d (%s), %llu bogo ops\n",
			 duration, l->stopped ? ", stopped after it overran" : "", code,
			 load_status(code), total);
}

/* Online CPUs that have an online file; the others cannot go offline. */
static void find_hotplug_cpus(struct hotplug *h)
{
	char path[64];
	int cpu, online;

	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		online = tick_cpu_online(cpu);
		if (online < 0)
			ksft_print_msg("cpu%d: online state unreadable, not cycled\n", cpu);
		if (online != 1)
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
		if (access(path, F_OK))
			ksft_print_msg("cpu%d has no online file: %s\n", cpu,
				       "it cannot go offline, not cycled");
		else
			h->cpus[h->ncpus++] = cpu;
	}
}

/*
 * Whether jiffies move on from @j0 within JIFFIES_WAIT_S seconds.  Which
 * CPU has the timekeeping duty (tick_do_timer_cpu) cannot be seen from
 * user space.  When the CPU that had it goes offline, the duty must pass
 * to an online CPU, or nobody advances jiffies while that CPU stays
 * offline: jiffies moving on meanwhile is the best proxy for "the duty is
 * on an online CPU".  It is not proof: under NO_HZ a CPU leaving idle also
 * brings jiffies up to date, so a lost duty on a busy system may pass.
 */
static int jiffies_move(unsigned long j0)
{
	long long deadline = tick_now_ns() + JIFFIES_WAIT_S * NSEC_PER_SEC;

	while (tick_jiffies() == j0) {
		if (tick_now_ns() >= deadline)
			return 0;
		usleep(1000);
	}
	return 1;
}

/*
 * Take @cpu offline, see jiffies move on while it stays offline, bring it
 * back.  Returns the error of taking it offline, if any; @why says what
 * went wrong.
 */
static int cycle_cpu(int cpu, char *why, size_t len)
{
	unsigned long j0;
	int err;

	err = tick_set_cpu_online(cpu, 0);
	if (err) {
		snprintf(why, len, "cpu%d offline: %s", cpu, strerror(-err));
		return err;
	}
	j0 = tick_jiffies();
	if (!jiffies_move(j0))
		snprintf(why, len, "jiffies stuck at %lu for %d s while cpu%d was offline",
			 j0, JIFFIES_WAIT_S, cpu);
	else if (tick_cpu_online(cpu) != 0)
		snprintf(why, len, "cpu%d back online on its own", cpu);
	err = tick_set_cpu_online(cpu, 1);
	if (err && !why[0])
		snprintf(why, len, "cpu%d online: %s", cpu, strerror(-err));
	return 0;
}

/* Every online CPU has a tick device in /proc/timer_list. */
static void check_tick_devices(char *why, size_t len)
{
	int has_dev[MAX_CPUS], has_bc, cpu;

	if (tick_read_devices(has_dev, MAX_CPUS, &has_bc) < 0) {
		snprintf(why, len, "cannot read /proc/timer_list: %s", strerror(errno));
		return;
	}
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (tick_cpu_online(cpu) == 1 && !has_dev[cpu]) {
			snprintf(why, len, "cpu%d online without a tick device", cpu);
			return;
		}
	}
}

/*
 * One cycle: every CPU off and on in turn, then the tick devices and
 * jiffies.  A CPU whose first offline fails with EBUSY may not go offline
 * at all here (a boot CPU that must stay): it is left out, not failed.
 */
static void run_cycle(struct hotplug *h, int nr)
{
	unsigned long j0 = tick_jiffies();
	char why[128] = "";
	int i, err, cycled = 0;

	for (i = 0; i < h->ncpus && !why[0]; i++) {
		if (h->skip[i])
			continue;
		err = cycle_cpu(h->cpus[i], why, sizeof(why));
		if (err == -EBUSY && !h->went_off[i]) {
			ksft_print_msg("cpu%d cannot go offline (EBUSY): not cycled\n",
				       h->cpus[i]);
			h->skip[i] = 1;
			why[0] = '\0';
			continue;
		}
		h->went_off[i] |= !err;
		cycled++;
	}
	if (!why[0])
		check_tick_devices(why, sizeof(why));
	if (!why[0] && tick_jiffies() == j0)
		snprintf(why, sizeof(why), "jiffies stuck at %lu over the cycle", j0);
	ksft_print_msg("hotplug cycle %d: CPUs off and on: %d, jiffies %lu: %s\n", nr, cycled,
		       tick_jiffies(), why[0] ? why : "ok");
	h->cycles_done++;
	if (why[0] && !h->failures++)
		snprintf(h->first_failure, sizeof(h->first_failure), "cycle %d: %s", nr, why);
}

/* Whatever a failed cycle left offline comes back for the tests that follow. */
static void restore_cpus(struct hotplug *h)
{
	int i, err;

	for (i = 0; i < h->ncpus; i++) {
		if (tick_cpu_online(h->cpus[i]) != 0)
			continue;
		err = tick_set_cpu_online(h->cpus[i], 1);
		ksft_print_msg("cpu%d was left offline; online again: %s\n", h->cpus[i],
			       err ? strerror(-err) : "ok");
	}
}

/*
 * @cycles cycles spread over the duration, so that they all meet the load;
 * on a slow guest they may run past it (the sleepers go on meanwhile), but
 * none starts later than HOTPLUG_OVERRUN_S after it.
 */
static void run_hotplug(struct hotplug *h, int cycles, long long t0, int duration)
{
	long long last_start = t0 + (duration + HOTPLUG_OVERRUN_S) * NSEC_PER_SEC;
	int nr;

	for (nr = 1; nr <= cycles && h->ncpus; nr++) {
		sleep_until(t0 + (nr - 1) * duration * NSEC_PER_SEC / cycles);
		if (tick_now_ns() > last_start) {
			h->failures++;
			snprintf(h->first_failure, sizeof(h->first_failure),
				 "cycle %d not started %d s after the end of the load", nr,
				 HOTPLUG_OVERRUN_S);
			break;
		}
		run_cycle(h, nr);
	}
	restore_cpus(h);
}

static void report_hotplug(struct hotplug *h, int cycles)
{
	int i, cycled = 0;

	for (i = 0; i < h->ncpus; i++)
		cycled += !h->skip[i];
	if (!cycles) {
		ksft_test_result_skip("hotplug: no cycles asked for (-c 0)\n");
		return;
	}
	if (!cycled) {
		ksft_test_result_skip("hotplug: no CPU can go offline here\n");
		return;
	}
	ksft_test_result(!h->failures,
			 "hotplug: %d of %d cycles under load, CPUs cycled: %d; every online CPU with a tick device, jiffies moving%s%s\n",
			 h->cycles_done, cycles, cycled, h->failures ? "; first failure: " : "",
			 h->failures ? h->first_failure : "");
}

/*
 * The last resort when a wait, a sysfs write or stress-ng never returns
 * (SIGALRM), or when the runner's own timeout ends the test (SIGTERM):
 * stress-ng, in a process group of its own, must not outlive it.  Nothing
 * but async-signal-safe calls here.
 */
static void watchdog_fired(int sig)
{
	static const char alarm_msg[] = "Bail out! timer-stress outlived its time bound\n";
	static const char term_msg[] = "Bail out! timer-stress terminated\n";
	int pgrp = __atomic_load_n(&load_pgrp, __ATOMIC_RELAXED);
	const char *msg = sig == SIGALRM ? alarm_msg : term_msg;
	size_t len = sig == SIGALRM ? sizeof(alarm_msg) - 1 : sizeof(term_msg) - 1;

	if (pgrp > 0)
		kill(-pgrp, SIGKILL);
	if (write(STDOUT_FILENO, msg, len) < 0)
		_exit(KSFT_FAIL);
	_exit(KSFT_FAIL);
}

/* @arg as a whole number from @min to @max, or -1. */
static int parse_arg(const char *arg, int min, int max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > max)
		return -1;
	return v;
}

static void parse_args(int argc, char **argv, int *duration, int *cycles, int *bound_ms)
{
	int opt, ok = 1;

	while (ok && (opt = getopt(argc, argv, "d:c:b:")) != -1) {
		if (opt == 'd')
			*duration = parse_arg(optarg, 1, 86400);
		else if (opt == 'c')
			*cycles = parse_arg(optarg, 0, 10000);
		else if (opt == 'b')
			*bound_ms = parse_arg(optarg, 1, 86400000);
		ok = strchr("dcb", opt) && *duration > 0 && *cycles >= 0 && *bound_ms > 0;
	}
	if (!ok || optind < argc)
		ksft_exit_fail_msg("usage: %s %s\n", argv[0],
				   "[-d seconds] [-c hotplug cycles] [-b max overshoot ms]");
}

int main(int argc, char **argv)
{
	int duration = 30, cycles = 0, bound_ms = 1000, nsleepers, stuck;
	static struct hotplug hp;
	struct load load = { 0 };
	long long t0;

	parse_args(argc, argv, &duration, &cycles, &bound_ms);
	/* Line by line, so that the watchdog's last word comes after the rest. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(5);

	nsleepers = 2 * sysconf(_SC_NPROCESSORS_ONLN);
	if (nsleepers < 2 || nsleepers > MAX_SLEEPERS)
		nsleepers = nsleepers < 2 ? 2 : MAX_SLEEPERS;
	ksft_print_msg("%d s, %d sleepers, %d hotplug cycles, overshoot bound %d ms\n",
		       duration, nsleepers, cycles, bound_ms);
	signal(SIGALRM, watchdog_fired);
	signal(SIGTERM, watchdog_fired);
	alarm(duration + (cycles ? HOTPLUG_OVERRUN_S : 0) + STUCK_AFTER_S + LOAD_GRACE_S +
	      LOAD_KILL_S + WATCHDOG_SLACK_S);
	sigemptyset(&timer_sigs);
	sigaddset(&timer_sigs, SIGRTMIN);
	pthread_sigmask(SIG_BLOCK, &timer_sigs, NULL);
	if (cycles)
		find_hotplug_cpus(&hp);

	start_sleepers(nsleepers);
	start_load(&load, duration);
	t0 = tick_now_ns();
	if (cycles)
		run_hotplug(&hp, cycles, t0, duration);
	sleep_until(t0 + duration * NSEC_PER_SEC);
	stuck = stop_sleepers(nsleepers);
	finish_load(&load, duration);

	report_load(&load, duration);
	report_sleepers(nsleepers, stuck, bound_ms);
	report_hotplug(&hp, cycles);
	ksft_finished();
}
