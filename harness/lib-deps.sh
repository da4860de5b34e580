# shellcheck shell=bash
# Host dependencies: Debian packages, and busybox for the ARM user spaces.

DEB_PACKAGES="linux-source-6.12 qemu-system-x86 qemu-system-arm gcc
 gcc-arm-linux-gnueabihf gcc-arm-linux-gnueabi libc6-dev libc6-dev-armhf-cross
 libc6-dev-armel-cross make flex bison bc libelf-dev libssl-dev cpio ccache
 busybox-static rt-tests gnuplot-nox stress-ng xz-utils patch git python3
 binutils kmod acpica-tools rsync"

# What make series needs beyond them: sparse, Sphinx for htmldocs.
SERIES_PACKAGES="sparse python3-sphinx"

APT_UPDATED=

# apt-get update, once (again after an architecture is added).  A mirror in
# the middle of a sync serves an index of the wrong size for a while
# ("Mirror sync in progress?"), so a failed update is tried twice more;
# after that we go on with the lists apt has, and apt-get install or
# download says what it cannot find.
apt_update_once() {
	local try
	[ -n "$APT_UPDATED" ] && return 0
	for try in 1 2 3; do
		say "apt-get update (try $try)"
		apt-get update -q >>"$B/apt.log" 2>&1 && break
		if [ "$try" = 3 ]; then
			say "apt-get update failed 3 times (see $B/apt.log); going on with the lists apt has"
		else
			sleep 30
		fi
	done
	APT_UPDATED=1
}

# The packages of the list $1 that are not installed.
deps_missing_packages() {
	local p
	for p in $1; do
		dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null |
			grep -q 'install ok installed' || echo "$p"
	done
}

# busybox-static for a foreign Debian architecture, unpacked (not installed:
# installing it would replace the host's busybox) into build/deps.
deps_foreign_busybox() {
	local arch=$1 dir=$B/deps/busybox-$1
	[ -x "$dir/bin/busybox" ] && return 0
	mkdir -p "$B/deps"
	apt_update_once
	say "fetching busybox-static:$arch"
	rm -f "$B/deps"/busybox-static_*_"$arch".deb
	(cd "$B/deps" && apt-get download -q "busybox-static:$arch" \
		>>"$B/apt.log" 2>&1) ||
		die "cannot get busybox-static:$arch (apt-get download), see $B/apt.log"
	rm -rf "$dir"
	dpkg-deb -x "$B/deps"/busybox-static_*_"$arch".deb "$dir.tmp"
	mv "$dir.tmp" "$dir"
}

# Foreign architectures for apt-get download, with one apt-get update after.
deps_add_foreign_arch() {
	local arch
	for arch in "$@"; do
		[ -x "$B/deps/busybox-$arch/bin/busybox" ] && continue
		if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
			dpkg --add-architecture "$arch"
			# Its package lists come with the next update.
			APT_UPDATED=
		fi
	done
}

# deps_install [EXTRA]: the packages of DEB_PACKAGES and of the list EXTRA.
deps_install() {
	local missing wanted="$DEB_PACKAGES ${1:-}"
	mkdir -p "$B"
	missing=$(deps_missing_packages "$wanted" | tr '\n' ' ')
	if [ -n "$missing" ]; then
		[ "$(id -u)" = 0 ] || die "missing packages ($missing) and not root to install them"
		apt_update_once
		say "installing: $missing"
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends $missing >>"$B/apt.log" 2>&1 ||
			die "apt-get install failed for: $missing (see $B/apt.log)"
		missing=$(deps_missing_packages "$wanted" | tr '\n' ' ')
		[ -z "$missing" ] || die "still missing after apt-get: $missing"
	fi
	deps_add_foreign_arch armel armhf
	deps_foreign_busybox armel
	deps_foreign_busybox armhf
	[ -r "$TARBALL" ] || die "$TARBALL not found (package linux-source-6.12)"
}
