#!/bin/bash
# Boot Debian's kernel under qemu with rxe (and siw) and run the kernel
# tests inside; the exit status is theirs.
#
#   run.sh BUILD_DIR IMAGE_META [siw] [shell|example|bench|valgrind]
#
# IMAGE_META: linux-image-amd64 (6.1) or linux-image-6.12-amd64.
# "shell" boots the same guest with a shell on the console instead;
# "example" runs examples/create_cq on every device instead of the tests;
# "bench" runs bench/guest-bench.sh: the benchmarks on every device, and
# callgrind (UVIO_BENCH_ARGS, see that script);
# "valgrind" runs the kernel tests and examples under memcheck.
# Exits 77 (skip) with the reason when qemu or apt-get is not there, unless
# UVIO_REQUIRE_VM=1, as in CI.
set -euo pipefail
build=$(cd "$1" && pwd) meta=$2; shift 2
siw= mode=tests
for a in "$@"; do case $a in siw) siw=siw ;; shell|example|bench|valgrind) mode=$a ;; esac; done
here=$(cd "$(dirname "$0")" && pwd)

skip() {
	if [ "${UVIO_REQUIRE_VM:-0}" = 1 ]; then echo "vm: FAIL: $*"; exit 1; fi
	echo "vm: SKIP: $*"; exit 77
}
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed (apt-get install qemu-system-x86)"
command -v apt-get >/dev/null || skip "apt-get not available to fetch Debian's kernel"
[ -x /bin/busybox ] || skip "busybox not installed (apt-get install busybox-static)"

cache=$build/vm-cache
t0=$SECONDS
kdir=$("$here/fetch.sh" "$cache" "$meta" $siw) || skip "could not fetch $meta"
userland=$("$here/guest-userland.sh" "$cache") || skip "could not fetch the guest userland"
initrd=$cache/initramfs-$(basename "$kdir")-$mode.cpio.gz
[ "$mode" = valgrind ] && export UVIO_VM_VALGRIND=1
# The consumer programs, when the package tests (consumer-bin) or CI against
# the installed packages (consumer-bin-system) built them.
consumers=$(ls "$build"/consumer-bin*/consumer-* 2>/dev/null | grep -v /cmake/ || true)
data=
if [ "$mode" = bench ]; then
	# valgrind for callgrind's counts; every provider Debian installs, so
	# that libibverbs starts as it does on a real system.
	export UVIO_VM_VALGRIND=1 UVIO_VM_ALL_PROVIDERS=1
	consumers="$consumers $(cat "$build/bench/programs.txt")"
	data="$here/../../bench/guest-bench.sh"
fi
"$here/mkinitramfs.sh" "$kdir" "$userland" "$initrd" \
	$(cat "$build/tests/kernel/programs.txt") $consumers -- "$build/tests/kernel/guest-tests.sh" \
	"$build/tests/kernel/guest-valgrind.sh" $data || { echo "vm: FAIL: building the initramfs"; exit 1; }
echo "vm: prepared $(cat "$kdir/version") in $((SECONDS - t0)) s"

append="console=ttyS0 panic=-1 quiet loglevel=3"
qemu=(qemu-system-x86_64 -M pc -accel tcg -cpu max -smp 2 -m 1G -nographic -no-reboot
      -kernel "$kdir/vmlinux" -initrd "$initrd")
if [ "$mode" = shell ]; then
	exec "${qemu[@]}" -append "$append uvio.cmd=shell"
fi
[ "$mode" = example ] && append="$append uvio.cmd=example"
[ "$mode" = valgrind ] && append="$append uvio.cmd=valgrind"
[ "$mode" = bench ] && append="$append uvio.cmd=bench uvio.args=${UVIO_BENCH_ARGS:-7,2000}"
log=$cache/console-$(basename "$kdir").log
rm -f "$log"	# never write through a hard link into another run's log
t1=$SECONDS
# The firmware clears the terminal first (ESC c, ESC [2J, ...): keep only
# text, for the user and the log.
timeout "${UVIO_VM_TIMEOUT:-900}" "${qemu[@]}" -append "$append" </dev/null 2>&1 |
	sed -u -e 's/\r//g' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1b[c78]//g' |
	tee "$log" || true
rc=$(sed -n 's/^UVIO-EXIT \([0-9]*\)$/\1/p' "$log" | tail -n1)
echo "vm: guest ran $((SECONDS - t1)) s, exit ${rc:-none}"
[ -n "$rc" ] || { echo "vm: FAIL: no exit marker from the guest (timeout or crash)"; exit 1; }
exit "$rc"
