# Sourced by the scripts that boot a guest (run.sh, run-multi.sh,
# tests/standin/vm-standin.sh): skip() and the host programs every boot needs.
# A missing one skips the test (exit 77) with the reason, or fails it under
# UVIO_REQUIRE_VM=1, as in CI.
skip() {
	if [ "${UVIO_REQUIRE_VM:-0}" = 1 ]; then echo "vm: FAIL: $*"; exit 1; fi
	echo "vm: SKIP: $*"; exit 77
}
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed (apt-get install qemu-system-x86)"
command -v apt-get >/dev/null || skip "apt-get not available to fetch Debian's kernel"
[ -x /bin/busybox ] || skip "busybox not installed (apt-get install busybox-static)"
