# shellcheck shell=bash
# The matrix table, the boards (machines, device trees, ACPI tables) and
# QEMU: everything up to a console log.

MATRIX_COLS="name build board cpu smp cmdline tests kunit expect quiet"

# harness/matrix's stanzas as rows of MATRIX_COLS, one per entry: the
# fields a stanza leaves out take their defaults, the spaces of cmdline
# become commas and those of an expectation '+', expectations join with ';'.
# A field it does not know, or one given before any entry, stops the run.
matrix_rows() {
	awk -v cols="$MATRIX_COLS" '
	function flush(i, row) {
		if (name == "")
			return
		row = name
		for (i = 2; i <= n; i++)
			row = row " " (col[i] in f ? f[col[i]] : dflt[col[i]])
		print row
	}
	BEGIN {
		n = split(cols, col)
		for (i = 2; i <= n; i++)
			known[col[i]] = 1
		dflt["cpu"] = dflt["cmdline"] = dflt["expect"] = "-"
		dflt["smp"] = 1
		dflt["tests"] = "none"
		dflt["kunit"] = dflt["quiet"] = "no"
	}
	/^[[:space:]]*(#|$)/ { next }
	$1 == "entry" { flush(); name = $2; delete f; next }
	{
		key = $1
		val = $0
		sub(/^[[:space:]]*[^[:space:]]+[[:space:]]+/, "", val)
		sub(/[[:space:]]+$/, "", val)
		if (!(key in known) || name == "") {
			printf "harness/matrix:%d: field \"%s\" %s\n", NR, key,
				name == "" ? "before any entry" : "is none of entry, " substr(cols, index(cols, " ") + 1) > "/dev/stderr"
			bad = 1
			exit 1
		}
		sep = key == "expect" ? "+" : key == "cmdline" ? "," : " "
		gsub(/[[:space:]]+/, sep, val)
		if (key in f && sep != " ")
			val = f[key] (sep == "+" ? ";" : ",") val
		f[key] = val
	}
	END { if (!bad) flush() }' "$H/matrix"
}

# entry_field ENTRY COLUMN
entry_field() {
	local row i=0 col
	row=$(matrix_rows | awk -v n="$1" '$1 == n { print; exit }')
	[ -n "$row" ] || die "no entry '$1' in harness/matrix"
	for col in $MATRIX_COLS; do
		i=$((i + 1))
		if [ "$col" = "$2" ]; then
			echo "$row" | awk -v i=$i '{ print $i }'
			return 0
		fi
	done
	die "no column $2"
}

# The entries a flavour runs (default ours: all of them); on upstream only
# the booting ones: a compile-only entry judges the warnings of our files,
# the kunit.py one runs our suites.
matrix_entries() {
	matrix_rows |
		awk -v f="${1:-ours}" 'f == "ours" || ($3 != "build" && $3 != "kunit.py") { print $1 }'
}

# Board facts: QEMU command, console, user-space flavour, image, device tree.
# A board may carry a variant after '+': on the ARM boards a device-tree
# fault (versatilepb+sp804-noirq boots a copy of its device tree with one
# property removed), on q35 extra devices (board_devices).
board_base() { echo "${1%%+*}"; }

board_qemu() {
	local board=$1 obj=$2 cpu=$3 smp=$4 dtb
	case "$(board_base "$board")" in
	q35)
		echo "qemu-system-x86_64 -M q35 -m 512 -smp $smp" \
			"${cpu:+-cpu $cpu} -kernel $obj/arch/x86/boot/bzImage" \
			"$(board_devices "$board" "$smp")"
		;;
	versatilepb)
		dtb=$(board_dtb "$board" "$obj" arm/versatile-pb.dtb)
		echo "qemu-system-arm -M versatilepb -m 128" \
			"-kernel $obj/arch/arm/boot/zImage -dtb $dtb"
		;;
	virt)
		dtb=$(virt_dtb "$board" "$obj" "$smp")
		echo "qemu-system-arm -M virt -cpu cortex-a15 -m 256 -smp $smp" \
			"-kernel $obj/arch/arm/boot/zImage -dtb $dtb"
		;;
	vexpress-a9)
		dtb=$(board_dtb "$board" "$obj" arm/vexpress-v2p-ca9.dtb)
		echo "qemu-system-arm -M vexpress-a9 -m 256 -smp $smp" \
			"-kernel $obj/arch/arm/boot/zImage -dtb $dtb"
		;;
	*) die "unknown board $board" ;;
	esac
}

board_console() {
	case "$(board_base "$1")" in
	q35) echo ttyS0 ;;
	*) echo ttyAMA0 ;;
	esac
}

board_userspace() {
	case "$(board_base "$1")" in
	q35) echo x86_64 ;;
	versatilepb) echo armel ;;
	vexpress-a9 | virt) echo armhf ;;
	esac
}

# board_devices BOARD SMP: QEMU options a q35 variant adds to its devices.
board_devices() {
	case "$1" in
	q35) ;;
	# Six HPET channels that can send MSIs (QEMU's default: three, none).
	q35+hpet-msi) echo "-global hpet.msi=on -global hpet.timers=6" ;;
	# An ACPI C2 that stops the LAPIC timer on every CPU (deep idle).
	q35+c2) echo "-acpitable file=$(acpi_cstates_table "$2")" ;;
	*) die "unknown q35 variant $1" ;;
	esac
}

# virt_dtb BOARD OBJ SMP: QEMU's own device tree of the ARM virt board
# (dumped with the same CPUs and memory); virt+idle adds a PSCI idle state
# that stops the local (architected) timer to every CPU, so deep idle goes
# through the hrtimer broadcast (there is no global timer to broadcast
# from).  QEMU's PSCI CPU_SUSPEND waits in WFI.  Compiled with the tree's dtc.
virt_dtb() {
	local board=$1 obj=$2 smp=$3 dtc=$2/scripts/dtc/dtc out
	out=$obj/th-dt/virt-smp$smp
	mkdir -p "$obj/th-dt"
	qemu-system-arm -M "virt,dumpdtb=$out.dtb" -cpu cortex-a15 -m 256 \
		-smp "$smp" -display none >"$out.log" 2>&1 ||
		die "cannot dump the virt device tree: $(tail -n 3 "$out.log")"
	case "$board" in
	virt) echo "$out.dtb"; return 0 ;;
	virt+idle) ;;
	*) die "unknown virt variant $board" ;;
	esac
	"$dtc" -q -I dtb -O dts -o "$out.dts" "$out.dtb"
	awk '
		$1 == "cpus" && $2 == "{" { incpus = 1; print; next }
		# Properties come before subnodes: the new node goes first of those.
		incpus && $NF == "{" {
			incpus = 0
			print "\t\tidle-states {"
			print "\t\t\tentry-method = \"psci\";"
			print "\t\t\tth_sleep: cpu-sleep {"
			print "\t\t\t\tcompatible = \"arm,idle-state\";"
			print "\t\t\t\tlocal-timer-stop;"
			print "\t\t\t\tarm,psci-suspend-param = <0x0>;"
			print "\t\t\t\tentry-latency-us = <40>;"
			print "\t\t\t\texit-latency-us = <100>;"
			print "\t\t\t\tmin-residency-us = <150>;"
			print "\t\t\t};"
			print "\t\t};"
		}
		$1 ~ /^cpu@[0-9a-f]+$/ && $2 == "{" {
			print
			print "\t\t\tcpu-idle-states = <&th_sleep>;"
			cpus++
			next
		}
		{ print }
		END { exit cpus > 0 ? 0 : 3 }' "$out.dts" >"$out-idle.dts" ||
		die "no cpu nodes in the virt device tree $out.dts"
	"$dtc" -q -I dts -O dtb -o "$out-idle.dtb" "$out-idle.dts"
	echo "$out-idle.dtb"
}

# acpi_cstates_table SMP: compile harness/acpi/cstates.asl for SMP CPUs
# (one Scope with a _CST per CPU object) and print the table's path.
acpi_cstates_table() {
	local smp=$1 dir=$B/acpi/cstates-$1 i
	mkdir -p "$dir"
	cp "$H/acpi/cstates.asl" "$dir/"
	for ((i = 0; i < smp; i++)); do
		printf 'External (\\_SB.CPUS.C%03X, DeviceObj)\n' "$i"
		printf 'Scope (\\_SB.CPUS.C%03X) { Method (_CST, 0) { Return (\\_SB.THCS ()) } }\n' "$i"
	done >"$dir/cstates-cpus.asl"
	(cd "$dir" && iasl -p cstates cstates.asl >iasl.log 2>&1) ||
		die "iasl cannot compile $dir/cstates.asl: $(tail -n 5 "$dir/iasl.log")"
	echo "$dir/cstates.aml"
}

# dt_fault FAULT: the node and the property the fault removes (+status:
# the node gets status = "disabled", so that no driver probes it).
dt_fault() {
	case "$1" in
	sp804-noirq) echo "timer@101e2000 interrupts" ;;
	sp804-noclk) echo "timer@101e2000 clocks" ;;
	twd-off) echo "timer@1e000600 +status" ;;
	*) die "unknown device-tree fault $1" ;;
	esac
}

# board_dtb BOARD OBJ DTB: the path of the board's device tree blob, built
# from DTB (relative to the kernel's dts folder) with the board's fault.
board_dtb() {
	local board=$1 obj=$2 fault node prop out
	local dtb=$obj/arch/arm/boot/dts/$3 dtc=$obj/scripts/dtc/dtc
	case "$board" in
	*+*) fault=${board#*+} ;;
	*) echo "$dtb"; return 0 ;;
	esac
	read -r node prop <<<"$(dt_fault "$fault")"
	out=$obj/th-dt/$(basename "$dtb" .dtb)-$fault
	mkdir -p "$obj/th-dt"
	"$dtc" -q -I dtb -O dts -o "$out.orig.dts" "$dtb"
	awk -v node="$node" -v prop="$prop" '
		$1 == node && $2 == "{" {
			inside = 1
			if (prop == "+status") { print; print "\t\tstatus = \"disabled\";"; removed++; next }
		}
		inside && $1 == prop && $2 == "=" { removed++; next }
		inside && $1 == "};" { inside = 0 }
		{ print }
		END { exit removed == 1 ? 0 : 3 }' "$out.orig.dts" >"$out.dts" ||
		die "$fault: no property '$prop' in node '$node' of $dtb"
	"$dtc" -q -I dts -O dtb -o "$out.dtb" "$out.dts"
	echo "$out.dtb"
}

# Seconds an entry may take before it counts as hung, per selftest tier.
tier_timeout() {
	case "$1" in
	full | full-nohz) echo 1500 ;;
	timing | timing-cs) echo 700 ;;
	fast) echo 400 ;;
	arm-smp) echo 500 ;;
	stress) echo 900 ;;
	soak) echo 1800 ;;
	soak-arm) echo 600 ;;
	*) echo 300 ;;
	esac
}

# boot_qemu LOG BOARD OBJ CPU SMP TIMEOUT APPEND
boot_qemu() {
	local log=$1 board=$2 obj=$3 cpu=$4 smp=$5 limit=$6 append=$7 qemu
	qemu=$(board_qemu "$board" "$obj" "$cpu" "$smp")
	# shellcheck disable=SC2086
	timeout --foreground -k 10 "$limit" $qemu \
		-initrd "$B/initramfs/$(board_userspace "$board").cpio.gz" \
		-append "$append" -display none -monitor none -serial stdio \
		-no-reboot </dev/null >"$log" 2>&1
}
