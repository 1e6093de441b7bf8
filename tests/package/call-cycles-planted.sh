#!/bin/sh
# call-cycles.py's include checks can fail: on a copy of the tree it passes,
# then fails on each violation planted in it (an include cycle through a
# header and the .c that defines it, an include up a layer, the hardware
# layer reaching into the verbs).
#   call-cycles-planted.sh SOURCE_DIR
set -eu
root=$1
check=$root/tests/package/call-cycles.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fresh() {
	rm -rf "$tmp/t"
	mkdir -p "$tmp/t"
	cp -R "$root/lib" "$root/providers" "$root/docs" "$tmp/t/"
}

# expect WHAT: the check fails and names WHAT
expect() {
	if python3 "$check" --src "$tmp/t" >"$tmp/out" 2>&1; then
		echo "FAIL: planted $1 passed"; cat "$tmp/out"; exit 1
	fi
	grep -q "$2" "$tmp/out" || { echo "FAIL: planted $1 not named"; cat "$tmp/out"; exit 1; }
	echo "ok: planted $1: $(grep "$2" "$tmp/out" | head -1)"
}

fresh
python3 "$check" --src "$tmp/t" >"$tmp/out" 2>&1 || { echo "FAIL: the copy"; cat "$tmp/out"; exit 1; }
echo "ok: the copy passes"

# The tracer's unit (trace.h, trace.c) reaching path.h, which includes
# dev.h, whose .c includes trace.h.
fresh
sed -i 's|#include "device/trace.h"|#include "device/trace.h"\n#include "device/path.h"|' \
	"$tmp/t/lib/device/trace.c"
expect "include cycle" "^include cycle: .*device/trace.h"

# The write layer reaching up into the verbs.
fresh
sed -i 's|#include "write/legacy.h"|#include "write/legacy.h"\n#include "verbs/verb.h"|' \
	"$tmp/t/lib/write/legacy.c"
expect "upward include" "^include layer: write/legacy.c -> verbs/verb.h"

# The hardware halves must not reach the verbs.
fresh
sed -i '0,/#include "hw\/hw.h"/s||#include "hw/hw.h"\n#include "verbs/obj.h"|' "$tmp/t/lib/hw/mlx5.c"
expect "hw -> verbs include" "^include layer: hw/mlx5.c -> verbs/obj.h"

# The bottom layer's header reaching up.
fresh
printf '#include "report/report.h"\n' >>"$tmp/t/lib/abi/abi.h"
expect "abi -> report include" "^include layer: abi/abi.h -> report/report.h"
