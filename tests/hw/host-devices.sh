#!/bin/sh
# The hardware part of the suite, on this machine's own RDMA devices (a
# ConnectX, ...): examples/create_cq on each, and on each device of a driver
# the library has a half for (mlx5, mlx4, efa, bnxt_re, irdma, mana) that half's
# checks (tests/kernel/kt_DRIVER_uvio), as the kernel suite runs them against
# the stand-in, and on mlx5 the library's data path (kt_mlx5_dp). Skipped, with the reason, where the machine has no RDMA device
# (exit 77).
#   host-devices.sh BUILD_DIR
set -u
build=$1
ls /dev/infiniband/uverbs* >/dev/null 2>&1 ||
	{ echo "host-devices: SKIP: no RDMA device on this machine (/dev/infiniband/uverbs*)"; exit 77; }
fail=0 ran=0
for d in /sys/class/infiniband/*; do
	[ -d "$d" ] || continue
	name=$(basename "$d")
	driver=$(basename "$(readlink -f "$d/device/driver" 2>/dev/null)" 2>/dev/null)
	echo "=== $name (driver ${driver:-?})"
	if "$build/examples/create_cq" "$name"; then echo "--- PASS create_cq $name"
	else echo "--- FAIL create_cq $name"; fail=1; fi
	ran=$((ran + 1))
	case $driver in
	mlx5_core) half=mlx5 ;;
	mlx4_core) half=mlx4 ;;
	efa) half=efa ;;
	bnxt_en|bnxt_re) half=bnxt_re ;;	# the PCI function, or 6.3's auxiliary device
	irdma) half=irdma ;;
	mana) half=mana ;;		# the GDMA PCI function under the IB device
	*) half= ;;
	esac
	# The library's checks of that driver's half, as the kernel suite runs
	# them against its stand-in.
	if [ -n "$half" ]; then
		if [ ! -x "$build/tests/kernel/kt_${half}_uvio" ]; then
			echo "--- SKIP kt_${half}_uvio $name: not built (its driver's header is missing)"
		elif "$build/tests/kernel/kt_${half}_uvio" "$name"; then echo "--- PASS kt_${half}_uvio $name"
		else echo "--- FAIL kt_${half}_uvio $name"; fail=1; fi
	fi
	# The library's own data path where it has one for the driver: mlx5's
	# (providers/mlx5.c), two RC QPs of the device connected to each other
	# through its GID 0, every opcode's bytes checked (kt_mlx5_dp), as on the
	# emulated ConnectX of the kernel suite.
	if [ "$half" = mlx5 ]; then
		if [ ! -x "$build/tests/kernel/kt_mlx5_dp" ]; then
			echo "--- SKIP kt_mlx5_dp $name: not built"
		elif "$build/tests/kernel/kt_mlx5_dp" "$name"; then echo "--- PASS kt_mlx5_dp $name"
		else echo "--- FAIL kt_mlx5_dp $name"; fail=1; fi
	fi
done
[ "$ran" -gt 0 ] || { echo "host-devices: SKIP: no device in /sys/class/infiniband"; exit 77; }
exit $fail
