# shellcheck shell=bash
# make bench: upstream 6.12 and ours, same tarball and config, booted
# alternately in one run; ratios ours/upstream.

BENCH_ROUNDS=${TH_BENCH_ROUNDS:-2}

# Boot ENTRY of FLAVOUR in bench MODE, EXTRA (or -) added to its
# tick-assert expectations; prints the log path.
bench_boot() {
	local entry=$1 flavour=$2 mode=$3 idle=$4 round=$5 extra=$6 board smp cpu cmdline
	local obj log append expect
	board=$(entry_field "$entry" board)
	smp=$(entry_field "$entry" smp)
	cpu=$(entry_field "$entry" cpu); [ "$cpu" = - ] && cpu=""
	cmdline=$(entry_field "$entry" cmdline); [ "$cmdline" = - ] && cmdline=""
	expect=$(expect_for "$flavour" "$(entry_field "$entry" expect)")
	[ "$extra" = - ] || expect="$expect;$extra"
	obj=$B/obj/$flavour-$(entry_field "$entry" build)
	log=$B/bench/logs/$flavour-$entry-$mode-$round-${extra%%=*}.log
	append="console=$(board_console "$board") panic=-1 ${cmdline//,/ }"
	append="$append th.tests=$mode th.expect=$expect th.idle=$idle"
	boot_qemu "$log" "$board" "$obj" "$cpu" "$smp" 600 "$append" || true
	echo "$log"
}

# Mean per-CPU timer interrupt rate from a log's tick-rate line.
bench_rate() {
	log_clean "$1" | sed -n 's/^    # tick-rate://p' | tail -n 1 |
		tr ' ' '\n' | sed -n 's/^cpu[0-9]*=//p' |
		awk '{ s += $1; n++ } END { if (n) printf "%.2f", s / n; else print "nan" }'
}

# median/p99/max in microseconds from cyclictest's histogram (-h).
bench_latency() {
	log_clean "$1" | awk '
		/^[0-9]+ +[0-9]+/ && !done {
			us = $1 + 0; c = 0
			for (i = 2; i <= NF; i++) c += $i
			hist[us] = c; total += c; if (us > top) top = us
		}
		/^# Max Latencies:/ {
			for (i = 4; i <= NF; i++) if ($i + 0 > max) max = $i + 0
			done = 1
		}
		END {
			if (!total) { print "nan nan nan"; exit }
			for (us = 0; us <= top; us++) {
				run += hist[us]
				if (!med && run >= total * 0.5) med = us
				if (!p99 && run >= total * 0.99) p99 = us
			}
			printf "%d %d %d\n", med, p99, max
		}'
}

# Mean over the CPUs of tick-assert's sleepers: "median p99" overshoot in us.
bench_overshoot() {
	log_clean "$1" | sed -n 's/^    # sleep: cpu[0-9]* .*overshoot median \([0-9]*\) us, p99 \([0-9]*\) us.*/\1 \2/p' |
		awk '{ m += $1; p += $2; n++ } END { if (n) printf "%.1f %.1f\n", m / n, p / n; else print "nan nan" }'
}

# Sum of the text sizes of the tick objects of a build.
bench_text() {
	local obj=$1
	size -t "$obj"/kernel/time/clockevents.o "$obj"/kernel/time/tick-*.o \
		"$obj"/kernel/time/timer_list.o 2>/dev/null | awk 'END { print $1 }'
}

# Which flavour boots first alternates per round, so that neither always
# runs right after the other (host caches, a neighbour's load).
bench_order() {
	if [ $(($1 % 2)) -eq 1 ]; then echo upstream ours; else echo ours upstream; fi
}

bench_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0 || a == "nan" || b == "nan") print "n/a"; else printf "%.2f", a / b }'
}

# The rows of harness/bench to run: TH_BENCH_ONLY=ERE keeps those whose
# "metric entry" it matches.
bench_rows() {
	table "$H/bench" | while read -r metric entry rest; do
		[[ "$metric $entry" =~ ${TH_BENCH_ONLY:-.} ]] && echo "$metric $entry $rest"
	done
	return 0
}

bench_main() {
	local metric entry mode idle round flavour log builds b key
	local -A sum cnt
	deps_install
	tree_prepare
	initramfs_all all
	builds=$(bench_rows | awk '{ print $2 }' | sort -u |
		while read -r e; do entry_field "$e" build; done | sort -u)
	for b in $builds; do
		build_kernel "$b" upstream
		build_kernel "$b" ours
	done
	rm -rf "$B/bench"
	mkdir -p "$B/bench/logs"
	for round in $(seq "$BENCH_ROUNDS"); do
		while read -r metric entry mode idle extra; do
			for flavour in $(bench_order "$round"); do
				say "bench round $round: $metric $entry $flavour"
				log=$(bench_boot "$entry" "$flavour" "$mode" "$idle" "$round" "$extra")
				bench_record "$metric" "$entry" "$flavour" "$log"
			done
		done < <(bench_rows)
	done
	bench_table
}

# Append one boot's figures to build/bench/raw: metric entry flavour value...
bench_record() {
	local metric=$1 entry=$2 flavour=$3 log=$4
	case "$metric" in
	cyclictest) echo "$metric $entry $flavour $(bench_latency "$log")" ;;
	sleep-overshoot) echo "$metric $entry $flavour $(bench_overshoot "$log")" ;;
	*) echo "$metric $entry $flavour $(bench_rate "$log")" ;;
	esac >>"$B/bench/raw"
	if [ -n "$(log_splats "$log")" ]; then
		echo "splat $entry $flavour $log" >>"$B/bench/raw"
		say "bench: kernel splat in $log"
	fi
}

# Means per metric and flavour; the table, bench.json and the plot.
bench_table() {
	local raw=$B/bench/raw obj_u obj_o
	obj_u=$B/obj/upstream-x86-nohz-hres
	obj_o=$B/obj/ours-x86-nohz-hres
	{
		awk '$1 != "splat" {
			if ($1 == "cyclictest" || $1 == "sleep-overshoot") {
				split($1 == "cyclictest" ? "median p99 max" : "median p99", n, " ")
				for (i = 1; i in n; i++) { k = $1 "-" n[i] "-us " $2; s[k, $3] += $(3 + i); c[k, $3]++; keys[k] = 1 }
			} else { k = $1 " " $2; s[k, $3] += $4; c[k, $3]++; keys[k] = 1 }
		} END {
			for (k in keys) printf "%s %.2f %.2f\n", k, s[k, "upstream"] / c[k, "upstream"], s[k, "ours"] / c[k, "ours"]
		}' "$raw" | sort
		echo "text-bytes kernel/time/tick $(bench_text "$obj_u") $(bench_text "$obj_o")"
	} >"$B/bench/means"
	printf '%-22s %-16s %12s %12s %8s\n' metric entry upstream ours ratio
	local metric entry up ours json="" sep=""
	while read -r metric entry up ours; do
		printf '%-22s %-16s %12s %12s %8s\n' "$metric" "$entry" "$up" "$ours" \
			"$(bench_ratio "$ours" "$up")"
		json="$json$sep{\"metric\":\"$metric\",\"entry\":\"$entry\",\"upstream\":$up,\"ours\":$ours}"
		sep=","
	done <"$B/bench/means"
	echo "{\"rounds\":$BENCH_ROUNDS,\"results\":[$json]}" >"$B/bench/bench.json"
	bench_plot
	echo "bench: $B/bench/bench.json, $B/bench/bench.png"
	! grep -q '^splat' "$B/bench/raw"
}

bench_plot() {
	awk '{ r = ($3 > 0) ? $4 / $3 : 0; printf "%d \"%s\\n%s\" %.3f\n", NR, $1, $2, r }' \
		"$B/bench/means" >"$B/bench/ratios.dat"
	gnuplot <<-GP 2>/dev/null || say "gnuplot failed; no plot"
		set terminal png size 1000,500
		set output "$B/bench/bench.png"
		set title "ours / upstream 6.12 (1.0 = same; lower is better)"
		set style fill solid 0.6
		set boxwidth 0.6
		set yrange [0:*]
		set xtics rotate by -30 font ",8"
		set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2
		plot "$B/bench/ratios.dat" using 1:3:xtic(2) with boxes notitle
	GP
}
