#!/bin/bash
# scripts/vm-run.sh as a user runs it: a program of the build with
# arguments (output streamed, status 0), arguments with spaces arriving
# whole, and a failing program's status coming back.
#   check-vm-run.sh BUILD_DIR
set -u
build=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
pass=0 fail=0
check() {	# check NAME WANT_RC GREP -- COMMAND...
	local name=$1 want=$2 pattern=$3 out rc; shift 4
	out=$("$@" 2>&1); rc=$?
	if [ "$rc" = "$want" ] && grep -q -- "$pattern" <<<"$out"; then
		pass=$((pass + 1)); echo "PASS $name"
	else
		fail=$((fail + 1)); echo "FAIL $name (exit $rc, wanted $want and '$pattern')"
		tail -20 <<<"$out"
	fi
}
export UVIO_BUILD=$build
check "create_cq on siw" 0 "CQ created via" -- \
	"$top/scripts/vm-run.sh" --dev siw "$build/examples/create_cq" siw0 16
check "arguments kept whole" 0 "a b|c|" -- \
	"$top/scripts/vm-run.sh" printf '%s|' 'a b' c
check "a failing program's status" 1 "vm: RESULT" -- \
	"$top/scripts/vm-run.sh" false
# The emulated ConnectX (--dev mlx5): the library's mlx5 half and data path
# in the project's example, Debian's libmlx5 in ibv_rc_pingpong, one guest.
check "create_cq on the emulated ConnectX" 0 "CQ destroyed via" -- \
	"$top/scripts/vm-run.sh" --dev mlx5 "$build/examples/create_cq" mlx5_0 16
check "rc_pingpong against ibv_rc_pingpong on mlx5" 0 "server exit 0, client exit 0" -- \
	env UVIO_VM_WITH="$build/examples/rc_pingpong @USERLAND@/usr/bin/ibv_rc_pingpong" \
	"$top/scripts/vm-run.sh" --dev mlx5 "$top/tests/vm/testdata/mlx5-pingpong.sh"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
