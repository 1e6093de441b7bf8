#!/bin/bash
# The boot watchdog of run-multi.sh, on a real two-guest exchange (the RDMA
# ping-pong, tests/kernel/kt_pingpong.sh, kept short): the client's guest
# starts its first boot with its CPU stopped (it prints nothing, like sid's
# 7.2 that once printed only its firmware's banner under TCG). run-multi.sh
# must kill it after the bound, say so, boot it again while the server's
# guest waits, pass, and name the retry in its recap, long before ctest's
# bound. When every boot of that guest hangs, the run must fail as soon as
# the last one has had its bound, not at the guests' own timeout.
#
#   check-retry-multi.sh BUILD_DIR KERNEL
set -uo pipefail
build=$1 kernel=$2
here=$(cd "$(dirname "$0")" && pwd)
pp=$build/tests/kernel/kt_pingpong.sh lib=$here/../kernel/guest-lib.sh
# Each case's whole output stays beside the consoles.
mkdir -p "$build/vm"
fail=0
# ITERS SIZE BENCH_ITERS BENCH_ROUNDS: every case, fewer messages.
args=20,4096,20,1

# The bound must leave room for a real boot to reach the init under load.
# A case takes about a minute; the guests' own timeout (300 s) keeps both
# inside the registration's ctest bound (900 s) even when the watchdog
# fails, so that the output still says what happened.
out=$build/vm/check-retry-multi-one-hang.log
t0=$SECONDS
UVIO_VM_HANG_GUEST=1 UVIO_VM_BOOT_TIMEOUT=15 UVIO_VM_TIMEOUT=300 UVIO_VM_ARGS=$args \
	"$here/run-multi.sh" "$build" "$kernel" 2 "$pp" server client -- "$lib" >"$out" 2>&1
rc=$?
took=$((SECONDS - t0))
[ "$rc" = 77 ] && { cat "$out"; exit 77; }
grep -E "^vm: (RETRY|recap|guest [0-9]+ \(|FAIL|[0-9]+ guest)" "$out"
# Well inside ctest's bound (900 s): one hang costs its 15 s and a boot.
limit=420
if [ "$rc" = 0 ] &&
   [ "$(grep -c '^vm: RETRY: guest 1 (client): no guest output within 15 s; killed' "$out")" = 1 ] &&
   grep -q '^vm: recap g1: client booted again, after one boot that hung (no guest output within 15 s)$' "$out" &&
   grep -q '^\[g1\] init: guest 1 of 2 ' "$out" && [ "$took" -lt "$limit" ]; then
	echo "check-retry-multi: the client's guest hung at boot: killed, booted again, reported, passed in $took s"
else
	echo "check-retry-multi: FAIL: one hang of the client's guest (exit $rc, $took s, limit $limit s):"
	cat "$out"; fail=1
fi

# Every boot of the client's guest hangs: three boots of 15 s, then the
# run fails with the hang named, the server's guest stopped.
out=$build/vm/check-retry-multi-every-hang.log
t0=$SECONDS
UVIO_VM_HANG_GUEST=1 UVIO_VM_HANG=3 UVIO_VM_BOOT_TIMEOUT=15 UVIO_VM_TIMEOUT=300 UVIO_VM_ARGS=$args \
	"$here/run-multi.sh" "$build" "$kernel" 2 "$pp" server client -- "$lib" >"$out" 2>&1
rc=$?
took=$((SECONDS - t0))
grep -E "^vm: (RETRY|recap|guest [0-9]+ |FAIL|[0-9]+ guest)" "$out"
limit=240
if [ "$rc" = 1 ] && [ "$(grep -c '^vm: RETRY: guest 1 (client): no guest output' "$out")" = 2 ] &&
   grep -q '^vm: recap g1: client booted again, after 2 boots that hung (no guest output within 15 s)$' "$out" &&
   grep -q '^vm: recap g1: client: its last boot hung too (no guest output within 15 s, 3 boots)$' "$out" &&
   grep -q '^vm: FAIL: no exit marker from guest 1' "$out" && [ "$took" -lt "$limit" ]; then
	echo "check-retry-multi: every boot of the client's guest hung: failed after 3 boots, in $took s"
else
	echo "check-retry-multi: FAIL: three hangs of the client's guest (exit $rc, $took s, limit $limit s):"
	cat "$out"; fail=1
fi
[ "$fail" = 0 ] && echo "check-retry-multi: both cases hold"
exit "$fail"
