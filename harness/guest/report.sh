# shellcheck shell=sh
# The guest's verdict on one selftest, sourced by /init and called directly by
# the judge's report, retry and runner cases (harness/lib-judge.sh): the
# report line from the test's exit code and output, the retry rule and the
# exit code read from kselftest's result line.  TH_ROOT, empty in the guest,
# is where the judge keeps its made-up etc/xfail, etc/may-skip, etc/retry and
# proc/cpuinfo.

# Expected failures: "name case..." lines in /etc/xfail.
xfail_cases() {
	sed -n "s/^$1[[:space:]]\{1,\}//p" "${TH_ROOT-}/etc/xfail" 2>/dev/null
}

# May NAME skip here?  /etc/may-skip: "name cpus=N" lines (the test may
# skip when N CPUs are online).  Anywhere else a skip is a failure.
may_skip() {
	cpus=$(grep -c '^processor' "${TH_ROOT-}/proc/cpuinfo")
	[ "$cpus" -gt 0 ] || cpus=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)
	grep -q "^$1[[:space:]]\{1,\}cpus=$cpus\([[:space:]]\|\$\)" "${TH_ROOT-}/etc/may-skip" 2>/dev/null
}

# The case results in test output $1, one "ok N" or "not ok N" a line.  A
# result may follow an unterminated printf on its line: 6.12's
# posix_timers prints "Diff too high: 2712345.." and then its
# "not ok 1 ITIMER_VIRTUAL".  Nested results ("# # ok") are not cases.
case_results() {
	sed -n -E 's/^# ([^#]*[^ #])?((not )?ok [0-9]+)( .*)?$/\2/p' "$1"
}

# Did the test in output $1 run every case it planned, without bailing out?
all_cases_ran() {
	plan=$(sed -n 's/^# 1\.\.\([0-9]\{1,\}\)$/\1/p' "$1" | head -n 1)
	ran=$(case_results "$1" | wc -l)
	[ -n "$plan" ] && [ "$ran" -eq "$plan" ] && ! grep -q 'Bail out!' "$1"
}

# Report one test from its exit code; failures of cases listed in
# /etc/xfail (known failures of the upstream base) do not fail it.
report() {
	num=$1 name=$2 rc=$3 out=$4
	title="selftests: timers: $name"
	allowed=$(xfail_cases "$name")
	# A known failure that passes means /etc/xfail (or the entry's xfail=)
	# no longer says what this kernel does: fixed, or the case lost.
	if [ "$rc" -eq 0 ] && [ -n "$allowed" ]; then
		echo "not ok $num $title # XPASS cases $allowed (known upstream 6.12 failures that passed)"
		return
	fi
	if [ "$rc" -eq 0 ]; then
		echo "ok $num $title"
		return
	fi
	if [ "$rc" -eq 4 ]; then
		if may_skip "$name"; then
			echo "ok $num $title # SKIP"
		else
			echo "not ok $num $title # skipped where the entry requires it"
		fi
		return
	fi
	failed=$(case_results "$out" | sed -n 's/^not ok //p' | tr '\n' ' ')
	if [ -n "$allowed" ] && [ -n "$failed" ] && all_cases_ran "$out"; then
		unexpected="" xpass=""
		for c in $failed; do
			case " $allowed " in
			*" $c "*) ;;
			*) unexpected="$unexpected $c" ;;
			esac
		done
		for c in $allowed; do
			case " $failed " in
			*" $c "*) ;;
			*) xpass="$xpass $c" ;;
			esac
		done
		if [ -n "$xpass" ] && [ -z "$unexpected" ]; then
			echo "not ok $num $title # XFAIL cases $failed; XPASS cases$xpass (known upstream 6.12 failures that passed)"
			return
		fi
		if [ -z "$unexpected" ]; then
			echo "ok $num $title # XFAIL cases $failed(known upstream 6.12 failures)"
			return
		fi
	fi
	echo "not ok $num $title # exit $rc"
}

# The /etc/retry patterns of test $1 with sign $2 (+ or -), one per line.
retry_patterns() {
	awk -v t="$1" -v s="$2" '$1 == t && substr($2, 1, 1) == s {
		sub(/^[^ \t]+[ \t]+./, ""); print }' "${TH_ROOT-}/etc/retry" 2>/dev/null
}

# May the failed run of $1, whose output is $2, be run again?  Only when
# it failed a wall-clock bound and nothing else.
retry_allowed() {
	plus=$(retry_patterns "$1" +)
	[ -n "$plus" ] || return 1
	echo "$plus" | while IFS= read -r re; do
		grep -qE -e "$re" "$2" && echo yes
	done | grep -q yes || return 1
	retry_patterns "$1" - | while IFS= read -r re; do
		grep -qE -e "$re" "$2" && echo no
	done | grep -q no && return 1
	return 0
}

# The exit code kselftest's runner reports in its result line $1 (what
# KernelCI reads); 125 when the runner printed none.
runner_rc() {
	case "$1" in
	"ok "*"# SKIP") echo 4 ;;
	"ok "*) echo 0 ;;
	"not ok "*"# exit="*) echo "${1##*# exit=}" ;;
	"not ok "*"# TIMEOUT"*) echo 124 ;;
	*) echo 125 ;;
	esac
}
