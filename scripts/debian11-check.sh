#!/bin/sh
# Build the library and run its unit tests in a Debian 11 (bullseye) root:
# glibc 2.31, kernel headers 5.10, CMake 3.18, as users of older
# distributions have them. Run as root (debootstrap and chroot).
#   scripts/debian11-check.sh [SOURCE_DIR]
# The root is made once with debootstrap from the package mirror the
# machine's apt already uses, and cached under ~/.cache/uvio/, keyed by the
# month (a new month fetches a fresh one, older ones are removed).
# UVIO_DEBIAN_MIRROR overrides the mirror (a URL ending in /debian).
set -eu
src=$(cd "${1:-$(dirname "$0")/..}" && pwd)
[ "$(id -u)" -eq 0 ] || { echo "debian11-check: run as root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null ||
	{ echo "debian11-check: debootstrap is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }

# The first Debian archive in the machine's apt sources (deb822 .sources
# files, then one-line .list files), security archives left out.
mirror() {
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'BEGIN { RS = ""; FS = "\n" }
		     { uri = ""; sec = 0; deb = 0
		       for (i = 1; i <= NF; i++) {
			 if ($i ~ /^URIs:/) { split($i, w, /[ \t]+/); uri = w[2] }
			 if ($i ~ /^Suites:/ && $i ~ /-security/) sec = 1
			 if ($i ~ /^Types:/ && $i ~ /(^|[ \t])deb([ \t]|$)/) deb = 1 }
		       if (uri != "" && deb && !sec) { print uri; exit } }' "$f"
	done
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk '$1 == "deb" { i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
				   if ($(i + 1) !~ /-security/) { print $i; exit } }'
}
url=${UVIO_DEBIAN_MIRROR:-$(mirror | head -n1)}
[ -n "$url" ] || { echo "debian11-check: no Debian mirror in /etc/apt sources" >&2; exit 1; }

cache=${XDG_CACHE_HOME:-$HOME/.cache}/uvio
root=$cache/debian11-$(date +%Y%m)
if [ ! -x "$root/usr/bin/cmake" ]; then
	mkdir -p "$cache"
	rm -rf "$cache"/debian11-*	# an older month's root, or a broken one
	tmp=$root.tmp.$$
	trap 'rm -rf "$tmp"' EXIT
	echo "debian11-check: debootstrap bullseye into $root (about 2-4 minutes)"
	debootstrap --variant=minbase \
		--include=build-essential,cmake,pkg-config,libcmocka-dev,libnl-3-dev,libibverbs-dev \
		bullseye "$tmp" "$url" > "$cache/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$cache/debootstrap.log" >&2; exit 1; }
	rm -f "$tmp/etc/apt/sources.list"	# the root is only built in, not updated
	mv "$tmp" "$root"
	trap - EXIT
fi
echo "debian11-check: $(chroot "$root" sh -c 'ldd --version | head -n1; cmake --version | head -n1;
	dpkg-query -W -f="linux-libc-dev \${Version}\n" linux-libc-dev')" | tr '\n' ';'
echo

# A private copy of the tree (working tree, not only commits) in the root.
work=/uvio-check.$$
rm -rf "$root$work"
mkdir -p "$root$work/src"
trap 'rm -rf "$root$work"' EXIT
tar -C "$src" --exclude=./.git --exclude='./build*' -cf - . | tar -C "$root$work/src" -xf -
# proc and dev for the tests, in a mount namespace of our own: they vanish
# with it, whatever happens.
unshare -m sh -eu -c '
	mount -t proc proc "$1/proc"
	mount --bind /dev "$1/dev"
	exec chroot "$1" sh -eu -c "
		cd $2
		cmake -S src -B build -DUVIO_WERROR=ON -DUVIO_MAN=OFF -DUVIO_WALK_TEST=OFF
		cmake --build build -j\$(nproc)
		cd build && ctest --output-on-failure --no-tests=error -L unit"
' sh "$root" "$work"
echo "debian11-check: Debian 11 build and unit tests passed"
