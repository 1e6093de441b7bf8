#!/bin/bash
# Fetch the guest's userland into CACHE/userland: iproute2 (rdma, ip) and
# libibverbs with its providers and ibverbs-utils, as the independent witness;
# rdmacm-utils, perftest and ucx-utils as real clients for uverbs-trace.
# From Debian's archive with apt-get download + dpkg -x; glibc and anything
# else a binary needs comes from the host, which is Debian too.
set -euo pipefail
cache=$1
u=$cache/userland
pkgs="iproute2 libmnl0 libbpf1 libelf1 libcap2 libbsd0 libmd0 libtirpc3 libxtables12
      libselinux1 libpcre2-8-0 libdb5.3 libgssapi-krb5-2 libkrb5-3 libk5crypto3
      libkrb5support0 libkeyutils1 libcom-err2 zlib1g
      libibverbs1 ibverbs-providers ibverbs-utils libnl-3-200 libnl-route-3-200
      librdmacm1 rdmacm-utils perftest libibumad3 libpci3 ucx-utils libucx0 libnuma1 libgomp1
      libgcc-s1"
mkdir -p "$cache"
exec 9>"$cache/userland.lock"
flock 9		# one filler at a time (kernel tests may run side by side)
# The list is the cache's key: a cache made from another list is fetched again.
[ -f "$u/.done" ] && [ "$(cat "$u/.done")" = "$(echo $pkgs)" ] && { echo "$u"; exit 0; }
rm -rf "$u" "$cache/userland-debs" && mkdir -p "$cache/userland-debs" "$u"
(cd "$cache/userland-debs" && apt-get download -q $pkgs >&2)
for d in "$cache"/userland-debs/*.deb; do dpkg -x "$d" "$u"; done
echo $pkgs > "$u/.done"
echo "$u"
