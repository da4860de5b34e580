// SPDX-License-Identifier: GPL-2.0
/*
 * tick-s2idle: suspend to idle, woken by the RTC alarm, and check that the
 * tick layer comes back.  Each cycle arms /sys/class/rtc/rtc0/wakealarm
 * SECONDS ahead and writes "freeze" to /sys/power/state, while a sleeper
 * pinned to each online CPU loops on 1 s CLOCK_MONOTONIC sleeps and a
 * CLOCK_BOOTTIME timerfd is due half way through the suspend.  Afterwards:
 *
 * - the write to /sys/power/state succeeded;
 * - CLOCK_BOOTTIME and CLOCK_REALTIME advanced by SECONDS - 1 or more: the
 *   alarm is armed in whole RTC seconds, so it fires SECONDS - 1 to
 *   SECONDS after arming.  CLOCK_MONOTONIC is reported, not judged: it
 *   skips the sleep only when the last CPU to go idle froze timekeeping,
 *   which takes a cpuidle state with ->enter_s2idle;
 * - the timerfd expired, late if timekeeping was frozen;
 * - every sleeper finishes WAKES_AFTER more sleeps within SLEEPERS_BOUND_S
 *   of the resume, and none ended early or on another CPU: a CPU whose
 *   tick or hrtimers did not come back shows as a stuck sleeper;
 * - jiffies advance at USER_HZ, within a half, over a second after it;
 * - every online CPU has a tick device in /proc/timer_list;
 * - jiffies moved with CLOCK_MONOTONIC across the suspend: both skip the
 *   sleep or neither does.
 *
 * Without "freeze" in /sys/power/state (no CONFIG_SUSPEND) or without a
 * wakealarm (no RTC whose alarm can wake the system) the test is skipped.
 * Nothing here can end a suspend that the alarm does not end, as user
 * space is frozen: so the alarm is read back before suspending, and the
 * wakeup count is saved, so that an alarm that fires before the system is
 * asleep aborts the suspend (EBUSY) instead of leaving it asleep for good.
 * Every other wait is bounded by a watchdog.
 *
 * Usage: tick-s2idle [-s seconds] [-n cycles] [-D] [-F cases]
 *   -s  length of each suspend (default 3, at least 2)
 *   -n  number of cycles (default 1)
 *   -D  dry run: sleep instead of arming the alarm and suspending, so that
 *       the checks run anywhere; it writes nothing
 *   -F  with -D, let the cases named by letter (a-g, in the order above)
 *       see a broken kernel, to show that each of them can fail
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
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
#define CASES 7			/* KTAP cases per cycle */
#define SLEEP_NS NSEC_PER_SEC	/* a sleeper's sleep, to span the suspend */
#define WAKES_AFTER 2		/* sleeps each sleeper finishes after resume */
#define SLEEPERS_BOUND_S 10	/* within this long of the resume */
#define TIMERFD_GRACE_S 2
#define WATCHDOG_SLACK_S 60
#define STATE "/sys/power/state"
#define WAKEUP_COUNT "/sys/power/wakeup_count"
#define PM_TEST "/sys/power/pm_test"
#define RTC "/sys/class/rtc/rtc0"
#define WAKEALARM RTC "/wakealarm"
#define LINE 256
#define VAL 64			/* a sysfs value: short, so that messages fit a LINE */

struct counts {
	unsigned long wakes;	/* sleeps that ended */
	unsigned long early;	/* of them, shorter than SLEEP_NS */
	unsigned long moved;	/* of them, that ended on another CPU */
};

struct sleeper {
	pthread_t thread;
	int cpu;
	int pinned;		/* 1 when pinned, -errno when that failed */
	struct counts n;
};

/* The clocks and jiffies at one moment. */
struct snap {
	unsigned long jiffies;
	long long mono, boot, real;
};

struct cycle {
	int nr;
	struct snap before, after;
	long long write_ns;	/* the freeze write, on CLOCK_BOOTTIME */
	int err;		/* -errno when the system did not suspend */
	char why[LINE];		/* and why */
	int tfd;		/* the timerfd, or -errno */
	unsigned long long expiries;
	unsigned long rate_jiffies;
	int sleepers_ok;
	struct counts start[MAX_CPUS], resume[MAX_CPUS];
};

static struct sleeper sleepers[MAX_CPUS];
static int nsleepers;
static int resumed;		/* set at the first resume, for -F d */
static int dry_run;
static const char *faults = "";

static int watch_until;		/* CLOCK_MONOTONIC second of the deadline */
static int watch_secs;
static int watch_cycle;
static const char *watch_what;

static long long clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static double sec(long long ns)
{
	return ns / 1e9;
}

/* 1 when -F names @c: the case it stands for sees a broken kernel. */
static int fault(char c)
{
	return dry_run && strchr(faults, c);
}

static void take_snap(struct snap *s)
{
	s->jiffies = tick_jiffies();
	s->mono = clock_ns(CLOCK_MONOTONIC);
	s->boot = clock_ns(CLOCK_BOOTTIME);
	s->real = clock_ns(CLOCK_REALTIME);
}

/* The first line of @path, without its newline, into @buf: 0 or -errno. */
static int read_line(const char *path, char *buf, int len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return -errno;
	if (!fgets(buf, len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The number that @path holds into *@v: 0, or -1 when @buf shows none. */
static int read_ll(const char *path, long long *v, char *buf, int len)
{
	char *end;

	if (read_line(path, buf, len))
		return -1;
	*v = strtoll(buf, &end, 10);
	return end == buf || *end ? -1 : 0;
}

/* One write() of @val to @path: 0 or -errno.  A dry run writes nothing. */
static int write_file(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t ret;
	int fd;

	if (dry_run)
		ksft_exit_fail_msg("dry run about to write %s\n", path);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ret = write(fd, val, len);
	ret = ret < 0 ? -errno : (size_t)ret == len ? 0 : -EIO;
	close(fd);
	return ret;
}

/* 1 when the space-separated @list has @word. */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = strstr(list, word); p; p = strstr(p + 1, word))
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
	return 0;
}

/*
 * 1, with @why set, when this system cannot be suspended to idle and woken
 * by the RTC.  Each reason is a configuration, not a bug.
 */
static int untestable(char *why, size_t len)
{
	char buf[VAL];
	int ret;

	ret = read_line(STATE, buf, sizeof(buf));
	if (ret)
		snprintf(why, len, "cannot read %s (%s): kernel without CONFIG_PM",
			 STATE, strerror(-ret));
	else if (!has_word(buf, "freeze"))
		snprintf(why, len, "%s lists no freeze (\"%s\"): kernel without CONFIG_SUSPEND",
			 STATE, buf);
	else if (access(WAKEALARM, F_OK))
		snprintf(why, len, "no %s: no RTC whose alarm can wake the system", WAKEALARM);
	else if (!read_line(RTC "/device/power/wakeup", buf, sizeof(buf)) &&
		 !strcmp(buf, "disabled"))
		snprintf(why, len, "rtc0 may not wake the system (device/power/wakeup: disabled)");
	/* A pm_test level stops the suspend short of idling, in every state. */
	else if (!read_line(PM_TEST, buf, sizeof(buf)) && !strstr(buf, "[none]"))
		snprintf(why, len, "%s selects a test suspend (%s)", PM_TEST, buf);
	else if (geteuid())
		snprintf(why, len, "writing %s needs root", STATE);
	else
		return 0;
	return 1;
}

/* Give the step that starts now @secs seconds before the watchdog fires. */
static void watch(int cycle, const char *what, int secs)
{
	/* Rounded up: the watchdog looks at whole seconds. */
	int now = (clock_ns(CLOCK_MONOTONIC) + NSEC_PER_SEC - 1) / NSEC_PER_SEC;

	__atomic_store_n(&watch_what, what, __ATOMIC_RELAXED);
	__atomic_store_n(&watch_cycle, cycle, __ATOMIC_RELAXED);
	__atomic_store_n(&watch_secs, secs, __ATOMIC_RELAXED);
	__atomic_store_n(&watch_until, now + secs, __ATOMIC_RELEASE);
}

/*
 * A step that does not end (a sysfs access that blocks, a sleep that never
 * returns) ends the run with a failure instead of hanging it.  This cannot
 * help while the system is suspended: it is frozen with the rest of user
 * space.
 */
static void *watchdog_main(void *arg)
{
	for (;;) {
		usleep(100000);
		if (clock_ns(CLOCK_MONOTONIC) / NSEC_PER_SEC <
		    __atomic_load_n(&watch_until, __ATOMIC_ACQUIRE))
			continue;
		ksft_exit_fail_msg("cycle %d: still %s after %d s\n",
				   __atomic_load_n(&watch_cycle, __ATOMIC_RELAXED),
				   __atomic_load_n(&watch_what, __ATOMIC_RELAXED),
				   __atomic_load_n(&watch_secs, __ATOMIC_RELAXED));
	}
	return arg;
}

static void *sleeper_main(void *arg)
{
	const struct timespec len = { SLEEP_NS / NSEC_PER_SEC, SLEEP_NS % NSEC_PER_SEC };
	const struct timespec lost = { 60, 0 };
	struct sleeper *s = arg;
	int stall = fault('d') && s == &sleepers[nsleepers - 1];
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	__atomic_store_n(&s->pinned, sched_setaffinity(0, sizeof(set), &set) ? -errno : 1,
			 __ATOMIC_RELEASE);
	if (s->pinned < 0)
		return NULL;
	for (;;) {
		const struct timespec *ts = &len;
		long long t0 = clock_ns(CLOCK_MONOTONIC);

		/* -F d: after a resume, one sleep far past the bound, as if lost */
		if (stall && __atomic_load_n(&resumed, __ATOMIC_ACQUIRE)) {
			ts = &lost;
			stall = 0;
		}
		if (clock_nanosleep(CLOCK_MONOTONIC, 0, ts, NULL))
			continue;	/* interrupted: no sleep that ended */
		if (clock_ns(CLOCK_MONOTONIC) - t0 < SLEEP_NS)
			__atomic_add_fetch(&s->n.early, 1, __ATOMIC_RELAXED);
		if (sched_getcpu() != s->cpu)
			__atomic_add_fetch(&s->n.moved, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&s->n.wakes, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* A sleeper pinned to each online CPU this process may run on. */
static void start_sleepers(void)
{
	pthread_attr_t attr;
	cpu_set_t allowed;
	int cpu, i;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		ksft_exit_fail_msg("sched_getaffinity: %s\n", strerror(errno));
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (CPU_ISSET(cpu, &allowed) && tick_cpu_online(cpu) == 1)
			sleepers[nsleepers++].cpu = cpu;
	if (!nsleepers)
		ksft_exit_fail_msg("no online CPU to run a sleeper on\n");
	pthread_attr_init(&attr);
	/* Small stacks: a thread per CPU has to fit a 32-bit address space. */
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < nsleepers; i++)
		if (pthread_create(&sleepers[i].thread, &attr, sleeper_main, &sleepers[i]))
			ksft_exit_fail_msg("pthread_create failed\n");
	pthread_attr_destroy(&attr);
	for (i = 0; i < nsleepers; i++) {
		while (!__atomic_load_n(&sleepers[i].pinned, __ATOMIC_ACQUIRE))
			usleep(1000);
		if (sleepers[i].pinned < 0)
			ksft_exit_fail_msg("cannot pin a sleeper to cpu%d: %s\n",
					   sleepers[i].cpu, strerror(-sleepers[i].pinned));
	}
}

static void read_counts(struct counts *c)
{
	int i;

	for (i = 0; i < nsleepers; i++) {
		c[i].wakes = __atomic_load_n(&sleepers[i].n.wakes, __ATOMIC_ACQUIRE);
		c[i].early = __atomic_load_n(&sleepers[i].n.early, __ATOMIC_RELAXED);
		c[i].moved = __atomic_load_n(&sleepers[i].n.moved, __ATOMIC_RELAXED);
	}
}

/* A CLOCK_BOOTTIME timerfd due at @boot_ns: the fd, or -errno. */
static int arm_timerfd(long long boot_ns)
{
	struct itimerspec its = {
		.it_value = { boot_ns / NSEC_PER_SEC, boot_ns % NSEC_PER_SEC },
	};
	int fd = timerfd_create(CLOCK_BOOTTIME, TFD_NONBLOCK | TFD_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL)) {
		close(fd);
		return -errno;
	}
	return fd;
}

/*
 * Arm rtc0's alarm @secs seconds ahead.  rtc-sysfs refuses a new alarm
 * while one is pending (EBUSY), so "0", a time past, clears it first;
 * "+N" means N seconds after the RTC's current, whole, second.  The alarm
 * is read back, as a suspend without one never ends.  0 or -errno.
 */
static int arm_alarm(int secs, char *why, size_t len)
{
	char rel[16], buf[VAL];
	long long alarm, now;
	int ret;

	ret = write_file(WAKEALARM, "0");
	if (ret) {
		snprintf(why, len, "clearing %s: %s", WAKEALARM, strerror(-ret));
		return ret;
	}
	snprintf(rel, sizeof(rel), "+%d", secs);
	ret = write_file(WAKEALARM, rel);
	if (ret) {
		snprintf(why, len, "writing %s to %s: %s", rel, WAKEALARM, strerror(-ret));
		return ret;
	}
	if (read_ll(WAKEALARM, &alarm, buf, sizeof(buf))) {
		snprintf(why, len, "%s reads \"%s\" after %s: no alarm", WAKEALARM, buf, rel);
		return -ENOENT;
	}
	if (read_ll(RTC "/since_epoch", &now, buf, sizeof(buf))) {
		snprintf(why, len, "cannot read the RTC's time from %s/since_epoch", RTC);
		return -EIO;
	}
	if (alarm <= now || alarm > now + secs) {
		snprintf(why, len, "alarm %lld s after the RTC's time after %s", alarm - now, rel);
		return -ERANGE;
	}
	return 0;
}

/*
 * Save the wakeup count: from now on a wakeup event, such as the alarm
 * firing before the system is asleep, makes the suspend fail with EBUSY
 * instead of going ahead with no alarm left to end it.  0 or -errno.
 */
static int save_wakeup_count(char *why, size_t len)
{
	char buf[32];
	int ret;

	ret = read_line(WAKEUP_COUNT, buf, sizeof(buf));
	if (!ret)
		ret = buf[0] ? write_file(WAKEUP_COUNT, buf) : -EIO;
	if (ret)
		snprintf(why, len, "saving %s (\"%s\"): %s", WAKEUP_COUNT, buf, strerror(-ret));
	return ret;
}

/* The freeze write, which returns after the resume; a dry run sleeps. */
static int enter_s2idle(int secs)
{
	struct timespec ts = { fault('b') ? 0 : secs, 0 };

	if (!dry_run)
		return write_file(STATE, "freeze");
	if (fault('a'))
		return -EBUSY;
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
	return 0;
}

static void suspend(struct cycle *c, int secs)
{
	long long t0;

	if (!dry_run) {
		c->err = arm_alarm(secs, c->why, sizeof(c->why));
		if (!c->err)
			c->err = save_wakeup_count(c->why, sizeof(c->why));
		if (c->err)
			return;
	}
	watch(c->nr, "suspended", secs + WATCHDOG_SLACK_S);
	t0 = clock_ns(CLOCK_BOOTTIME);
	c->err = enter_s2idle(secs);
	c->write_ns = clock_ns(CLOCK_BOOTTIME) - t0;
	if (c->err)
		snprintf(c->why, sizeof(c->why), "writing freeze to %s: %s",
			 STATE, strerror(-c->err));
}

/* a: the suspend happened. */
static void case_suspended(const struct cycle *c)
{
	if (c->err) {
		ksft_test_result_fail("cycle %d: suspend to idle: %s\n", c->nr, c->why);
		return;
	}
	ksft_test_result_pass("cycle %d: suspend to idle%s, the write returned after %.2f s\n",
			      c->nr, dry_run ? " (dry run: a sleep)" : "", sec(c->write_ns));
}

/* b: the kernel's sense of time took the sleep in. */
static void case_clocks(const struct cycle *c, int secs)
{
	long long boot = c->after.boot - c->before.boot;
	long long real = c->after.real - c->before.real;
	long long min = (secs - 1) * NSEC_PER_SEC;

	if (c->err) {
		ksft_test_result_skip("cycle %d: no suspend to measure the clocks across\n", c->nr);
		return;
	}
	ksft_test_result(boot >= min && real >= min,
			 "cycle %d: CLOCK_BOOTTIME %+.2f s, CLOCK_REALTIME %+.2f s across the suspend, %d s or more\n",
			 c->nr, sec(boot), sec(real), secs - 1);
}

/* c: the timer due during the suspend expired after it, maybe late. */
static void case_timerfd(struct cycle *c)
{
	struct pollfd pfd = { .fd = c->tfd, .events = POLLIN };
	uint64_t n;

	if (c->err) {
		ksft_test_result_skip("cycle %d: no suspend for the timerfd to span\n", c->nr);
		return;
	}
	if (c->tfd < 0) {
		ksft_test_result_fail("cycle %d: cannot arm a CLOCK_BOOTTIME timerfd: %s\n",
				      c->nr, strerror(-c->tfd));
		return;
	}
	/* Give the first tick after the resume time to fire it. */
	poll(&pfd, 1, TIMERFD_GRACE_S * 1000);
	if (read(c->tfd, &n, sizeof(n)) == sizeof(n))
		c->expiries = n;
	ksft_test_result(c->expiries >= 1,
			 "cycle %d: CLOCK_BOOTTIME timerfd due in the suspend expired %llu time(s) within %d s of the resume\n",
			 c->nr, c->expiries, TIMERFD_GRACE_S);
}

/* What sleeper @i did wrong, if anything; 1 when it is stuck. */
static int report_sleeper(const struct cycle *c, int i, const struct counts *now)
{
	unsigned long wakes = now->wakes - c->resume[i].wakes;
	unsigned long early = now->early - c->start[i].early;
	unsigned long moved = now->moved - c->start[i].moved;

	if (wakes < WAKES_AFTER || early || moved)
		ksft_print_msg("cycle %d: cpu%d: %lu wakes since resume, %lu early, %lu moved\n",
			       c->nr, sleepers[i].cpu, wakes, early, moved);
	return wakes < WAKES_AFTER;
}

/* d: every CPU's sleeper goes on sleeping and waking. */
static void case_sleepers(struct cycle *c)
{
	long long deadline = c->after.mono + SLEEPERS_BOUND_S * NSEC_PER_SEC;
	int i, stuck = 0, early = 0, moved = 0;
	struct counts now[MAX_CPUS];

	for (i = 0; i < nsleepers; i++) {
		for (;;) {
			read_counts(now);
			if (now[i].wakes - c->resume[i].wakes >= WAKES_AFTER ||
			    clock_ns(CLOCK_MONOTONIC) >= deadline)
				break;
			usleep(10000);
		}
		stuck += report_sleeper(c, i, &now[i]);
		early += now[i].early != c->start[i].early;
		moved += now[i].moved != c->start[i].moved;
	}
	c->sleepers_ok = !stuck && !early && !moved;
	ksft_test_result(c->sleepers_ok,
			 "cycle %d: sleepers on %d CPUs each woke %d more times within %d s of the resume (%d stuck, %d early, %d moved)\n",
			 c->nr, nsleepers, WAKES_AFTER, SLEEPERS_BOUND_S, stuck, early, moved);
}

/*
 * e: the tick goes on after the resume.  times() reads jiffies as they are,
 * but a CPU leaving idle with its tick stopped brings them up to date
 * first, and a busy CPU's tick keeps them so: a thread that has just woken
 * sees them at most a tick or two behind.  They count in USER_HZ.
 */
static void case_jiffies_rate(struct cycle *c)
{
	long hz = sysconf(_SC_CLK_TCK);
	long long m0 = clock_ns(CLOCK_MONOTONIC), m1;
	unsigned long j0 = tick_jiffies(), j1;
	struct timespec until = {
		(m0 + NSEC_PER_SEC) / NSEC_PER_SEC, (m0 + NSEC_PER_SEC) % NSEC_PER_SEC
	};
	double want;

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
		;
	/* -F e: jiffies stood still */
	j1 = fault('e') ? j0 : tick_jiffies();
	m1 = clock_ns(CLOCK_MONOTONIC);
	want = sec(m1 - m0) * hz;
	c->rate_jiffies = j1 - j0;
	ksft_test_result(c->rate_jiffies >= want / 2 && c->rate_jiffies <= want * 3 / 2 + 2,
			 "cycle %d: jiffies +%lu in %.2f s after the resume, %.0f at USER_HZ %ld\n",
			 c->nr, c->rate_jiffies, sec(m1 - m0), want, hz);
}

/* f: no CPU came back without its tick device. */
static void case_tick_devices(const struct cycle *c)
{
	static int has_dev[MAX_CPUS];
	int cpu, has_bc, online = 0, missing = -1;

	if (tick_read_devices(has_dev, MAX_CPUS, &has_bc) < 0) {
		ksft_test_result_fail("cycle %d: cannot read /proc/timer_list: %s\n",
				      c->nr, strerror(errno));
		return;
	}
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (tick_cpu_online(cpu) != 1)
			continue;
		/* -F f: the first online CPU lost its tick device */
		if (!online++ && fault('f'))
			has_dev[cpu] = 0;
		if (!has_dev[cpu] && missing < 0)
			missing = cpu;
	}
	if (missing >= 0)
		ksft_test_result_fail("cycle %d: cpu%d is online without a tick device\n",
				      c->nr, missing);
	else
		ksft_test_result(online, "cycle %d: all %d online CPUs have a tick device\n",
				 c->nr, online);
}

/*
 * g: jiffies follow CLOCK_MONOTONIC, through the periodic tick or caught
 * up from it where the tick stops (tick_do_update_jiffies64()): they skip
 * the sleep exactly when CLOCK_MONOTONIC does.  A tick that came back
 * late, or that counted the sleep twice, shows here.  The slack is a
 * tenth, plus 100 ms of ticks that a descheduled vCPU may lose.
 */
static void case_jiffies_across(const struct cycle *c)
{
	long hz = sysconf(_SC_CLK_TCK);
	double want = sec(c->after.mono - c->before.mono) * hz;
	double slack = want / 10 + hz / 10 + 2;
	unsigned long dj = c->after.jiffies - c->before.jiffies;

	/* -F g: jiffies jumped ten seconds ahead */
	if (fault('g'))
		dj += 10 * hz;
	ksft_test_result(dj >= want - slack && dj <= want + slack,
			 "cycle %d: jiffies +%lu across the suspend, %.0f +- %.0f from CLOCK_MONOTONIC at USER_HZ %ld\n",
			 c->nr, dj, want, slack, hz);
}

static void run_cycle(int nr, int secs)
{
	static struct cycle c;
	char sum[LINE];
	long long gap;
	int ret;

	memset(&c, 0, sizeof(c));
	c.nr = nr;
	watch(nr, "arming the alarm", 30);
	read_counts(c.start);
	take_snap(&c.before);
	/* -F c: the timer is due in half an hour, so it does not fire in time */
	c.tfd = arm_timerfd(c.before.boot + (fault('c') ? 3600 : secs) * NSEC_PER_SEC / 2);
	suspend(&c, secs);
	take_snap(&c.after);
	read_counts(c.resume);
	__atomic_store_n(&resumed, 1, __ATOMIC_RELEASE);
	if (!dry_run) {
		ret = write_file(WAKEALARM, "0");
		if (ret)
			ksft_print_msg("cycle %d: clearing %s: %s\n",
				       nr, WAKEALARM, strerror(-ret));
	}

	watch(nr, "checking", SLEEPERS_BOUND_S + TIMERFD_GRACE_S + 30);
	case_suspended(&c);
	case_clocks(&c, secs);
	case_timerfd(&c);
	case_sleepers(&c);
	case_jiffies_rate(&c);
	case_tick_devices(&c);
	case_jiffies_across(&c);
	if (c.tfd >= 0)
		close(c.tfd);

	gap = (c.after.boot - c.after.mono) - (c.before.boot - c.before.mono);
	snprintf(sum, sizeof(sum),
		 "boottime %+.2f s, monotonic %+.2f s, realtime %+.2f s, boottime-monotonic %+.2f s, write %.2f s, timerfd %llu expiry, sleepers %s on %d CPUs, jiffies +%lu across, +%lu in 1 s after",
		 sec(c.after.boot - c.before.boot), sec(c.after.mono - c.before.mono),
		 sec(c.after.real - c.before.real), sec(gap), sec(c.write_ns), c.expiries,
		 c.sleepers_ok ? "ok" : "NOT ok", nsleepers,
		 c.after.jiffies - c.before.jiffies, c.rate_jiffies);
	ksft_print_msg("cycle %d: %s\n", nr, sum);
}

int main(int argc, char **argv)
{
	int secs = 3, cycles = 1, opt, i;
	char why[LINE];
	pthread_t wd;

	while ((opt = getopt(argc, argv, "s:n:DF:")) != -1) {
		if (opt == 's')
			secs = atoi(optarg);
		else if (opt == 'n')
			cycles = atoi(optarg);
		else if (opt == 'D')
			dry_run = 1;
		else if (opt == 'F')
			faults = optarg;
		else
			secs = 0;
	}
	/* An alarm 1 s ahead may fire before the system is asleep. */
	if (secs < 2 || secs > 3600 || cycles < 1 || (faults[0] && !dry_run))
		ksft_exit_fail_msg("usage: %s [-s seconds, 2-3600] [-n cycles] [-D [-F cases]]\n",
				   argv[0]);
	/* Whole lines out as they are printed: a guest that never wakes shows where it stopped. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	if (untestable(why, sizeof(why))) {
		if (!dry_run)
			ksft_exit_skip("%s\n", why);
		ksft_print_msg("dry run, where a real run would skip: %s\n", why);
	}
	ksft_set_plan(cycles * CASES);

	watch(0, "starting the sleepers", 30);
	if (pthread_create(&wd, NULL, watchdog_main, NULL))
		ksft_exit_fail_msg("pthread_create failed\n");
	start_sleepers();
	for (i = 1; i <= cycles; i++)
		run_cycle(i, secs);
	ksft_finished();
}
