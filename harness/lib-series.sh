# shellcheck shell=bash
# make series: the overlay as a git format-patch series against the pristine
# base, checked with checkpatch --strict.  The base repository holds the
# pristine versions of just the files the overlay touches: the patches are
# byte for byte what a full-tree repository would give, in seconds.

SERIES_AUTHOR=${SERIES_AUTHOR:-"Tick Team <tick-team@example.org>"}

# Overlay items: our files and patch files, relative to the repo root.
series_items() {
	overlay_files
	overlay_patches | sed "s|^$TOP/||"
}

# The subject of the row that claims ITEM ('-': the patch keeps its own).
series_row_of() {
	local item=$1 paths subject glob
	# The globs are patterns for [[ ]], not for the files in the repo.
	local -
	set -f
	while IFS='|' read -r paths subject; do
		for glob in ${paths//,/ }; do
			# shellcheck disable=SC2053
			if [[ $item == $glob ]]; then
				echo "${subject# }"
				return 0
			fi
		done
	done < <(table "$H/series")
	return 1
}

series_commit() {
	local repo=$1 subject=$2
	git -C "$repo" add -A
	git -C "$repo" diff --cached --quiet && return 0
	git -C "$repo" -c user.name="${SERIES_AUTHOR% <*}" \
		-c user.email="$(echo "$SERIES_AUTHOR" | sed 's/.*<\(.*\)>/\1/')" \
		commit -q -s -m "$subject" \
		-m "Part of the clockevents and dynamic ticks rewrite for Linux 6.12: see
Documentation/timers/ for the design.  The 6.12 API is unchanged."
}

series_main() {
	local repo=$B/series/repo out=$B/series/patches item subject f
	local unclaimed="" paths
	deps_install "$SERIES_PACKAGES"
	tree_prepare
	for item in $(series_items); do
		series_row_of "$item" >/dev/null || unclaimed="$unclaimed $item"
	done
	[ -z "$unclaimed" ] || die "no row of harness/series claims:$unclaimed"

	rm -rf "$B/series"
	mkdir -p "$repo" "$out"
	git -C "$repo" init -q
	for f in $(cat "$B/src/ours.touched"); do
		if [ -f "$UPSTREAM/$f" ]; then
			mkdir -p "$repo/$(dirname "$f")"
			cp "$UPSTREAM/$f" "$repo/$f"
		fi
	done
	git -C "$repo" add -A
	git -C "$repo" -c user.name=base -c user.email=base@localhost \
		commit -q --allow-empty -m "Linux $(base_version) (pristine base, touched files)"
	git -C "$repo" tag base

	while IFS='|' read -r paths subject; do
		subject=${subject# }
		for item in $(series_items); do
			[ "$(series_row_of "$item")" = "$subject" ] || continue
			case "$item" in
			*.patch)
				patch -s -p1 -d "$repo" --no-backup-if-mismatch <"$TOP/$item" ||
					die "series: $item does not apply"
				if [ "$subject" = - ]; then
					series_commit "$repo" "$(sed -n 's/^Subject: \(\[PATCH[^]]*\] \)\{0,1\}//p' "$TOP/$item" | head -n 1)"
				fi
				;;
			*)
				mkdir -p "$repo/$(dirname "$item")"
				cp "$TOP/$item" "$repo/$item"
				;;
			esac
		done
		[ "$subject" = - ] || series_commit "$repo" "$subject"
	done < <(table "$H/series")

	git -C "$repo" -c user.name="${SERIES_AUTHOR% <*}" \
		-c user.email="$(echo "$SERIES_AUTHOR" | sed 's/.*<\(.*\)>/\1/')" \
		format-patch -q --cover-letter -o "$out" base..HEAD
	series_cover_letter "$out/0000-cover-letter.patch"
	local rc=0
	series_git_am "$repo" "$out" || rc=1
	series_checkpatch "$out" || rc=1
	series_maintainers "$out" || rc=1
	series_kerneldoc || rc=1
	series_htmldocs || rc=1
	series_sparse || rc=1
	series_bisect "$out" || rc=1
	return "$rc"
}

# The bench lines of the cover letter: the idle interrupt and text ratios
# of the last make bench in this build/, or where the last figures are.
series_bench_lines() {
	local stats=$B/bench/stats
	if [ ! -s "$stats" ]; then
		echo "Figures: docs/bench.md of the harness (make bench, ours against 6.12 in one run)."
		return 0
	fi
	echo "make bench of $(date -u -r "$stats" +%F), ours against 6.12 in the same run"
	echo "(median of the clean rounds; lower is better):"
	awk '$3 == "irq-per-cpu-s" { m[$2 " " $4] = $6; e[$2] = 1 }
		END { for (x in e) if (m[x " upstream"] > 0)
			printf " - idle timer interrupts per CPU per second, %s: %.2f vs %.2f (%.2fx)\n",
				x, m[x " ours"], m[x " upstream"], m[x " ours"] / m[x " upstream"] }' \
		"$stats" | sort
	awk '$2 ~ /^total-/ && $3 > 0 { printf " - %s text, %s: %d vs %d bytes (%.2fx)\n", $2, $1, $4, $3, $4 / $3 }' \
		"$B/bench/text" 2>/dev/null
}

# series_cover_letter FILE: format-patch's cover letter with harness/cover-letter's
# subject and text, and the bench lines.
series_cover_letter() {
	local f=$1 subject body
	subject=$(sed -n 's/^Subject: //p' "$H/cover-letter" | head -n 1)
	body=$(awk 'text && !/^#/ { print } /^Subject: / { text = 1 }' "$H/cover-letter"
		echo
		series_bench_lines)
	awk -v subject="$subject" -v body="$body" '
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
		/^\*\*\* BLURB HERE \*\*\*$/ { print body; next }
		{ print }' "$f" >"$f.new"
	mv -f "$f.new" "$f"
}

# The patches of DIR without the cover letter, in order.
series_patches() {
	find "$1" -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | sort
}

# series_git_am REPO DIR: the patches of DIR applied with git am to the
# pristine base of REPO give REPO's tree, byte for byte.
series_git_am() {
	local repo=$1 out=$2 am=$B/series/am
	rm -rf "$am"
	git clone -q "$repo" "$am"
	git -C "$am" checkout -q -b am base
	# shellcheck disable=SC2046 # patch names have no spaces
	if ! git -C "$am" -c user.name=am -c user.email=am@localhost \
		am -q $(series_patches "$out") 2>/dev/null; then
		echo "series: git am on the pristine base failed"
		return 1
	fi
	if [ "$(git -C "$am" rev-parse 'HEAD^{tree}')" != "$(git -C "$repo" rev-parse 'HEAD^{tree}')" ]; then
		echo "series: git am on the pristine base gives another tree"
		return 1
	fi
	echo "series: the patches apply with git am on the pristine base ($(base_version))"
}

# The build every patch of the series must pass on its own: entry 1's kernel.
SERIES_BISECT_BUILD=x86-nohz-hres

# series_bisect DIR: apply the patches of DIR one by one to a copy of the
# pristine tree and build SERIES_BISECT_BUILD after each; name the patches
# after which it does not build.  The configuration is made again after
# each patch, so a Kconfig symbol a later patch adds is on from there.
# The tree and its objects sit at the same paths relative to each other as
# ours and its build (src/ours, obj/ours-BUILD): with CCACHE_BASEDIR the
# compiler sees the same command lines, and ccache serves every object the
# patches so far leave as make check compiled it.
series_bisect() {
	local out=$1 tree=$B/series/src/ours obj=$B/series/obj/ours-$SERIES_BISECT_BUILD
	local arch base frags p n=0 bad=0 log
	read -r arch base frags <<<"$(build_row "$SERIES_BISECT_BUILD")"
	[ "$frags" = - ] && frags=""
	rm -rf "$tree"
	mkdir -p "${tree%/*}"
	cp -al "$UPSTREAM" "$tree"
	for p in $(series_patches "$out"); do
		n=$((n + 1))
		log=$B/series/build-$(basename "$p" .patch).log
		patch -s -p1 -d "$tree" --no-backup-if-mismatch <"$p" || {
			echo "series: $(basename "$p") does not apply on the patches before it"
			bad=$((bad + 1))
			continue
		}
		rm -f "$obj/.th-config"
		# In the middle of the series a symbol of a later patch does not
		# exist yet: the fragments are not verified.
		# shellcheck disable=SC2046,SC2086
		if (CONFIG_VERIFY=0 build_configure "$tree" "$obj" "$arch" "$base" $frags &&
		    kmake "$tree" "$obj" "$arch" $(arch_targets "$arch")) >"$log" 2>&1; then
			echo "series: builds after $(basename "$p")"
		else
			echo "series: does not build after $(basename "$p"): $log"
			grep -m 3 -E 'error:|Error [0-9]' "$log" | sed 's/^/    /'
			bad=$((bad + 1))
		fi
	done
	if [ "$bad" -eq 0 ]; then
		echo "series: every patch builds ($n patches, $SERIES_BISECT_BUILD)"
	else
		echo "series: $bad of $n patches do not build ($SERIES_BISECT_BUILD)"
	fi
	[ "$bad" -eq 0 ]
}

# The address of our MAINTAINERS entries, which every patch must reach.
SERIES_MAINTAINER=${SERIES_AUTHOR##*<}
SERIES_MAINTAINER=${SERIES_MAINTAINER%>}

# series_maintainers DIR: scripts/get_maintainer.pl, run on each patch in
# our tree (whose MAINTAINERS has our entries), names us.
series_maintainers() {
	local out=$1 p n=0 bad=0
	for p in $(series_patches "$out"); do
		n=$((n + 1))
		(cd "$OURS" && perl scripts/get_maintainer.pl --no-git --no-git-fallback \
			--no-rolestats "$p" 2>&1) | grep -qF "<$SERIES_MAINTAINER>" && continue
		echo "series: get_maintainer.pl does not name $SERIES_MAINTAINER for $(basename "$p")"
		bad=$((bad + 1))
	done
	echo "series: get_maintainer.pl names $SERIES_MAINTAINER for $((n - bad)) of $n patches"
	[ "$bad" -eq 0 ]
}

# Documentation/timers built with Sphinx as `make htmldocs` does, from
# scratch (Sphinx repeats no warning of a file it has already read): no
# warning or error in a document there.
series_htmldocs() {
	local dir=$B/series/htmldocs log=$B/series/htmldocs.log report n
	rm -rf "$dir"
	if ! make -C "$OURS" O="$dir" SPHINXDIRS=timers htmldocs >"$log" 2>&1; then
		echo "series: make SPHINXDIRS=timers htmldocs failed, see $log"
		return 1
	fi
	report=$(grep -E "Documentation/timers/[^:]*:[0-9]*: (WARNING|ERROR|CRITICAL|SEVERE)" "$log" |
		sed "s|^$OURS/||" || true)
	[ -n "$report" ] && echo "$report"
	n=$(echo "$report" | grep -c . || true)
	echo "series: htmldocs (SPHINXDIRS=timers): $n warnings in Documentation/timers, see $log"
	[ "$n" -eq 0 ]
}

# Our C files and headers in the kernel (the selftests are user space).
series_kernel_sources() {
	overlay_files | grep -E '\.[ch]$' | grep -v '^tools/'
}

# kernel-doc -Wall on every C file and header of ours: no finding.
series_kerneldoc() {
	local report n
	# shellcheck disable=SC2046
	report=$(cd "$OURS" && perl scripts/kernel-doc -Wall -none \
		$(series_kernel_sources) 2>&1 || true)
	[ -n "$report" ] && echo "$report"
	n=$(echo "$report" | grep -c . || true)
	echo "series: kernel-doc -Wall on $(series_kernel_sources | wc -l) files: $n findings"
	[ "$n" -eq 0 ]
}

# The kernels sparse checks our files in: one per architecture we support.
SERIES_SPARSE_BUILDS="x86-nohz-hres arm-vexpress"

# sparse_report FLAVOUR BUILD: sparse (C=2) on those of our C files that
# BUILD compiles (in ours' build, which make check has made), as "file:
# message" lines without line numbers.  Upstream's side is only configured:
# kbuild prepares the tree and compiles the named objects alone, minutes
# less than a whole kernel on a clean clone.
sparse_report() {
	local flavour=$1 build=$2 arch base frags obj src objs f
	read -r arch base frags <<<"$(build_row "$build")"
	[ "$frags" = - ] && frags=""
	obj=$B/obj/$flavour-$build
	src=$(tree_of "$flavour")
	[ "$(cat "$B/obj/ours-$build/.th-status" 2>/dev/null)" = PASS ] ||
		build_kernel "$build" ours >&2 || return 1
	objs=""
	for f in $(series_kernel_sources | grep '\.c$'); do
		[ -f "$src/$f" ] && [ -f "$B/obj/ours-$build/${f%.c}.o" ] && objs="$objs ${f%.c}.o"
	done
	[ -n "$objs" ] || return 0
	# shellcheck disable=SC2086
	build_configure "$src" "$obj" "$arch" "$base" $frags >&2 || return 1
	# shellcheck disable=SC2086
	kmake "$src" "$obj" "$arch" C=2 $objs 2>&1 |
		sed -n "s#^$src/\([^:]*\):[0-9]*:[0-9]*: \(warning\|error\): #\1: \2: #p" | sort -u
}

# Does function FN of FILE (ours) take its lock with guard()?  sparse does
# not follow the cleanup attribute behind guard() and scoped_guard(), so it
# reports a context imbalance in every such function (upstream's own
# io_apic.c and irq/proc.c get the same reports).
sparse_guarded() {
	awk -v fn="$2" '
		$0 ~ "^[a-z].*[ *]" fn "\\(" { in_fn = 1 }
		in_fn && /(scoped_)?guard\(/ { found = 1 }
		in_fn && /^}/ { in_fn = 0 }
		END { exit !found }' "$OURS/$1"
}

# sparse on our files, for each architecture: no report that the same file
# of upstream 6.12 does not also get, guard() false positives aside.
series_sparse() {
	local build ours up line file fn n=0 known=0
	for build in $SERIES_SPARSE_BUILDS; do
		ours=$(sparse_report ours "$build") || { echo "series: sparse: build $build failed"; return 1; }
		up=$(sparse_report upstream "$build") || { echo "series: sparse: upstream build $build failed"; return 1; }
		while IFS= read -r line; do
			[ -n "$line" ] || continue
			file=${line%%:*}
			fn=$(echo "$line" | sed -n "s/.*context imbalance in '\([^']*\)'.*/\1/p")
			if echo "$up" | grep -qxF -e "$line" ||
			   { [ -n "$fn" ] && sparse_guarded "$file" "$fn"; }; then
				known=$((known + 1))
				continue
			fi
			echo "sparse ($build): $line"
			n=$((n + 1))
		done <<<"$ours"
	done
	echo "series: sparse on our files ($SERIES_SPARSE_BUILDS): $n findings" \
		"($known also in upstream's file or guard() false positives)"
	[ "$n" -eq 0 ]
}

series_checkpatch() {
	local out=$1 n errors=0 warnings=0 checks=0 p report
	n=$(series_patches "$out" | wc -l)
	for p in $(series_patches "$out"); do
		[ -f "$p" ] || continue
		report=$(cd "$UPSTREAM" && scripts/checkpatch.pl --strict --terse \
			--no-summary "$p" || true)
		[ -n "$report" ] && echo "$report"
		errors=$((errors + $(echo "$report" | grep -c ': ERROR:' || true)))
		warnings=$((warnings + $(echo "$report" | grep -c ': WARNING:' || true)))
		checks=$((checks + $(echo "$report" | grep -c ': CHECK:' || true)))
	done
	echo "series: $n patches in $out; checkpatch --strict:" \
		"$errors errors, $warnings warnings, $checks checks"
	[ $((errors + warnings + checks)) -eq 0 ]
}
