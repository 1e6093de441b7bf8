#!/bin/sh
# Every public function (declared in a public header, or exported by the map)
# is named in the NAME section or the text of a man page.
#   man.sh SOURCE_DIR
set -eu
src=$1
funcs=$( { grep -ohE '^(UVIO_API|static inline)[^(]*\buvio_[a-z0-9_]+\(' "$src"/include/uvio/*.h |
	   grep -oE 'uvio_[a-z0-9_]+\($' | tr -d '('
	   grep -oE '^[[:space:]]+uvio_[a-z0-9_]+;' "$src/lib/libuverbs_ioctl.map" | tr -d ' \t;'
	 } | sort -u)
missing=0
for f in $funcs; do
	if ! grep -qw "$f" "$src"/man/*.md; then
		echo "man.sh: $f is in no man page"
		missing=$((missing + 1))
	fi
done
echo "man.sh: $(echo "$funcs" | wc -l) public functions, $missing without a man page"
[ "$missing" -eq 0 ]
