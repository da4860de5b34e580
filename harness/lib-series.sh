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
	deps_install
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

	git -C "$repo" format-patch -q -o "$out" base..HEAD
	series_checkpatch "$out"
}

series_checkpatch() {
	local out=$1 n errors=0 warnings=0 checks=0 p report
	n=$(find "$out" -name '*.patch' | wc -l)
	for p in "$out"/*.patch; do
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
