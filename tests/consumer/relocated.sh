#!/bin/sh
# The README's recipes, tried as a user would: install into a fresh prefix,
# move the whole tree somewhere else, and build tests/consumer against it
# with pkg-config (shared, and --static with -static) and with CMake's
# find_package (shared and static targets), then run what was built; and
# build it against the build tree itself through its uninstalled .pc.
#   relocated.sh BUILD_DIR
set -eu
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/uvio-relocated.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "relocated.sh: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$tmp/installed" >/dev/null
mv "$tmp/installed" "$tmp/moved"
top=$tmp/moved
pc=$(find "$top" -path '*pkgconfig/libuverbs-ioctl.pc' | head -n1)
[ -n "$pc" ] || fail "no libuverbs-ioctl.pc under $top"
pcdir=$(dirname "$pc")
libdir=$(dirname "$pcdir")
[ -e "$libdir/libuverbs_ioctl.so.1" ] || fail "the .pc is not in <libdir>/pkgconfig: $pc"

# PROGRAM LIBDIR: runs, and the loader found the library in LIBDIR (none
# for a static program). Without an RDMA device the consumer says so and
# exits 1; with one it creates its CQ and exits 0.
run() {
	prog=$1 want=$2
	if [ -n "$want" ]; then
		where=$(LD_LIBRARY_PATH=$want ldd "$prog" | awk '/libuverbs_ioctl/ { print $3 }')
		case $where in
		"$want"/*) ;;
		*) fail "$prog: the loader takes libuverbs_ioctl from '$where', not $want" ;;
		esac
	elif ldd "$prog" 2>/dev/null | grep -q libuverbs_ioctl; then
		fail "$prog: linked the shared library, not the static one"
	fi
	rc=0
	LD_LIBRARY_PATH=$want "$prog" >"$tmp/out" 2>&1 || rc=$?
	grep -q '^consumer' "$tmp/out" && [ "$rc" -le 1 ] ||
		{ cat "$tmp/out" >&2; fail "$prog: exit $rc"; }
	echo "relocated.sh: $(basename "$prog"): $(head -n1 "$tmp/out")"
}

# pkg-config: only the moved tree's folder on the path.
export PKG_CONFIG_PATH="$pcdir"
cflags=$(pkg-config --cflags libuverbs-ioctl)
libs=$(pkg-config --libs libuverbs-ioctl)
echo "relocated.sh: pkg-config: $cflags $libs"
case " $cflags " in
*" -I$top/"*) ;;
*) fail "pkg-config --cflags names no folder of the moved tree: $cflags" ;;
esac
case " $libs " in
*" -L$top/"*) ;;
*) fail "pkg-config --libs names no folder of the moved tree: $libs" ;;
esac
[ "$(pkg-config --variable=prefix libuverbs-ioctl)" -ef "$top" ] ||
	fail "prefix $(pkg-config --variable=prefix libuverbs-ioctl) is not $top"
# libnl's own paths stay its own (a --define-variable=prefix would move them).
nl=$(pkg-config --cflags libnl-3.0)
case " $(pkg-config --cflags --static libuverbs-ioctl) " in
*" $nl "*) ;;
*) fail "libnl's flags changed: want $nl" ;;
esac
cc -Wall -Werror -DCONSUMER_KIND='"moved, pkg-config"' "$here/consumer.c" $cflags $libs \
	-o "$tmp/pc-shared"
run "$tmp/pc-shared" "$libdir"
cc -static -Wall -Werror -DCONSUMER_KIND='"moved, pkg-config --static"' "$here/consumer.c" \
	$(pkg-config --static --cflags --libs libuverbs-ioctl) -o "$tmp/pc-static" 2>"$tmp/ld"
grep -v "statically linked applications requires at runtime" "$tmp/ld" >&2 || true
run "$tmp/pc-static" ""

# The .pc of the other layouts, lib64 and lib/<multiarch>: configured as a
# distribution would configure them, and placed with the libraries in that
# layout of the moved tree.
arch=$(cc -print-multiarch 2>/dev/null || true)
for dir in lib64 "lib/${arch:-x86_64-linux-gnu}"; do
	# The build's own layout (a distribution's build is multiarch): tried above.
	[ "$top/$dir" -ef "$libdir" ] && continue
	cmake -S "$src" -B "$tmp/layout" -DCMAKE_INSTALL_LIBDIR="$dir" -DUVIO_KERNEL_TESTS=OFF \
		>/dev/null
	mkdir -p "$top/$dir/pkgconfig"
	cp -P "$libdir"/libuverbs_ioctl.* "$top/$dir/"
	cp "$tmp/layout/to-install/libuverbs-ioctl.pc" "$top/$dir/pkgconfig/"
	rm -rf "$tmp/layout"
	flags=$(PKG_CONFIG_PATH="$top/$dir/pkgconfig" pkg-config --cflags --libs libuverbs-ioctl)
	case " $flags " in
	*" -I$top/"*" -L$top/"*) ;;
	*) fail "$dir: pkg-config names no folder of the moved tree: $flags" ;;
	esac
	cc -Wall -Werror -DCONSUMER_KIND="\"moved, $dir\"" "$here/consumer.c" $flags \
		-o "$tmp/pc-$(basename "$dir")"
	run "$tmp/pc-$(basename "$dir")" "$top/$dir"
done

# find_package, by CMAKE_PREFIX_PATH as the README says. A lib64 build
# (the rpm's): Debian's CMake, multiarch, does not look in lib64 where
# Fedora's does; pointed at the package's folder there (uverbs_ioctl_DIR).
lib64=
case $libdir in */lib64) lib64=-Duverbs_ioctl_DIR:PATH=$libdir/cmake/uverbs_ioctl ;; esac
cmake -S "$here" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$top" $lib64 >/dev/null
cmake --build "$tmp/cmake" >/dev/null
grep -q "^uverbs_ioctl_DIR:PATH=$top/" "$tmp/cmake/CMakeCache.txt" ||
	fail "find_package found $(grep '^uverbs_ioctl_DIR' "$tmp/cmake/CMakeCache.txt")"
run "$tmp/cmake/consumer-cmake-c" "$libdir"
run "$tmp/cmake/consumer-cmake-static" ""

# The build tree itself: its uninstalled .pc.
unset PKG_CONFIG_PATH
export PKG_CONFIG_PATH="$build"
cflags=$(pkg-config --cflags libuverbs-ioctl)
libs=$(pkg-config --libs libuverbs-ioctl)
echo "relocated.sh: uninstalled: $cflags $libs"
case " $cflags " in
*" -I$src/include "*) ;;
*) fail "the uninstalled .pc's --cflags name no $src/include: $cflags" ;;
esac
blib=$(pkg-config --variable=libdir libuverbs-ioctl)
[ -e "$blib/libuverbs_ioctl.so" ] && [ -e "$blib/libuverbs_ioctl.a" ] ||
	fail "the uninstalled .pc's libdir $blib holds no library of this build"
cc -Wall -Werror -DCONSUMER_KIND='"build tree, pkg-config"' "$here/consumer.c" $cflags $libs \
	-o "$tmp/build-shared"
run "$tmp/build-shared" "$blib"
cc -static -Wall -Werror -DCONSUMER_KIND='"build tree, pkg-config --static"' "$here/consumer.c" \
	$(pkg-config --static --cflags --libs libuverbs-ioctl) -o "$tmp/build-static" 2>"$tmp/ld"
grep -v "statically linked applications requires at runtime" "$tmp/ld" >&2 || true
run "$tmp/build-static" ""
