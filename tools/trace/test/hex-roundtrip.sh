#!/bin/sh
# uverbs-decode reads what xxd, hexdump -C and od print (every variant that
# puts offsets, ASCII columns or '*' around the bytes) back into the same
# bytes, for a file with repeated lines, a short last line and every byte
# value.
#   hex-roundtrip.sh UVERBS_DECODE
set -u
dec=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# 64 bytes of 'A' (repeated lines), then bytes 0..255, then 5 bytes.
{ printf 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
  i=0; while [ $i -lt 256 ]; do printf "\\$(printf %o $i)"; i=$((i + 1)); done
  printf 'tail!'; } > "$t/bin"
want=$(od -An -v -tx1 "$t/bin" | tr -d ' \n')
ran=0 fail=0
try() {	# try DESCRIPTION COMMAND...
	what=$1; shift
	command -v "$1" > /dev/null || return 0
	ran=$((ran + 1))
	got=$("$@" "$t/bin" | "$dec" --hex 2> "$t/err")
	if [ "$got" = "$want" ]; then echo "ok: $what ($(cat "$t/err"))"
	else echo "FAIL: $what"; cat "$t/err"; fail=1; fi
}
try "xxd" xxd
try "xxd -g1" xxd -g1
try "xxd -a -c 8" xxd -a -c 8
try "xxd -p" xxd -p
try "xxd -c 256" xxd -c 256
try "hexdump -C" hexdump -C
try "od -tx1" od -tx1
try "od -Ax -tx1" od -Ax -tx1
try "od -Ad -tx1" od -Ad -tx1
try "od -An -v -tx1" od -An -v -tx1
try "od -An -v -w4096 -tx1" od -An -v -w4096 -tx1
[ "$ran" -gt 0 ] || { echo "SKIP: none of xxd, hexdump, od installed"; exit 77; }
exit $fail
