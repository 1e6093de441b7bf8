#!/bin/sh
# opts_padding.c built with gcc and clang, at -O0 and -O2, against the
# headers of the tree; each must find only zeros after the fields the
# library knows.
#   opts-padding.sh SOURCE_DIR
set -u
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for cc in gcc clang; do
	command -v "$cc" >/dev/null || { echo "opts-padding: $cc missing"; fail=$((fail + 1)); continue; }
	for o in -O0 -O2; do
		if "$cc" $o -Wall -Werror -I"$src/include" "$src/tests/package/opts_padding.c" \
			-o "$tmp/t" && "$tmp/t"; then
			pass=$((pass + 1)); echo "PASS $cc $o"
		else
			fail=$((fail + 1)); echo "FAIL $cc $o"
		fi
	done
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
