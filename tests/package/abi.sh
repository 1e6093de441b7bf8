#!/bin/sh
# The library's ABI against the baseline of this release in abi/.
#   abi.sh LIB.so SOURCE_DIR        check (exit 77 without abigail-tools)
#   abi.sh LIB.so SOURCE_DIR update write the baseline anew
set -eu
lib=$1 src=$2
base=$src/abi/libuverbs_ioctl.so.1.abi
command -v abidiff >/dev/null || { echo "abi.sh: SKIP: abigail-tools not installed"; exit 77; }
# Types come from DWARF: a build without -g can only be compared by symbols.
readelf -S "$lib" | grep -q debug_info ||
	{ echo "abi.sh: SKIP: $lib has no debug info (build with -g)"; exit 77; }
if [ "${3:-}" = update ]; then
	abidw --no-corpus-path --headers-dir "$src/include" --out-file "$base" "$lib"
	echo "abi.sh: wrote $base"
	exit 0
fi
if abidiff --headers-dir2 "$src/include" "$base" "$lib"; then
	echo "abi.sh: no ABI change against $base"
else
	rc=$?
	echo "abi.sh: abidiff exit $rc: the ABI changed; if that is intended for this"
	echo "release, run: tests/package/abi.sh $lib $src update"
	exit 1
fi
