# shellcheck shell=bash
# Judging a console log: kernel reports, the guest's KTAP results and
# retries, KUnit suites and the skips an entry allows.

# Console lines that fail an entry wherever they appear (the kernel command
# line is left out of the scan, it echoes our own parameters).
BAD_PATTERNS='WARNING:|BUG:|Oops|Kernel panic|lockdep|NOHZ tick-stop error|hung task|blocked for more than|detected stall|UBSAN:|KASAN:|ODEBUG:|general protection fault'
# ... and the tick layer's own reports of trouble, and the kernel's about
# interrupts (a storm or a lost timer interrupt shows up there first).
BAD_PATTERNS="$BAD_PATTERNS|Failed to broadcast timer tick|misses events even .* giving up"
BAD_PATTERNS="$BAD_PATTERNS|Spurious LAPIC timer interrupt|Lost [0-9]+ RTC interrupts"
BAD_PATTERNS="$BAD_PATTERNS|nobody cared|Disabling IRQ #|hard LOCKUP|Call Trace:"
# ... and the first signs of a clockevents bug that the scheduler and the
# clocksource watchdog see: a clocksource whose skew against the watchdog
# grew too large (not the read-back-delay message, which is host noise
# under TCG and 6.12's own), a real-time task starved.
BAD_PATTERNS="$BAD_PATTERNS|Marking clocksource .* as unstable because the skew|RT throttling activated"
# Lines that match BAD_PATTERNS but report no problem: a lockdep kernel's
# boot banner.
BENIGN_LINES='rcu:[[:space:]]+RCU lockdep checking is enabled\.$'
# ... and the clockevents KUnit suite's mock device, which gives up on purpose.
BENIGN_LINES="$BENIGN_LINES|clockevents: mock misses events even [0-9]+ ns ahead, giving up$"

# Strip carriage returns and the kernel command line from a console log.
log_clean() { tr -d '\r' <"$1" | grep -v 'Kernel command line:'; }

# The kernel's reports of trouble in a log, numbered by line.
log_splats() {
	log_clean "$1" | grep -nE "$BAD_PATTERNS" | grep -vE "$BENIGN_LINES" || true
}

# The bounds on the early signs of a clockevents bug, for an entry whose
# expectations (th.expect=) do not set their own: hangs=N, hrtimer's hang
# guard tripped at most N times on each CPU (.nr_hangs of the last
# /proc/timer_list); mindelta=NS, no device's min_delta_ns raised above NS
# (ours: "X min_delta_ns raised to NS", 6.12: "CE: X increased
# min_delta_ns to NS nsec"; KUnit's mock devices left out); irqtook=US,
# hrtimer's "interrupt took" at most US microseconds.  Seen over one make
# check of ours (43 boots): hangs 0-1 where CPUs have their own timer;
# where lockdep slows the stress tier (x86-debug) 5 to 101, more the
# busier the host, so that entry sets 500; the hosted noapictimer entries
# 0-1 since the event of a hosted CPU is judged past before the broadcast
# lock is taken (30-101 before), bound 20 for a busy host; min_delta_ns
# raised up to 25,312 ns (an HPET channel, from 5,000); the longest
# interrupt 28.9 ms.
EARLY_SIGN_BOUNDS="hangs=5 mindelta=60000 irqtook=100000"

# early_sign_bound KEY LOG
early_sign_bound() {
	local v
	v=$(entry_expect "$2" | sed -n "s/^$1=//p" | tail -n 1)
	[ -n "$v" ] || v=$(echo "$EARLY_SIGN_BOUNDS" | tr ' ' '\n' | sed -n "s/^$1=//p")
	echo "$v"
}

# early_signs LOG: one reason per early sign above its bound.
early_signs() {
	log_clean "$1" | awk -v hangs="$(early_sign_bound hangs "$1")" \
		-v mindelta="$(early_sign_bound mindelta "$1")" \
		-v took="$(early_sign_bound irqtook "$1")" '
		/^# tl\| cpu: / { cpu = $NF }
		/^# tl\| +\.nr_hangs +: / && $NF + 0 > hangs + 0 {
			printf "early sign: cpu%s .nr_hangs %d above hangs=%d\n", cpu, $NF, hangs
		}
		/ min_delta_ns raised to [0-9]+| CE: .* increased min_delta_ns to [0-9]+/ {
			dev = $0
			if (dev ~ / CE: /) sub(/.* CE: /, "", dev)
			else sub(/.*clockevents: /, "", dev)
			sub(/ .*/, "", dev)
			ns = $0
			sub(/.*min_delta_ns (raised )?to /, "", ns)
			sub(/[^0-9].*/, "", ns)
			if (dev != "mock" && ns + 0 > mindelta + 0 && !said[dev]++)
				printf "early sign: %s min_delta_ns raised to %d, above mindelta=%d\n", dev, ns, mindelta
		}
		/hrtimer: interrupt took [0-9]+ ns/ {
			ns = $0
			sub(/.*interrupt took /, "", ns)
			if (ns / 1000 > took + 0)
				printf "early sign: hrtimer: interrupt took %d us, above irqtook=%d\n", ns / 1000, took
		}'
}

# judge_log LOG KUNIT RESULT_PREFIX OBJ: print one reason per problem; the
# KUnit suites (KUNIT: the matrix column) go to RESULT_PREFIX.kunit as
# "PASS suite" / "FAIL suite".
judge_log() {
	local log=$1 kunit=$2 res=$3 obj=$4 bad
	bad=$(log_splats "$log" | head -n 5)
	[ -z "$bad" ] || echo "kernel splat in the log:" "$bad"
	early_signs "$log"
	log_clean "$log" | grep -m 3 'tick-watch: cpu[0-9]* silent' | sed 's/^/tick watch: /'
	log_clean "$log" | grep -q '^TH-DONE' ||
		echo "no TH-DONE: the guest hung, panicked or timed out"
	log_clean "$log" | sed -n '/^TH-INIT/,/^TH-DONE/p' | guest_failures
	log_clean "$log" | sed -n '/^TH-INIT/,/^TH-DONE/p' | guest_plan_check
	selftest_skips "$log" | sed -n 's/^refused|/selftest case skipped where the entry does not allow it (harness\/selftest-case-may-skip): /p'
	log_clean "$log" | grep -qE '^ok 1 tick-assert' ||
		echo "tick-assert did not pass:" \
			"$(log_clean "$log" | grep -E '^    not ok' | head -n 8 | tr '\n' ';')"
	: >"$res.kunit"
	[ "$kunit" = no ] || judge_kunit "$log" "$res.kunit" "$obj" "$kunit"
	return 0
}

# Each failed guest test with its evidence: the failed cases it printed and
# the last lines of its output (an upstream test often just exits after a
# message).  A case's result may follow an unterminated printf on its line
# (see case_results in harness/guest/init).  Reads the guest's KTAP on stdin.
guest_failures() {
	awk '
		/^# selftest: / { n = 0; split("", cases); nc = 0 }
		/^# / { tail[n++ % 6] = $0 }
		/^# ([^#]*[^ #])?not ok [0-9]/ { if (nc < 6) cases[nc++] = $0 }
		/^not ok / {
			print "guest: " $0
			for (i = 0; i < nc; i++) print "guest:   " cases[i]
			for (i = (n > 6 ? n - 6 : 0); i < n; i++) print "guest:   " tail[i % 6]
		}'
}

# The guest's KTAP against its plans: every top-level result numbered in
# order and as many as "1..N" announced, each nested document (tick-assert
# and tick-assert-end) with as many cases as its own plan, no "Bail out!".
# A result lost on the console or a loop that ended early fails the entry.
# Reads the guest's KTAP on stdin.
guest_plan_check() {
	awk '
		/^Bail out!/ || /^# *Bail out!/ { print "guest: " $0; bad = 1 }
		/^1\.\.[0-9]+$/ && !plan { plan = substr($0, 4) + 0; next }
		/^    KTAP version 1$/ { sub_open = 1; sub_seen = 0; sub_plan = -1; subs++ }
		/^    (not )?ok [0-9]+ / && sub_open { sub_seen++ }
		/^    1\.\.[0-9]+$/ && sub_open { sub_plan = substr($0, 8) + 0 }
		/^(not )?ok [0-9]+ / {
			n = $1 == "ok" ? $2 : $3
			if (n != ++seen) { printf "guest: result %d where %d was due: %s\n", n, seen, $0; seen = n }
			if (sub_open) {
				name = $1 == "ok" ? $3 : $4
				if (sub_plan < 0) printf "guest: %s printed no plan\n", name
				else if (sub_seen != sub_plan) printf "guest: %s: %d of %d planned cases\n", name, sub_seen, sub_plan
				sub_open = 0
			}
		}
		END {
			if (!plan) print "guest: no KTAP plan"
			else if (seen != plan) printf "guest: %d of %d planned results\n", seen, plan
			if (!subs) print "guest: tick-assert printed no plan"
		}'
}

# Guest tests that passed only on a later run (see harness/guest/retry).
guest_retries() {
	log_clean "$1" | sed -n 's/^# RETRIED /note: retried /p'
}

# judge_kunit LOG OUT OBJ MODE: feed the part of the log before our init to
# kunit.py and record each suite; MODE is the entry's kunit column.
judge_kunit() {
	local log=$1 out=$2 obj=$3 mode=$4 parsed suite status
	# Only KTAP lines: a kernel message printed in the middle of a suite
	# (no indentation) would end its nesting for kunit.py.
	parsed=$(log_clean "$log" | sed '/^TH-INIT/,$d' |
		grep -E '^(\[[ 0-9.]+\] )?[[:space:]]*(K?TAP version|#|ok |not ok |[0-9]+\.\.[0-9]+)' |
		python3 "$UPSTREAM/tools/testing/kunit/kunit.py" parse 2>&1 || true)
	echo "$parsed" >"$out.parsed"
	# Suites open with "NAME (N subtests)"; parameterised cases open
	# without a count.  A suite without its closing status crashed; one
	# that says PASSED over a failed case (a line lost on the console)
	# failed.
	for suite in $(echo "$parsed" |
		sed -n 's/.*=\{3,\} \([^ ]*\) ([0-9]* subtests\{0,1\}) =\{3,\}.*/\1/p'); do
		status=$(echo "$parsed" |
			sed -n "s/.*=\{3,\} \[\([A-Z]*\)\] $suite =\{3,\}.*/\1/p" | tail -n 1)
		echo "$parsed" | sed -n "/=\{3,\} $suite ([0-9]* subtests\{0,1\}) =/,/=\{3,\} \[[A-Z]*\] $suite =/p" |
			grep -qE '\[(FAILED|CRASHED)\]' && status=FAILED
		[ "$status" = PASSED ] && echo "PASS $suite" || echo "FAIL $suite"
	done >"$out"
	# Every suite the kernel was built with must have run (in a "fast"
	# entry, every suite with a case that is not slow).
	for suite in $(kunit_suites_built "$obj/.config" "$mode"); do
		grep -qx "[A-Z]* $suite" "$out" || echo "FAIL $suite" >>"$out"
	done
	grep '^FAIL' "$out" | sed 's/^FAIL/kunit suite failed or missing:/' || true
	kunit_skips "$log" | while IFS='|' read -r verdict name; do
		[ "$verdict" = allowed ] ||
			echo "kunit case skipped where the entry does not allow it (harness/kunit-may-skip): $name"
	done
}

# entry_expect LOG: the entry's expectations as its kernel command line
# carried them (th.expect=), one per line.
entry_expect() {
	tr -d '\r' <"$1" | sed -n 's/.*Kernel command line:.* th\.expect=\([^ ]*\).*/\1/p' |
		head -n 1 | tr ';' '\n'
}

# skip_condition_holds COND LOG: a condition of harness/selftest-case-may-skip
# (KEY=GLOB, cmdline:WORD, either with "!" in front) on LOG's boot.
skip_condition_holds() {
	local cond=$1 log=$2 want=0 item
	if [ "${cond#!}" != "$cond" ]; then
		want=1
		cond=${cond#!}
	fi
	local -
	set -f
	if [ "${cond#cmdline:}" != "$cond" ]; then
		for item in $(tr -d '\r' <"$log" | sed -n 's/.*Kernel command line: //p' | head -n 1); do
			[ "$item" = "${cond#cmdline:}" ] && return "$want"
		done
	else
		for item in $(entry_expect "$log"); do
			# shellcheck disable=SC2053
			[[ $item == $cond ]] && return "$want"
		done
	fi
	return $((1 - want))
}

# skip_allowed TABLE LOG KEY: whether a row of harness/TABLE whose leading
# columns, trimmed and joined by "|", are KEY has a condition (the column
# after them) that holds on LOG's boot.
skip_allowed() {
	local table=$1 log=$2 key=$3 cols
	while IFS= read -r cols; do
		[ "${cols%|*}" = "$key" ] && skip_condition_holds "${cols##*|}" "$log" && return 0
	done < <(table "$H/$table" | awk -F'|' -v n="$(echo "$key" | awk -F'|' '{ print NF }')" '{
		for (i = 1; i <= n + 1; i++) {
			gsub(/^[ \t]+|[ \t]+$/, "", $i)
			printf "%s%s", $i, i <= n ? "|" : "\n"
		}
	}')
	return 1
}

# selftest_skips LOG: each case of our selftests the guest skipped, as
# "allowed|TEST: REASON" or "refused|TEST: REASON" by
# harness/selftest-case-may-skip.
selftest_skips() {
	local log=$1 ours test reason
	ours=$(overlay_files | sed -n 's|^tools/testing/selftests/timers/\([^/]*\)\.c$|\1|p')
	log_clean "$log" | sed -n '/^TH-INIT/,/^TH-DONE/p' |
		awk '/^# selftest: / { t = $3 }
		     /^# (not )?ok [0-9]+ .*# SKIP/ { sub(/.*# SKIP */, ""); print t "|" $0 }' |
		while IFS='|' read -r test reason; do
			echo "$ours" | grep -qx "$test" || continue
			reason=$(echo "$reason" | sed 's/[[:space:]]*$//')
			if skip_allowed selftest-case-may-skip "$log" "$test|${reason%%:*}"; then
				echo "allowed|$test: $reason"
			else
				echo "refused|$test: $reason"
			fi
		done
}

# kunit_skips LOG: each KUnit case the boot skipped, as "allowed|NAME" when
# a row of harness/kunit-may-skip lets it skip (its condition as in
# skip_condition_holds), else "refused|NAME".
kunit_skips() {
	local log=$1 name
	log_clean "$log" | sed '/^TH-INIT/,$d' |
		sed -n 's/^\(\[[ 0-9.]*\] \)\{0,1\}[[:space:]]*ok [0-9]* \(.*[^ ]\) *# SKIP.*/\2/p' |
		while IFS= read -r name; do
			if skip_allowed kunit-may-skip "$log" "$name"; then
				echo "allowed|$name"
			else
				echo "refused|$name"
			fi
		done
}

# kunitpy_exec LOG OBJ SMP: `kunit.py exec` on a built kernel: kunit.py's
# own QEMU runner (its machine, console and kunit_shutdown) and parser, as
# `kunit.py run` uses them once it has built.  The log ends with kunit.py's
# exit code; prints kunitpy_judge's reasons.
kunitpy_exec() {
	local log=$1 obj=$2 smp=$3 arch rc=0
	case "$(awk '$1 == "CONFIG_X86_64=y" { print "x86_64" }' "$obj/.config")" in
	x86_64) arch=x86_64 ;;
	*) arch=arm ;;
	esac
	# Not the slow suite (as the entries whose kunit column says fast):
	# under TCG a work item refines the TSC's rate a second into the
	# boot and prints the clocksource it re-registers; held back by the
	# slow suite's loop, that line once landed between a suite's "KTAP
	# version 1" and its "# Subtest:", and kunit.py's parser lost the
	# rest ("Expected test number 1 but found 4", CI 2026-12-07).  The
	# other suites are done well before that second.
	(cd "$OURS" && timeout -k 10 600 python3 tools/testing/kunit/kunit.py exec \
		--build_dir="$obj" --arch="$arch" --qemu_args="-smp $smp" --timeout=300 \
		--filter='speed>slow') >"$log" 2>&1 || rc=$?
	echo "TH-KUNITPY-EXIT $rc" >>"$log"
	kunitpy_judge "$log" "$obj"
}

# kunitpy_judge LOG OBJ: one reason per problem in a kunit.py exec log:
# kunit.py failed, ran nothing, or did not pass every suite OBJ's kernel
# was built with but the slow ones (kunitpy_exec).
kunitpy_judge() {
	local log=$1 obj=$2 rc suite
	rc=$(sed -n 's/^TH-KUNITPY-EXIT //p' "$log")
	[ "$rc" = 0 ] || echo "kunit.py exec exited ${rc:-nothing}"
	grep -qE 'Testing complete\. Ran [1-9][0-9]* tests' "$log" || echo "kunit.py ran no test"
	for suite in $(kunit_suites_built "$obj/.config" fast); do
		grep -qE "=+ \[PASSED\] $suite =+" "$log" ||
			echo "kunit.py: suite $suite missing or not passed"
	done
}

# kunit_suites_built CONFIG [MODE]: the KUnit suites a kernel runs at boot,
# from its .config: our suites and upstream's time_test_cases
# (harness/kunit-suites); with MODE "fast", not the slow ones.
kunit_suites_built() {
	local opt suite speed
	[ -f "$1" ] || return 0
	while read -r opt suite speed; do
		[ "${2:-}" = fast ] && [ "$speed" = slow ] && continue
		grep -qx "$opt=y" "$1" && echo "$suite"
	done < <(table "$H/kunit-suites")
}

# An entry's expectations for one flavour: "ours:KEY=V" holds for ours only,
# "up:KEY=V" for upstream only (where ours deliberately differs, both are
# written, so the difference is pinned on both kernels), the rest for both.
# "ours-only:log=TEXT" is a message of ours: ours logs it, upstream does not.
expect_for() {
	local flavour=$1 mine=ours: other=up: only='s/^ours-only://'
	if [ "$flavour" = upstream ]; then
		mine=up: other=ours: only='s/^ours-only:log=/log=!/'
	fi
	echo "$2" | tr ';' '\n' | grep -v "^$other" | sed -e "s/^$mine//" -e "$only" |
		paste -sd ';'
}
