#!/bin/sh
# Each public header compiles on its own, as C and as C++, warnings as errors.
#   headers.sh SOURCE_DIR CC CXX
set -eu
src=$1 cc=$2 cxx=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for h in "$src"/include/uvio.h "$src"/include/uvio/*.h; do
	name=${h#"$src"/include/}
	printf '#include <%s>\n#include <%s>\nint uvio_header_check;\n' "$name" "$name" > "$tmp/t.c"
	cp "$tmp/t.c" "$tmp/t.cc"
	"$cc" -std=c99 -Wall -Wextra -Werror -pedantic -Wno-pedantic -I"$src/include" -c "$tmp/t.c" -o "$tmp/t.o"
	"$cxx" -std=c++11 -Wall -Wextra -Werror -I"$src/include" -c "$tmp/t.cc" -o "$tmp/t.o"
	n=$((n + 1))
done
echo "headers.sh: $n headers compile alone as C99 and C++11"
