/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HPET driver's decisions and arithmetic, static in a normal build and
 * visible to its KUnit suite (hpet_test.c) when KUnit is enabled.
 */
#ifndef _X86_KERNEL_HPET_KUNIT_H
#define _X86_KERNEL_HPET_KUNIT_H

#include <linux/types.h>

/*
 * A comparator write takes effect up to a few counter cycles late on some
 * chipsets: a deadline closer than this after the write may be missed.
 */
#define HPET_MIN_CYCLES		128
/* The smallest delta handed to the device, with a margin over that. */
#define HPET_MIN_PROG_DELTA	(HPET_MIN_CYCLES * 3 / 2)
#define HPET_MAX_PROG_DELTA	0x7fffffff

/* What a channel is used for. */
enum hpet_role {
	HPET_ROLE_FREE,		/* nothing yet */
	HPET_ROLE_LEGACY,	/* IRQ0 tick (channel 0) or IRQ8 RTC (channel 1) */
	HPET_ROLE_PERCPU,	/* a CPU's clock event device over MSI */
	HPET_ROLE_DEVICE,	/* left to /dev/hpet */
};

/* What decides the roles of the channels the legacy mode left free. */
struct hpet_role_plan {
	unsigned int nr;		/* channels */
	const u32 *boot_cfg;		/* their configuration at boot */
	bool want_device;		/* /dev/hpet is built in */
	unsigned int percpu_max;	/* CPUs that want an HPET channel */
};

#if IS_ENABLED(CONFIG_KUNIT)
bool hpet_period_valid(u32 period_fs);
unsigned long hpet_freq_of(u32 period_fs);
unsigned int hpet_channels_of(u32 id);
bool hpet_cmp_missed(u32 cmp, u32 now);
u32 hpet_cycles_of(u64 ns, u32 mult, u32 shift);
unsigned int hpet_rtc_advance(u32 *cmp, u32 delta, u32 now);
unsigned int hpet_plan_roles(const struct hpet_role_plan *plan, enum hpet_role *role);
unsigned int hpet_roles_rollback(enum hpet_role *role, unsigned int nr);
#endif

#endif /* _X86_KERNEL_HPET_KUNIT_H */
