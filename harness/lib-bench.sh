# shellcheck shell=bash
# make bench: upstream 6.12 and ours, same tarball and config, booted
# alternately in one run.  Each figure is the median of the rounds whose
# boot ended cleanly, with its min, max and how many rounds it rests on;
# the ratio is ours/upstream of the medians.

BENCH_ROUNDS=${TH_BENCH_ROUNDS:-3}
# The sleep probes of every bench boot (tick-assert sleep=US:MEDIAN_US; the
# bound of 1 s only completes the syntax: the matrix judges overshoot, the
# bench reports it).  1 ms first, as the deep-idle entries sample their
# broadcast mask while the first set sleeps.
BENCH_SLEEPS="sleep=1000:1000000;sleep=100:1000000;sleep=10000:1000000"
# Code size as shipped: KUNIT=n object builds of harness/builds, per arch.
BENCH_TEXT_BUILDS="x86:prod-x86 arm:prod-arm"
# The objects our series replaces or changes.  Upstream's local APIC timer
# lives in apic.o, ours in lapic_timer.o: the drivers total adds both.
BENCH_TEXT_OBJECTS="kernel/time/clockevents.o kernel/time/tick-common.o
kernel/time/tick-oneshot.o kernel/time/tick-broadcast.o
kernel/time/tick-broadcast-hrtimer.o kernel/time/tick-sched.o
kernel/time/timer_list.o arch/x86/kernel/hpet.o arch/x86/kernel/i8253.o
arch/x86/kernel/apic/apic.o arch/x86/kernel/apic/lapic_timer.o
drivers/clocksource/i8253.o drivers/clocksource/timer-sp804.o"

# The hot-path probe (harness/microbench/tick_bench.c) goes into copies of
# both trees: hard links but for the probe and kernel/time/Makefile.  They
# are built under build/mb laid out as build/ is, so that with
# CCACHE_BASEDIR the compiler sees the same relative paths as in the matrix
# builds and ccache serves every object but the probe.
BENCH_PROBE=$B/mb

bench_probe_build() {
	local build=$1 flavour src mk
	for flavour in upstream ours; do
		src=$BENCH_PROBE/src/$flavour
		rm -rf "$src"
		mkdir -p "$BENCH_PROBE/src"
		cp -al "$(tree_of "$flavour")" "$src"
		cp "$H/microbench/tick_bench.c" "$src/kernel/time/tick_bench.c"
		mk=$src/kernel/time/Makefile
		# A new inode: the tree's Makefile may be a link to the base's.
		{ cat "$mk"; echo 'obj-y += tick_bench.o'; } >"$mk.new"
		mv -f "$mk.new" "$mk"
		# shellcheck disable=SC2030,SC2034 # tree_of reads them in build_kernel
		( B=$BENCH_PROBE UPSTREAM=$BENCH_PROBE/src/upstream OURS=$BENCH_PROBE/src/ours
		  export CCACHE_BASEDIR=$BENCH_PROBE
		  build_kernel "$build" "$flavour" )
	done
}

# The bench kernel of a row: the matrix's build with the probe in it.
bench_obj() {
	local entry=$2 flavour=$3
	echo "$BENCH_PROBE/obj/$flavour-$(entry_field "$entry" build)"
}

# Boot ENTRY of FLAVOUR for METRIC in bench MODE; prints the log path.
bench_boot() {
	local metric=$1 entry=$2 flavour=$3 mode=$4 idle=$5 round=$6 board smp cpu cmdline
	local obj log append expect
	board=$(entry_field "$entry" board)
	smp=$(entry_field "$entry" smp)
	cpu=$(entry_field "$entry" cpu); [ "$cpu" = - ] && cpu=""
	cmdline=$(entry_field "$entry" cmdline); [ "$cmdline" = - ] && cmdline=""
	expect=$(expect_for "$flavour" "$(entry_field "$entry" expect)" |
		tr ';' '\n' | grep -v '^sleep=' | paste -sd ';')
	# The probe's row reports cycles only: its boots skip the sleepers.
	[ "$metric" = microbench ] || expect="$expect;$BENCH_SLEEPS"
	obj=$(bench_obj "$metric" "$entry" "$flavour")
	log=$B/bench/logs/$flavour-$metric-$entry-$round.log
	append="console=$(board_console "$board") panic=-1 ${cmdline//,/ }"
	# The probe times its hot paths in the microbench row, counts device
	# writes and IPIs in the others.
	if [ "$metric" = microbench ]; then
		append="$append tick_bench"
	else
		append="$append tick_count"
	fi
	append="$append th.tests=$mode th.expect=$expect th.idle=$idle"
	boot_qemu "$log" "$board" "$obj" "$cpu" "$smp" 600 "$append" || true
	echo "$log"
}

# Why a bench boot does not count: the first of the reasons the matrix's
# judge (judge_log) gives, KUnit aside (the bench kernels are the matrix's
# with the probe; their suites are judged in make check).  Nothing when the
# boot would pass as a matrix entry.
bench_unclean() {
	local log=$1
	if [ ! -s "$log" ]; then
		echo "no console output"
		return 0
	fi
	judge_log "$log" no "$B/bench/judge" - | head -n 1
}

# From a log's tick-rate line: the mean per-CPU timer interrupt rate, and
# the busiest CPU's interrupts per tick (HZ's share of its rate: about 1 for
# a tick that fires on time, 2 where each tick fires early and is armed
# again for the rest, as on a timekeeper whose device runs fast).
bench_rate() {
	log_clean "$1" | sed -n 's/^    # tick-rate://p' | tail -n 1 | tr ' ' '\n' | awk -F= '
		$1 ~ /^cpu[0-9]+$/ { s += $2; n++; if ($2 > top) top = $2 }
		$1 == "hz" { hz = $2 }
		END {
			if (n) printf "irq-per-cpu-s %.2f\n", s / n
			if (n && hz > 0) printf "busiest-irq-per-tick %.3f\n", top / hz
		}'
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
			if (!total) exit
			for (us = 0; us <= top; us++) {
				run += hist[us]
				if (!med && run >= total * 0.5) med = us
				if (!p99 && run >= total * 0.99) p99 = us
			}
			printf "lat-median-us %d\nlat-p99-us %d\nlat-max-us %d\n", med, p99, max
		}'
}

# The sleep probes: per sleep length, median and p99 overshoot in us,
# each the mean over the CPUs.
bench_overshoot() {
	log_clean "$1" |
		sed -n 's/^    # sleep: cpu[0-9]* \([0-9]*\) us x [0-9]*: overshoot median \([0-9]*\) us, p99 \([0-9]*\) us.*/\1 \2 \3/p' |
		awk '{ m[$1] += $2; p[$1] += $3; n[$1]++ }
		END { for (us in n) printf "sleep-%dus-median-us %.1f\nsleep-%dus-p99-us %.1f\n", us, m[us] / n[us], us, p[us] / n[us] }'
}

# The probe's device counts (tick-assert's tick-count lines, bench kernels
# booted with tick_count): device writes (every tick device and the
# broadcast device together, then the broadcast device's alone) and
# broadcast IPIs, per CPU-second of the idle interval and per sleep of each
# length; hrtimer's hangs and retries and the broadcast device's
# min_delta_ns after the sleepers; from the first tick-assert of the boot.
bench_counts() {
	log_clean "$1" | sed -n 's/^    # tick-count: //p' | awk '
		# The first tick-assert only: the end one comes after the tests.
		seen[$1 " " $2]++ { next }
		$1 == "idle" { printf "idle-writes-per-cpu-s %s\nidle-bc-writes-per-cpu-s %s\nidle-ipis-per-cpu-s %s\nidle-early-per-cpu-s %s\n", $3 + $5, $5, $7, $9 }
		$1 == "sleep" { printf "sleep-%dus-writes %s\nsleep-%dus-bc-writes %s\nsleep-%dus-ipis %s\nsleep-%dus-early %s\n", $2, $5 + $7, $2, $7, $2, $9, $2, $11 }
		$1 == "after" { printf "nr-hangs %s\nnr-retries %s\n", $5, $7; if ($9 >= 0) printf "bc-min-delta-ns %s\n", $9 }'
}

# The nohz-full selftest's rate on its busy nohz_full CPU.
bench_busy_rate() {
	log_clean "$1" |
		sed -n 's/.*# busy-alone: CPU [0-9]*: \([0-9.]*\) timer interrupts\/s.*/busy-irq-per-s \1/p' |
		tail -n 1
}

# The probe's lines: cycles per call of each operation it times.
bench_probe() {
	log_clean "$1" | sed -n 's/.*tick-bench: \([a-z-]*\) \([0-9]*\) cycles\/call.*/\1-cycles \2/p'
}

# figures METRIC LOG: "key value" per figure of a clean boot.
bench_figures() {
	case "$1" in
	cyclictest) bench_latency "$2"; bench_overshoot "$2" ;;
	microbench) bench_probe "$2" ;;
	busy-tick) bench_busy_rate "$2"; bench_overshoot "$2" ;;
	*) bench_rate "$2"; bench_overshoot "$2"; bench_counts "$2" ;;
	esac
}

# Which flavour boots first alternates per round, so that neither always
# runs right after the other (host caches, a neighbour's load).
bench_order() {
	if [ $(($1 % 2)) -eq 1 ]; then echo upstream ours; else echo ours upstream; fi
}

# The rows of harness/bench to run: TH_BENCH_ONLY=ERE keeps those whose
# "metric entry" it matches.
bench_rows() {
	table "$H/bench" | while read -r metric entry rest; do
		[[ "$metric $entry" =~ ${TH_BENCH_ONLY:-.} ]] && echo "$metric $entry $rest"
	done
	return 0
}

# bench_builds ERE: the builds of the rows whose metric ERE matches.
bench_builds() {
	bench_rows | awk -v m="$1" '$1 ~ m { print $2 }' | sort -u |
		while read -r e; do entry_field "$e" build; done | sort -u
}

bench_main() {
	local metric entry mode idle round flavour log b rc=0
	deps_install
	tree_prepare
	initramfs_all all
	for b in $(bench_builds .) $(printf '%s\n' $BENCH_TEXT_BUILDS | cut -d: -f2); do
		build_kernel "$b" upstream
		build_kernel "$b" ours
	done
	for b in $(bench_builds .); do
		bench_probe_build "$b"
	done
	rm -rf "$B/bench"
	mkdir -p "$B/bench/logs"
	: >"$B/bench/raw"
	: >"$B/bench/boots"
	for round in $(seq "$BENCH_ROUNDS"); do
		while read -r metric entry mode idle; do
			for flavour in $(bench_order "$round"); do
				say "bench round $round: $metric $entry $flavour"
				log=$(bench_boot "$metric" "$entry" "$flavour" "$mode" "$idle" "$round")
				bench_record "$round" "$metric" "$entry" "$flavour" "$log"
			done
		done < <(bench_rows)
	done
	bench_text >"$B/bench/text"
	bench_table >"$B/bench/table" || rc=$?
	cat "$B/bench/table"
	bench_page >"$B/bench/bench.md"
	echo "bench: $B/bench/bench.md, the page for docs/bench/ (copy it whole)"
	return "$rc"
}

# The run as a page of its own, headed by what it was measured on, so that
# docs/bench/ holds make bench's output rather than tables pasted by hand.
bench_page() {
	local commit
	commit=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)
	git -C "$TOP" diff --quiet HEAD 2>/dev/null || commit="$commit with uncommitted changes"
	echo "# make bench, $(date -u +%F)"
	echo
	echo "Written by \`make bench\` (\`bench_page\` in \`harness/lib-bench.sh\`), not by hand:"
	echo "commit $commit, base linux-source-6.12 $(base_version), $BENCH_ROUNDS rounds,"
	echo "rows \`${TH_BENCH_ONLY:-all}\`, $(nproc) cores, QEMU $(qemu-system-x86_64 --version |
		sed -n '1s/.*version \([^ ]*\).*/\1/p'). What each figure means: [docs/bench.md](../bench.md)."
	echo
	echo '```'
	cat "$B/bench/table"
	echo '```'
}

# Record one boot: build/bench/boots gets "round flavour metric entry
# clean|dropped log [reason]", build/bench/raw a line "round flavour metric
# entry key value" per figure of a clean boot.
bench_record() {
	local round=$1 metric=$2 entry=$3 flavour=$4 log=$5 why figures
	why=$(bench_unclean "$log")
	if [ -n "$why" ]; then
		echo "$round $flavour $metric $entry dropped $log $why" >>"$B/bench/boots"
		say "bench: round $round of $entry ($flavour) dropped: $why"
		return 0
	fi
	figures=$(bench_figures "$metric" "$log")
	if [ -z "$figures" ]; then
		echo "$round $flavour $metric $entry dropped $log no figures in the log" >>"$B/bench/boots"
		say "bench: round $round of $entry ($flavour) dropped: no figures"
		return 0
	fi
	echo "$round $flavour $metric $entry clean $log" >>"$B/bench/boots"
	echo "$figures" | sed "s|^|$round $flavour $metric $entry |" >>"$B/bench/raw"
}

# "arch object upstream ours" text bytes, 0 where a tree has no such object.
bench_text() {
	local pair arch build o u f
	for pair in $BENCH_TEXT_BUILDS; do
		arch=${pair%%:*} build=${pair#*:}
		for f in $BENCH_TEXT_OBJECTS; do
			u=$(bench_object_text "$B/obj/upstream-$build/$f")
			o=$(bench_object_text "$B/obj/ours-$build/$f")
			[ "$u$o" = 00 ] || echo "$arch $f $u $o"
		done
	done
}

bench_object_text() {
	if [ -f "$1" ]; then size "$1" | awk 'NR == 2 { print $1 }'; else echo 0; fi
}

# build/bench/stats: "metric entry key flavour n median min max" from raw.
bench_stats() {
	sort -k3,3 -k4,4 -k5,5 -k2,2 -k6,6g "$B/bench/raw" | awk '
		function flush() {
			if (!n) return
			med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			printf "%s %d %.2f %.2f %.2f\n", group, n, med, v[1], v[n]
			n = 0
		}
		{ g = $3 " " $4 " " $5 " " $2; if (g != group) { flush(); group = g } v[++n] = $6 }
		END { flush() }'
}

# One figure of a flavour: "median [min..max] n", or "- 0" without one.
bench_cell() {
	awk -v m="$1" -v k="$2" -v e="$3" -v f="$4" '
		$1 == m && $2 == e && $3 == k && $4 == f { printf "%.2f [%.2f..%.2f] %d", $6, $7, $8, $5; found = 1 }
		END { if (!found) printf "- 0" }' "$B/bench/stats"
}

bench_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0 || a == "-" || b == "-") print "n/a"; else printf "%.2f", a / b }'
}

# The table, bench.json and bench.png; fails when a boot splatted or a
# figure has no clean round in either flavour.
bench_table() {
	local metric entry key up ours fmt bad=0 arch obj u o
	bench_stats >"$B/bench/stats"
	fmt='%-15s %-18s %-22s %28s %28s %6s\n'
	printf "$fmt" metric entry figure "upstream median [min..max] n" \
		"ours median [min..max] n" ratio
	awk '{ print $1, $2, $3 }' "$B/bench/stats" | sort -u |
	while read -r metric entry key; do
		up=$(bench_cell "$metric" "$key" "$entry" upstream)
		ours=$(bench_cell "$metric" "$key" "$entry" ours)
		printf "$fmt" "$metric" "$entry" "$key" "$up" "$ours" \
			"$(bench_ratio "${ours%% *}" "${up%% *}")"
	done
	echo
	bench_rounds_report
	echo
	printf '%-5s %-38s %10s %10s %6s\n' arch "text bytes (KUNIT=n)" upstream ours ratio
	while read -r arch obj u o; do
		printf '%-5s %-38s %10s %10s %6s\n' "$arch" "$obj" "$u" "$o" "$(bench_ratio "$o" "$u")"
	done <"$B/bench/text"
	awk '{ g = $2 ~ /^kernel\/time\// ? "kernel/time" : "drivers"
		u[$1 " total-" g] += $3; o[$1 " total-" g] += $4 }
		END { for (k in u) print k, u[k], o[k] }' "$B/bench/text" | sort |
	while read -r arch obj u o; do
		printf '%-5s %-38s %10s %10s %6s\n' "$arch" "$obj" "$u" "$o" "$(bench_ratio "$o" "$u")"
	done
	bench_json >"$B/bench/bench.json"
	bench_plot
	base_said
	echo "bench: $B/bench/bench.json, $B/bench/bench.png"
	grep -q ' dropped .* kernel splat' "$B/bench/boots" && bad=1
	[ -n "$(bench_missing)" ] && { echo "bench: figures without a clean round:"; bench_missing; bad=1; }
	return "$bad"
}

# How many boots each row had and kept, and why the others were dropped.
bench_rounds_report() {
	awk '{ k = $3 " " $4 " " $2; all[k]++; if ($5 == "clean") ok[k]++ }
		END { for (k in all) printf "rounds %s: %d of %d clean\n", k, ok[k], all[k] }' \
		"$B/bench/boots" | sort
	awk '$5 == "dropped" { printf "dropped: round %s %s %s (%s): ", $1, $3, $4, $2
		for (i = 7; i <= NF; i++) printf "%s ", $i; print "-- " $6 }' "$B/bench/boots"
}

# Rows of harness/bench with no clean boot in a flavour.
bench_missing() {
	local metric entry flavour
	bench_rows | while read -r metric entry _; do
		for flavour in upstream ours; do
			awk -v m="$metric" -v e="$entry" -v f="$flavour" \
				'$2 == f && $3 == m && $4 == e && $5 == "clean" { ok = 1 } END { exit !ok }' \
				"$B/bench/boots" || echo "  $metric $entry $flavour"
		done
	done
}

# Every boot with its raw figures, the summary and the text sizes.
bench_json() {
	awk -v rounds="$BENCH_ROUNDS" '
		FILENAME ~ /boots$/ {
			reason = ""; for (i = 7; i <= NF; i++) reason = reason (i > 7 ? " " : "") $i
			gsub(/["\\]/, "", reason)
			k = $1 " " $2 " " $3 " " $4
			order[++nb] = k
			boot[k] = sprintf("{\"round\":%d,\"flavour\":\"%s\",\"metric\":\"%s\",\"entry\":\"%s\",\"clean\":%s,\"log\":\"%s\",\"reason\":\"%s\"", $1, $2, $3, $4, $5 == "clean" ? "true" : "false", $6, reason)
			next
		}
		FILENAME ~ /raw$/ {
			k = $1 " " $2 " " $3 " " $4
			vals[k] = vals[k] (vals[k] == "" ? "" : ",") sprintf("\"%s\":%s", $5, $6)
			next
		}
		FILENAME ~ /stats$/ {
			st[++ns] = sprintf("{\"metric\":\"%s\",\"entry\":\"%s\",\"figure\":\"%s\",\"flavour\":\"%s\",\"n\":%d,\"median\":%s,\"min\":%s,\"max\":%s}", $1, $2, $3, $4, $5, $6, $7, $8)
			next
		}
		{ tx[++nt] = sprintf("{\"arch\":\"%s\",\"object\":\"%s\",\"upstream\":%d,\"ours\":%d}", $1, $2, $3, $4) }
		END {
			printf "{\"rounds\":%d,\"boots\":[", rounds
			for (i = 1; i <= nb; i++) printf "%s%s,\"values\":{%s}}", (i > 1 ? "," : ""), boot[order[i]], vals[order[i]]
			printf "],\"stats\":["
			for (i = 1; i <= ns; i++) printf "%s%s", (i > 1 ? "," : ""), st[i]
			printf "],\"text\":["
			for (i = 1; i <= nt; i++) printf "%s%s", (i > 1 ? "," : ""), tx[i]
			print "]}"
		}' "$B/bench/boots" "$B/bench/raw" "$B/bench/stats" "$B/bench/text"
}

# Per figure, both flavours scaled by upstream's median (upstream at 1.0),
# the bars from min to max of the clean rounds.
bench_plot() {
	awk '
		{ k = $1 " " $2 " " $3; if (!(k in seen)) { seen[k] = 1; keys[++n] = k }
		  med[k, $4] = $6; lo[k, $4] = $7; hi[k, $4] = $8 }
		END {
			for (i = 1; i <= n; i++) {
				k = keys[i]; u = med[k, "upstream"]
				if (u + 0 == 0 || med[k, "ours"] == "") continue
				split(k, p, " ")
				printf "%d \"%s %s\" 1 %f %f %f %f %f\n", ++x, p[2], p[3],
					lo[k, "upstream"] / u, hi[k, "upstream"] / u,
					med[k, "ours"] / u, lo[k, "ours"] / u, hi[k, "ours"] / u
			}
		}' "$B/bench/stats" >"$B/bench/plot.dat"
	gnuplot <<-GP 2>/dev/null || say "gnuplot failed; no plot"
		set terminal png size 1400,600
		set output "$B/bench/bench.png"
		set title "ours against upstream 6.12 per figure, scaled by upstream's median; bars: min..max of the clean rounds (lower is better)"
		set logscale y
		set xrange [0.5:$(($(wc -l <"$B/bench/plot.dat") + 1)) - 0.5]
		set grid y
		set xtics rotate by -45 font ",7"
		set key outside top center horizontal
		plot "$B/bench/plot.dat" using (\$1 - 0.15):3:4:5:xtic(2) with yerrorbars title "upstream", \
		     "" using (\$1 + 0.15):6:7:8 with yerrorbars title "ours"
	GP
}
