#!/bin/bash
# Build the guest's initramfs.
#
#   mkinitramfs.sh KDIR USERLAND OUT.cpio.gz BIN... [-- DATA...]
#
# KDIR comes from fetch.sh, USERLAND from guest-userland.sh. Each BIN is a
# program for /opt/uvio/bin, copied with every shared library it loads
# (resolved in USERLAND first, then on the host). DATA files go to /opt/uvio.
set -euo pipefail
kdir=$1 userland=$2 out=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
libdir=usr/lib/x86_64-linux-gnu

mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,run,etc,$libdir,lib64,opt/uvio/bin,opt/uvio/modules}
ln -s usr/lib "$root/lib"
cp /bin/busybox "$root/bin/busybox"
for app in $("$root/bin/busybox" --list); do
	[ -e "$root/bin/$app" ] || ln -s busybox "$root/bin/$app"
done
# UVIO_VM_LIBPATH: where the build's own libraries are, for a program
# built without a RUNPATH (bench/cold_uvio, started as installed ones are).
ulib="$userland/$libdir:$userland/lib/x86_64-linux-gnu${UVIO_VM_LIBPATH:+:$UVIO_VM_LIBPATH}"

copy_libs() {	# copy_libs FILE: every library FILE needs, into the guest
	{ LD_LIBRARY_PATH=$ulib ldd "$1" 2>/dev/null || true; } | awk '/=> \// { print $3 } /^\t\/lib64/ { print $1 }' |
	while read -r lib; do
		case $lib in
		*/ld-linux-x86-64.so.2) cp -L "$lib" "$root/lib64/" ;;
		*) cp -Ln "$lib" "$root/$libdir/" 2>/dev/null || true ;;
		esac
	done
	return 0	# a static program has no libraries to copy
}
add_bin() {	# add_bin FILE DESTDIR
	cp -L "$1" "$root/$2/"
	copy_libs "$1"
}

# The witnesses: rdma and ip from iproute2, ibv_devinfo from ibverbs-utils,
# and libibverbs' providers for rxe and siw (loaded with dlopen, so ldd of
# the programs does not see them).
for tool in rdma ip; do
	for d in bin sbin usr/bin usr/sbin; do
		[ -f "$userland/$d/$tool" ] && { add_bin "$userland/$d/$tool" sbin; break; }
	done
	[ -f "$root/sbin/$tool" ] || { echo "mkinitramfs: $tool not in iproute2" >&2; exit 1; }
done
add_bin "$userland/usr/bin/ibv_devinfo" bin
mkdir -p "$root/$libdir/libibverbs" "$root/etc/libibverbs.d"
providers="rxe siw"
# UVIO_VM_ALL_PROVIDERS=1 (the benchmarks): every provider the package has,
# as libibverbs finds them on a real system.
[ "${UVIO_VM_ALL_PROVIDERS:-0}" = 1 ] &&
	providers=$(ls "$userland/etc/libibverbs.d" | sed -n 's/\.driver$//p')
for p in $providers; do
	cp -L "$userland/$libdir/libibverbs/lib$p-rdmav"*.so "$root/$libdir/libibverbs/"
	copy_libs "$root/$libdir/libibverbs/lib$p-rdmav"*.so
	cp "$userland/etc/libibverbs.d/$p.driver" "$root/etc/libibverbs.d/"
done
copy_libs "$userland/$libdir/libibverbs.so.1"

# Modules, decompressed and in load order (fetch.sh chose them); siw.ko
# where it was built (UVIO_VM_SIW: another build of it in its place, as
# tests/vm/siw-rping-stall.sh -w makes). The init loads siw only when asked
# for siw.
cp "$kdir"/modules/* "$root/opt/uvio/modules/"
if [ -f "$kdir/siw.ko" ]; then
	cp "${UVIO_VM_SIW:-$kdir/siw.ko}" "$root/opt/uvio/modules/siw.ko"
	echo siw.ko >> "$root/opt/uvio/modules/order"
fi

# The project's programs.
# libgcc_s, which glibc's pthread_exit dlopen()s (rping's threads end so),
# goes where the loader looks; everything else beside the programs.
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	case $1 in
	*/libgcc_s.so.*) add_bin "$1" "$libdir" ;;
	*) add_bin "$1" opt/uvio/bin ;;
	esac
	shift
done
[ "${1:-}" = -- ] && shift
for f in "$@"; do cp -L "$f" "$root/opt/uvio/"; done

# UVIO_VM_MPI="PROGRAM...": MPI programs, and Open MPI's runtime from the
# host's Debian packages to run them (openmpi-bin): the launcher and daemon,
# the components it loads with dlopen (its own and PMIx's), its help texts
# and its configuration.
if [ -n "${UVIO_VM_MPI:-}" ]; then
	[ -x /usr/bin/orted ] || { echo "mkinitramfs: Open MPI is not installed (openmpi-bin)" >&2; exit 1; }
	for f in /usr/bin/orterun /usr/bin/orted; do add_bin "$f" bin; done
	ln -s orterun "$root/bin/mpirun"
	for d in $libdir/openmpi $libdir/pmix2 usr/share/openmpi usr/share/pmix etc/openmpi; do
		[ -d "/$d" ] || continue
		mkdir -p "$root/$(dirname "$d")"
		cp -a "/$d" "$root/$d"
	done
	find "$root/$libdir/openmpi" "$root/$libdir/pmix2" -name '*.so*' -type f |
		while read -r so; do copy_libs "$so"; done
	for p in $UVIO_VM_MPI; do add_bin "$p" opt/uvio/bin; done
fi

# valgrind (memcheck) from the host's Debian package, for the valgrind mode.
if [ "${UVIO_VM_VALGRIND:-0}" = 1 ]; then
	vg=/usr/libexec/valgrind
	[ -x /usr/bin/valgrind.bin ] || { echo "mkinitramfs: valgrind not installed" >&2; exit 1; }
	mkdir -p "$root$vg"
	# Debian's /usr/bin/valgrind is a script that runs valgrind.bin.
	add_bin /usr/bin/valgrind.bin bin
	ln -s valgrind.bin "$root/bin/valgrind"
	# memcheck must redirect functions of ld.so, which needs its symbols:
	# the detached debug files of libc6-dbg, found by build id.
	for f in "$root"/lib64/ld-linux-x86-64.so.2 "$root/$libdir"/libc.so.6; do
		id=$(readelf -n "$f" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
		dbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
		[ -f "$dbg" ] || { echo "mkinitramfs: no $dbg (apt-get install libc6-dbg)" >&2; exit 1; }
		mkdir -p "$root$(dirname "$dbg")"
		cp "$dbg" "$root$dbg"
	done
	cp "$vg/memcheck-amd64-linux" "$vg/vgpreload_core-amd64-linux.so" \
		"$vg/vgpreload_memcheck-amd64-linux.so" "$vg/default.supp" \
		"$vg/callgrind-amd64-linux" "$root$vg/"
fi

# UVIO_VM_PYVERBS=DIR (guest-pyverbs.sh's): Python 3.11, pyverbs and
# rdma-core's test suite (in /opt/uvio/pyverbs/tests), at the paths an
# installed system has them (pyverbs links the direct-verbs libraries of
# ibverbs-providers: copy_libs finds them in USERLAND).
if [ -n "${UVIO_VM_PYVERBS:-}" ]; then
	py=$UVIO_VM_PYVERBS
	mkdir -p "$root/usr/bin" "$root/usr/lib/python3/dist-packages" "$root/opt/uvio/pyverbs"
	add_bin "$py/usr/bin/python3.11" usr/bin
	ln -s python3.11 "$root/usr/bin/python3"
	cp -a "$py/usr/lib/python3.11" "$root/usr/lib/"
	cp -a "$py/usr/lib/python3/dist-packages/pyverbs" "$root/usr/lib/python3/dist-packages/"
	cp -a "$py/usr/share/doc/rdma-core/tests" "$root/opt/uvio/pyverbs/"
	ulib="$py/$libdir:$py/lib/x86_64-linux-gnu:$ulib"
	find "$root/usr/lib/python3.11/lib-dynload" "$root/usr/lib/python3/dist-packages/pyverbs" \
		-name '*.so' | while read -r so; do copy_libs "$so"; done
fi

# UVIO_VM_INIT: another init script (run-multi.sh's). Both check dmesg
# for oopses after the run.
cp "${UVIO_VM_INIT:-$here/init}" "$root/init"
cp "$here/kernel-health.sh" "$root/opt/uvio/kernel-health.sh"
chmod +x "$root/init"
# The loader's cache, as every installed system has: without it ld.so
# tries a dozen directories for each library a program loads, which is
# not the start a user's program sees. -X: no links made or changed.
echo /usr/lib/x86_64-linux-gnu > "$root/etc/ld.so.conf"
/sbin/ldconfig -X -r "$root" || { echo "mkinitramfs: ldconfig failed" >&2; exit 1; }
# A new file, not the old one rewritten: a cache copied with hard links
# must not see another run's image change under it.
rm -f "$out"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out"
