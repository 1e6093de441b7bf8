#!/bin/sh
# uverbs-trace on this machine, where there may be no RDMA device: a program
# that sends broken verbs ioctls to /dev/null (the request number is the
# verbs ABI's, whatever the fd). Its answers must be the same traced and not,
# and the trace must name what was wrong with each command.
#   trace-host.sh UVERBS_TRACE TRACE_GARBAGE
set -u
trace=$1 victim=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
"$victim" /dev/null > "$t/plain" 2>&1 || { cat "$t/plain"; exit 1; }
"$trace" -o "$t/trace" "$victim" /dev/null > "$t/traced" 2> "$t/err"
rc=$?
if grep -q "ptrace is not allowed" "$t/err"; then
	echo "SKIP: ptrace is not allowed here"; cat "$t/err"; exit 77
fi
cat "$t/trace"
[ "$rc" -eq 0 ] || { echo "FAIL: tracer exit $rc"; cat "$t/err"; exit 1; }
cmp "$t/plain" "$t/traced" || { echo "FAIL: answers differ under the tracer"; diff "$t/plain" "$t/traced"; exit 1; }
fail=0
for want in "ioctl(unreadable command) = -1 ENOTTY" "command unreadable at 0x0" \
	    "command over a page (8192 bytes)" "header length 56, but 3 attributes need 72" \
	    "only 40 of 72 bytes of the command readable" "UHW_IN .*unreadable: bad pointer 0x10" \
	    "object_0x3ff.method_0x0 = -1 ENOTTY" "reserved header fields set: reserved1 0x1" \
	    "fd [0-9]* is not a uverbs device (/dev/null)"; do
	grep -q -- "$want" "$t/trace" || { echo "FAIL: no '$want' in the trace"; fail=1; }
done
# The same through /proc/PID/mem instead of process_vm_readv.
UVERBS_TRACE_MEM=procfs "$trace" -o "$t/trace2" "$victim" /dev/null > /dev/null 2>&1 || fail=1
sed 's/^[0-9.]* \[[0-9]*\]//; s/<[0-9.]* us>//' "$t/trace" > "$t/a"
sed 's/^[0-9.]* \[[0-9]*\]//; s/<[0-9.]* us>//' "$t/trace2" > "$t/b"
# (the victim's addresses differ from run to run: compare the lines that
# name no address)
grep -v 0x "$t/a" > "$t/a2"; grep -v 0x "$t/b" > "$t/b2"
cmp -s "$t/a2" "$t/b2" || { echo "FAIL: /proc/PID/mem reads differ"; diff "$t/a2" "$t/b2"; fail=1; }
# write() to a fd that is no RDMA device is not a command: never shown.
grep -q "write(" "$t/trace" && { echo "FAIL: a write() to /dev/null was shown"; fail=1; }
# The JSON lines of the same run parse (python3 where it is installed).
"$trace" --json -o "$t/json" "$victim" /dev/null > /dev/null 2>&1 || fail=1
if command -v python3 > /dev/null; then
	python3 -c 'import json,sys
n = 0
for line in open(sys.argv[1]):
    json.loads(line); n += 1
print(n, "JSON lines parse")' "$t/json" || fail=1
fi
exit $fail
