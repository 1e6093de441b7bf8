#!/bin/sh
# Every inline function of the public headers (UVIO_INLINE) is exported by
# the shared library, and the exported ones build what the inline ones do
# (tests/package/ffi.c).
#   ffi.sh SOURCE_DIR FFI_PROGRAM LIB.so
set -eu
src=$1 prog=$2 lib=$3
names=$(grep -hoE '^UVIO_INLINE [^(]*\buvio_[a-z0-9_]+\(' "$src"/include/uvio/*.h |
	grep -oE 'uvio_[a-z0-9_]+\($' | tr -d '(' | sort)
[ -n "$names" ] || { echo "ffi.sh: no UVIO_INLINE function found in $src/include/uvio"; exit 1; }
# shellcheck disable=SC2086 # one argument per name
exec "$prog" "$lib" $names
