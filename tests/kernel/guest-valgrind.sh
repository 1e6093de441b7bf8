#!/bin/sh
# Runs inside the guest: the kernel tests and examples under memcheck. With
# the library's annotations, memcheck checks that every byte of every ioctl
# command is defined, and knows what the kernel wrote back. kt_errno (which
# sends bad pointers on purpose) and kt_faults (which starves the process
# of fds, valgrind's own included) are left out.
pass=0 fail=0
export KT_QUICK=1
vg() {	# vg NAME COMMAND...
	name=$1; shift
	echo "=== valgrind $name"
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--show-leak-kinds=definite "$@"
	rc=$?
	if [ "$rc" -eq 0 ]; then pass=$((pass + 1)); echo "--- PASS valgrind $name"
	else fail=$((fail + 1)); echo "--- FAIL valgrind $name (exit $rc)"; fi
}
for t in kt_raw_cq kt_verbs kt_device kt_info kt_stress kt_qp kt_events kt_objects kt_dp; do
	vg "$t" /opt/uvio/bin/$t
done
for dev in $(rdma link show | sed -n 's/^link \([^/]*\)\/.*/\1/p'); do
	vg "create_cq $dev" /opt/uvio/bin/create_cq "$dev"
	UVERBS_IOCTL_PATH=write vg "create_cq $dev (write)" /opt/uvio/bin/create_cq "$dev"
	[ -x /opt/uvio/bin/ibverbs_interop ] && vg "ibverbs_interop $dev" /opt/uvio/bin/ibverbs_interop "$dev"
done
echo "valgrind kernel $(uname -r): $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
