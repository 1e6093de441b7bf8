#!/bin/sh
# The main job: build, then create and destroy a real CQ. On this machine's
# own RDMA device when it has one; otherwise in the bundled VM (Debian's
# kernel with rxe and siw under qemu), on each of its devices.
#   scripts/create-cq.sh [DEVICE]
set -eu
cd "$(dirname "$0")/.."
cmake -S . -B build -DBUILD_TESTING=ON >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
if ls /dev/infiniband/uverbs* >/dev/null 2>&1; then
	exec build/examples/create_cq "$@"
fi
echo "no RDMA device here: booting the test VM (rxe0, siw0)"
exec tests/vm/run.sh build linux-image-amd64 siw example
