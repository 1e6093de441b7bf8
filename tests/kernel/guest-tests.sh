#!/bin/sh
# Runs inside the guest: every kernel test program, against every device.
# Prints one line per program and the closing "N passed, N failed" line.
pass=0 fail=0 skip=0
echo "guest: kernel $(uname -r)"
rdma link show
for t in /opt/uvio/bin/kt_*; do
	name=$(basename "$t")
	echo "=== $name"
	"$t"
	rc=$?
	case $rc in
	0) pass=$((pass + 1)); echo "--- PASS $name" ;;
	77) skip=$((skip + 1)); echo "--- SKIP $name" ;;
	*) fail=$((fail + 1)); echo "--- FAIL $name (exit $rc)" ;;
	esac
done
echo "kernel $(uname -r): $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
