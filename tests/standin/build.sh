#!/bin/bash
# Build a stand-in kernel module (tests/standin/NAME/) for one of the
# harness's cached kernels, and print the path of the .ko.
#
#   build.sh NAME KDIR
#
# KDIR is a kernel directory of the cache with its prepared headers
# (tests/vm/fetch.sh KERNEL kbuild prints it). The module is kept in
# KDIR/standin/, keyed by a hash of its sources (its folder and common/,
# the header the modules share), of this script and of the kbuild
# settings: the same sources are built once per kernel, an edit builds
# again (and the older build of that module goes). Nothing is installed on
# the host.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 2 ] || { echo "usage: build.sh NAME KDIR" >&2; exit 2; }
name=$1 kdir=$2
src=$here/$name
die() { echo "standin: $*" >&2; exit 1; }
[ -f "$src/Kbuild" ] || die "no module sources in $src"
[ -x "$kdir/kbuild/kmake" ] || die "no prepared kbuild in $kdir (tests/vm/fetch.sh KERNEL kbuild)"
mod=$(sed -n 's/^obj-m[ :]*= *\([A-Za-z0-9_]*\)\.o *$/\1/p' "$src/Kbuild")
[ -n "$mod" ] || die "$src/Kbuild names no module (obj-m := NAME.o)"

hash=$( { (cd "$here" && find "$name" common -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
	  sha256sum < "$0"; cat "$kdir/kbuild/kmake"; } | sha256sum | cut -c1-16)
out=$kdir/standin/$name-$hash.ko
if [ -f "$out" ]; then echo "$out"; exit 0; fi

mkdir -p "$kdir/standin"
exec 8>"$kdir.lock"
flock 8			# one builder per kernel (fetch.sh takes the same lock)
if [ -f "$out" ]; then echo "$out"; exit 0; fi
t0=$SECONDS
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The tree's layout, so that the Kbuild's -I$(src)/../common finds the header.
mkdir "$work/$name"
cp -a "$src/." "$work/$name/"
cp -a "$here/common" "$work/common"
"$kdir/kbuild/kmake" -s M="$work/$name" modules >&2 || die "$name: the build failed"
rm -f "$kdir/standin/$name"-*.ko
strip --strip-debug -o "$out.tmp" "$work/$name/$mod.ko"
mv "$out.tmp" "$out"
echo "standin: $mod.ko for $(cat "$kdir/version") built in $((SECONDS - t0)) s" >&2
echo "$out"
