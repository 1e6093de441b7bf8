#!/bin/sh
# debian/libuverbs-ioctl1.symbols lists exactly the map's symbols, each with
# the version node it belongs to.
#   debsymbols.sh SOURCE_DIR
set -eu
src=$1
awk '/^[A-Z_0-9.]+ *\{/ { node = $1 } /^[[:space:]]+uvio_[a-z0-9_]+;/ { gsub(/[ \t;]/, ""); print $0 "@" node }' \
	"$src/lib/libuverbs_ioctl.map" | sort > /tmp/uvio-map.$$
grep -oE '^ uvio_[a-z0-9_]+@[A-Z_0-9.]+' "$src/debian/libuverbs-ioctl1.symbols" | tr -d ' ' |
	sort > /tmp/uvio-sym.$$
if ! diff -u /tmp/uvio-map.$$ /tmp/uvio-sym.$$; then
	echo "debsymbols.sh: debian symbols file and version map differ (- map, + symbols)"
	rm -f /tmp/uvio-*.$$
	exit 1
fi
echo "debsymbols.sh: $(wc -l < /tmp/uvio-map.$$) symbols match"
rm -f /tmp/uvio-*.$$
