#!/bin/bash
# Boot one of Debian's kernels under qemu with rxe and/or siw and run the
# kernel tests inside; the exit status is theirs.
#
#   run.sh BUILD_DIR KERNEL [dev=rxe|siw|rxe,siw|mlx5] [siw] [shell|example|bench|valgrind]
#   run.sh BUILD_DIR KERNEL [dev=...] run PROGRAM [ARGS...]
#
# KERNEL: a suite (bullseye 5.10, bookworm 6.1, trixie 6.12, sid: the newest),
# SUITE:PACKAGE (bookworm:linux-image-6.12-amd64) or a package of the
# machine's own suite (linux-image-amd64). The version is resolved at run
# time (see fetch.sh) and named in every result line.
# dev=: the devices to make in the guest (default rxe); the word "siw" alone
# means dev=rxe,siw. dev=mlx5: the init loads the mlx5 stand-in module that
# the caller put among the programs (scripts/vm-run.sh --dev mlx5 does).
# "shell" boots the same guest with a shell on the console instead;
# "example" runs examples/create_cq on every device instead of the tests;
# "bench" runs bench/guest-bench.sh: the benchmarks on every device, and
# callgrind (UVIO_BENCH_ARGS, see that script);
# "valgrind" runs the kernel tests and examples under memcheck.
# "run" runs PROGRAM (any program of the host, with the libraries it loads)
# with ARGS in the guest instead, and exits with its status
# (scripts/vm-run.sh is the front door).
#
# A boot that shows no guest output within UVIO_VM_BOOT_TIMEOUT seconds
# (default 60), or whose kernel oopses, panics or stops before the init
# starts (seen under TCG: 7.2 once took an int3 Oops in its clock code while
# booting), is stopped and started once more, and the result says so; a
# second such boot fails. The whole run is bounded by UVIO_VM_TIMEOUT (900).
# UVIO_VM_HANG=N starts the first N boots with the CPU stopped, to show the
# first case; UVIO_VM_PANIC=N gives the first N boots an init that does not
# exist, so that their kernel panics, to show the second.
#
# Downloads and built modules are cached in $UVIO_CACHE (~/.cache/uvio);
# the initramfs and the console log go to BUILD_DIR/vm/ (UVIO_VM_TAG adds a
# word to their names).
# Exits 77 (skip) with the reason when qemu or apt-get is not there, unless
# UVIO_REQUIRE_VM=1, as in CI.
set -euo pipefail
build=$(cd "$1" && pwd) kernel=$2; shift 2
devs=rxe mode=tests
while [ $# -gt 0 ]; do
	case $1 in
	siw) devs=rxe,siw ;;
	dev=rxe|dev=siw|dev=rxe,siw|dev=siw,rxe|dev=mlx5) devs=${1#dev=} ;;
	shell|example|bench|valgrind) mode=$1 ;;
	run) mode=run; shift; break ;;	# the rest is the program and its arguments
	*) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done
if [ "$mode" = run ]; then
	[ $# -gt 0 ] || { echo "run.sh: run needs a program" >&2; exit 2; }
	prog=$(type -P "$1" || true)	# a file: a builtin of this shell is none
	[ -n "$prog" ] && [ -x "$prog" ] || { echo "run.sh: no program $1" >&2; exit 2; }
	shift
fi
here=$(cd "$(dirname "$0")" && pwd)
cache=${UVIO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/uvio}
export UVIO_CACHE=$cache

. "$here/require.sh"

t0=$SECONDS
siw=; case $devs in *siw*) siw=siw ;; esac
kdir=$("$here/fetch.sh" "$kernel" $siw) || skip "could not fetch $kernel"
userland=$("$here/guest-userland.sh" "$cache") || skip "could not fetch the guest userland"
kver=$(cat "$kdir/version") series=$(cat "$kdir/series")
ran="kernel $kver ($(cat "$kdir/package"), $(cat "$kdir/suite")) dev $devs"
tag=$series-${devs/,/-}$([ "$mode" = tests ] || echo "-$mode")
# UVIO_VM_TAG: a word more in the names of this boot's files (initramfs,
# console log, result), for a test of its own beside the others.
tag=$tag${UVIO_VM_TAG:+-$UVIO_VM_TAG}
work=$build/vm
mkdir -p "$work"
initrd=$work/initramfs-$tag.cpio.gz
[ "$mode" = valgrind ] && export UVIO_VM_VALGRIND=1
# The consumer programs, when the package tests (consumer-bin) or CI against
# the installed packages (consumer-bin-system) built them.
consumers=$(ls "$build"/consumer-bin*/consumer-* 2>/dev/null | grep -v /cmake/ || true)
data=
programs=
[ "$mode" = run ] || programs=$(sed "s|@USERLAND@|$userland|g" "$build/tests/kernel/programs.txt")
if [ "$mode" = run ]; then
	# The program, and a script that runs it with its arguments quoted.
	# UVIO_VM_WITH: more programs for the guest (@USERLAND@ names Debian's
	# userland, e.g. @USERLAND@/usr/bin/rping), the other side of a test.
	programs="$prog $(echo "${UVIO_VM_WITH:-}" | sed "s|@USERLAND@|$userland|g")"
	consumers=
	# In a folder of this boot's own: boots may run side by side.
	mkdir -p "$work/run-$tag"
	data=$work/run-$tag/vm-run.sh
	{
		printf 'cd /tmp && exec /opt/uvio/bin/%q' "$(basename "$prog")"
		for a in "$@"; do printf ' %q' "$a"; done
		echo
	} > "$data"
fi
if [ "$mode" = bench ]; then
	# valgrind for callgrind's counts; every provider Debian installs, so
	# that libibverbs starts as it does on a real system.
	export UVIO_VM_VALGRIND=1 UVIO_VM_ALL_PROVIDERS=1
	consumers="$consumers $(cat "$build/bench/programs.txt")"
	data="$here/../../bench/guest-bench.sh"
fi
# guest-lib.sh: the helpers the guest scripts share (kt_trace.sh, the
# bench's guest scripts); standin-lib.sh those of the stand-in boots'
# scripts (tests/standin/vm-standin.sh).
UVIO_VM_LIBPATH=$build/lib "$here/mkinitramfs.sh" "$kdir" "$userland" "$initrd" \
	$programs $consumers -- "$build/tests/kernel/guest-tests.sh" \
	"$build/tests/kernel/guest-valgrind.sh" "$here/../kernel/guest-lib.sh" \
	"$here/../kernel/standin-lib.sh" $data ||
	{ echo "vm: FAIL: building the initramfs"; exit 1; }
echo "vm: prepared $ran in $((SECONDS - t0)) s"

# The guest learns which kernel the harness meant to boot from the command
# line; the tests check it against uname and key their expectations on it.
# no_timer_check: as in run-multi.sh, the IO-APIC timer check can fail a
# boot under TCG on a busy host.
append="console=ttyS0 panic=-1 quiet loglevel=3 no_timer_check uvio.dev=$devs uvio.kernel=$kver uvio.series=$series"
qemu=(qemu-system-x86_64 -M pc -accel tcg -cpu max -smp 2 -m 1G -nographic -no-reboot
      -kernel "$kdir/vmlinux" -initrd "$initrd")
if [ "$mode" = shell ]; then
	exec "${qemu[@]}" -append "$append uvio.cmd=shell"
fi
[ "$mode" = example ] && append="$append uvio.cmd=example"
[ "$mode" = valgrind ] && append="$append uvio.cmd=valgrind"
[ "$mode" = run ] && append="$append uvio.cmd=run"
[ "$mode" = bench ] && append="$append uvio.cmd=bench uvio.args=${UVIO_BENCH_ARGS:-7,2000}"

log=$work/console-$tag.log
raw=$work/console-$tag.raw
bound=${UVIO_VM_BOOT_TIMEOUT:-60}
now() { date +%s.%N; }
# The firmware clears the terminal first (ESC c, ESC [2J, ...): keep only
# text, for the user and the log.
clean() { sed -u -e 's/\r//g' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1b[c78]//g'; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
# boot ATTEMPT: 0 when the init started, 1 when the guest hung (no output
# within the bound), 2 when its kernel failed first (oops, panic, or qemu gone).
boot() {
	local extra=() kargs=$append start qpid tpid ret=0
	[ "$1" -le "${UVIO_VM_HANG:-0}" ] && extra=(-S)	# CPU stopped: a hang
	[ "$1" -le "${UVIO_VM_PANIC:-0}" ] && kargs="$kargs rdinit=/no-such-init"
	rm -f "$raw" "$log"	# never write through a hard link into another run's log
	# Made before qemu starts, so that the tail below cannot open it
	# first and give up (it lost a whole run's console that way).
	: > "$raw"
	start=$(now)
	timeout "${UVIO_VM_TIMEOUT:-900}" "${qemu[@]}" "${extra[@]}" -append "$kargs" \
		</dev/null >"$raw" 2>&1 &
	qpid=$!
	tail -n +1 -f --pid=$qpid "$raw" | clean &
	tpid=$!
	# The init prints UVIO-INIT first thing; the kernel itself is quiet.
	while ! grep -aq 'UVIO-INIT ' "$raw"; do
		if grep -aEq 'Kernel panic|Oops' "$raw" || ! kill -0 $qpid 2>/dev/null; then
			ret=2
			kill $qpid 2>/dev/null || true
			break
		fi
		if [ "$(secs "$start" "$(now)" | cut -d. -f1)" -ge "$bound" ]; then
			ret=1
			kill $qpid 2>/dev/null || true
			break
		fi
		sleep 0.2
	done
	booted=$(secs "$start" "$(now)")
	wait $qpid || true
	wait $tpid 2>/dev/null || true
	total=$(secs "$start" "$(now)")
	return $ret
}
failed_boot=("" "no guest output within $bound s" "the kernel failed before the init")
retried=
boot 1 && first=0 || first=$?
if [ "$first" != 0 ]; then
	clean < "$raw" > "$log.boot1"	# kept: what went wrong
	echo "vm: RETRY: ${failed_boot[$first]}; killed, booting $kver once more (console: $log.boot1)"
	if [ "$first" = 1 ]; then
		retried=", after one boot that hung (no guest output within $bound s)"
	else
		retried=", after one boot whose kernel failed before the init"
	fi
	boot 2 && second=0 || second=$?
	if [ "$second" != 0 ]; then
		clean < "$raw" > "$log"
		if [ "$first" = 1 ] && [ "$second" = 1 ]; then
			echo "vm: RESULT $ran: FAIL, no guest output within $bound s, twice"
		else
			echo "vm: RESULT $ran: FAIL, two boots failed before the init" \
			     "(${failed_boot[$first]}; ${failed_boot[$second]})"
		fi
		exit 1
	fi
fi
clean < "$raw" > "$log"
rm -f "$raw"
rc=$(sed -n 's/^UVIO-EXIT \([0-9]*\)$/\1/p' "$log" | tail -n1)
suite=$(awk -v a="$booted" -v b="$total" 'BEGIN { printf "%.1f", b - a }')
summary="boot $booted s, suite $suite s$retried"
echo "$ran $mode${UVIO_VM_TAG:+ $UVIO_VM_TAG}: exit ${rc:-none}, $summary" > "$work/result-$tag.txt"
if [ -z "$rc" ]; then
	echo "vm: RESULT $ran: FAIL, no exit marker from the guest (timeout or crash); $summary"
	exit 1
fi
# A log that is cut in the middle (CI keeps its head and tail) still names
# what failed: the guest's verdict lines again, last.
if [ "$rc" != 0 ] && [ "$rc" != 77 ]; then
	{ grep -E '^--- (FAIL|RETRY)|^FAIL' "$log" | head -n 20
	  grep -F '[hung]' "$log" | head -n 40; } | sed "s/^/vm: recap: /" || true	# none: no lines
fi
echo "vm: RESULT $ran: $([ "$rc" = 0 ] && echo PASS || echo "FAIL (exit $rc)"); $summary"
exit "$rc"
