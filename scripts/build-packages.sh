#!/bin/sh
# Build the Debian and RPM packages from a clean copy of HEAD and lint them.
#   scripts/build-packages.sh [OUTDIR]     (default: build/packages)
# Prints lintian's and rpmlint's findings; fails on lintian errors or a
# failed build. UVIO_PKG_NOCHECK=1 skips the unit tests of both builds
# (DEB_BUILD_OPTIONS=nocheck, rpmbuild --nocheck): for CI, which runs them
# in its own builds and runs the kernel suite on the installed .debs.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$top/build/packages}" && cd "${1:-$top/build/packages}" && pwd)
ver=$(sed -n 's/^project(libuverbs-ioctl VERSION \([0-9.]*\).*/\1/p' "$top/CMakeLists.txt")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Debian: binary packages from the tree as committed.
git -C "$top" archive --prefix="libuverbs-ioctl-$ver/" HEAD | tar -x -C "$work"
nocheck=
[ "${UVIO_PKG_NOCHECK:-0}" = 1 ] && nocheck=--nocheck
(cd "$work/libuverbs-ioctl-$ver" &&
	if [ -n "$nocheck" ]; then DEB_BUILD_OPTIONS="nocheck ${DEB_BUILD_OPTIONS:-}"; export DEB_BUILD_OPTIONS; fi &&
	dpkg-buildpackage -us -uc -b) > "$out/deb-build.log" 2>&1 ||
	{ tail -40 "$out/deb-build.log"; exit 1; }
mv "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo "$out/"
echo "== lintian"
lintian --tag-display-limit 0 "$out"/libuverbs-ioctl_"$ver"-1_*.changes 2>&1 |
	grep -v 'root privileges' | tee "$out/lintian.txt" || true
if grep -q '^E:' "$out/lintian.txt"; then echo "lintian reported errors"; exit 1; fi

# RPM: the spec as Fedora would build it, with stand-in CMake macros.
mkdir -p "$work/rpm/SOURCES"
git -C "$top" archive --prefix="libuverbs-ioctl-$ver/" -o "$work/rpm/SOURCES/libuverbs-ioctl-$ver.tar.gz" HEAD
rpmbuild --define "_topdir $work/rpm" --load "$top/redhat/macros.debian" --nodeps $nocheck \
	-bb "$top/redhat/libuverbs-ioctl.spec" > "$out/rpm-build.log" 2>&1 ||
	{ tail -40 "$out/rpm-build.log"; exit 1; }
find "$work/rpm/RPMS" -name '*.rpm' -exec mv {} "$out/" \;
echo "== rpmlint"
rpmlint "$top/redhat/libuverbs-ioctl.spec" "$out"/*.rpm 2>&1 | tee "$out/rpmlint.txt" || true
echo "== packages"
ls -1 "$out"/*.deb "$out"/*.rpm
