#!/bin/bash
# The boot watchdog of run.sh, on a real boot: the first boot is started with
# its CPU stopped (it prints nothing, like the early hang seen once in about
# a hundred boots of 7.2 under TCG). run.sh must kill it after the bound,
# say so, boot again and pass; when the second boot hangs too, it must fail.
# A first boot whose kernel panics before the init must be retried as well.
#
#   check-retry.sh BUILD_DIR KERNEL
set -uo pipefail
build=$1 kernel=$2
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail=0

# The bound must leave room for a real boot to reach the init under load.
UVIO_VM_HANG=1 UVIO_VM_BOOT_TIMEOUT=15 "$here/run.sh" "$build" "$kernel" dev=rxe example \
	>"$out" 2>&1
rc=$?
[ "$rc" = 77 ] && { cat "$out"; exit 77; }
grep -E "^vm: (RETRY|RESULT)" "$out"
if [ "$rc" = 0 ] && grep -q "^vm: RETRY: no guest output within 15 s" "$out" &&
   grep -q "^vm: RESULT .*: PASS; .*after one boot that hung" "$out"; then
	echo "check-retry: one hang: killed, retried, reported, passed"
else
	echo "check-retry: FAIL: one hang (exit $rc):"; cat "$out"; fail=1
fi

UVIO_VM_HANG=2 UVIO_VM_BOOT_TIMEOUT=15 "$here/run.sh" "$build" "$kernel" dev=rxe example \
	>"$out" 2>&1
rc=$?
grep -E "^vm: (RETRY|RESULT)" "$out"
if [ "$rc" = 1 ] && [ "$(grep -c '^vm: RETRY' "$out")" = 1 ] &&
   grep -q "^vm: RESULT .*: FAIL, no guest output within 15 s, twice" "$out"; then
	echo "check-retry: two hangs: failed after the retry"
else
	echo "check-retry: FAIL: two hangs (exit $rc):"; cat "$out"; fail=1
fi
# A kernel that fails before the init (here: a panic, no init to run) is
# booted again too, and the result says which kind of failure it was.
UVIO_VM_PANIC=1 UVIO_VM_BOOT_TIMEOUT=60 "$here/run.sh" "$build" "$kernel" dev=rxe example \
	>"$out" 2>&1
rc=$?
grep -E "^vm: (RETRY|RESULT)" "$out"
if [ "$rc" = 0 ] && grep -q "^vm: RETRY: the kernel failed before the init" "$out" &&
   grep -q "^vm: RESULT .*: PASS; .*after one boot whose kernel failed before the init" "$out"; then
	echo "check-retry: one panic at boot: retried, reported, passed"
else
	echo "check-retry: FAIL: one panic at boot (exit $rc):"; cat "$out"; fail=1
fi
[ "$fail" = 0 ] && echo "check-retry: all three cases hold"
exit "$fail"
