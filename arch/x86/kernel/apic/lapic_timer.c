// SPDX-License-Identifier: GPL-2.0-only
/*
 * The local APIC timer as each CPU's clock event device.
 *
 * Three ways to run it: periodic and one-shot count the bus clock divided
 * by 16 down from TMICT; TSC-deadline mode fires when the TSC reaches the
 * value in an MSR, so it needs no calibration and is preferred wherever
 * the CPU has it (and no erratum against it).  Without ARAT the timer stops
 * in deep C-states (C3STOP) and the tick layer falls back on a broadcast
 * device there.
 *
 * The counting rate is found by one of: platform code that knows the bus
 * clock (CPUID leaf 0x15, a hypervisor) and sets lapic_timer_period first,
 * or a measurement at boot against the boot tick (PIT or HPET) or the TSC,
 * cross-checked with the ACPI PM timer and then by running the APIC timer
 * itself against jiffies.  A timer that fails, or that the command line
 * turns off (noapictimer, nolapic_timer), is registered as a dummy device on
 * SMP: the CPUs keep a tick device whose events the broadcast device
 * delivers by IPI.
 */
#include <kunit/visibility.h>
#include <linux/acpi_pmtmr.h>
#include <linux/clockchips.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/percpu.h>
#include <linux/smp.h>

#include <asm/apic.h>
#include <asm/cpu_device_id.h>
#include <asm/hardirq.h>
#include <asm/idtentry.h>
#include <asm/intel-family.h>
#include <asm/irq_regs.h>
#include <asm/msr.h>
#include <asm/time.h>
#include <asm/trace/irq_vectors.h>
#include <asm/tsc.h>

#include "local.h"
#include "lapic_timer.h"

/*
 * Bus clocks per jiffy (before the divider), or 0 while unknown.  Platform
 * code that knows the bus clock sets it before the timer is set up.
 */
unsigned int lapic_timer_period;

/* The timer keeps running in C2 (set by lapic_timer_c2_ok or platforms). */
int local_apic_timer_c2_ok __ro_after_init;
EXPORT_SYMBOL_GPL(local_apic_timer_c2_ok);

static bool lapic_timer_disabled __initdata;
/* Calibrated (or TSC-deadline): CPUs register a real device, not a dummy. */
static bool lapic_timer_usable __ro_after_init;

static DEFINE_PER_CPU(struct clock_event_device, lapic_events);

#if IS_ENABLED(CONFIG_LAPIC_TIMER_KUNIT_TEST)
/**
 * lapic_timer_device() - a CPU's local APIC timer device, for its tests
 * @cpu: the CPU
 *
 * Return: the device, registered or not (then its name is NULL).
 */
VISIBLE_IF_KUNIT struct clock_event_device *lapic_timer_device(int cpu)
{
	return per_cpu_ptr(&lapic_events, cpu);
}
EXPORT_SYMBOL_IF_KUNIT(lapic_timer_device);
#endif

/**
 * lapic_lvtt_word() - the LVT timer register for a mode
 * @mode: periodic, one-shot or TSC deadline
 * @masked: keep the interrupt masked
 * @i82489dx: the discrete 82489DX, which takes its base divider in the LVT
 *
 * Return: the word to write to APIC_LVTT.
 */
VISIBLE_IF_KUNIT u32 lapic_lvtt_word(enum lapic_timer_mode mode, bool masked,
				     bool i82489dx)
{
	u32 lvtt = LOCAL_TIMER_VECTOR;

	if (mode == LAPIC_PERIODIC)
		lvtt |= APIC_LVT_TIMER_PERIODIC;
	else if (mode == LAPIC_DEADLINE)
		lvtt |= APIC_LVT_TIMER_TSCDEADLINE;
	/* bits 18-19; an integrated APIC never has TSC deadline mode there */
	if (i82489dx)
		lvtt |= 2 << 18;
	if (masked)
		lvtt |= APIC_LVT_MASKED;
	return lvtt;
}
EXPORT_SYMBOL_IF_KUNIT(lapic_lvtt_word);

/**
 * lapic_counting_freq() - counts per second in periodic and one-shot mode
 * @period: bus clocks per jiffy
 *
 * Return: the frequency of the divided counter in Hz.
 */
VISIBLE_IF_KUNIT u32 lapic_counting_freq(unsigned int period)
{
	return (u32)div_u64((u64)period * HZ, LAPIC_TIMER_DIVISOR);
}
EXPORT_SYMBOL_IF_KUNIT(lapic_counting_freq);

/**
 * lapic_deadline_freq() - units per second of a TSC-deadline delta
 * @tsc_khz: the TSC frequency in kHz
 *
 * Deltas are handed over in TSC cycles divided by 8, so that the core's
 * 32-bit tick limits still cover seconds at multi-GHz TSC rates.
 *
 * Return: the frequency the device is configured with, in Hz.
 */
VISIBLE_IF_KUNIT u32 lapic_deadline_freq(unsigned int tsc_khz)
{
	return tsc_khz * (1000 / LAPIC_DEADLINE_DIVISOR);
}
EXPORT_SYMBOL_IF_KUNIT(lapic_deadline_freq);

/**
 * lapic_pm_corrected() - an APIC count delta checked against the PM timer
 * @delta: APIC counts the calibration window measured
 * @pm_delta: PM timer counts over the same window, 0 if there is none
 * @corrected: set when the PM timer disagreed and @delta was rescaled
 *
 * The window is meant to be 100 ms.  Its reference (PIT ticks, TSC) can
 * run off on some machines early in boot; the PM timer has a fixed,
 * known rate, so when it says the window was more than 1 % off, the
 * delta is rescaled to what 100 ms by the PM timer would have given.
 *
 * Return: the delta to use.
 */
VISIBLE_IF_KUNIT long lapic_pm_corrected(long delta, u32 pm_delta, bool *corrected)
{
	const u32 pm_window = PMTMR_TICKS_PER_SEC / 10;

	*corrected = false;
	if (!pm_delta || abs((long)pm_delta - (long)pm_window) <= pm_window / 100)
		return delta;
	*corrected = true;
	return (long)div_u64((u64)delta * pm_window, pm_delta);
}
EXPORT_SYMBOL_IF_KUNIT(lapic_pm_corrected);

/**
 * lapic_jiffies_agree() - whether a verification run kept time
 * @jiffies_delta: jiffies that passed while the APIC timer ticked
 *	LAPIC_CAL_TICKS times
 *
 * Return: true within two jiffies either way.
 */
VISIBLE_IF_KUNIT bool lapic_jiffies_agree(unsigned long jiffies_delta)
{
	return jiffies_delta + 2 >= LAPIC_CAL_TICKS &&
	       jiffies_delta <= LAPIC_CAL_TICKS + 2;
}
EXPORT_SYMBOL_IF_KUNIT(lapic_jiffies_agree);

static bool lapic_is_82489dx(void)
{
	return !APIC_INTEGRATED(GET_APIC_VERSION(apic_read(APIC_LVR)));
}

/* Set the mode; periodic mode also starts counting @period bus clocks. */
static void lapic_timer_program(enum lapic_timer_mode mode, unsigned int period,
				bool masked)
{
	apic_write(APIC_LVTT, lapic_lvtt_word(mode, masked, lapic_is_82489dx()));

	if (mode == LAPIC_DEADLINE) {
		/*
		 * In xAPIC mode the LVTT write and a following TSC_DEADLINE
		 * MSR write are not ordered; the SDM asks for an MFENCE.
		 */
		asm volatile("mfence" : : : "memory");
		return;
	}
	apic_write(APIC_TDCR, (apic_read(APIC_TDCR) &
			       ~(APIC_TDR_DIV_1 | APIC_TDR_DIV_TMBASE)) | APIC_TDR_DIV_16);
	if (mode == LAPIC_PERIODIC)
		apic_write(APIC_TMICT, period / LAPIC_TIMER_DIVISOR);
}

static int lapic_next_count(unsigned long delta, struct clock_event_device *ced)
{
	apic_write(APIC_TMICT, delta);
	return 0;
}

static int lapic_next_deadline(unsigned long delta, struct clock_event_device *ced)
{
	u64 deadline;

	/* The deadline MSR is not serialising: order it after earlier stores. */
	weak_wrmsr_fence();
	deadline = rdtsc() + (u64)delta * LAPIC_DEADLINE_DIVISOR;
	wrmsrl(MSR_IA32_TSC_DEADLINE, deadline);
	return 0;
}

static int lapic_timer_stop(struct clock_event_device *ced)
{
	u32 lvtt;

	if (ced->features & CLOCK_EVT_FEAT_DUMMY)
		return 0;

	lvtt = apic_read(APIC_LVTT) | APIC_LVT_MASKED | LOCAL_TIMER_VECTOR;
	apic_write(APIC_LVTT, lvtt);
	/*
	 * The mask alone does not stop every part (AMD erratum 411, some
	 * recent Intel cores): disarm the count or the deadline as well.
	 */
	if (lvtt & APIC_LVT_TIMER_TSCDEADLINE)
		wrmsrl(MSR_IA32_TSC_DEADLINE, 0);
	else
		apic_write(APIC_TMICT, 0);
	return 0;
}

static int lapic_timer_periodic(struct clock_event_device *ced)
{
	if (!(ced->features & CLOCK_EVT_FEAT_DUMMY))
		lapic_timer_program(LAPIC_PERIODIC, lapic_timer_period, false);
	return 0;
}

static int lapic_timer_oneshot(struct clock_event_device *ced)
{
	enum lapic_timer_mode mode = LAPIC_ONESHOT;

	if (ced->features & CLOCK_EVT_FEAT_DUMMY)
		return 0;
	if (this_cpu_has(X86_FEATURE_TSC_DEADLINE_TIMER))
		mode = LAPIC_DEADLINE;
	lapic_timer_program(mode, 0, false);
	return 0;
}

/* The broadcast device's way to deliver a tick to CPUs whose timer sleeps. */
static void lapic_timer_broadcast(const struct cpumask *mask)
{
	if (IS_ENABLED(CONFIG_SMP))
		__apic_send_IPI_mask(mask, LOCAL_TIMER_VECTOR);
}

/*
 * What every CPU's device starts from: a dummy unless the timer is usable,
 * C3STOP and rating 100 unless the CPU has ARAT.
 */
static struct clock_event_device lapic_clockevent = {
	.name				= "lapic",
	.features			= CLOCK_EVT_FEAT_PERIODIC |
					  CLOCK_EVT_FEAT_ONESHOT |
					  CLOCK_EVT_FEAT_C3STOP |
					  CLOCK_EVT_FEAT_DUMMY,
	.rating				= 100,
	.irq				= -1,
	.set_state_shutdown		= lapic_timer_stop,
	.set_state_periodic		= lapic_timer_periodic,
	.set_state_oneshot		= lapic_timer_oneshot,
	.set_state_oneshot_stopped	= lapic_timer_stop,
	.set_next_event			= lapic_next_count,
	.broadcast			= lapic_timer_broadcast,
};

/*
 * Parts whose TSC-deadline mode misfires below a microcode revision:
 * model, steppings (bit mask, 0 for all) and the first good revision.
 */
struct lapic_deadline_erratum {
	u32 vfm;
	u16 steppings;
	u32 fixed_in;
};

static const struct lapic_deadline_erratum lapic_deadline_errata[] __initconst = {
	{ INTEL_HASWELL_X,	BIT(2),		0x3a },
	{ INTEL_HASWELL_X,	BIT(4),		0x0f },
	{ INTEL_BROADWELL_X,	0,		0x0b000020 },
	{ INTEL_BROADWELL_D,	BIT(2),		0x00000011 },
	{ INTEL_BROADWELL_D,	BIT(3),		0x0700000e },
	{ INTEL_BROADWELL_D,	BIT(4),		0x0f00000c },
	{ INTEL_BROADWELL_D,	BIT(5),		0x0e000003 },
	{ INTEL_SKYLAKE_X,	BIT(3),		0x01000136 },
	{ INTEL_SKYLAKE_X,	BIT(4),		0x02000014 },
	{ INTEL_SKYLAKE_X,	GENMASK(15, 5),	0 },
	{ INTEL_HASWELL,	0,		0x22 },
	{ INTEL_HASWELL_L,	0,		0x20 },
	{ INTEL_HASWELL_G,	0,		0x17 },
	{ INTEL_BROADWELL,	0,		0x25 },
	{ INTEL_BROADWELL_G,	0,		0x17 },
	{ INTEL_SKYLAKE_L,	0,		0xb2 },
	{ INTEL_SKYLAKE,	0,		0xb2 },
	{ INTEL_KABYLAKE_L,	0,		0x52 },
	{ INTEL_KABYLAKE,	0,		0x52 },
};

static const struct lapic_deadline_erratum * __init lapic_deadline_erratum(void)
{
	const struct lapic_deadline_erratum *e;

	for (e = lapic_deadline_errata;
	     e < lapic_deadline_errata + ARRAY_SIZE(lapic_deadline_errata); e++) {
		if (boot_cpu_data.x86_vfm != e->vfm)
			continue;
		if (!e->steppings || (e->steppings & BIT(boot_cpu_data.x86_stepping)))
			return e;
	}
	return NULL;
}

/**
 * apic_validate_deadline_timer() - keep TSC-deadline mode only where it works
 *
 * Under a hypervisor the host's microcode is not visible, so the mode is
 * trusted there.  On bare metal the parts listed above need a minimum
 * microcode revision; below it the mode is taken away and the timer counts.
 *
 * Return: true when TSC-deadline mode stays available.
 */
bool __init apic_validate_deadline_timer(void)
{
	const struct lapic_deadline_erratum *e;

	if (!boot_cpu_has(X86_FEATURE_TSC_DEADLINE_TIMER))
		return false;
	if (boot_cpu_has(X86_FEATURE_HYPERVISOR))
		return true;
	e = lapic_deadline_erratum();
	if (!e || boot_cpu_data.microcode >= e->fixed_in)
		return true;

	setup_clear_cpu_cap(X86_FEATURE_TSC_DEADLINE_TIMER);
	pr_err(FW_BUG "TSC_DEADLINE disabled due to Errata; please update microcode to version: 0x%x (or later)\n",
	       e->fixed_in);
	return false;
}

/*
 * Register this CPU's device.  A dummy (the timer is off or failed) is
 * never programmed: its unit conversion only has to be harmless.
 */
static void lapic_timer_register(void)
{
	struct clock_event_device *ced = this_cpu_ptr(&lapic_events);

	*ced = lapic_clockevent;
	ced->cpumask = cpumask_of(smp_processor_id());
	if (this_cpu_has(X86_FEATURE_ARAT)) {
		/* Runs in every C-state: better than a per-CPU HPET channel. */
		ced->features &= ~CLOCK_EVT_FEAT_C3STOP;
		ced->rating = 150;
	}

	if (!lapic_timer_usable) {
		ced->mult = 1;
		clockevents_register_device(ced);
		return;
	}
	ced->features &= ~CLOCK_EVT_FEAT_DUMMY;
	if (this_cpu_has(X86_FEATURE_TSC_DEADLINE_TIMER)) {
		ced->name = "lapic-deadline";
		ced->features &= ~CLOCK_EVT_FEAT_PERIODIC;
		ced->set_next_event = lapic_next_deadline;
		clockevents_config_and_register(ced, lapic_deadline_freq(tsc_khz),
						LAPIC_MIN_DELTA, ULONG_MAX);
	} else {
		clockevents_config_and_register(ced, lapic_counting_freq(lapic_timer_period),
						LAPIC_MIN_DELTA, LAPIC_MAX_DELTA);
	}
}

/**
 * lapic_retune_device() - convert a TSC-deadline device with a new TSC rate
 * @ced: the device registered for this CPU
 * @khz: the TSC rate in kHz
 *
 * Only a registered TSC-deadline device converts with the TSC rate; a
 * dummy (the timer turned off, even on a TSC-deadline CPU) or a counting
 * device is left alone, whatever the CPU flag says.
 */
VISIBLE_IF_KUNIT void lapic_retune_device(struct clock_event_device *ced, unsigned int khz)
{
	if ((ced->features & CLOCK_EVT_FEAT_DUMMY) || ced->set_next_event != lapic_next_deadline)
		return;
	clockevents_update_freq(ced, lapic_deadline_freq(khz));
}
EXPORT_SYMBOL_IF_KUNIT(lapic_retune_device);

static void lapic_retune_deadline(void *unused)
{
	lapic_retune_device(this_cpu_ptr(&lapic_events), tsc_khz);
}

/**
 * lapic_update_tsc_freq() - follow a refined TSC frequency
 *
 * TSC-deadline devices convert with the TSC rate; each CPU updates its own
 * device, so no conversion runs with half-updated factors.
 */
void lapic_update_tsc_freq(void)
{
	on_each_cpu(lapic_retune_deadline, NULL, 0);
}

/* One point of a calibration window, taken at a tick of the reference. */
struct lapic_cal_point {
	u32 apic;
	u64 tsc;
	u32 pm;
	unsigned long jiffies;
};

static void __init lapic_cal_take(struct lapic_cal_point *p)
{
	p->apic = apic_read(APIC_TMCCT);
	p->tsc = boot_cpu_has(X86_FEATURE_TSC) ? rdtsc() : 0;
	p->pm = acpi_pm_read_early();
	p->jiffies = jiffies;
}

/*
 * Wait for the next tick of the reference: a jiffy's worth of TSC cycles
 * when the TSC rate is known (works with no tick device at all), else the
 * next jiffy.  @mark carries the last tick between calls.
 */
static void __init lapic_cal_wait_tick(u64 *mark)
{
	if (tsc_khz) {
		u64 per_tick = div_u64((u64)tsc_khz * 1000, HZ);

		while (rdtsc() - *mark < per_tick)
			cpu_relax();
		*mark += per_tick;
		return;
	}
	while (!time_after(jiffies, (unsigned long)*mark))
		cpu_relax();
	*mark = jiffies;
}

/* Counts of one LAPIC_CAL_TICKS window, PM timer checked; 0 on failure. */
static long __init lapic_cal_measure(bool *pm_checked)
{
	struct lapic_cal_point a, b;
	u64 mark = tsc_khz ? rdtsc() : jiffies;
	bool corrected;
	u32 pm_delta;
	long delta;
	int i;

	/* Count down from the top, masked: 100 ms cannot run it out. */
	lapic_timer_program(LAPIC_PERIODIC, U32_MAX, true);

	lapic_cal_wait_tick(&mark);
	local_irq_disable();
	lapic_cal_take(&a);
	local_irq_enable();
	for (i = 0; i < LAPIC_CAL_TICKS; i++)
		lapic_cal_wait_tick(&mark);
	local_irq_disable();
	lapic_cal_take(&b);
	local_irq_enable();

	delta = (long)(a.apic - b.apic);
	pm_delta = b.pm >= a.pm ? b.pm - a.pm : b.pm + ACPI_PM_OVRRUN - a.pm;
	delta = lapic_pm_corrected(delta, pm_delta, &corrected);
	*pm_checked = pm_delta != 0;
	if (corrected)
		pr_warn("APIC calibration not consistent with PM-Timer, APIC delta adjusted to %ld\n",
			delta);
	apic_pr_verbose("APIC timer calibration: %ld counts in %d ticks, TSC delta %llu\n",
			delta, LAPIC_CAL_TICKS, b.tsc - a.tsc);
	return delta;
}

static unsigned int lapic_cal_ticks_seen __initdata;
static unsigned long lapic_cal_jiffies_start __initdata;
static unsigned long lapic_cal_jiffies_end __initdata;

static void __init lapic_cal_count_tick(struct clock_event_device *ced)
{
	unsigned int n = lapic_cal_ticks_seen++;

	if (n == 0)
		lapic_cal_jiffies_start = jiffies;
	else if (n == LAPIC_CAL_TICKS)
		lapic_cal_jiffies_end = jiffies;
}

/*
 * Run the timer periodic on the measured period for LAPIC_CAL_TICKS of its
 * own ticks and see whether jiffies, kept by the boot tick, agree.
 */
static bool __init lapic_cal_verify(struct clock_event_device *ced)
{
	/* A timer that does not tick at all must not hang the boot. */
	unsigned long give_up = jiffies + 3 * LAPIC_CAL_TICKS;
	bool ok;

	*ced = lapic_clockevent;
	ced->features &= ~CLOCK_EVT_FEAT_DUMMY;
	ced->event_handler = lapic_cal_count_tick;
	lapic_cal_ticks_seen = 0;
	lapic_cal_jiffies_start = 0;
	lapic_cal_jiffies_end = 0;
	lapic_timer_program(LAPIC_PERIODIC, lapic_timer_period, false);
	while (READ_ONCE(lapic_cal_ticks_seen) <= LAPIC_CAL_TICKS &&
	       time_before(jiffies, give_up))
		cpu_relax();
	local_irq_disable();
	apic_write(APIC_LVTT, apic_read(APIC_LVTT) | APIC_LVT_MASKED);
	apic_write(APIC_TMICT, 0);
	ced->event_handler = NULL;
	local_irq_enable();

	ok = lapic_cal_ticks_seen > LAPIC_CAL_TICKS &&
	     lapic_jiffies_agree(lapic_cal_jiffies_end - lapic_cal_jiffies_start);
	apic_pr_verbose("APIC timer verification: %lu jiffies in %d APIC ticks\n",
			lapic_cal_jiffies_end - lapic_cal_jiffies_start, LAPIC_CAL_TICKS);
	return ok;
}

/* Find lapic_timer_period; the boot CPU's device is still unregistered. */
static int __init lapic_timer_calibrate(void)
{
	struct clock_event_device *ced = this_cpu_ptr(&lapic_events);
	bool pm_checked;
	long delta;

	if (boot_cpu_has(X86_FEATURE_TSC_DEADLINE_TIMER))
		return 0;
	if (lapic_timer_period) {
		/* Known from the platform: such timers always run. */
		apic_pr_verbose("APIC timer period %u known\n", lapic_timer_period);
		return 0;
	}

	delta = lapic_cal_measure(&pm_checked);
	lapic_timer_period = delta * LAPIC_TIMER_DIVISOR / LAPIC_CAL_TICKS;
	apic_pr_verbose("APIC bus clock %u.%04u MHz\n",
			lapic_timer_period / (1000000 / HZ),
			lapic_timer_period % (1000000 / HZ));
	if (lapic_timer_period < 1000000 / HZ) {
		pr_warn("APIC frequency too slow, disabling apic timer\n");
		return -1;
	}

	/* Without the PM timer's word, run the timer against jiffies. */
	if (!pm_checked && global_clock_event) {
		if (!lapic_cal_verify(ced)) {
			pr_warn("APIC timer disabled due to verification failure\n");
			return -1;
		}
	}
	return 0;
}

/**
 * setup_boot_APIC_clock() - calibrate and register the boot CPU's timer
 *
 * A disabled or failed timer becomes a dummy device on SMP, so the CPUs
 * still get their ticks through the broadcast device; UP has no broadcast
 * and keeps the boot tick.
 */
void __init setup_boot_APIC_clock(void)
{
	if (lapic_timer_disabled)
		pr_info("Disabling APIC timer\n");
	else
		lapic_timer_usable = !lapic_timer_calibrate();

	if (lapic_timer_usable) {
		lapic_timer_register();
		amd_e400_c1e_apic_setup();
	} else if (num_possible_cpus() > 1) {
		lapic_timer_register();
	}
}

/**
 * setup_secondary_APIC_clock() - register a secondary CPU's timer
 *
 * Context: the CPU coming up, interrupts disabled.
 */
void setup_secondary_APIC_clock(void)
{
	lapic_timer_register();
	amd_e400_c1e_apic_setup();
}

/*
 * The APIC timer can be every CPU's only tick: the APIC is on and routes
 * interrupts (not legacy PIC or unconfigured virtual wire), and the timer
 * keeps running in deep idle, so no broadcast device is needed.
 */
static bool __init lapic_timer_self_sufficient(void)
{
	bool apic_on = boot_cpu_has(X86_FEATURE_APIC) && !apic_is_disabled;
	bool routed = apic_intr_mode != APIC_PIC &&
		      apic_intr_mode != APIC_VIRTUAL_WIRE_NO_CONFIG;

	return apic_on && routed && boot_cpu_has(X86_FEATURE_ARAT);
}

/**
 * apic_needs_pit() - whether the PIT must run at boot
 *
 * It is needed to measure the TSC or the APIC timer against, and as tick
 * or broadcast device when the APIC timer cannot do alone.  A TSC-deadline
 * timer needs no measurement, nor does one whose rate the platform gave;
 * a timer turned off on the command line is a dummy, which needs a
 * broadcast device even on a TSC-deadline CPU.
 *
 * Return: false when the boot can do without the PIT.
 */
bool __init apic_needs_pit(void)
{
	bool rate_known = boot_cpu_has(X86_FEATURE_TSC_DEADLINE_TIMER) ||
			  lapic_timer_period;

	if (!tsc_khz || !cpu_khz)
		return true;
	return !lapic_timer_self_sufficient() || lapic_timer_disabled || !rate_known;
}

/*
 * The timer vector.  A stray one before the CPU's device is set up (kdump
 * inherits a pending one from the crashed kernel) is stopped and dropped.
 */
static void lapic_timer_event(void)
{
	struct clock_event_device *ced = this_cpu_ptr(&lapic_events);

	if (unlikely(!ced->event_handler)) {
		pr_warn("Spurious LAPIC timer interrupt on cpu %d\n",
			smp_processor_id());
		lapic_timer_stop(ced);
		return;
	}
	/* LOC: in /proc/interrupts, and the NMI watchdog's progress count. */
	inc_irq_stat(apic_timer_irqs);
	clockevents_handle_event(ced);
}

DEFINE_IDTENTRY_SYSVEC(sysvec_apic_timer_interrupt)
{
	struct pt_regs *old_regs = set_irq_regs(regs);

	apic_eoi();
	trace_local_timer_entry(LOCAL_TIMER_VECTOR);
	lapic_timer_event();
	trace_local_timer_exit(LOCAL_TIMER_VECTOR);
	set_irq_regs(old_regs);
}

static int __init lapic_timer_parse_off(char *arg)
{
	lapic_timer_disabled = true;
	return 0;
}
early_param("noapictimer", lapic_timer_parse_off);

/* The same, under the name the documentation of other arches uses. */
static int __init lapic_timer_parse_nolapic_timer(char *arg)
{
	return lapic_timer_parse_off(arg);
}
early_param("nolapic_timer", lapic_timer_parse_nolapic_timer);

static int __init lapic_timer_parse_c2_ok(char *arg)
{
	local_apic_timer_c2_ok = 1;
	return 0;
}
early_param("lapic_timer_c2_ok", lapic_timer_parse_c2_ok);
