#!/bin/bash
# Fetch one Debian kernel and the guest userland into a cache directory.
#
#   fetch.sh CACHE IMAGE_META [siw]
#
# IMAGE_META is a Debian meta package such as linux-image-amd64 or
# linux-image-6.12-amd64; the concrete image package it depends on is looked up,
# so the cache follows Debian's security updates. Nothing is installed on the
# host: packages are fetched with `apt-get download` and unpacked with dpkg -x.
# With "siw", siw.ko is built out of tree from the same version's linux-source,
# because Debian does not ship it. Prints the kernel directory on stdout.
set -euo pipefail

cache=$1 meta=$2 want_siw=${3:-}
mkdir -p "$cache/debs"
log() { printf 'fetch: %s\n' "$*" >&2; }

# Resolve a (meta) package down to the package that really holds files.
image_pkg=$(apt-cache depends "$meta" 2>/dev/null |
	    sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n1)
[ -n "$image_pkg" ] || image_pkg=$meta
kver=${image_pkg#linux-image-}
kver=${kver%-unsigned}
kdir=$cache/kernel-$kver

download() {	# download PKG... into the deb cache unless already there
	local p missing=()
	for p in "$@"; do
		compgen -G "$cache/debs/${p}_*.deb" >/dev/null || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "apt-get download ${missing[*]}"
	(cd "$cache/debs" && apt-get download -q "${missing[@]}" >&2)
}
deb_of() { ls "$cache/debs/${1}"_*.deb | head -n1; }

if [ ! -f "$kdir/vmlinux" ]; then
	download "$image_pkg"
	rm -rf "$kdir.tmp" && mkdir -p "$kdir.tmp"
	dpkg -x "$(deb_of "$image_pkg")" "$kdir.tmp/root"
	# The uncompressed ELF boots about twice as fast as the bzImage under TCG.
	"$(dirname "$0")/extract-vmlinux.sh" "$kdir.tmp/root/boot/vmlinuz-$kver" \
		> "$kdir.tmp/vmlinux"
	depmod -b "$kdir.tmp/root" "$kver"
	mv "$kdir.tmp/root" "$kdir.tmp/modroot"
	echo "$kver" > "$kdir.tmp/version"
	rm -rf "$kdir" && mv "$kdir.tmp" "$kdir"
fi

if [ "$want_siw" = siw ] && [ ! -f "$kdir/siw.ko" ]; then
	series=${kver%%-*}			# 6.1.0
	series=${series%.*}			# 6.1
	series=${series%.0}
	abi=${kver%-amd64}			# 6.1.0-57
	download "linux-source-$series" "linux-headers-$kver" \
		 "linux-headers-$abi-common" "linux-kbuild-$series"
	b=$cache/siw-build-$kver
	rm -rf "$b" && mkdir -p "$b"
	for p in "linux-headers-$kver" "linux-headers-$abi-common" "linux-kbuild-$series"; do
		dpkg -x "$(deb_of "$p")" "$b/root"
	done
	dpkg -x "$(deb_of "linux-source-$series")" "$b/src"
	tarball=$(ls "$b"/src/usr/src/linux-source-*.tar.xz)
	top=$(basename "$tarball" .tar.xz)
	log "unpacking siw sources from $(basename "$tarball")"
	tar -xJf "$tarball" -C "$b" "$top/drivers/infiniband/sw/siw"
	hdr=$b/root/usr/src/linux-headers-$kver
	# The flavour Makefile includes the common tree by absolute path.
	sed -i "s|/usr/src/linux-headers-$abi-common|$b/root/usr/src/linux-headers-$abi-common|" \
		"$hdr/Makefile"
	# Its scripts link into /usr/lib/linux-kbuild-*: point them at our copy.
	for l in "$hdr"/scripts "$hdr"/tools; do
		[ -L "$l" ] || continue
		t=$(readlink "$l"); case $t in /*) ln -sfn "$b/root$t" "$l";; esac
	done
	make -s -C "$hdr" M="$b/$top/drivers/infiniband/sw/siw" \
		CONFIG_RDMA_SIW=m modules >&2
	strip --strip-debug -o "$kdir/siw.ko" "$b/$top/drivers/infiniband/sw/siw/siw.ko"
	rm -rf "$b"
fi
echo "$kdir"
