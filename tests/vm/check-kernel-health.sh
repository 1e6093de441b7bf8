#!/bin/sh
# The guests' oops check (kernel-health.sh) on kernel logs kept in the tree,
# written by hand in the kernel's format: an oops (shaped like the crash of
# Linux 5.10's POLL_CQ on an rxe CQ) must fail, a clean log must pass, and
# a soft-lockup report of a starved virtual CPU is shown but passes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail=0
if out=$(sh "$here/kernel-health.sh" < "$here/testdata/oops-5.10-poll-cq.txt"); then
	echo "FAIL: the oops passed"; fail=1
else
	echo "$out" | grep -q '^KERNEL-OOPS: .*Oops: 0000' || { echo "FAIL: oops not named"; fail=1; }
	echo "$out" | grep -q 'copy_wc_to_user' || { echo "FAIL: its trace not shown"; fail=1; }
fi
sh "$here/kernel-health.sh" < "$here/testdata/clean.txt" || { echo "FAIL: a clean log failed"; fail=1; }
# A starved virtual CPU (the soft-lockup watchdog under TCG on a loaded
# host): shown, not failed.
if out=$(sh "$here/kernel-health.sh" < "$here/testdata/soft-lockup-tcg.txt"); then
	echo "$out" | grep -q '^KERNEL-STALL: .*soft lockup - CPU#1' || { echo "FAIL: the stall not shown"; fail=1; }
else
	echo "FAIL: a soft lockup failed the run"; fail=1
fi
[ "$fail" = 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
