#!/bin/sh
# Runs inside the guest: every kernel test program, against every device.
# Prints one line per program and the closing "N passed, N failed" line.
# guest-lib.sh's now and took: each verdict line says how long its program
# ran, so that the suite's time can be read off any log.
. /opt/uvio/guest-lib.sh
pass=0 fail=0 skip=0
echo "guest: kernel $(uname -r)"
echo "guest: the harness booted ${UVIO_KERNEL:-?} (series ${UVIO_KERNEL_SERIES:-?})"
rdma link show
for t in /opt/uvio/bin/kt_*; do
	name=$(basename "$t")
	[ "$name" = kt_faults ] && continue	# last: it removes devices
	echo "=== $name"
	t0=$(now)
	"$t"
	rc=$?
	case $rc in
	0) pass=$((pass + 1)); echo "--- PASS $name ($(took "$t0"))" ;;
	77) skip=$((skip + 1)); echo "--- SKIP $name ($(took "$t0"))" ;;
	*) fail=$((fail + 1)); echo "--- FAIL $name (exit $rc, $(took "$t0"))" ;;
	esac
done
# The examples, on every device, on both paths.
run() {	# run NAME COMMAND...: one check
	name=$1; shift
	echo "=== $name"
	t0=$(now)
	if "$@"; then pass=$((pass + 1)); echo "--- PASS $name ($(took "$t0"))"
	else fail=$((fail + 1)); echo "--- FAIL $name (exit $?, $(took "$t0"))"; fi
}
for dev in $(rdma link show | sed -n 's/^link \([^/]*\)\/.*/\1/p'); do
	run "create_cq $dev" create_cq "$dev" 100
	run "create_cq $dev (write)" env UVERBS_IOCTL_PATH=write create_cq "$dev" 100
	[ -x /opt/uvio/bin/ibverbs_interop ] && run "ibverbs_interop $dev" ibverbs_interop "$dev"
	# the programs of README.md and the man pages
	for d in /opt/uvio/bin/doc_*; do
		[ -x "$d" ] && run "$(basename "$d") $dev" "$d" "$dev"
	done
	for c in /opt/uvio/bin/consumer-*; do
		[ -x "$c" ] && run "$(basename "$c") $dev" "$c" "$dev"
	done
done
# libibverbs' conventions (tests/kernel/ibv_conventions.c) on the provider
# plug-in, which must serve the device (its trace shows the QP made through
# this library) and pass every check; the stock provider's answers are
# printed beside them, for the record.
check_conventions() {	# check_conventions DEV
	env RDMAV_DRIVERS=/opt/uvio/bin/libuvio UVERBS_IOCTL_TRACE=1 \
		ibv_conventions "$1" > /tmp/conv.out 2> /tmp/conv.trace; rc=$?
	cat /tmp/conv.out
	grep -q "QP.CREATE\|CREATE_QP" /tmp/conv.trace ||
		{ echo "the plug-in did not serve $1 (no QP in its trace)"; return 1; }
	return $rc
}
if [ -x /opt/uvio/bin/ibv_conventions ] && [ -f /opt/uvio/bin/libuvio-rdmav34.so ]; then
	for dev in $(rdma link show | sed -n 's/^link \([^/]*\)\/.*/\1/p'); do
		echo "=== ibv_conventions $dev, stock provider (for the record)"
		ibv_conventions "$dev" | sed 's/^/  stock: /'
		run "ibv_conventions $dev, plug-in" check_conventions "$dev"
	done
fi
# The capability probe as a user sees it (docs/kernels.md quotes it).
run "uverbs-info" uverbs-info
# Its JSON holds what the kernel names as JSON strings: a device renamed to
# a name with a quote and a backslash comes out escaped (and is renamed
# back, for the checks after this one).
check_info_json() {	# check_info_json DEV
	odd='rx"e\0'
	rdma dev set "$1" name "$odd" || return 1
	uverbs-info --json --no-caps > /tmp/info.json 2>&1; rc=$?
	rdma dev set "$odd" name "$1" || return 1
	cat /tmp/info.json
	[ $rc = 0 ] && grep -qF '"name":"rx\"e\\0"' /tmp/info.json
}
for dev in $(rdma link show | sed -n 's/^link \([^/]*\)\/.*/\1/p' | head -n1); do
	run "uverbs-info --json, $dev renamed with a quote" check_info_json "$dev"
done
# Tracing, and the decoder on the traced bytes: both must name the command
# the same way.
check_trace() {	# check_trace DEV PATH
	UVERBS_IOCTL_TRACE=1 UVERBS_IOCTL_PATH=$2 create_cq "$1" 32 > /tmp/out 2> /tmp/trace || return 1
	cat /tmp/trace
	if [ "$2" = write ]; then
		grep -q "write: CREATE_CQ (command 18)" /tmp/trace &&
		grep -q "write: DESTROY_CQ (command 20)" /tmp/trace || return 1
		return 0
	fi
	grep -q "ioctl: CQ.CREATE (object 3, method 0)" /tmp/trace || return 1
	hex=$(grep -A20 "ioctl: CQ.CREATE" /tmp/trace | sed -n 's/.* hex //p' | head -n1)
	echo "\$ uverbs-decode $hex"
	uverbs-decode "$hex" | tee /tmp/decoded
	grep -q "^CQ.CREATE (object 3, method 0) layout current driver_id" /tmp/decoded &&
	grep -q "RESP_CQE" /tmp/decoded
}
for dev in $(rdma link show | sed -n 's/^link \([^/]*\)\/.*/\1/p'); do
	run "trace $dev (ioctl)" check_trace "$dev" ioctl
	run "trace $dev (write)" check_trace "$dev" write
done
# uverbs-trace on real RDMA programs (tests/kernel/kt_trace.sh): one check
# here; its own PASS/FAIL lines in the log. It takes minutes under TCG, so it
# runs on one kernel and device (6.1, rxe), not on each of the eight boots.
case $(uname -r) in
6.1.*) if ! rdma link show | grep -q rxe; then :
	elif [ -x /opt/uvio/bin/trace-suite.sh ]; then run "uverbs-trace suite" trace-suite.sh
	else echo "uverbs-trace suite: not in this build (a sanitizer build leaves it to the plain one)"
	fi ;;
esac
# Faults last: kt_faults deletes and re-adds the devices.
echo "=== kt_faults"
t0=$(now)
if kt_faults; then pass=$((pass + 1)); echo "--- PASS kt_faults ($(took "$t0"))"
else fail=$((fail + 1)); echo "--- FAIL kt_faults ($(took "$t0"))"; fi
echo "kernel $(uname -r): $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
