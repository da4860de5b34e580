// SPDX-License-Identifier: GPL-2.0
/*
 * tick-watch: a lost wakeup found in seconds, while the selftests run.
 *
 * One SCHED_FIFO thread per online CPU (not the nohz_full ones: the
 * nohz-full test wants their tick stopped) sleeps PERIOD_MS at a time,
 * pinned to its CPU, and notes when it last woke there.  Every thread, once
 * awake, looks at the others: a CPU whose thread has not woken for
 * SILENT_MS, beyond the looker's own lateness (a host that stops the whole
 * guest delays every thread alike), missed a timer interrupt: a wakeup a
 * broadcast dropped, a device that went silent, a hosted event lost.  The
 * looker says so on the kernel log ("tick-watch: cpuN silent", a line the
 * harness fails the entry on) and restarts the guest SETTLE_S later, at
 * once through sysrq (reboot(2) would wait for RCU, whose grace periods a
 * sleeping CPU's lost timer can hold up): a CPU that never wakes would
 * otherwise hold the run until the tier's hang timeout, and the kernel
 * would report it only as a stall or a task blocked for minutes.  A CPU
 * whose thread is not on it (the CPU is offline, or its thread waits to
 * be pinned again) is not judged: sched_setaffinity() and the sysfs online
 * files wait for a hotplug in progress, which takes seconds on the debug
 * kernel under stress.
 *
 * SIGTERM ends the watch; it prints the longest silence it saw.
 *
 * Usage: tick-watch        (runs until SIGTERM)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <time.h>
#include <unistd.h>

#define MAX_CPUS 64
#define PERIOD_MS 500
#define SILENT_MS 3000
#define SETTLE_S 5

/*
 * When each CPU's thread last woke on it, in milliseconds of
 * CLOCK_MONOTONIC since start (32 bits: every reader sees a whole value),
 * or NOT_JUDGED while the thread is not on its CPU.
 */
static int beat[MAX_CPUS];
#define NOT_JUDGED (-1)
static int watched[MAX_CPUS];
static int longest, longest_cpu = -1;
static int alarmed;
static int stop;
static struct timespec t0;

static int now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec - t0.tv_sec) * 1000 + (ts.tv_nsec - t0.tv_nsec) / 1000000;
}

static int read_cpulist(const char *path, int *in)
{
	char buf[256] = "", *p;
	int fd = open(path, O_RDONLY), n, a, b, count = 0;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	for (p = buf; *p && *p != '\n';) {
		if (sscanf(p, "%d-%d", &a, &b) != 2 && sscanf(p, "%d", &a) == 1)
			b = a;
		for (; a <= b && a < MAX_CPUS; a++, count++)
			in[a] = 1;
		p += strcspn(p, ",\n");
		if (*p == ',')
			p++;
	}
	return count;
}

static void kmsg(const char *line)
{
	int fd = open("/dev/kmsg", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, line, strlen(line)) < 0)
			perror("tick-watch: /dev/kmsg");
		close(fd);
	}
}

static void restart_now(void)
{
	int fd = open("/proc/sysrq-trigger", O_WRONLY);

	if (fd < 0 || write(fd, "b", 1) != 1)
		reboot(RB_AUTOBOOT);
}

/* Judge every other watched CPU from @me, which has just woken @late ms late. */
static void look(int me, int late)
{
	char line[160];
	int cpu, now = now_ms(), silent;

	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (cpu == me || !watched[cpu])
			continue;
		silent = __atomic_load_n(&beat[cpu], __ATOMIC_RELAXED);
		if (silent == NOT_JUDGED)
			continue;
		silent = now - silent;
		if (silent - late > __atomic_load_n(&longest, __ATOMIC_RELAXED)) {
			__atomic_store_n(&longest, silent - late, __ATOMIC_RELAXED);
			__atomic_store_n(&longest_cpu, cpu, __ATOMIC_RELAXED);
		}
		if (silent - late <= SILENT_MS || __atomic_exchange_n(&alarmed, 1, __ATOMIC_RELAXED))
			continue;
		snprintf(line, sizeof(line),
			 "<3>tick-watch: cpu%d silent for %d ms (its %d ms sleep not woken; seen from cpu%d, %d ms late itself), restarting in %d s\n",
			 cpu, silent, PERIOD_MS, me, late, SETTLE_S);
		kmsg(line);
		sleep(SETTLE_S);
		restart_now();
	}
}

static void *watch_cpu(void *arg)
{
	int cpu = (long)arg, before, late;
	struct sched_param sp = { .sched_priority = 1 };
	struct timespec period = { 0, PERIOD_MS * 1000000L };
	cpu_set_t set;

	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		if (sched_getcpu() != cpu) {
			__atomic_store_n(&beat[cpu], NOT_JUDGED, __ATOMIC_RELAXED);
			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			if (sched_setaffinity(0, sizeof(set), &set)) {
				/* Offline: nothing to wake, nothing lost. */
				nanosleep(&period, NULL);
				continue;
			}
		}
		before = now_ms();
		nanosleep(&period, NULL);
		late = now_ms() - before - PERIOD_MS;
		if (sched_getcpu() == cpu)
			__atomic_store_n(&beat[cpu], now_ms(), __ATOMIC_RELAXED);
		look(cpu, late > 0 ? late : 0);
	}
	return NULL;
}

int main(void)
{
	static int full[MAX_CPUS];
	pthread_t thread[MAX_CPUS];
	int cpu, n = 0, sig;
	sigset_t term;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* Only main takes SIGTERM (the watchers inherit the mask). */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &term, NULL);
	read_cpulist("/sys/devices/system/cpu/nohz_full", full);
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		char path[64];

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
		if (full[cpu] || access(path, F_OK))
			continue;
		beat[cpu] = now_ms();
		watched[cpu] = 1;
		if (pthread_create(&thread[cpu], NULL, watch_cpu, (void *)(long)cpu))
			watched[cpu] = 0;
		else
			n++;
	}
	sigwait(&term, &sig);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	printf("# tick-watch: %d CPUs watched for %d s, longest silence %d ms (cpu%d)\n",
	       n, now_ms() / 1000, longest, longest_cpu);
	return 0;
}
