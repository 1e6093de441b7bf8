#!/bin/bash
# Fetch rdma-core's Python test suite and what runs it into CACHE/pyverbs:
# python3-pyverbs (pyverbs and the suite in /usr/share/doc/rdma-core/tests)
# and Python 3.11 with its standard library, from Debian's archive with
# apt-get download + dpkg -x, as guest-userland.sh fetches the rest. The
# suite's modules are unpacked (Debian ships some gzipped) and everything
# is compiled to bytecode here, so that the guest does not compile it again
# in every process under TCG.
#
#   guest-pyverbs.sh CACHE     prints the directory
set -euo pipefail
cache=$1
p=$cache/pyverbs
pkgs="python3-pyverbs python3.11-minimal libpython3.11-minimal libpython3.11-stdlib
      libpython3.11 libffi8 libexpat1 libbz2-1.0 liblzma5 libuuid1 zlib1g
      libsqlite3-0 libnsl2 libtirpc3 libreadline8 libncursesw6 libtinfo6 libcrypt1
      libdb5.3 libssl3"
mkdir -p "$cache"
exec 9>"$cache/pyverbs.lock"
flock 9		# one filler at a time (kernel tests may run side by side)
# The list is the cache's key: a cache made from another list is fetched again.
[ -f "$p/.done" ] && [ "$(cat "$p/.done")" = "$(echo $pkgs)" ] && { echo "$p"; exit 0; }
rm -rf "$p" "$cache/pyverbs-debs" && mkdir -p "$cache/pyverbs-debs" "$p"
(cd "$cache/pyverbs-debs" && apt-get download -q $pkgs >&2)
for d in "$cache"/pyverbs-debs/*.deb; do dpkg -x "$d" "$p"; done
t=$p/usr/share/doc/rdma-core/tests
[ -f "$t/run_tests.py" ] || { echo "guest-pyverbs.sh: no run_tests.py in python3-pyverbs" >&2; exit 1; }
find "$t" -name '*.py.gz' -exec gunzip -f {} +
# The standard library's own tests and tools the suite never loads.
rm -rf "$p"/usr/lib/python3.11/{test,idlelib,tkinter,turtledemo,ensurepip,lib2to3,pydoc_data}
"$p/usr/bin/python3.11" -c 'import sys' 2>/dev/null ||
	{ echo "guest-pyverbs.sh: the fetched python3.11 does not run here" >&2; exit 1; }
PYTHONHOME=$p/usr "$p/usr/bin/python3.11" -m compileall -q -j 0 \
	"$p/usr/lib/python3.11" "$p/usr/lib/python3/dist-packages/pyverbs" "$t" >/dev/null || true
echo $pkgs > "$p/.done"
echo "$p"
