#!/bin/sh
# Copy the files a guest printed on its console between
# "UVIO-FILE-BEGIN PREFIX/NAME" and "UVIO-FILE-END PREFIX/NAME" lines to
# DIR/NAME (the guest has no other way out than its console).
#
#   console-files.sh CONSOLE_LOG PREFIX DIR     prints how many files came
set -eu
log=$1 pre=$2/ out=$3
rm -rf "$out" && mkdir -p "$out"
[ -f "$log" ] && awk -v dir="$out" -v pre="$pre" '
	$1 == "UVIO-FILE-BEGIN" && index($2, pre) == 1 {
		f = dir "/" substr($2, length(pre) + 1); printf "" > f; next }
	$1 == "UVIO-FILE-END" { if (f) close(f); f = ""; next }
	f { print >> f }' "$log"
find "$out" -type f | wc -l
