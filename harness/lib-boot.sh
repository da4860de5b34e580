# shellcheck shell=bash
# Booting the matrix: one entry (boot, judge, record), the whole run with
# its builds in the background, the totals and the live display.

# boot_entry ENTRY FLAVOUR: boot, judge, record build/results/FLAVOUR/ENTRY.*
boot_entry() {
	local entry=$1 flavour=$2 build board cpu smp cmdline tests kunit expect
	local obj log res append reasons start status
	for col in $MATRIX_COLS; do
		local "$col=$(entry_field "$entry" "$col")"
	done
	[ "$cpu" = - ] && cpu=""
	[ "$cmdline" = - ] && cmdline=""
	tests=${TH_TIER:-$tests}
	expect=$(expect_for "$flavour" "$expect")
	obj=$B/obj/$flavour-$build
	log=$B/logs/$flavour/$entry.log
	res=$B/results/$flavour/$entry
	mkdir -p "$B/logs/$flavour" "$B/results/$flavour"
	append="console=$(board_console "$board") panic=-1 ${cmdline//,/ }"
	append="$append th.tests=$tests th.expect=$expect th.idle=${TH_IDLE:-10}"
	[ "$kunit" = fast ] && append="$append kunit.filter=speed>slow"
	start=$SECONDS
	if [ "$(cat "$obj/.th-status" 2>/dev/null)" != PASS ]; then
		reasons="build $build failed: $B/logs/$flavour/build-$build.log"
		: >"$res.kunit"
	elif [ "$board" = kunit.py ]; then
		say "kunit.py $flavour $entry"
		reasons=$(kunitpy_exec "$log" "$obj" "$smp")
		: >"$res.kunit"
	elif [ "$board" = build ]; then
		# A compile-only entry: judged by what build_check found.
		reasons=$(sed "s|^|build $build: |" "$obj/.th-check")
		log=$B/logs/$flavour/build-$build.log
		: >"$res.kunit"
	else
		say "boot $flavour $entry"
		boot_qemu "$log" "$board" "$obj" "$cpu" "$smp" \
			"$(tier_timeout "$tests")" "$append" || true
		reasons=$(judge_log "$log" "$kunit" "$res" "$obj")
	fi
	if [ -z "$reasons" ]; then
		status=PASS
		echo "PASS $entry ($((SECONDS - start)) s) $log"
		guest_retries "$log" | sed 's/^/     /'
		kunit_skips "$log" | sed -n 's/^allowed|/     note: KUnit case skipped as allowed: /p'
		selftest_skips "$log" | sed -n 's/^allowed|/     note: selftest case skipped as allowed: /p'
	else
		status=FAIL
		echo "FAIL $entry ($((SECONDS - start)) s) $log"
		echo "$reasons" | sed 's/^/     /'
		# The console tail tells more than the guest's report only when
		# the guest did not finish or the kernel complained.
		case "$reasons" in
		*"no TH-DONE"* | *"kernel splat"* | *"tick-assert"*)
			[ -f "$log" ] && tail -n 15 "$log" | tr -d '\r' | sed 's/^/     | /' ;;
		esac
	fi
	sed 's/^/     kunit /' "$res.kunit"
	[ ! -f "$log" ] || guest_retries "$log" >"$res.retries"
	echo "$status" >"$res.status"
	echo "$reasons" >"$res.reason"
	[ "$status" = PASS ]
}

# Builds the matrix needs, in order of first use.
# On upstream, only those of the booting entries (see matrix_entries).
matrix_builds() {
	matrix_rows | awk -v f="$1" '(f == "ours" || $3 != "build") && !seen[$2]++ { print $2 }'
}

# boot_when_built ENTRY FLAVOUR: wait for the entry's kernel, then boot it.
boot_when_built() {
	local obj
	obj=$B/obj/$2-$(entry_field "$1" build)
	while [ ! -f "$obj/.th-status" ]; do sleep 5; done
	case "$(entry_field "$1" tests)" in
	full | timing | timing-cs) boot_streamed "$1" "$2" progress || true ;;
	*) boot_entry "$1" "$2" || true ;;
	esac
}

# Build lane (background, niced so guests keep their timing) and boot lane.
# A quiet entry (its bounds hold on an unloaded host only: see
# harness/matrix) that comes up while the build lane still runs waits
# until it is done; the entries after it boot meanwhile.
matrix_run() {
	local flavour=$1 entry build lane deferred=""
	rm -rf "$B/results/$flavour"
	mkdir -p "$B/results/$flavour"
	for build in $(matrix_builds "$flavour"); do
		rm -f "$B/obj/$flavour-$build/.th-status"
	done
	(
		renice -n 19 -p "$BASHPID" >/dev/null
		for build in $(matrix_builds "$flavour"); do
			build_kernel "$build" "$flavour" || true
		done
	) &
	lane=$!
	for entry in $(matrix_entries "$flavour"); do
		if [ "$(entry_field "$entry" quiet)" = yes ] && kill -0 "$lane" 2>/dev/null; then
			deferred="$deferred $entry"
			continue
		fi
		boot_when_built "$entry" "$flavour"
	done
	wait
	for entry in $deferred; do
		boot_when_built "$entry" "$flavour"
	done
}

# retries_said FLAVOUR: every guest test that passed only on a later run,
# per entry (a retry is a failure the bound forgave; the total must say so).
retries_said() {
	local f n=0 entries=""
	for f in "$B/results/$1"/*.retries; do
		[ -s "$f" ] || continue
		n=$((n + $(wc -l <"$f")))
		entries="$entries $(basename "$f" .retries) ($(sed 's/^note: retried \([^:]*\):.*/\1/' "$f" | paste -sd, -))"
	done
	echo "retried: $n guest tests passed only on a later run${entries:+ in}$entries"
}

# What the total adds up, by kind: entries, the judge's self-tests, the
# timer_list comparisons, the KUnit suites (counted again in every entry
# whose kunit column counts them).
counts_said() {
	local dir=$B/results/$1 entries=0 judge=0 tl=0 kunit=0 f
	for f in "$dir"/*.status; do
		[ -f "$f" ] || continue
		case "${f##*/}" in
		judge-*) judge=$((judge + 1)) ;;
		timer_list-*) tl=$((tl + 1)) ;;
		*) entries=$((entries + 1)) ;;
		esac
	done
	kunit=$(cat "$dir"/*.kunit 2>/dev/null | grep -c '^\(PASS\|FAIL\)' || true)
	f="counted: $entries entries, $kunit KUnit suite runs, $judge judge cases"
	[ "$tl" -eq 0 ] || f="$f, $tl timer_list comparisons"
	echo "$f"
}

# Totals: one test per entry plus one per KUnit suite that counted.
matrix_report() {
	local flavour=$1 pass=0 fail=0 f
	for f in "$B/results/$flavour"/*.status; do
		[ -f "$f" ] || continue
		if [ "$(cat "$f")" = PASS ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
	done
	for f in "$B/results/$flavour"/*.kunit; do
		[ -f "$f" ] || continue
		pass=$((pass + $(grep -c '^PASS' "$f" || true)))
		fail=$((fail + $(grep -c '^FAIL' "$f" || true)))
	done
	base_said
	counts_said "$flavour"
	retries_said "$flavour"
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

# make soak's figures from a guest log: load, wake-ups, hotplug and
# suspend cycles, and the kernel's reports (which also fail the entry).
soak_figures() {
	local log=$1
	echo "---- soak figures: $log"
	log_clean "$log" | sed -n 's/^# # \(bogo-ops total.*\|all: .*\|cycle [0-9]*: .*\)$/  \1/p'
	log_clean "$log" | sed -n 's/^# \(\(not \)\{0,1\}ok [0-9]* .*\(overshoot\|hotplug\|sleepers\|cycle\).*\)$/  \1/p'
	echo "  splats: $(log_splats "$log" | wc -l)"
}

# The tick in a few lines, from tick-assert's report (a guest log on stdin).
tick_summary() {
	sed -n \
		-e 's/^    # \(cpu[0-9]*\): \(.*\)/  \1 tick device: \2/p' \
		-e 's/^    # broadcast: \(.*\)/  broadcast device: \1/p' \
		-e 's/^    ok [0-9]* \(clock_getres.*\)/  \1/p' \
		-e '/^    # tick-rate:/{s/ hz=[-0-9]*$//;s/^    # tick-rate:\(.*\)/  idle timer interrupts per second:\1/p}'
}

# stream_filter [ENTRY]: make run's view of a guest log arriving on stdin,
# as the guest gets there: the tick summary and /proc/timer_list once
# tick-assert has run, then a line per selftest as it ends (result,
# seconds), then the guest's total.  With ENTRY (make check's long
# entries), only a line per selftest as it starts.
stream_filter() {
	local entry=${1:-} line start=$SECONDS t0=$SECONDS name="" head=""
	while IFS= read -r line; do
		line=${line%$'\r'}
		if [ -n "$entry" ]; then
			case "$line" in
			"# selftest: "*)
				name=${line#\# selftest: }
				echo "     .. $entry: ${name% } (at $((SECONDS - start)) s)" ;;
			esac
			continue
		fi
		case "$line" in
		TH-INIT*)
			echo "  guest up after $((SECONDS - start)) s: ${line#TH-INIT }"
			head=yes ;;
		"ok 1 tick-assert" | "not ok 1 tick-assert")
			echo "---- tick summary (${line% 1 tick-assert})"
			printf '%s\n' "$head" | tick_summary
			head=""
			echo "---- /proc/timer_list after boot" ;;
		"# tl0| "*) echo "${line#\# tl0| }" ;;
		"# selftest: "*)
			[ -n "$name" ] || echo "---- selftests"
			name=${line#\# selftest: } t0=$SECONDS ;;
		"# RETRIED "*) echo "  ${line#\# }" ;;
		"ok "*" selftests: timers: "* | "not ok "*" selftests: timers: "*)
			printf '  %-6s %4d s  %s\n' "${line%% [0-9]*}" $((SECONDS - t0)) \
				"${line#* selftests: timers: }" ;;
		*" tick-assert-end")
			echo "  ${line% [0-9]* tick-assert-end} tick-assert-end (devices, modes, rates and sleepers re-measured)" ;;
		TH-DONE*) echo "  guest done after $((SECONDS - start)) s" ;;
		*) [ -n "$head" ] && head="$head"$'\n'"$line" ;;
		esac
	done
}

# boot_streamed ENTRY FLAVOUR [progress]: boot_entry with stream_filter on
# its log (progress: only the selftest in progress).
boot_streamed() {
	local log=$B/logs/$2/$1.log watch follower rc=0 who=""
	[ "${3:-}" = progress ] && who=$1
	mkdir -p "$(dirname "$log")"
	rm -f "$log"
	sleep 1000000 &
	watch=$!
	tail -n +1 -F --pid="$watch" "$log" 2>/dev/null | stream_filter "$who" &
	follower=$!
	boot_entry "$1" "$2" || rc=$?
	kill "$watch"
	wait "$follower" 2>/dev/null || true
	return "$rc"
}

# A short report of one entry's tick, then its whole /proc/timer_list.
summary() {
	local entry=$1 flavour=$2 log
	log=$B/logs/$flavour/$entry.log
	echo "---- tick summary: $entry ($(cat "$B/results/$flavour/$entry.status"))"
	log_clean "$log" | tick_summary
	echo "  selftests:"
	log_clean "$log" | grep -E '^(not )?ok [0-9]+ ' | sed 's/^/    /'
	echo "---- /proc/timer_list"
	log_clean "$log" | sed -n 's/^# tl| //p'
}
