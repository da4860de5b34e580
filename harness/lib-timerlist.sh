# shellcheck shell=bash
# make check-upstream's comparison of each entry's /proc/timer_list dump
# between the two kernels of one run.

# One log's /proc/timer_list in a form two kernels can be compared in:
# run-to-run values (times, counters, addresses, the broadcast's CPU
# masks, "f" as well as "3") become N, queued timers
# (their set and order vary) are dropped, and so are the lines of a
# driver's own callbacks (their names and which optional ones a driver
# has are the driver's).  Mode and state flags stay.
timer_list_normalised() {
	log_clean "$1" | sed -n 's/^# tl| //p' | awk '
		/^ *#[0-9]+: / || /^ *# expires at/ { next }
		/^ (set_next_event|set_next_ktime|shutdown|periodic|oneshot|oneshot stopped|resume):/ {
			next
		}
		/^tick_broadcast_[a-z_]*mask: / { sub(/: .*/, ": N"); print; next }
		/(mode|hres_active|highres|nohz|resolution) *:/ { gsub(/<[^>]*>/, "<ADDR>"); print; next }
		{
			gsub(/<[^>]*>/, "<ADDR>")
			gsub(/\(____ptrval____\)/, "N")
			gsub(/0x[0-9a-f]+|[0-9a-f]*[0-9][0-9a-f]*/, "N")
			print
		}'
}

# The sed commands that turn 6.12's normalised dump of ENTRY into ours
# (harness/timer-list-differences).
timer_list_differences() {
	local entry=$1 globs script glob
	table "$H/timer-list-differences" | while read -r globs script; do
		for glob in ${globs//,/ }; do
			# shellcheck disable=SC2254
			case "$entry" in $glob) printf '%s\n' "$script"; break ;; esac
		done
	done
}

# timer_list_differ ENTRY UPLOG OURSLOG START: why UPLOG's and OURSLOG's
# /proc/timer_list differ for ENTRY, but for the differences it lists
# (timer_list_differences); nothing if they are alike.  Both logs must be
# newer than the file START (of the same run) and have their dump.
timer_list_differ() {
	local entry=$1 up=$2 ours=$3 start=$4 log
	for log in "$up" "$ours"; do
		if ! [ "$log" -nt "$start" ]; then
			echo "$log is not of this run"
			return 0
		fi
		if ! grep -q '^# tl| ' "$log"; then
			echo "no /proc/timer_list in $log"
			return 0
		fi
	done
	diff <(timer_list_normalised "$up" | sed -e "$(timer_list_differences "$entry")") \
		<(timer_list_normalised "$ours") | head -n 20 || true
}

# check-upstream: ours and upstream print the same /proc/timer_list for an
# entry (6.12's layout, fields and core handler names) in this run, but
# for the differences it lists.  Records
# build/results/upstream/timer_list-ENTRY.status.
timer_list_compare() {
	local entry=$1 res=$B/results/upstream/timer_list-$1 out
	out=$(timer_list_differ "$entry" "$B/logs/upstream/$entry.log" "$B/logs/ours/$entry.log" \
		"$B/results/check-upstream.start")
	if [ -z "$out" ]; then
		echo "PASS timer_list $entry (ours and upstream alike but for the listed differences)"
		echo PASS >"$res.status"
	else
		echo "FAIL timer_list $entry (< upstream with the listed differences, > ours)"
		echo "$out" | sed 's/^/     /'
		echo FAIL >"$res.status"
	fi
}
