#!/bin/sh
# check-no-libibverbs.sh PROGRAM: PROGRAM links libuverbs_ioctl and nothing
# of libibverbs, neither in its own DT_NEEDED nor in any library it loads.
# (The kernel tests look at the maps of the running program in the guest.)
set -eu
prog=$1
needed=$(readelf -d "$prog" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "DT_NEEDED of $(basename "$prog"): $(echo $needed)"
echo "$needed" | grep -q '^libuverbs_ioctl\.so' || { echo "FAIL: no libuverbs_ioctl"; exit 1; }
if echo "$needed" | grep -qi ibverbs; then echo "FAIL: libibverbs in DT_NEEDED"; exit 1; fi
# Every library the loader would bring in, transitively.
libs=$(ldd "$prog")
echo "$libs"
if echo "$libs" | grep -qi 'libibverbs\|rdmav'; then echo "FAIL: libibverbs loaded"; exit 1; fi
echo "PASS: nothing of libibverbs"
