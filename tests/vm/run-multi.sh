#!/bin/bash
# Boot COUNT guests of Debian's kernel under qemu, joined by a network, each
# with rxe (or siw: UVIO_VM_DEV=siw) on its NIC, and run a script in each;
# the exit status is theirs.
#
#   run-multi.sh BUILD_DIR IMAGE_META COUNT SCRIPT [ROLE...] [-- DATA...]
#
# SCRIPT (a file, copied to /opt/uvio in every guest, or "shell") runs in each
# guest as `sh SCRIPT ROLE`; guest I gets the I-th ROLE (default guestI). DATA
# files are copied to /opt/uvio too. The guests also get the kernel test
# programs and examples of BUILD_DIR and libibverbs' ibv_*_pingpong programs.
#
# Network: every pair of guests has a link of its own, qemu's UDP socket
# backend on two 127.0.0.1 ports (no start order, no root), a virtio NIC at
# each end with its own MAC, MTU 9000 and an address 10.0.L.(I+1)/24 (L the
# link's number, I the guest's), and rxeK on ethK in the guest. Two guests
# thus have one link: 10.0.0.1 on guest 0, 10.0.0.2 on guest 1, rxe0 on eth0.
# A single guest gets one NIC whose far end nobody holds, for rxe loopback.
# The guest sees its addresses and its peers' in the environment
# (tests/vm/init-multi).
#
# Each guest's console goes to BUILD_DIR/vm/console-multi-K-DEV-S-C-gI.log
# (kernel, device, script, count: runs that differ in one of them may run
# at the same time) and,
# prefixed with [gI], to stdout. Exit: 0 when every guest's script exited 0;
# 77 when all skipped; otherwise the first failure, 1 for a guest that gave
# no exit marker (timeout UVIO_VM_TIMEOUT, default 900 s, or crash).
# A script that prints its exit marker and then a line UVIO-POWER-OFF is
# powered off from outside within a second, mid-work: a peer that vanishes.
# A guest whose init has said nothing (UVIO-INIT, tests/vm/init-multi)
# UVIO_VM_BOOT_TIMEOUT seconds (default 60, as in run.sh) after its start
# hangs (seen under TCG: sid's 7.2 printed its firmware's banner and no
# more), and one whose kernel oopses, panics or stops before its init is up
# failed: either is stopped and booted again while its peers wait (each
# guest's script starts once its peers answer, and their meetings wait for a
# late peer: tests/kernel/guest-lib.sh); three boots of one guest at most,
# the last failing the run at once. The recap names every guest booted again
# and why. UVIO_VM_HANG_GUEST=I starts guest I's first UVIO_VM_HANG boots
# (default 1) with the CPU stopped, to show the hang.
# UVIO_VM_SMP sets each guest's CPUs (default 2); UVIO_VM_ARGS (comma
# separated, no spaces) reaches the scripts as UVIO_ARGS; UVIO_VM_WITH
# ("PROGRAM...", @USERLAND@ as in run.sh) adds programs to /opt/uvio/bin
# (their libraries found through UVIO_VM_LIBPATH too, as mkinitramfs.sh
# says).
set -euo pipefail
build=$(cd "$1" && pwd) meta=$2 count=$3 script=$4; shift 4
roles=() data=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do roles+=("$1"); shift; done
[ "${1:-}" = -- ] && { shift; data=("$@"); }
here=$(cd "$(dirname "$0")" && pwd)

case $count in ''|*[!0-9]*|0) echo "vm: COUNT must be a positive number, not '$count'"; exit 2 ;; esac
[ "$count" -le 16 ] || { echo "vm: at most 16 guests"; exit 2; }
if [ "$script" != shell ] && [ ! -f "$script" ]; then echo "vm: no script $script"; exit 2; fi
. "$here/require.sh"
command -v ss >/dev/null || skip "ss not installed (apt-get install iproute2)"

# The kernels and the guest userland live in the harness's cache (fetch.sh);
# what this run builds, in the build tree.
cache=${UVIO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/uvio}
export UVIO_CACHE=$cache
t0=$SECONDS
# UVIO_VM_DEV: rxe (the default) or siw on each NIC.
vmdev=${UVIO_VM_DEV:-rxe}
case $vmdev in rxe|siw) ;; *) echo "vm: UVIO_VM_DEV must be rxe or siw, not '$vmdev'"; exit 2 ;; esac
siw=; [ "$vmdev" = siw ] && siw=siw
kdir=$("$here/fetch.sh" "$meta" $siw) || skip "could not fetch $meta"
userland=$("$here/guest-userland.sh" "$cache") || skip "could not fetch the guest userland"
kname=$(cat "$kdir/version")
mkdir -p "$build/vm"
# This run's files: named so that other runs (ctest -j) keep their own.
run=$kname-$vmdev-$(basename "$script" .sh)-$count
initrd=$build/vm/initramfs-multi-$run.cpio.gz
refs=$(ls "$userland"/usr/bin/ibv_*_pingpong)
files=("${data[@]}")
[ "$script" != shell ] && files+=("$script")
UVIO_VM_INIT=$here/init-multi \
"$here/mkinitramfs.sh" "$kdir" "$userland" "$initrd" \
	$(sed "s|@USERLAND@|$userland|g" "$build/tests/kernel/programs.txt") $refs \
	$(echo "${UVIO_VM_WITH:-}" | sed "s|@USERLAND@|$userland|g") -- "${files[@]}" ||
	{ echo "vm: FAIL: building the initramfs"; exit 1; }
echo "vm: prepared $(cat "$kdir/version") for $count guest(s) in $((SECONDS - t0)) s"

# Two UDP ports per link, on 127.0.0.1, none of them in use now.
links=$(( count == 1 ? 1 : count * (count - 1) / 2 ))
nports=$((2 * links + (count == 1 ? 1 : 0)))
for try in $(seq 20); do
	base=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
	used=$(ss -Hlun | awk '{ n = split($4, a, ":"); print a[n] }')
	free=1
	for p in $(seq "$base" $((base + nports - 1))); do
		grep -qx "$p" <<<"$used" && { free=0; break; }
	done
	[ $free = 1 ] && break
done
[ $free = 1 ] || { echo "vm: FAIL: no free UDP ports"; exit 1; }

# The links: guests (i, j), i < j, numbered in order. Guest i's NIC to j is its
# k-th, k counting its peers in guest order.
declare -A nics peers netargs
l=0
for ((i = 0; i < count; i++)); do nics[$i]= peers[$i]= netargs[$i]=; done
add_nic() {	# add_nic GUEST LINK MYPORT FARPORT
	local g=$1 k
	k=$(( $(wc -w <<<"${nics[$g]//,/ }") ))
	nics[$g]+="${nics[$g]:+,}10.0.$2.$((g + 1))/24"
	netargs[$g]+=" -netdev socket,id=n$k,udp=127.0.0.1:$4,localaddr=127.0.0.1:$3"
	netargs[$g]+=" -device virtio-net-pci,netdev=n$k,romfile=,mac=52:54:00:$(printf '%02x:%02x:%02x' "$2" "$g" "$k")"
}
if [ "$count" = 1 ]; then
	add_nic 0 0 "$base" $((base + 1))	# the far end stays unbound
else
	for ((i = 0; i < count; i++)); do
		for ((j = i + 1; j < count; j++)); do
			add_nic "$i" "$l" $((base + 2 * l)) $((base + 2 * l + 1))
			add_nic "$j" "$l" $((base + 2 * l + 1)) $((base + 2 * l))
			peers[$i]+="${peers[$i]:+,}10.0.$l.$((j + 1))"
			peers[$j]+="${peers[$j]:+,}10.0.$l.$((i + 1))"
			l=$((l + 1))
		done
	done
	# Peers in guest order: guest j lists peers i < j first, which it met
	# after its links to lower guests were numbered; sort by guest number.
	for ((i = 0; i < count; i++)); do
		peers[$i]=$(tr , '\n' <<<"${peers[$i]}" | sort -t. -k4,4n | paste -sd,)
	done
fi

# no_timer_check: under TCG on a busy host the kernel's IO-APIC timer check
# can fail and panic the boot ("IO-APIC + timer doesn't work!").
append_base="console=ttyS0 panic=-1 quiet loglevel=3 no_timer_check"
append_base="$append_base uvio.count=$count uvio.dev=$vmdev uvio.script=$(basename "$script")"
[ -n "${UVIO_VM_ARGS:-}" ] && append_base="$append_base uvio.args=$UVIO_VM_ARGS"
t1=$SECONDS
declare -A pids qemus appends boots marked
others=()
for ((i = 0; i < count; i++)); do
	role=${roles[$i]:-guest$i}
	appends[$i]="$append_base uvio.index=$i uvio.role=$role uvio.nics=${nics[$i]} uvio.peers=${peers[$i]:-none}"
	qemus[$i]="qemu-system-x86_64 -M pc -accel tcg -cpu max -smp ${UVIO_VM_SMP:-2} -m 1G
		   -no-reboot -kernel $kdir/vmlinux -initrd $initrd ${netargs[$i]}"
done

if [ "$script" = shell ]; then
	# Guest 0 on this terminal, the others on sockets (connect with
	# `socat - UNIX-CONNECT:PATH`).
	for ((i = 1; i < count; i++)); do
		sock=$build/vm/console-multi-$run-g$i.sock
		${qemus[$i]} -display none -monitor none \
			-serial "unix:$sock,server=on,wait=off" -append "${appends[$i]}" &
		others+=($!)
		echo "vm: guest $i console on $sock"
	done
	${qemus[0]} -nographic -append "${appends[0]}" || true
	for p in "${others[@]}"; do kill "$p" 2>/dev/null || true; done
	exit 0
fi

log_of() { echo "$build/vm/console-multi-$run-g$1.log"; }
bound=${UVIO_VM_BOOT_TIMEOUT:-60}
case $bound in ''|*[!0-9]*|0) echo "vm: UVIO_VM_BOOT_TIMEOUT must be a positive number of seconds, not '$bound'"; exit 2 ;; esac
max_boots=3
declare -A started hung broke lasthang
start_guest() {	# start_guest I: boot guest I, console to its log and stdout
	local i=$1 log hang=
	log=$(log_of "$i")
	rm -f "$log" "$build/vm/qemu-multi-g$i.pid"	# never write through a hard link
	boots[$i]=$(( ${boots[$i]:-0} + 1 ))
	[ "$i" = "${UVIO_VM_HANG_GUEST:-}" ] && [ "${boots[$i]}" -le "${UVIO_VM_HANG:-1}" ] &&
		hang=-S	# CPU stopped: a hang
	started[$i]=$SECONDS
	# Word splitting of qemus[] is wanted: paths come from the cache dir.
	# shellcheck disable=SC2086
	( timeout "${UVIO_VM_TIMEOUT:-900}" ${qemus[$i]} -nographic $hang \
		-pidfile "$build/vm/qemu-multi-g$i.pid" -append "${appends[$i]}" </dev/null 2>&1 |
	  sed -u -e 's/\r//g' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1b[c78]//g' |
	  tee "$log" | sed -u "s/^/[g$i] /" ) &
	pids[$i]=$!
}
stop_guest() {	# stop_guest I: end its qemu (started by us, by its pid)
	if [ -s "$build/vm/qemu-multi-g$1.pid" ]; then
		kill "$(cat "$build/vm/qemu-multi-g$1.pid")" 2>/dev/null || true
	fi
	rm -f "$build/vm/qemu-multi-g$1.pid"
}
for ((i = 0; i < count; i++)); do start_guest "$i"; done

# Watch the guests:
# - one whose init said nothing within the bound (a hang), or whose kernel
#   panics or oopses before its init is up, or that is gone before then (a
#   boot that went wrong under TCG), is booted again, twice at most: the
#   others wait for it; a third hang is stopped, which fails the run;
# - one that printed its exit marker has nothing more to say: if it has not
#   powered off 30 s later (a kernel stuck on the way down), it is stopped;
#   if it then printed UVIO-POWER-OFF, it is stopped at once (within a
#   second): the machine vanishes as if unplugged, no guest code runs;
# - one that is gone without a marker dooms the run: the others are stopped.
failed=
while :; do
	alive=0
	for ((i = 0; i < count; i++)); do
		log=$(log_of "$i")
		booting=0 why=
		grep -q 'init: guest [0-9]* of ' "$log" 2>/dev/null || booting=1
		if [ $booting = 1 ]; then
			if ! kill -0 "${pids[$i]}" 2>/dev/null || grep -Eq 'Kernel panic|Oops' "$log" 2>/dev/null; then
				why="the kernel failed before the init"
			elif ! grep -q 'UVIO-INIT ' "$log" 2>/dev/null &&
			     [ $((SECONDS - started[$i])) -ge "$bound" ]; then
				why="no guest output within $bound s"
			fi
		fi
		# Once the run is doomed (failed), a guest stopped while it
		# booted stays stopped.
		if [ -n "$why" ] && [ -z "$failed" ] && [ "${boots[$i]}" -lt $max_boots ]; then
			echo "vm: RETRY: guest $i (${roles[$i]:-guest$i}): $why; killed," \
			     "booting it once more while its peers wait (console: $log.boot${boots[$i]})"
			case $why in
			no*) hung[$i]=$(( ${hung[$i]:-0} + 1 )) ;;
			*) broke[$i]=$(( ${broke[$i]:-0} + 1 )) ;;
			esac
			stop_guest "$i"
			wait "${pids[$i]}" 2>/dev/null || true
			cp "$log" "$log.boot${boots[$i]}"
			start_guest "$i"
			alive=1
			continue
		fi
		if [ "$why" = "no guest output within $bound s" ]; then
			# The last boot hung too: stopped now, not at UVIO_VM_TIMEOUT;
			# gone without its marker, it stops the others below.
			echo "vm: guest $i (${roles[$i]:-guest$i}): no guest output within $bound s," \
			     "${boots[$i]} boots: stopping it"
			lasthang[$i]=1
			stop_guest "$i"
			wait "${pids[$i]}" 2>/dev/null || true
		fi
		if ! kill -0 "${pids[$i]}" 2>/dev/null; then
			if [ -z "$failed" ] && ! grep -q '^UVIO-EXIT ' "$log"; then
				failed=$i
				echo "vm: guest $i is gone without an exit marker: stopping the others"
				for ((j = 0; j < count; j++)); do stop_guest "$j"; done
			fi
			continue
		fi
		alive=1
		grep -q '^UVIO-EXIT ' "$log" || continue
		if grep -q '^UVIO-POWER-OFF$' "$log"; then
			echo "vm: guest $i asked to be powered off: stopping its qemu"
			stop_guest "$i"
			continue
		fi
		: "${marked[$i]:=$SECONDS}"
		if [ $((SECONDS - marked[$i])) -gt 30 ]; then
			echo "vm: guest $i gave its exit marker but did not power off in 30 s: stopping it"
			stop_guest "$i"
		fi
	done
	[ $alive = 0 ] && break
	sleep 1
done
for ((i = 0; i < count; i++)); do wait "${pids[$i]}" 2>/dev/null || true; done

rc=0 skipped=0
for ((i = 0; i < count; i++)); do
	log=$(log_of "$i")
	g=$(sed -n 's/^UVIO-EXIT \([0-9]*\)$/\1/p' "$log" | tail -n1)
	echo "vm: guest $i (${roles[$i]:-guest$i}) exit ${g:-none}"
	if [ -z "$g" ]; then
		echo "vm: FAIL: no exit marker from guest $i (timeout or crash)"
		[ "$rc" = 0 ] && rc=1
	elif [ "$g" = 77 ]; then
		skipped=$((skipped + 1))
	elif [ "$g" != 0 ] && [ "$rc" = 0 ]; then
		rc=$g
	fi
done
echo "vm: $count guest(s) ran $((SECONDS - t1)) s"
# Every guest booted again, and why, whatever the result (run.sh's words).
boots_that() {	# boots_that N WHAT: "one boot WHAT", "2 boots WHAT"
	[ "$1" = 1 ] && echo "one boot $2" || echo "$1 boots $2"
}
for ((i = 0; i < count; i++)); do
	why=
	[ -n "${hung[$i]:-}" ] &&
		why=$(boots_that "${hung[$i]}" "that hung (no guest output within $bound s)")
	[ -n "${broke[$i]:-}" ] &&
		why="${why:+$why and }$(boots_that "${broke[$i]}" "whose kernel failed before the init")"
	if [ -n "$why" ]; then
		echo "vm: recap g$i: ${roles[$i]:-guest$i} booted again, after $why"
	fi
	if [ -n "${lasthang[$i]:-}" ]; then
		echo "vm: recap g$i: ${roles[$i]:-guest$i}: its last boot hung too" \
		     "(no guest output within $bound s, ${boots[$i]} boots)"
	fi
done
# A log that is cut in the middle (CI keeps its head and tail) still names
# what failed: each failing guest's verdict lines again, last.
if [ "$rc" != 0 ] && [ "$rc" != 77 ]; then
	for ((i = 0; i < count; i++)); do
		{ grep -E '^--- (FAIL|RETRY)' "$(log_of "$i")" | head -n 20
		  grep -E '\[(hung|slow)\]' "$(log_of "$i")" | head -n 40
		  grep -q '^UVIO-EXIT ' "$(log_of "$i")" ||
			tail -n 6 "$(log_of "$i")" | cut -c1-200 | sed 's/^/(its last line) /'
		} | sed "s/^/vm: recap g$i: /" || true	# none: no lines
	done
fi
[ "$rc" = 0 ] && [ "$skipped" = "$count" ] && rc=77
exit "$rc"
