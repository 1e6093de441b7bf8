#!/bin/bash
# Fetch one Debian kernel, and build siw.ko for it, into the cache.
#
#   fetch.sh KERNEL [siw] [kbuild]
#
# KERNEL is a Debian suite (bullseye, bookworm, trixie, sid: that suite's
# linux-image-amd64), SUITE:META (a meta or image package in that suite,
# e.g. bookworm:linux-image-6.12-amd64), or a package alone (looked up in the
# machine's own suite). The version is resolved now, from the suite's lists
# (tests/vm/apt.sh keeps them, privately): when sid moves, the next run takes
# its newest kernel.
#
# The cache ($UVIO_CACHE, default ~/.cache/uvio) holds the .debs (debs/SUITE/) and
# one directory per kernel package and version (kernels/KVER_VERSION/): the
# uncompressed vmlinux, the modules the guest loads, and siw.ko when asked
# for, built out of tree from that version's linux-source, linux-headers and
# linux-kbuild because Debian does not ship it. A second run finds it all
# there and downloads nothing. Nothing is installed on the host.
#
# Prints the kernel directory on stdout. It holds: version (uname -r),
# package (image package and Debian version), suite, series (e.g. 6.12),
# vmlinux, modules/ with modules/order (load order), and siw.ko.
# With "kbuild" it also keeps kbuild/: that kernel's headers and kbuild
# prepared for out-of-tree modules, and kbuild/kmake, which runs make
# against them (kbuild/kmake M=DIR modules; tests/standin/build.sh uses it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
spec=$1; shift
want_siw= want_kbuild=
for w in "$@"; do
	case $w in
	siw) want_siw=siw ;;
	kbuild) want_kbuild=kbuild ;;
	*) echo "fetch: unknown word $w" >&2; exit 2 ;;
	esac
done
cache=${UVIO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/uvio}
mkdir -p "$cache/kernels"
log() { printf 'fetch: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

host_suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
case $spec in
*:*) suite=${spec%%:*} meta=${spec#*:} ;;
linux-*) suite=$host_suite meta=$spec ;;
*) suite=$spec meta=linux-image-amd64 ;;
esac
aptc() { "$here/apt.sh" "$suite" apt-cache "$@"; }
debs=$cache/debs/$suite
mkdir -p "$debs"
field() {	# field PKG FIELD: of the candidate version
	aptc show --no-all-versions "$1" 2>/dev/null | sed -n "s/^$2: //p" | head -n1
}
depends() {	# depends PKG: names of the packages PKG depends on (first alternative)
	aptc depends "$1" 2>/dev/null | sed -n 's/^ *|\{0,1\}Depends: \([^ <]*\)$/\1/p'
}

# Resolve the meta package down to the image package of one kernel, and
# its version; the answer holds until the suite's lists are refreshed.
"$here/apt.sh" "$suite" refresh
resolved=$cache/apt/$suite/resolved-$meta
if [ -s "$resolved" ] && [ "$resolved" -nt "$cache/apt/$suite/updated" ]; then
	read -r image_pkg version < "$resolved"
else
	image_pkg=$meta
	if ! [[ $meta =~ ^linux-image-[0-9] ]]; then
		image_pkg=$(depends "$meta" | grep -m1 '^linux-image-[0-9]' || true)
		[ -n "$image_pkg" ] || die "$suite has no kernel image behind $meta"
	fi
	version=$(field "$image_pkg" Version)
	[ -n "$version" ] || die "$suite has no package $image_pkg"
	echo "$image_pkg $version" > "$resolved"
fi
kver=${image_pkg#linux-image-}
kver=${kver%-unsigned}
kdir=$cache/kernels/${kver}_$version
mkdir -p "$kdir"
touch "$kdir"			# last use, for pruning
exec 8>"$kdir.lock"
flock 8				# one filler per kernel, also across runs

download() {	# download PKG...: the candidate versions, into debs/SUITE unless there
	local p v f missing=()
	for p in "$@"; do
		v=$(field "$p" Version)
		[ -n "$v" ] || die "$suite has no package $p"
		f=$(compgen -G "$debs/${p}_${v#*:}_*.deb" || true)
		[ -n "$f" ] || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "downloading ${missing[*]} ($suite)"
	(cd "$debs" && "$here/apt.sh" "$suite" apt-get download -q "${missing[@]}" >&2)
	for p in "${missing[@]}"; do	# older versions of the same package go
		v=$(field "$p" Version)
		for f in "$debs/${p}"_*.deb; do
			case $f in *"_${v#*:}_"*) ;; *) rm -f "$f" ;; esac
		done
	done
}
deb_of() { local v; v=$(field "$1" Version); ls "$debs/${1}_${v#*:}_"*.deb; }

# The guest loads these (and what they depend on) from the image's modules.
# ib_uverbs by name: 7.2 split a support module off it.
want_modules="dummy rdma_rxe ib_uverbs"
# virtio: the NIC of the multi-guest harness (run-multi.sh); rdma_ucm: the
# connection manager rping and perftest use (uverbs-trace tests)
opt_modules="crc32_generic libcrc32c crc32c_generic virtio_pci virtio_net rdma_ucm"

if [ ! -f "$kdir/vmlinux" ] || [ "$(cat "$kdir/modules.want" 2>/dev/null)" != "$want_modules $opt_modules" ]; then
	# From 7.x the image package is empty; the files are in linux-binary-*
	# and linux-modules-* (taken from what the image package depends on).
	pkgs=("$image_pkg")
	for d in $(depends "$image_pkg"); do
		case $d in linux-binary-*"$kver"|linux-modules-*"$kver") pkgs+=("$d") ;; esac
	done
	download "${pkgs[@]}"
	t=$kdir/tmp
	rm -rf "$t" && mkdir -p "$t/root"
	for p in "${pkgs[@]}"; do dpkg -x "$(deb_of "$p")" "$t/root"; done
	vmlinuz=$(ls "$t"/root/boot/vmlinuz-"$kver" "$t"/root/usr/lib/modules/"$kver"/vmlinuz 2>/dev/null |
		  head -n1 || true)
	[ -n "$vmlinuz" ] || die "no vmlinuz-$kver in ${pkgs[*]}"
	# The uncompressed ELF boots about twice as fast as the bzImage under TCG.
	"$here/extract-vmlinux.sh" "$vmlinuz" > "$t/vmlinux"
	# Bookworm and older keep modules in /lib/modules, trixie on in /usr/lib/modules.
	mroot=$t/root
	[ -d "$mroot/lib/modules/$kver" ] || mroot=$t/root/usr
	[ -d "$mroot/lib/modules/$kver" ] || die "no modules for $kver in ${pkgs[*]}"
	depmod -b "$mroot" "$kver" 2>/dev/null	# the .debs have no modules.dep
	mkdir -p "$t/modules"
	: > "$t/modules/order"
	resolve() { modprobe -d "$mroot" -S "$kver" --show-depends "$1" 2>/dev/null |
		    awk '$1 == "insmod" { print $2 }'; }
	for m in $want_modules; do
		[ -n "$(resolve "$m")" ] || die "$kver has no module $m"
	done
	# Decompressed, in load order, so that busybox insmod can take them.
	for m in $(for m in $want_modules $opt_modules; do resolve "$m"; done | awk '!seen[$0]++'); do
		name=$(basename "$m"); name=${name%.xz}; name=${name%.zst}
		case $m in
		*.xz) xz -dc "$m" > "$t/modules/$name" ;;
		*.zst) zstd -qdc "$m" > "$t/modules/$name" ;;
		*) cp "$m" "$t/modules/$name" ;;
		esac
		echo "$name" >> "$t/modules/order"
	done
	rm -rf "$t/root" "$kdir/modules"
	mv "$t/modules" "$kdir/modules"
	echo "$want_modules $opt_modules" > "$kdir/modules.want"
	echo "$kver" > "$kdir/version"
	echo "$image_pkg $version" > "$kdir/package"
	echo "$suite" > "$kdir/suite"
	series=${version%%-*}		# 6.12.118, 7.2.13, 6.1.192
	echo "${series%.*}" > "$kdir/series"
	mv "$t/vmlinux" "$kdir/vmlinux"
	rm -rf "$t"
	log "$image_pkg $version ready"
fi

# Out-of-tree modules (siw.ko; the stand-ins of tests/standin/) are built
# against the same version's linux-headers and linux-kbuild, with the host's
# gcc. What that takes beyond a plain `make M=`:
#  - the headers' Makefiles and symlinks name /usr/src and /usr/lib/linux-kbuild-*
#    by absolute path: pointed at the unpacked copies;
#  - kbuild's own programs (fixdep, modpost, objtool) of newer suites need a
#    newer glibc than the host's: they run through that suite's libc6;
#  - the configuration was made for a newer gcc: options the host's gcc lacks
#    are turned off on the command line (min function alignment, BTF for
#    modules, which needs pahole), and unknown attributes are not errors.
# prepare_kbuild DIR: the headers and kbuild unpacked and fixed in DIR, and
# DIR/kmake, which runs make in them with those settings.
prepare_kbuild() {
	local b=$1 hdr glibc= ld libdir elfs f p d
	local pkgs=("linux-headers-$kver")
	for d in $(depends "linux-headers-$kver"); do
		case $d in linux-headers-*-common*|linux-kbuild-*) pkgs+=("$d") ;; esac
	done
	download "${pkgs[@]}"
	rm -rf "$b" && mkdir -p "$b/root"
	for p in "${pkgs[@]}"; do dpkg -x "$(deb_of "$p")" "$b/root"; done
	hdr=$b/root/usr/src/linux-headers-$kver
	[ -f "$hdr/Makefile" ] || die "no linux-headers-$kver tree"
	# Absolute paths into /usr/src in the headers' top files, and absolute
	# symlinks: into the unpacked copy.
	for f in "$b"/root/usr/src/*/Makefile "$b"/root/usr/src/*/*.mk; do
		[ -f "$f" ] && sed -i "s|/usr/src/linux-|$b/root/usr/src/linux-|g" "$f"
	done
	find "$b/root" -type l | while read -r l; do
		t=$(readlink "$l")
		case $t in /*) ln -sfn "$b/root$t" "$l" ;; esac
	done
	# kbuild's programs: through the suite's own glibc when the host's is too old.
	# (only those that need it: objtool is a small launcher that finds its
	# real program next to its own name.)
	elfs=$(find "$b/root" -type f -perm -u+x | while read -r f; do
		[ "$(head -c4 "$f" | od -An -tx1 | tr -d ' ')" != 7f454c46 ] ||
		[[ ! $(ldd "$f" 2>&1) =~ version\ .GLIBC_[0-9.]*.\ not\ found ]] || echo "$f"
	done)
	if [ -n "$elfs" ]; then
		download libc6
		glibc=$b/glibc
		dpkg -x "$(deb_of libc6)" "$glibc"
		log "kbuild's programs run with $suite's libc6 $(field libc6 Version)"
		ld=$(find "$glibc" -name ld-linux-x86-64.so.2 -type f | head -n1)
		libdir=$(dirname "$(find "$glibc" -name libc.so.6 | head -n1)")
		for f in $elfs; do
			mv "$f" "$f.elf"
			printf '#!/bin/sh\nexec %s --library-path %s "%s" "$@"\n' \
				"$ld" "$libdir:/lib/x86_64-linux-gnu" "$f.elf" > "$f"
			chmod +x "$f"
		done
	fi
	printf '#!/bin/sh\n# make against the headers of %s: kmake M=DIR [VAR=VALUE...] modules\n' "$kver" > "$b/kmake"
	printf 'exec make -C %q CC=gcc CONFIG_CC_HAS_MIN_FUNCTION_ALIGNMENT= CONFIG_DEBUG_INFO_BTF_MODULES= KCFLAGS=-Wno-attributes "$@"\n' \
		"$hdr" >> "$b/kmake"
	chmod +x "$b/kmake"
}

# siw.ko from the same version's sources, built in a directory of its own.
build_siw() {
	local series b=$kdir/siw-build tarball top
	series=$(cat "$kdir/series")
	[ "$(field "linux-source-$series" Version)" = "$version" ] ||
		die "linux-source-$series in $suite is not at $version"
	prepare_kbuild "$b"
	download "linux-source-$series"
	dpkg -x "$(deb_of "linux-source-$series")" "$b/src"
	tarball=$(ls "$b"/src/usr/src/linux-source-*.tar.*)
	top=$(basename "$tarball"); top=${top%.tar.*}
	log "unpacking siw's sources from $(basename "$tarball")"
	tar -xaf "$tarball" -C "$b" "$top/drivers/infiniband/sw/siw"
	rm -rf "$b/src"
	"$b/kmake" -s M="$b/$top/drivers/infiniband/sw/siw" CONFIG_RDMA_SIW=m modules >&2
	strip --strip-debug -o "$kdir/siw.ko.tmp" "$b/$top/drivers/infiniband/sw/siw/siw.ko"
	mv "$kdir/siw.ko.tmp" "$kdir/siw.ko"
	rm -rf "$b"
}
if [ "$want_siw" = siw ] && [ ! -f "$kdir/siw.ko" ]; then
	t0=$SECONDS
	build_siw
	log "siw.ko for $kver built in $((SECONDS - t0)) s"
fi
# The prepared tree, kept: it names its own path, so a cache moved elsewhere
# prepares it again.
if [ "$want_kbuild" = kbuild ] && [ "$(cat "$kdir/kbuild/.ready" 2>/dev/null)" != "$kdir" ]; then
	t0=$SECONDS
	rm -f "$kdir/kbuild/.ready"
	prepare_kbuild "$kdir/kbuild"
	echo "$kdir" > "$kdir/kbuild/.ready"
	log "headers and kbuild for $kver prepared in $((SECONDS - t0)) s"
fi
# Kernels no run has used for 30 days go (a suite's newer version took over).
find "$cache/kernels" -mindepth 1 -maxdepth 1 -type d -mtime +30 -print0 |
	xargs -0r rm -rf
echo "$kdir"
