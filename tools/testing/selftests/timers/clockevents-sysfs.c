// SPDX-License-Identifier: GPL-2.0
/*
 * clockevents-sysfs: /sys/devices/system/clockevents.  Every possible CPU has
 * clockeventN/ with a readable current_device (for an online CPU its tick
 * device's name and a newline) and a write-only unbind_device; with broadcast
 * support (a "Broadcast device" in /proc/timer_list) broadcast/current_device
 * exists too, maybe empty.
 *
 * A bad name written to unbind_device fails as in 6.12 and changes no
 * current_device: EINVAL when the write, its newline included, does not fit
 * CS_NAME_LEN - 1 bytes; ENODEV for a name no device has (the empty one
 * too).  Unbinding CPU 0's own device fails with EBUSY and changes
 * nothing, or succeeds and CPU 0 shows another device; unbinding the
 * broadcast device through a CPU fails with EBUSY.  Afterwards the tick runs:
 * a 100 ms sleep returns, not early and less than SLEEP_LATE_NS late (a
 * host may stall the guest for a while, a lost timer is found only by a
 * later event, if any, or never), jiffies advance within 2 s and every
 * online CPU has a tick device.  Needs root; CPU 0 may end on another device.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "tick-util.h"

#define CE_DIR "/sys/devices/system/clockevents"
#define NSEC_PER_SEC 1000000000LL
#define SLEEP_NS 100000000LL
#define SLEEP_LATE_NS (NSEC_PER_SEC)
#define CS_NAME_LEN 32
#define MAX_CPUS 256
#define BC MAX_CPUS	/* index of the broadcast device */
#define NAME_SZ 64
#define PATH_SZ 128

struct snap {
	char dev[MAX_CPUS + 1][NAME_SZ];	/* current_device, [BC] broadcast */
};

static int possible[MAX_CPUS], online[MAX_CPUS];
static int has_bc;	/* broadcast/current_device exists */

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static char *ce_path(char *path, int cpu, const char *file)
{
	if (cpu == BC)
		snprintf(path, PATH_SZ, CE_DIR "/broadcast/%s", file);
	else
		snprintf(path, PATH_SZ, CE_DIR "/clockevent%d/%s", cpu, file);
	return path;
}

/* current_device of @cpu (or BC) into @buf without its newline: bytes read or -errno. */
static int read_dev(int cpu, char *buf)
{
	char path[PATH_SZ];
	int fd, n;

	buf[0] = 0;
	fd = open(ce_path(path, cpu, "current_device"), O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, NAME_SZ - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	return n;
}

/* One write() of @len bytes to clockevent@cpu/unbind_device: 0 or -errno. */
static int write_unbind(int cpu, const char *buf, size_t len)
{
	char path[PATH_SZ];
	ssize_t ret;
	int fd;

	fd = open(ce_path(path, cpu, "unbind_device"), O_WRONLY);
	if (fd < 0)
		return -errno;
	ret = write(fd, buf, len);
	ret = ret < 0 ? -errno : (size_t)ret == len ? 0 : -EIO;
	close(fd);
	return ret;
}

static void take_snap(struct snap *s)
{
	int cpu;

	memset(s, 0, sizeof(*s));
	for (cpu = 0; cpu <= BC; cpu++)
		if (cpu == BC ? has_bc : possible[cpu])
			read_dev(cpu, s->dev[cpu]);
}

/* Does every current_device still match @s?  Prints the first change. */
static int same_as(const struct snap *s)
{
	static struct snap now;
	char path[PATH_SZ];
	int cpu;

	take_snap(&now);
	for (cpu = 0; cpu <= BC; cpu++) {
		if (strcmp(now.dev[cpu], s->dev[cpu])) {
			ksft_print_msg("%s: '%s', was '%s'\n", ce_path(path, cpu, "current_device"),
				       now.dev[cpu], s->dev[cpu]);
			return 0;
		}
	}
	return 1;
}

/* A write that must fail with @want (a 0-length one may return 0) and change nothing. */
static void bad_input(int cpu, const char *buf, size_t len, int want,
		      const char *what, const struct snap *s)
{
	int ret = write_unbind(cpu, buf, len), same = same_as(s);

	ksft_test_result((ret == -want || (!len && !ret)) && same,
			 "clockevent%d unbind %s: %s (want %s), devices %s\n",
			 cpu, what, ret ? strerror(-ret) : "success",
			 strerror(want), same ? "unchanged" : "CHANGED");
}

static void test_layout(int npossible)
{
	char path[PATH_SZ], name[NAME_SZ], why[160] = "";
	struct stat st;
	int cpu, n;

	for (cpu = 0; cpu < MAX_CPUS && !why[0]; cpu++) {
		if (!possible[cpu])
			continue;
		n = read_dev(cpu, name);
		if (stat(ce_path(path, cpu, "unbind_device"), &st) ||
		    (st.st_mode & 0444) || !(st.st_mode & 0200))
			snprintf(why, sizeof(why), ": %s missing or not write-only", path);
		else if (n < 0 || (online[cpu] && (!name[0] || n != (int)strlen(name) + 1)))
			snprintf(why, sizeof(why), ": clockevent%d/current_device %s'%s'",
				 cpu, online[cpu] ? "(online) " : "", n < 0 ? strerror(-n) : name);
	}
	ksft_test_result(!why[0], "clockeventN/{current,unbind}_device for %d possible CPUs%s\n",
			 npossible, why);
}

static void test_unbind_used(struct snap *s)
{
	char buf[NAME_SZ + 1], name[NAME_SZ];
	int ret;

	if (!s->dev[0][0]) {
		ksft_test_result_skip("clockevent0 has no device to unbind\n");
		return;
	}
	snprintf(buf, sizeof(buf), "%s\n", s->dev[0]);
	ret = write_unbind(0, buf, strlen(buf));
	if (ret == -EBUSY) {
		ret = same_as(s);
		ksft_test_result(ret, "unbind in-use '%s' from clockevent0: EBUSY, devices %s\n",
				 s->dev[0], ret ? "unchanged" : "CHANGED");
		return;
	}
	read_dev(0, name);
	ksft_test_result(!ret && name[0] && strcmp(name, s->dev[0]),
			 "unbind in-use '%s' from clockevent0: %s, now '%s'\n",
			 s->dev[0], ret ? strerror(-ret) : "replaced", name);
	take_snap(s);
}

static void test_tick(void)
{
	struct timespec ts = { 0, SLEEP_NS };
	int dev[MAX_CPUS], bc, cpu, ret, missing = -1;
	unsigned long j0 = tick_jiffies(), j;
	long long t0;

	t0 = now_ns();
	ret = clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	t0 = now_ns() - t0;
	ksft_test_result(!ret && t0 >= SLEEP_NS && t0 - SLEEP_NS < SLEEP_LATE_NS,
			 "100 ms clock_nanosleep: %d after %lld us, less than %lld ms late\n",
			 ret, t0 / 1000, SLEEP_LATE_NS / 1000000);
	for (t0 = now_ns(); ; usleep(10000)) {
		j = tick_jiffies();
		if (j != j0 || now_ns() - t0 > 2 * NSEC_PER_SEC)
			break;
	}
	ksft_test_result(j != j0, "jiffies advanced within 2 s: %lu -> %lu\n", j0, j);
	tick_read_devices(dev, MAX_CPUS, &bc);
	for (cpu = MAX_CPUS - 1; cpu >= 0; cpu--)
		if (online[cpu] && !dev[cpu])
			missing = cpu;
	ksft_test_result(missing < 0, "every online CPU has a tick device (first without: %d)\n",
			 missing);
}

int main(void)
{
	static struct snap s;
	char x40[41], x32[CS_NAME_LEN], bcbuf[NAME_SZ + 1];
	int npossible, nonline, last = 0, cpu, dev[MAX_CPUS], bc;

	ksft_print_header();
	if (geteuid())
		ksft_exit_skip("must be run as root\n");
	if (access(CE_DIR, F_OK))
		ksft_exit_skip(CE_DIR " is missing\n");
	npossible = tick_read_cpulist("/sys/devices/system/cpu/possible", possible, MAX_CPUS);
	nonline = tick_read_cpulist("/sys/devices/system/cpu/online", online, MAX_CPUS);
	if (!npossible || !nonline)
		ksft_exit_fail_msg("cannot read the possible/online CPU lists\n");
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		last = online[cpu] ? cpu : last;
	ksft_set_plan(17);

	test_layout(npossible);
	has_bc = !access(CE_DIR "/broadcast/current_device", R_OK);
	tick_read_devices(dev, MAX_CPUS, &bc);
	take_snap(&s);
	if (has_bc)
		ksft_test_result_pass("broadcast/current_device: '%s'\n", s.dev[BC]);
	else if (bc)
		ksft_test_result_fail("/proc/timer_list has a broadcast device, sysfs not\n");
	else
		ksft_test_result_skip("no broadcast support\n");
	ksft_print_msg("clockevent0: '%s', jiffies %lu\n", s.dev[0], tick_jiffies());

	/*
	 * Writes of 40 and of CS_NAME_LEN bytes, newline included, are too
	 * long; CS_NAME_LEN - 1 bytes without a newline are a name no
	 * device has.
	 */
	memset(x40, 'x', sizeof(x40) - 1);
	x40[sizeof(x40) - 1] = '\n';
	memset(x32, 'x', CS_NAME_LEN - 1);
	x32[CS_NAME_LEN - 1] = '\n';
	bad_input(0, "\n", 1, ENODEV, "empty name", &s);
	bad_input(0, "", 0, EINVAL, "0-length write (or 0)", &s);
	bad_input(0, x40, sizeof(x40), EINVAL, "40-character name", &s);
	bad_input(0, x32, CS_NAME_LEN, EINVAL, "31 characters and a newline", &s);
	bad_input(0, x32, CS_NAME_LEN - 1, ENODEV, "31 characters, no newline", &s);
	bad_input(0, "no-such-clockevent\n", 19, ENODEV, "unknown name", &s);
	bad_input(0, "lap ic\n", 7, ENODEV, "name with a space", &s);
	bad_input(0, "lap\x01ic\n", 7, ENODEV, "name with a control character", &s);
	if (nonline > 1 && last > 0) {
		bad_input(last, "no-such-clockevent\n", 19, ENODEV, "unknown name", &s);
		bad_input(last, "\n", 1, ENODEV, "empty name", &s);
	} else {
		ksft_test_result_skip("one CPU online: no last CPU, unknown name\n");
		ksft_test_result_skip("one CPU online: no last CPU, empty name\n");
	}

	test_unbind_used(&s);
	if (s.dev[BC][0] && strcmp(s.dev[BC], s.dev[0])) {
		snprintf(bcbuf, sizeof(bcbuf), "%s\n", s.dev[BC]);
		bad_input(0, bcbuf, strlen(bcbuf), EBUSY, "the broadcast device", &s);
	} else {
		ksft_test_result_skip("no broadcast device apart from clockevent0's\n");
	}
	test_tick();
	ksft_finished();
}
