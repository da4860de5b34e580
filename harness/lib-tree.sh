# shellcheck shell=bash
# The base tree (Debian's linux-source-6.12, unpacked once per package
# version) and our tree: hard links to the base, with the overlay laid on
# top.  Only files whose content changes get a new mtime, so re-running after
# an edit rebuilds only what changed.

UPSTREAM=$B/src/upstream
OURS=$B/src/ours

base_version() {
	dpkg-query -W -f '${Version}' linux-source-6.12 2>/dev/null ||
		stat -c %Y "$TARBALL"
}

# The base every figure in docs/ and ../shared/FACTS.md was measured on.
BASE_PINNED=$(cat "$H/base-version")

# A base other than the pinned one changes what is measured, silently: it is
# refused unless TH_ACCEPT_BASE names it.
base_check() {
	local ver=$1
	[ "$ver" = "$BASE_PINNED" ] && return 0
	if [ "${TH_ACCEPT_BASE:-}" = "$ver" ]; then
		say "base linux-source-6.12 $ver accepted (TH_ACCEPT_BASE); pinned: $BASE_PINNED"
		return 0
	fi
	die "base linux-source-6.12 is $ver, but the figures were measured on $BASE_PINNED
  (harness/base-version). Install that one (apt-get install linux-source-6.12=$BASE_PINNED),
  or accept this one for a run with TH_ACCEPT_BASE=$ver and, to keep it, write it to
  harness/base-version and measure again (make check-upstream, make bench)."
}

# The line make check and make bench print above their totals.
base_said() {
	echo "base: linux-source-6.12 $(base_version)$([ "$(base_version)" = "$BASE_PINNED" ] ||
		echo " (accepted; pinned $BASE_PINNED)")"
}

tree_unpack_base() {
	local ver
	ver=$(base_version)
	base_check "$ver"
	if [ -f "$UPSTREAM/.th-version" ] &&
	   [ "$(cat "$UPSTREAM/.th-version")" = "$ver" ]; then
		return 0
	fi
	say "unpacking $TARBALL ($ver)"
	rm -rf "$UPSTREAM" "$OURS" "$B/src/ours.touched"
	mkdir -p "$UPSTREAM.tmp"
	tar -xJf "$TARBALL" -C "$UPSTREAM.tmp" --strip-components=1
	echo "$ver" >"$UPSTREAM.tmp/.th-version"
	mv "$UPSTREAM.tmp" "$UPSTREAM"
}

# Our files at kernel paths, relative to the repo root.
overlay_files() {
	local d
	for d in $OVERLAY_DIRS; do
		[ -d "$TOP/$d" ] && (cd "$TOP" && find "$d" -type f)
	done
	return 0
}

# Patches in the order they apply.
overlay_patches() {
	local p
	for p in "$TOP/Kconfig.patch" "$TOP/MAINTAINERS.patch" "$TOP"/patches/*.patch; do
		[ -f "$p" ] && echo "$p"
	done
	return 0
}

# Paths a patch creates or modifies.
patch_targets() {
	sed -n -e 's/^+++ b\/\([^[:space:]]*\).*/\1/p' \
	       -e 's/^--- a\/\([^[:space:]]*\).*/\1/p' "$1" | sort -u
}

# Build the overlaid versions of every touched file in a staging folder,
# then move into our tree only the files whose content differs.
tree_apply_overlay() {
	local stage=$B/src/stage touched=$B/src/ours.touched f p
	local all
	rm -rf "$stage"
	mkdir -p "$stage"
	all=$( { [ -f "$touched" ] && cat "$touched"
		 overlay_files
		 for p in $(overlay_patches); do patch_targets "$p"; done
	       } | sort -u)
	for f in $all; do
		if [ -f "$UPSTREAM/$f" ]; then
			mkdir -p "$stage/$(dirname "$f")"
			cp "$UPSTREAM/$f" "$stage/$f"
		fi
	done
	for f in $(overlay_files); do
		mkdir -p "$stage/$(dirname "$f")"
		cp "$TOP/$f" "$stage/$f"
	done
	for p in $(overlay_patches); do
		patch -s -p1 -d "$stage" --no-backup-if-mismatch <"$p" \
			>"$B/src/patch.log" 2>&1 || {
			cat "$B/src/patch.log" >&2
			die "patch ${p#"$TOP"/} does not apply to the base"
		}
	done
	for f in $all; do
		if [ -f "$stage/$f" ]; then
			if ! cmp -s "$stage/$f" "$OURS/$f"; then
				mkdir -p "$OURS/$(dirname "$f")"
				# A new inode: never write through a hard link to the base.
				cp "$stage/$f" "$OURS/$f.th-new"
				mv -f "$OURS/$f.th-new" "$OURS/$f"
				echo "   overlay: $f" >&2
			fi
		elif [ -e "$OURS/$f" ]; then
			rm -f "$OURS/$f"
			echo "   overlay: removed $f" >&2
		fi
	done
	printf '%s\n' "$all" | sed '/^$/d' >"$touched"
	rm -rf "$stage"
}

tree_prepare() {
	tree_unpack_base
	if [ ! -f "$OURS/.th-version" ]; then
		say "linking our tree to the base"
		rm -rf "$OURS" "$B/src/ours.touched"
		cp -al "$UPSTREAM" "$OURS.tmp"
		mv "$OURS.tmp" "$OURS"
	fi
	say "applying the overlay"
	tree_apply_overlay
}

# The source tree of a flavour: ours or upstream.
tree_of() {
	case "$1" in
	ours) echo "$OURS" ;;
	upstream) echo "$UPSTREAM" ;;
	*) die "unknown flavour $1" ;;
	esac
}
