#!/bin/sh
# package/growth: struct uvio_cmd, the data-path objects (struct uvio_dp_cq,
# _srq, _qp, _ah) and struct uvio_device_info may grow in a later 1.x
# without breaking programs built against an earlier header.
#
#   growth.sh GROWTH_DIR PROGRAM_1_0 PROGRAM_GROWN LIBDIR_1_0
#
# PROGRAM_1_0 is tests/package/growth.c built with this tree's headers,
# PROGRAM_GROWN with the grown copies in GROWTH_DIR/include, whose
# library (the same sources built against that copy, lib/CMakeLists.txt) is
# GROWTH_DIR/lib. Neither program carries a run path: each run says which
# library it loads (LD_LIBRARY_PATH), and each must answer every call as
# expected:
#  - the 1.0 program on the 1.0 library (the baseline);
#  - the 1.0 program on the grown library (a user's binary after an upgrade);
#  - the grown program on the grown library.
# The grown library (never installed) reads the sysfs tree made here
# (UVIO_GROWTH_SYSFS): two devices, which the programs must list with the
# caller's stride; the 1.0 library reads the real /sys.
set -u
[ $# -eq 4 ] || { echo "usage: growth.sh GROWTH_DIR PROGRAM_1_0 PROGRAM_GROWN LIBDIR_1_0" >&2; exit 2; }
g=$1 old=$2 new=$3 lib10=$4
rc=0
tree=$(mktemp -d) || exit 1
trap 'rm -rf "$tree"' EXIT
put() { mkdir -p "$tree/$(dirname "$1")" && echo "$2" > "$tree/$1"; }
for n in 0 1; do
	put class/infiniband_verbs/uverbs$n/ibdev fake$n
	put class/infiniband_verbs/uverbs$n/abi_version 6
	put class/infiniband_verbs/uverbs$n/dev 231:$((192 + n))
	put class/infiniband/fake$n/ports/1/link_layer Ethernet
done
put class/infiniband/fake0/node_type "1: CA"
put class/infiniband/fake0/ports/1/gid_attrs/ndevs/0 lo
put class/infiniband/fake1/node_type "4: RNIC"
mkdir -p "$tree/class/infiniband/fake1/device/net/lo"
put class/net/lo/ifindex 1
export UVERBS_IOCTL_DISCOVERY=sysfs UVIO_GROWTH_SYSFS="$tree"
run() {	# run WHAT LIBDIR PROGRAM [DEVICES EXPECTED]
	echo "--- $1"
	out=$(LD_LIBRARY_PATH=$2 UVIO_GROWTH_DEVICES=${4:-} "$3" 2>&1); r=$?
	echo "$out" | sed 's/^/  /'
	want=$(cd "$2" && pwd -P)
	got=$(echo "$out" | sed -n 's/.* library \(.*\)$/\1/p')
	if [ -n "$got" ] && [ "$(cd "$(dirname "$got")" && pwd -P)" != "$want" ]; then
		echo "FAIL $1: ran on $got, not the library of $2"; rc=1; return
	fi
	if [ $r -ne 0 ]; then echo "FAIL $1"; rc=1; else echo "PASS $1"; fi
}
run "a 1.0 program on the 1.0 library" "$lib10" "$old"
run "a 1.0 program on a library whose structs grew" "$g/lib" "$old" 2
run "a program of the grown headers on its library" "$g/lib" "$new" 2
s10=$(LD_LIBRARY_PATH=$lib10 "$old" | sed -n 's/.*struct uvio_cmd of \([0-9]*\) bytes.*/\1/p')
sg=$(LD_LIBRARY_PATH=$g/lib "$new" | sed -n 's/.*struct uvio_cmd of \([0-9]*\) bytes.*/\1/p')
if [ -n "$s10" ] && [ -n "$sg" ] && [ "$sg" -gt "$s10" ]; then
	echo "PASS the grown struct is longer ($sg bytes against $s10)"
else
	echo "FAIL the grown struct is not longer (${sg:-?} against ${s10:-?} bytes)"; rc=1
fi
exit $rc
