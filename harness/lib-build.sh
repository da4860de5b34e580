# shellcheck shell=bash
# Kernel builds (one O= folder per build and flavour, ccache) and the
# initramfs of each user-space flavour.

export KBUILD_BUILD_TIMESTAMP="2026-01-01"
export KBUILD_BUILD_USER=th KBUILD_BUILD_HOST=th
# Relative paths in compiler command lines let the x86 builds, which differ
# only in a few symbols, share ccache entries.
export CCACHE_BASEDIR="$B" CCACHE_NOHASHDIR=1

# Fields of a row of harness/builds: NAME -> "arch base fragments..."
build_row() {
	local row
	row=$(table "$H/builds" | awk -v n="$1" '$1 == n { $1 = ""; print; exit }')
	[ -n "$row" ] || die "no build '$1' in harness/builds"
	echo "$row"
}

# make arguments for an architecture (ARCH[:KIND], see harness/builds).
arch_make_args() {
	case "${1%%:*}" in
	x86) echo "ARCH=x86_64 CC=ccache\ gcc" ;;
	i386) echo "ARCH=i386 CC=ccache\ gcc" ;;
	arm) echo "ARCH=arm CROSS_COMPILE=arm-linux-gnueabi- CC=ccache\ arm-linux-gnueabi-gcc" ;;
	*) die "unknown arch $1" ;;
	esac
}

# What a build makes: a bootable image, the objects of our files (with
# W=1: a production config's warnings), or only the configuration.
arch_targets() {
	case "$1" in
	x86) echo bzImage ;;
	arm) echo zImage dtbs ;;
	x86:objects | i386:objects)
		echo W=1 kernel/time/ arch/x86/kernel/hpet.o arch/x86/kernel/i8253.o \
			arch/x86/kernel/apic/lapic_timer.o arch/x86/kernel/apic/apic.o \
			drivers/clocksource/i8253.o ;;
	arm:objects) echo W=1 kernel/time/ drivers/clocksource/timer-sp804.o \
		arch/arm/kernel/smp_twd.o ;;
	*:config) ;;
	*) die "unknown build kind $1" ;;
	esac
}

# objects_forget OBJ TARGET...: remove the objects the targets name (a
# folder: its objects), so that the next build compiles them again.
objects_forget() {
	local obj=$1 t
	shift
	for t in "$@"; do
		case "$t" in
		*=*) ;;
		*/) rm -f "$obj/$t"*.o ;;
		*.o) rm -f "$obj/$t" ;;
		esac
	done
}

# targets_in SRC TARGET...: the targets whose source SRC has (upstream has
# no arch/x86/kernel/apic/lapic_timer.c: make bench builds its objects too).
targets_in() {
	local src=$1 t
	shift
	for t in "$@"; do
		case "$t" in
		*.o) [ -f "$src/${t%.o}.c" ] || continue ;;
		esac
		echo "$t"
	done
}

# Our C files and headers (kernel paths), whose warnings fail a build.
overlay_sources() {
	(cd "$TOP" && git ls-files -- $OVERLAY_DIRS | grep -E '\.[ch]$' | grep -v '^tools/')
}

# build_check OBJ LOG ARCH: after an objects or config build, what is wrong
# with it, one line each: a warning in a file of ours, or a bool KUnit
# option of ours that is y under KUNIT=m (vmlinux would then reference
# symbols of kunit.ko).
build_check() {
	local obj=$1 log=$2 arch=$3 f opt
	case "$arch" in
	*:objects)
		for f in $(overlay_sources); do
			grep -E "(^|/)$f:[0-9]+(:[0-9]+)?: warning:" "$log" || true
		done
		;;
	*:config)
		grep -qx 'CONFIG_KUNIT=m' "$obj/.config" || return 0
		for opt in $(sed -n 's/^+config \(.*KUNIT_TEST\)$/\1/p' "$TOP"/patches/*.patch "$TOP/Kconfig.patch"); do
			if grep -qx "CONFIG_$opt=y" "$obj/.config"; then
				echo "CONFIG_$opt=y while CONFIG_KUNIT=m"
			fi
		done
		;;
	esac
}

kmake() {
	local src=$1 obj=$2 arch=$3
	shift 3
	eval "make -C \"$src\" O=\"$obj\" -j$JOBS $(arch_make_args "$arch") \"\$@\""
}

# Check that every line of the fragments is what the final .config says, so
# a symbol that silently failed to apply stops the build with its name.
# Whether the Kconfig files of tree SRC define SYMBOL (CONFIG_ prefix kept).
kconfig_defines() {
	grep -rqsx --include='Kconfig*' "[[:space:]]*\(menu\)\{0,1\}config ${2#CONFIG_}" "$1"
}

# The symbol a fragment line sets, or nothing for a comment.
config_line_symbol() {
	case "$1" in
	CONFIG_*=*) echo "${1%%=*}" ;;
	"# CONFIG_"*" is not set") set -- "${1#"# "}"; echo "${1%% *}" ;;
	esac
}

# config_verify SRC OBJ FRAGMENT...: every fragment line made it into the
# .config; where fragments disagree, the last one (merge_config's winner).
# A symbol that only our series defines is let off in an upstream tree
# (make bench builds upstream with the same fragments).
config_verify() {
	local src=$1 obj=$2 frag line sym bad="" seen=" " rev=""
	shift 2
	for frag in "$@"; do
		rev="$frag $rev"
	done
	for frag in $rev; do
		while IFS= read -r line; do
			sym=$(config_line_symbol "$line")
			[ -n "$sym" ] || continue
			case "$seen" in
			*" $sym "*) continue ;;
			esac
			seen="$seen$sym "
			if ! grep -qxF "$line" "$obj/.config"; then
				# "is not set" is also met by a symbol that does not exist.
				case "$line" in
				"#"*) grep -q "^$sym=" "$obj/.config" || continue ;;
				esac
				if [ "$src" = "$UPSTREAM" ] &&
				   ! grep -q "^$sym=" "$obj/.config" &&
				   ! kconfig_defines "$src" "$sym"; then
					continue
				fi
				bad="$bad $line (have: $(grep -E "^(# )?$sym[= ]" "$obj/.config" || echo absent));"
			fi
		done <"$frag"
	done
	[ -z "$bad" ] || die "config ${obj##*/}: fragment lines not in .config:$bad"
}

build_configure() {
	local src=$1 obj=$2 arch=$3 base=$4
	shift 4
	local frags="" f hash
	for f in "$@"; do
		[ -f "$H/configs/$f.config" ] || die "no harness/configs/$f.config"
		frags="$frags $H/configs/$f.config"
	done
	# shellcheck disable=SC2086
	hash=$(cat $frags "$TOP/Kconfig.patch" "$TOP"/patches/*.patch 2>/dev/null | cksum | cut -d' ' -f1)-$base
	if [ -f "$obj/.config" ] && [ "$(cat "$obj/.th-config" 2>/dev/null)" = "$hash" ]; then
		return 0
	fi
	mkdir -p "$obj"
	kmake "$src" "$obj" "$arch" -s "$base" >/dev/null
	# shellcheck disable=SC2086
	[ -z "$frags" ] ||
		"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" $frags >/dev/null
	kmake "$src" "$obj" "$arch" -s olddefconfig >/dev/null
	# shellcheck disable=SC2086
	[ "${CONFIG_VERIFY:-1}" = 0 ] || config_verify "$src" "$obj" $frags
	echo "$hash" >"$obj/.th-config"
}

# build_kernel NAME FLAVOUR: configure and build; writes OBJ/.th-status.
build_kernel() {
	local name=$1 flavour=$2 arch base frags src obj log start targets
	read -r arch base frags <<<"$(build_row "$name")"
	[ "$frags" = - ] && frags=""
	src=$(tree_of "$flavour")
	obj=$B/obj/$flavour-$name
	log=$B/logs/$flavour/build-$name.log
	mkdir -p "$B/logs/$flavour" "$obj"
	rm -f "$obj/.th-status"
	start=$SECONDS
	say "build $flavour $name ($arch, $base + $frags)"
	# shellcheck disable=SC2086
	targets=$(targets_in "$src" $(arch_targets "$arch"))
	# An objects build judges the compiler's warnings, so every target is
	# compiled again (ccache replays a cached compile's warnings too).
	case "$arch" in
	*:objects) objects_forget "$obj" $targets ;;
	esac
	# shellcheck disable=SC2086
	if ! (build_configure "$src" "$obj" "$arch" "$base" $frags &&
	      { [ -z "$targets" ] || kmake "$src" "$obj" "$arch" $targets; }) >"$log" 2>&1; then
		echo FAIL >"$obj/.th-status"
		tail -n 25 "$log" >&2
		say "build $flavour $name FAILED after $((SECONDS - start)) s, log: $log"
		return 1
	fi
	build_check "$obj" "$log" "$arch" >"$obj/.th-check"
	echo PASS >"$obj/.th-status"
	say "build $flavour $name done in $((SECONDS - start)) s"
}

# User-space flavours: name, C compiler, busybox binary.
userspace_cc() {
	case "$1" in
	x86_64) echo gcc ;;
	armel) echo arm-linux-gnueabi-gcc ;;
	armhf) echo arm-linux-gnueabihf-gcc ;;
	esac
}

userspace_busybox() {
	case "$1" in
	x86_64) echo /bin/busybox ;;
	*) echo "$B/deps/busybox-$1/bin/busybox" ;;
	esac
}

# The selftests the tiers of harness/guest/selftests run, by name.
tier_tests() {
	table "$H/guest/selftests" | awk '$2 !~ /^@/ { print $2 }' | sort -u
}

# kselftest_install FLAV CC ROOT: the timer selftests, upstream's and ours,
# installed into ROOT/kselftest as `make -C tools/testing/selftests
# TARGETS=timers install` does for KernelCI: run_kselftest.sh, its runner,
# kselftest-list.txt.  Statically linked: valid-adjtimex defines
# clock_adjtime, which static glibc has too (the test's own one wins).
kselftest_install() {
	local flav=$1 cc=$2 root=$3 log=$B/kselftest/$1.log
	mkdir -p "$B/kselftest"
	rm -rf "$B/kselftest/$flav"
	make -C "$OURS/tools/testing/selftests" O="$B/kselftest/$flav" TARGETS=timers \
		CC="$cc" USERCFLAGS="-static -Wl,--allow-multiple-definition" \
		INSTALL_PATH="$root/kselftest" install >"$log" 2>&1 ||
		die "cannot build the timer selftests for $flav, see $log"
	# Upstream's destructive tests that no tier runs (they set the clock,
	# suspend, switch clocksources) stay out of the image, and the rest
	# lose their symbols: a smaller image unpacks faster, and the boot up
	# to /init is what x86-deepidle-pit bounds IRQ 0 over.
	for name in "$root"/kselftest/timers/*; do
		[ -x "$name" ] || continue
		if tier_tests | grep -qx "$(basename "$name")"; then
			"${cc%gcc}strip" "$name"
		else
			rm -f "$name"
		fi
	done
	# The runner calls /usr/bin/timeout --foreground, which busybox's
	# timeout does not take; without a timeout there, a test never ends.
	# shellcheck disable=SC2016
	printf '%s\n' '#!/bin/sh' '[ "$1" = --foreground ] && shift' \
		'exec /bin/busybox timeout "$@"' >"$root/usr/bin/timeout"
	chmod 755 "$root/usr/bin/timeout"
}

initramfs_build() {
	local flav=$1 cc root out st inputs hash name bb tool
	cc=$(userspace_cc "$flav")
	bb=$(userspace_busybox "$flav")
	root=$B/initramfs/$flav
	out=$B/initramfs/$flav.cpio.gz
	st=$OURS/tools/testing/selftests
	inputs=$(cat "$H"/guest/* "$st"/timers/* "$st"/kselftest/* "$st"/run_kselftest.sh \
		"$st"/lib.mk "$st"/Makefile | cksum)
	hash="$inputs $(ls -l "$bb" | cksum)"
	[ -f "$out" ] && [ "$(cat "$out.hash" 2>/dev/null)" = "$hash" ] && return 0
	say "initramfs $flav"
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,usr/bin,usr/sbin}
	cp "$bb" "$root/bin/busybox"
	# Applet names from the host busybox: the foreign ones cannot run here.
	for name in $(/bin/busybox --list); do
		[ -e "$root/bin/$name" ] || ln -s busybox "$root/bin/$name"
	done
	kselftest_install "$flav" "$cc" "$root"
	for tool in tick-assert tick-watch; do
		"$cc" -static -O2 -Wall -Wno-format-truncation -I "$st/timers" -o "$root/bin/$tool" \
			"$H/guest/$tool.c" -lpthread || die "cannot build $tool for $flav"
	done
	[ "$flav" = x86_64 ] && userspace_add_host_tools "$root"
	install -m 755 "$H/guest/init" "$root/init"
	cp "$H/guest/selftests" "$H/guest/xfail" "$H/guest/retry" "$H/guest/may-skip" \
		"$H/guest/report.sh" "$root/etc/"
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.tmp"
	mv "$out.tmp" "$out"
	echo "$hash" >"$out.hash"
}

# Dynamically linked host tools (cyclictest, stress-ng) with the libraries they load.
userspace_add_host_tools() {
	local root=$1 tool lib
	for tool in /usr/bin/cyclictest /usr/bin/stress-ng; do
		[ -x "$tool" ] || continue
		cp "$tool" "$root/usr/bin/"
		for lib in $(ldd "$tool" | grep -o '/[^ ]*'); do
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
	done
}

# initramfs_all x86|arm|all
initramfs_all() {
	case "$1" in
	x86) initramfs_build x86_64 ;;
	arm) initramfs_build armel; initramfs_build armhf ;;
	all) initramfs_build x86_64; initramfs_build armel; initramfs_build armhf ;;
	esac
}
