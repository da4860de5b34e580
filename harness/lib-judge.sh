# shellcheck shell=bash
# The pass rules tried on purpose (harness/judge-cases): the judge of
# lib-boot.sh on broken copies of a passing log, and the guest's own
# report and retry rules (harness/guest/report.sh) on made-up test outputs.

# The lines of harness/judge-cases of one kind, without the kind.
judge_cases() {
	sed -n "s/^$1|//p" "$H/judge-cases"
}

# guest_verdict DIR COMMAND: COMMAND run by sh with the guest's verdict
# rules (harness/guest/report.sh) reading their etc/ and proc/cpuinfo from DIR.
guest_verdict() {
	TH_ROOT=$1 sh -c ". '$H/guest/report.sh'; $2"
}

# The guest files a report case sets up in DIR: /etc/xfail, /etc/may-skip,
# a cpuinfo with CPUS processors; and the test's output in DIR/out.
report_setup() {
	local dir=$1 test=$2 xfail=$3 cpus=$4 skip=$5 plan=$6 ran=$7 failed=$8 last=$9 i
	mkdir -p "$dir/etc" "$dir/proc"
	: >"$dir/etc/xfail"
	: >"$dir/etc/may-skip"
	[ "$xfail" = - ] || echo "$test ${xfail//+/ }" >"$dir/etc/xfail"
	[ "$skip" = - ] || echo "$test cpus=$skip" >"$dir/etc/may-skip"
	for ((i = 0; i < cpus; i++)); do echo "processor : $i"; done >"$dir/proc/cpuinfo"
	{
		echo "# TAP version 13"
		echo "# 1..$plan"
		for ((i = 1; i <= ran; i++)); do
			case "+$failed+" in
			*"+$i+"*) echo "# not ok $i case $i" ;;
			*) echo "# ok $i case $i" ;;
			esac
		done
		[ "$last" = - ] || echo "# $last"
	} >"$dir/out"
}

# One case's verdict: PASS/FAIL NAME (rule R): what was seen.
judge_verdict() {
	local ok=$1 name=$2 rule=$3 seen=$4 res=$B/results/ours/judge-$2
	if [ "$ok" = yes ]; then
		echo PASS >"$res.status"
		echo "PASS judge-$name (rule $rule): $seen"
	else
		echo FAIL >"$res.status"
		echo "FAIL judge-$name (rule $rule): $seen"
	fi
	: >"$res.kunit"
}

# judge_mutations KIND LOG JUDGE...: each KIND line of harness/judge-cases
# breaks a copy of LOG with its sed script; the command JUDGE, given the
# copy's path, must answer what the line says.
judge_mutations() {
	local kind=$1 base=$2 dir=$B/judge name rule want script reasons ok
	shift 2
	while IFS='|' read -r name rule want script; do
		tr -d '\r' <"$base" | sed -e "$script" >"$dir/$name.log"
		reasons=$("$@" "$dir/$name.log" | tr '\n' ' ')
		if [ "$want" = - ]; then
			[ -z "$reasons" ] && ok=yes || ok=no
		else
			echo "$reasons" | grep -qE -e "$want" && ok=yes || ok=no
		fi
		judge_verdict "$ok" "$name" "$rule" "${reasons:-no reason}"
	done < <(judge_cases "$kind")
}

# judge_boot_log MODE OBJ LOG: the boot judge on LOG with its KUnit suites,
# as an entry whose kunit column says MODE judges them.
judge_boot_log() {
	judge_log "$3" "$1" "${3%.log}" "$2"
}

# judge_kunitpy_log OBJ LOG: kunitpy_judge with its arguments swapped.
judge_kunitpy_log() {
	kunitpy_judge "$2" "$1"
}

# judge_report_cases: /init's report on made-up outputs.
judge_report_cases() {
	local dir=$B/judge/report name rule want setup output line ok
	local test rc xfail cpus skip plan ran failed last
	while IFS='|' read -r name rule want setup output; do
		read -r test rc xfail cpus skip <<<"$setup"
		read -r plan ran failed last <<<"$output"
		rm -rf "$dir"
		report_setup "$dir" "$test" "$xfail" "$cpus" "$skip" "$plan" "$ran" "$failed" "$last"
		line=$(guest_verdict "$dir" "report 1 '$test' $rc '$dir/out'")
		echo "$line" | grep -qE -e "$want" && ok=yes || ok=no
		judge_verdict "$ok" "$name" "$rule" "$line"
	done < <(judge_cases report)
}

# judge_retry_cases: may /init run a failed test again?
judge_retry_cases() {
	local dir=$B/judge/retry name rule want test output seen ok
	while IFS='|' read -r name rule want test output; do
		rm -rf "$dir"
		mkdir -p "$dir/etc"
		cp "$H/guest/retry" "$dir/etc/retry"
		printf '%b\n' "$output" | sed 's/^/# /' >"$dir/out"
		seen=$(guest_verdict "$dir" "retry_allowed '$test' '$dir/out' && echo retry || echo stop")
		[ "$seen" = "$want" ] && ok=yes || ok=no
		judge_verdict "$ok" "$name" "$rule" "$test: $seen after \"${output%%\\n*}\""
	done < <(judge_cases retry)
}

# judge_runner_cases: the exit code /init reads from kselftest's result line.
judge_runner_cases() {
	local name rule want line seen ok
	while IFS='|' read -r name rule want line; do
		seen=$(guest_verdict "$B/judge" "runner_rc '$line'")
		[ "$seen" = "$want" ] && ok=yes || ok=no
		judge_verdict "$ok" "$name" "$rule" "exit $seen from \"$line\""
	done < <(judge_cases runner)
}

# judge_base_cases: the base pin (lib-tree.sh's base_check) given a
# version and a TH_ACCEPT_BASE ("=" stands for the pinned version, "-" for
# none): "ok", or the first line of its refusal.
judge_base_cases() {
	local name rule want ver accept seen ok
	while IFS='|' read -r name rule want ver accept; do
		[ "$ver" = = ] && ver=$BASE_PINNED
		[ "$accept" = - ] && accept=""
		seen=$( (TH_ACCEPT_BASE=$accept base_check "$ver" >/dev/null 2>&1 && echo ok) ||
			TH_ACCEPT_BASE=$accept base_check "$ver" 2>&1 | grep -m 1 'error')
		echo "$seen" | grep -qE -e "$want" && ok=yes || ok=no
		judge_verdict "$ok" "$name" "$rule" "base $ver: $seen"
	done < <(judge_cases base)
}

# judge_kunitpy_cases: the kunit.py entry's judge on broken copies of its
# passing log (the entry named by JUDGE_KUNITPY_ENTRY).
JUDGE_KUNITPY_ENTRY=kunit-py-x86

judge_kunitpy_cases() {
	local obj
	obj=$B/obj/ours-$(entry_field "$JUDGE_KUNITPY_ENTRY" build)
	if [ "$(cat "$B/results/ours/$JUDGE_KUNITPY_ENTRY.status" 2>/dev/null)" != PASS ]; then
		judge_verdict no kunitpy-logs - "$JUDGE_KUNITPY_ENTRY did not pass: no log to break"
		return 0
	fi
	judge_mutations kunitpy "$B/logs/ours/$JUDGE_KUNITPY_ENTRY.log" judge_kunitpy_log "$obj"
}

# judge_timer_list_cases LOG: check-upstream's comparison, given LOG as
# both kernels' log of the entry a case names, one copy broken.
judge_timer_list_cases() {
	local base=$1 dir=$B/judge/tl name rule want entry side script seen ok
	while IFS='|' read -r name rule want entry side script; do
		rm -rf "$dir"
		mkdir -p "$dir"
		touch -d '-1 hour' "$dir/start"
		tr -d '\r' <"$base" >"$dir/up.log"
		tr -d '\r' <"$base" | sed -e "$script" >"$dir/ours.log"
		[ "$side" = stale ] && touch -d '-2 hours' "$dir/up.log"
		seen=$(timer_list_differ "$entry" "$dir/up.log" "$dir/ours.log" "$dir/start" |
			tr '\n' ' ')
		if [ "$want" = - ]; then
			[ -z "$seen" ] && ok=yes || ok=no
		else
			echo "$seen" | grep -qE -e "$want" && ok=yes || ok=no
		fi
		judge_verdict "$ok" "$name" "$rule" "$entry: ${seen:-alike}"
	done < <(judge_cases tl)
}

# judge_selftest ENTRY: every case of harness/judge-cases, the log ones on
# ENTRY's log, which must have passed (a failing log proves nothing).
judge_selftest() {
	local entry=$1 obj
	obj=$B/obj/ours-$(entry_field "$entry" build)
	rm -rf "$B/judge"
	mkdir -p "$B/judge" "$B/results/ours"
	say "judge: the pass rules on broken copies of $entry's log"
	if [ "$(cat "$B/results/ours/$entry.status" 2>/dev/null)" != PASS ]; then
		judge_verdict no logs - "$entry did not pass: no log to break"
	else
		judge_mutations log "$B/logs/ours/$entry.log" judge_boot_log yes "$obj"
		judge_mutations logfast "$B/logs/ours/$entry.log" judge_boot_log fast "$obj"
		judge_timer_list_cases "$B/logs/ours/$entry.log"
	fi
	judge_report_cases
	judge_retry_cases
	judge_runner_cases
	judge_base_cases
	judge_kunitpy_cases
}
