// SPDX-License-Identifier: GPL-2.0
/*
 * idle-ticks: how many timer interrupts each online CPU takes per second
 * while the system sleeps, against what the running kernel says its tick
 * does.  Nothing is hard-wired: HZ comes from the kernel's tick period and
 * the tick mode of each CPU from /proc/timer_list.
 *
 * - HZ from the tick period agrees with how fast timer_list's jiffies move;
 * - a CPU whose record says ".nohz: 1" may stop its tick in idle: it takes
 *   at most idle_bound(HZ) timer interrupts per second;
 * - with nohz_full CPUs, the busiest CPU outside them keeps time for them:
 *   its tick never stops (at least HZ - 10 %);
 * - any other CPU runs a periodic tick, from its own device or from the
 *   broadcast device: HZ interrupts per second within 10 %;
 * - the rate judged is the median of IDLE_S one-second windows: a host
 *   that stalls QEMU for part of the run (a build beside it) bunches
 *   the guest's wake-ups into one or two windows, while a tick that does
 *   not stop, or runs at the wrong rate, shows in every window;
 * - no CPU has NO_HZ active when the command line says nohz=off;
 * - every CPU takes at least one timer interrupt in the IDLE_S seconds:
 *   an idle CPU still has timers due (QEMU TCG guests: 3/s at the least
 *   seen), a CPU whose timer went silent has none.  A NO_HZ CPU that does
 *   not keep time may sleep through them with nothing due, as an idle
 *   nohz_full CPU does (no unbound timer lands there): that is accepted
 *   when its tick was stopped at both ends and its next hrtimer event is
 *   not overdue, which a silent timer's is;
 * - where NO_HZ is active, .idle_sleeps (tick stopped in idle) grows on
 *   every such CPU but the nohz_full timekeeper;
 * - where it is not, .tick_stopped stays 0.
 *
 * Timer interrupts are counted as tick-assert counts them: the rows of
 * /proc/interrupts labelled LOC or whose description names a timer.
 * /proc/timer_list is needed (root): without it nothing can be expected,
 * so that fails the test.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../kselftest.h"
#include "tick-util.h"

#define NSEC_PER_SEC 1000000000LL
#define MAX_CPUS 256
#define IDLE_S 5		/* one-second windows */

/* What timer_list says of every CPU at one moment. */
struct tl_state {
	long long nohz[MAX_CPUS];
	long long idle_sleeps[MAX_CPUS];
	long long tick_stopped[MAX_CPUS];
	long long expires_next[MAX_CPUS];	/* the next hrtimer event, ns */
	long long tl_jiffies;	/* as timer_list prints them, or -1 */
	long long jiffies_at;	/* CLOCK_MONOTONIC when they were read */
};

/*
 * The most timer interrupts per second a CPU whose tick is stopped may take
 * while idle.  It only wakes for timers that are due (RCU, vmstat,
 * watchdogs, this test's own wake-up), and QEMU TCG guests show about
 * 5-20/s of such background; 40/s is twice that.  At high HZ the bound
 * grows to HZ/5 so that the noise never comes near it, while a tick that
 * does not stop, or stops for less than four fifths of the time, still
 * exceeds it.
 */
static double idle_bound(int hz)
{
	return hz / 5 > 40 ? hz / 5 : 40;
}

static int take_state(struct tl_state *s)
{
	if (tick_cpu_field("nohz", s->nohz, MAX_CPUS) < 0 ||
	    tick_cpu_field("idle_sleeps", s->idle_sleeps, MAX_CPUS) < 0 ||
	    tick_cpu_field("tick_stopped", s->tick_stopped, MAX_CPUS) < 0 ||
	    tick_cpu_field("expires_next", s->expires_next, MAX_CPUS) < 0)
		return -errno;
	s->jiffies_at = tick_now_ns();
	s->tl_jiffies = tick_list_jiffies();
	return 0;
}

/* What the kernel's kstrtobool() makes of @s: 1, 0, or -1 when it rejects it. */
static int kernel_bool(const char *s)
{
	if (*s == 'o' || *s == 'O')
		return s[1] == 'n' || s[1] == 'N' ? 1 : s[1] == 'f' || s[1] == 'F' ? 0 : -1;
	if (*s && strchr("yYtT1", *s))
		return 1;
	if (*s && strchr("nNfF0", *s))
		return 0;
	return -1;
}

/*
 * 1 when the command line turns NO_HZ off: the last nohz= the kernel
 * accepts says false.  It ignores values kstrtobool() rejects, and so does
 * this.  Words after "--" belong to init.
 */
static int cmdline_nohz_off(void)
{
	FILE *f = fopen("/proc/cmdline", "r");
	char buf[4096] = "", *word, *save;
	int off = 0, v;

	if (f && !fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	for (word = strtok_r(buf, " ", &save); word && strcmp(word, "--");
	     word = strtok_r(NULL, " ", &save)) {
		v = strncmp(word, "nohz=", 5) ? -1 : kernel_bool(word + 5);
		if (v >= 0)
			off = !v;
	}
	return off;
}

/* HZ from the tick period against the jiffies timer_list printed. */
static void check_hz(const struct tl_state *a, const struct tl_state *b, int hz)
{
	double rate;

	if (a->tl_jiffies < 0 || b->tl_jiffies < 0) {
		ksft_test_result_skip("HZ %d: timer_list prints no jiffies to check it against\n",
				      hz);
		return;
	}
	rate = (double)(b->tl_jiffies - a->tl_jiffies) * NSEC_PER_SEC /
	       (b->jiffies_at - a->jiffies_at);
	/* Two jiffies of reading error in IDLE_S s are well inside 5 %. */
	ksft_test_result(rate >= hz * 0.95 && rate <= hz * 1.05,
			 "HZ %d from the %lld ns tick period; jiffies advance %.1f/s\n",
			 hz, tick_period_ns(), rate);
}

/*
 * Judge one CPU's rate; @why gets the expectation it was held to.  The
 * @keeper keeps time for nohz_full CPUs: its tick never stops.  It may
 * take more (its other timers; an emulated local timer that fires early
 * takes two interrupts per event), so only the floor is held.
 */
static int rate_ok(double rate, int nohz, int keeper, int hz, char *why, size_t len)
{
	if (keeper) {
		snprintf(why, len, "timekeeper of nohz_full CPUs: at least %.0f/s", hz * 0.9);
		return rate >= hz * 0.9;
	}
	if (nohz) {
		snprintf(why, len, "NO_HZ active: at most %.0f/s", idle_bound(hz));
		return rate <= idle_bound(hz);
	}
	snprintf(why, len, "periodic: %d/s within 10 %%", hz);
	return rate >= hz * 0.9 && rate <= hz * 1.1;
}

/* What the per-CPU cases found, for the cases about all CPUs. */
struct tally {
	int nohz_cpus;		/* CPUs with NO_HZ active throughout */
	int nohz_cpu;		/* one of them, or -1 */
	int may_sleep;		/* those of them that are not the timekeeper */
	int still_cpu;		/* one of these whose .idle_sleeps did not grow, or -1 */
	int periodic_cpus;	/* CPUs without NO_HZ throughout */
	int stopped_known;	/* timer_list prints .tick_stopped for them */
	int stopped_cpu;	/* one of them whose tick was stopped, or -1 */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The median of @cpu's timer interrupt rates over the IDLE_S windows
 * @irqs[0..IDLE_S] bound, @at[] their times in ns; every window printed.
 */
static double median_rate(int cpu, unsigned long long (*irqs)[MAX_CPUS], const long long *at)
{
	double rate[IDLE_S];
	char list[IDLE_S * 12] = "";
	int w, off = 0;

	for (w = 0; w < IDLE_S; w++) {
		rate[w] = (double)(irqs[w + 1][cpu] - irqs[w][cpu]) * NSEC_PER_SEC /
			  (at[w + 1] - at[w]);
		off += snprintf(list + off, sizeof(list) - off, " %.0f", rate[w]);
	}
	ksft_print_msg("cpu%d: per-second windows:%s\n", cpu, list);
	qsort(rate, IDLE_S, sizeof(rate[0]), cmp_double);
	return rate[IDLE_S / 2];
}

/*
 * An event due this long ago and not handled means a silent timer: far
 * beyond an interrupt in flight or a vCPU the host holds back for a while.
 */
#define OVERDUE_NS NSEC_PER_SEC

/*
 * 1 when @cpu, with NO_HZ and not keeping time, took no timer interrupt
 * because it slept through the interval with nothing due: its tick stopped
 * at both readings and its next event not overdue.  It may have woken for
 * IPIs in between (.idle_sleeps grows), but no timer of its own was due.
 */
static int slept_through(int cpu, const struct tl_state *a, const struct tl_state *b)
{
	long long late = b->jiffies_at - b->expires_next[cpu];

	ksft_print_msg("cpu%d: no timer irq; tick_stopped %lld, %lld; next event %lld ns %s\n",
		       cpu, a->tick_stopped[cpu], b->tick_stopped[cpu],
		       late > 0 ? late : -late, late > 0 ? "overdue" : "ahead");
	return a->tick_stopped[cpu] == 1 && b->tick_stopped[cpu] == 1 && late < OVERDUE_NS;
}

/* One online CPU's idle rate: the median of its windows. */
static void check_cpu(int cpu, const struct tl_state *a, const struct tl_state *b,
		      double rate, unsigned long long irqs, int has_col, int keeper, int hz,
		      struct tally *t)
{
	int nohz = a->nohz[cpu] == 1;
	char why[64];

	ksft_print_msg("cpu%d: %.1f irq/s, nohz %lld, idle_sleeps +%lld, tick_stopped %lld\n",
		       cpu, rate, a->nohz[cpu],
		       b->idle_sleeps[cpu] - a->idle_sleeps[cpu], b->tick_stopped[cpu]);
	if (!has_col) {
		ksft_test_result_fail("cpu%d: online but no column in /proc/interrupts\n", cpu);
		return;
	}
	/* NO_HZ does not switch off; a switch on mid-way mixes two rates. */
	if (a->nohz[cpu] != b->nohz[cpu]) {
		ksft_test_result_fail("cpu%d: .nohz went from %lld to %lld in the interval\n",
				      cpu, a->nohz[cpu], b->nohz[cpu]);
		return;
	}
	if (!irqs && nohz && !keeper && slept_through(cpu, a, b))
		/* Stopped throughout: as good as .idle_sleeps growing. */
		ksft_test_result_pass("cpu%d: slept %d s with its tick stopped, nothing due\n",
				      cpu, IDLE_S);
	else if (!irqs)
		ksft_test_result_fail("cpu%d: not one timer interrupt in %d s: a silent timer\n",
				      cpu, IDLE_S);
	else
		ksft_test_result(rate_ok(rate, nohz, keeper, hz, why, sizeof(why)),
				 "cpu%d: median %.1f timer irq/s over %d s idle, %s\n", cpu, rate,
				 IDLE_S, why);
	if (nohz) {
		t->nohz_cpus++;
		t->nohz_cpu = cpu;
		if (keeper)
			return;
		t->may_sleep++;
		if (irqs && b->idle_sleeps[cpu] <= a->idle_sleeps[cpu])
			t->still_cpu = cpu;
		return;
	}
	t->periodic_cpus++;
	t->stopped_known |= a->tick_stopped[cpu] >= 0;
	if (a->tick_stopped[cpu] == 1 || b->tick_stopped[cpu] == 1)
		t->stopped_cpu = cpu;
}

static void check_cmdline(const struct tally *t)
{
	if (!cmdline_nohz_off())
		ksft_test_result_skip("no nohz=off on the command line to cross-check\n");
	else if (t->nohz_cpu >= 0)
		ksft_test_result_fail("nohz=off on the command line, but cpu%d has NO_HZ\n",
				      t->nohz_cpu);
	else
		ksft_test_result_pass("nohz=off on the command line: no CPU has NO_HZ\n");
}

static void check_idle_sleeps(const struct tally *t)
{
	if (!t->may_sleep)
		ksft_test_result_skip("NO_HZ is active on no CPU: none may stop its tick\n");
	else if (t->still_cpu >= 0)
		ksft_test_result_fail("NO_HZ: .idle_sleeps did not grow on cpu%d\n", t->still_cpu);
	else
		ksft_test_result_pass("NO_HZ: .idle_sleeps grew on each of %d CPUs\n",
				      t->may_sleep);
}

static void check_never_stopped(const struct tally *t)
{
	if (!t->periodic_cpus)
		ksft_test_result_skip("NO_HZ is active on every CPU: the tick may stop\n");
	else if (!t->stopped_known)
		ksft_test_result_skip("no .tick_stopped in timer_list: the tick cannot stop\n");
	else if (t->stopped_cpu >= 0)
		ksft_test_result_fail("cpu%d without NO_HZ had its tick stopped\n",
				      t->stopped_cpu);
	else
		ksft_test_result_pass("tick never stopped on the %d CPUs without NO_HZ\n",
				      t->periodic_cpus);
}

/*
 * With nohz_full CPUs, the housekeeping CPU that keeps time for them never
 * stops its tick: the busiest online CPU outside nohz_full.  -1 without
 * nohz_full CPUs.
 */
static int nohz_full_keeper(const double *rates)
{
	static int full[MAX_CPUS];
	int cpu, keeper = -1;

	if (tick_read_cpulist("/sys/devices/system/cpu/nohz_full", full, MAX_CPUS) <= 0)
		return -1;
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (full[cpu] || tick_cpu_online(cpu) != 1)
			continue;
		if (keeper < 0 || rates[cpu] > rates[keeper])
			keeper = cpu;
	}
	if (keeper >= 0)
		ksft_print_msg("cpu%d keeps time for the nohz_full CPUs\n", keeper);
	return keeper;
}

/*
 * Sleep IDLE_S one-second windows to absolute deadlines, which no signal
 * stretches, reading the timer interrupts at each bound: @irqs[w] and
 * @at[w] for w = 0..IDLE_S.  @has_col[cpu] is set when every read had a
 * column for @cpu.  0 or -errno.
 */
static int idle_windows(unsigned long long (*irqs)[MAX_CPUS], long long *at, int *has_col)
{
	static int col[MAX_CPUS];
	struct timespec until;
	int w, cpu, ret;

	clock_gettime(CLOCK_MONOTONIC, &until);
	for (w = 0; w <= IDLE_S; w++) {
		if (w) {
			until.tv_sec++;
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until,
					       NULL) == EINTR)
				;
		}
		at[w] = tick_now_ns();
		ret = tick_read_timer_irqs(irqs[w], col, MAX_CPUS);
		if (ret)
			return ret;
		for (cpu = 0; cpu < MAX_CPUS; cpu++)
			has_col[cpu] = w ? has_col[cpu] && col[cpu] : col[cpu];
	}
	return 0;
}

int main(void)
{
	static unsigned long long irqs[IDLE_S + 1][MAX_CPUS];
	static long long at[IDLE_S + 1];
	static int has_col[MAX_CPUS];
	static struct tl_state a, b;
	struct tally t = { .nohz_cpu = -1, .still_cpu = -1, .stopped_cpu = -1 };
	int hz = tick_hz(), cpu, ncpus = 0, ret, keeper;
	static double rates[MAX_CPUS];

	ksft_print_header();
	if (hz <= 0)
		ksft_exit_fail_msg("no HZ from CLOCK_MONOTONIC_COARSE's resolution (%lld ns)\n",
				   tick_period_ns());
	if (take_state(&a))
		ksft_exit_fail_msg("cannot read /proc/timer_list (%s): it tells if ticks stop\n",
				   strerror(errno));
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		ncpus += tick_cpu_online(cpu) == 1;
	ksft_set_plan(ncpus + 4);

	ret = idle_windows(irqs, at, has_col);
	if (ret)
		ksft_exit_fail_msg("cannot read /proc/interrupts: %s\n", strerror(-ret));
	if (take_state(&b))
		ksft_exit_fail_msg("cannot read /proc/timer_list again: %s\n", strerror(errno));

	check_hz(&a, &b, hz);
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (tick_cpu_online(cpu) == 1)
			rates[cpu] = median_rate(cpu, irqs, at);
	keeper = nohz_full_keeper(rates);
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (tick_cpu_online(cpu) == 1)
			check_cpu(cpu, &a, &b, rates[cpu], irqs[IDLE_S][cpu] - irqs[0][cpu],
				  has_col[cpu], cpu == keeper, hz, &t);
	check_cmdline(&t);
	check_idle_sleeps(&t);
	check_never_stopped(&t);
	ksft_finished();
}
