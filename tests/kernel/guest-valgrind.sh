#!/bin/sh
# Runs inside the guest: the kernel tests and examples under memcheck. With
# the library's annotations, memcheck checks that every byte of every ioctl
# command is defined, and knows what the kernel wrote back. kt_errno (which
# sends bad pointers on purpose) and kt_faults (which starves the process
# of fds, valgrind's own included) are left out; kt_inputs, which removes
# and re-adds the devices, too.
#
# Two lanes at once, one per vCPU: memcheck under TCG takes 7-50 s a
# program, and the programs share nothing but the devices (each counts the
# kernel's objects of its own pid). kt_info runs alone first: it compares
# the whole `rdma resource show` before and after a program. A program's
# output is printed whole when it ends, so that the lanes' lines do not
# interleave.
export KT_QUICK=1
out=/tmp/vg
rm -rf "$out"; mkdir -p "$out"
. /opt/uvio/guest-lib.sh	# now, took
vg() {	# vg NAME COMMAND...
	name=$1; shift
	log=$out/$(echo "$name" | tr -c 'A-Za-z0-9_\n' _).log
	t0=$(now)
	{
		echo "=== valgrind $name"
		valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite --show-leak-kinds=definite "$@" 2>&1
		rc=$?
		if [ "$rc" -eq 0 ]; then echo "--- PASS valgrind $name ($(took "$t0"))"
		else echo "--- FAIL valgrind $name (exit $rc, $(took "$t0"))"; fi
	} > "$log"
	cat "$log"
}
devs=$(rdma link show | sed -n 's/^link \([^/]*\)\/.*/\1/p')
examples() {	# examples DEV: the examples on one device, both paths
	vg "create_cq $1" /opt/uvio/bin/create_cq "$1"
	UVERBS_IOCTL_PATH=write vg "create_cq $1 (write)" /opt/uvio/bin/create_cq "$1"
	[ -x /opt/uvio/bin/ibverbs_interop ] && vg "ibverbs_interop $1" /opt/uvio/bin/ibverbs_interop "$1"
}
# The lanes' times under 6.1 with rxe and siw: about 140 s each.
lane1() {
	for t in kt_objects kt_device kt_dp kt_raw_cq; do vg "$t" /opt/uvio/bin/$t; done
	for d in $devs; do case $d in rxe*) examples "$d" ;; esac; done
}
lane2() {
	for t in kt_qp kt_verbs kt_stress kt_events; do vg "$t" /opt/uvio/bin/$t; done
	for d in $devs; do case $d in rxe*) ;; *) examples "$d" ;; esac; done
}
vg kt_info /opt/uvio/bin/kt_info
lane1 & l1=$!
lane2 & l2=$!
wait $l1 $l2
pass=$(cat "$out"/*.log | grep -c "^--- PASS valgrind ")
fail=$(cat "$out"/*.log | grep -c "^--- FAIL valgrind ")
echo "valgrind kernel $(uname -r): $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
