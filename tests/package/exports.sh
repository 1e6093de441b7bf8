#!/bin/sh
# The shared library exports exactly the symbols the version map names.
#   exports.sh LIB.so MAP
set -eu
lib=$1 map=$2
nm -D --defined-only "$lib" | awk '$2 == "T" || $2 == "D" || $2 == "B" { sub(/@.*/, "", $3); print $3 }' |
	sort > /tmp/uvio-exported.$$
grep -oE '^[[:space:]]+uvio_[a-z0-9_]+;' "$map" | tr -d ' \t;' | sort > /tmp/uvio-map.$$
if ! diff -u /tmp/uvio-map.$$ /tmp/uvio-exported.$$; then
	echo "exports.sh: exported symbols differ from $map (- map, + library)"
	rm -f /tmp/uvio-*.$$
	exit 1
fi
echo "exports.sh: $(wc -l < /tmp/uvio-map.$$) symbols, as in the map"
rm -f /tmp/uvio-*.$$
