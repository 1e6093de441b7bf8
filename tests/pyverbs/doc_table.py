#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The per-test table of rdma-core's Python tests, stock provider against
the plug-in, for several kernel suite runs side by side (the table
docs/pyverbs-tests.md holds), with whose lack each skip is.

    doc_table.py LABEL=RESULTS.tsv [LABEL=RESULTS.tsv ...] > OUT.md

LABEL names the kernel (6.1, 7.2); RESULTS.tsv is a run's
BUILD/vm/pyverbs-SERIES/results.tsv (tests/pyverbs/kt_pyverbs.sh).
"""
import re
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
from compare import PASSED, load, result  # noqa: E402

# Whose lack a skip (or an error) is, from the reason the suite gives.
# kernel: the kernel's driver has no such command or feature; device: the
# device type cannot (other hardware, iWARP without the connection manager);
# provider: the user-space provider declined what the kernel would do;
# setup: the guest lacks what the suite needs around the device; suite: the
# test itself (a race).
LACKS = [
    (r"non (MLX5|EFA) device|not an MLX5 device|PCI device must be passed", "device (other hardware)"),
    (r"No supported port is up", "device (iWARP: the suite's traffic needs IB or RoCE)"),
    (r"Create (UD|UC|Raw Packet) QP .*not supported|Create AH is not supported",
     "device (the QP type or AH does not exist on it)"),
    (r"Create QP type \d+ is not supported|Create XRCD|XRC", "kernel (no XRC or raw QPs in the driver)"),
    (r"Device memory", "kernel (no device memory in the driver)"),
    (r"Rereg MR", "kernel (no REREG_MR in the driver)"),
    (r"Advise MR|ODP", "kernel (no on-demand paging in the driver)"),
    (r"Parent Domain", "provider (parent domains are the provider's)"),
    (r"Extended CQ", "device (no tag matching or completion timestamps)"),
    (r"without extended attrs|with extended attrs|Extended QP", "provider"),
    (r"huge pages|cuda-python|dmabuf|/dev/dri", "setup (the guest has none)"),
    (r"doesn't have net interface", "setup (the suite finds no netdev under the device's sysfs)"),
    (r"local QP operation error", "kernel (no ATOMIC_WRITE before 6.2)"),
    (r"Importing a device",
     "kernel (rxe and siw have no query_ucontext: QUERY_CONTEXT, which an import of the context needs, answers EOPNOTSUPP; 6.1's source and a 6.1 boot; the stock provider has no import either)"),
    (r"real time", "device (no real-time clock)"),
    (r"All gid indices populated", "device (its one GID entry is in use)"),
    (r"IBV_QPS_INIT: 1> != 0", "kernel (6.1's siw answers RESET to a query)"),
    (r"Failed to create QP", "device (the test draws QP sizes at random; this one was refused)"),
    (r"PyverbsRDMAError not raised", "suite (it shrinks the CQ before the completions it counts arrived)"),
]


def lack(why):
    for pat, who in LACKS:
        if re.search(pat, why):
            return who
    return "?"


def cell(res):
    return {"ok": "pass", "xfail": "pass"}.get(res, res)


def main():
    runs = []
    for arg in sys.argv[1:]:
        label, path = arg.split("=", 1)
        r, v, _ = load(path)
        devs = sorted({d for d, _ in r})
        runs += [(label, dev, r, v) for dev in devs]
    tests = sorted({t for _, dev, r, _ in runs for t in r[(dev, "stock")]})
    out = ["| test | " + " | ".join("%s %s" % (k, d) for k, d, _, _ in runs) + " | whose lack |",
           "|---" * (len(runs) + 2) + "|"]
    for t in tests:
        cells, whys = [], set()
        for _, dev, r, v in runs:
            s, u = result(r, v, dev, "stock", t), result(r, v, dev, "uvio", t)
            cells.append(cell(s[0]) if s[0] == u[0] else "%s / %s" % (cell(s[0]), cell(u[0])))
            if u[0] in PASSED and s[0] not in PASSED:
                whys.add("provider (the stock one: the plug-in passes)")
            elif u[0] not in PASSED and u[0] != "missing":
                whys.add(lack(u[1]))
        out.append("| %s | %s | %s |" % (t.replace("tests.", "", 1), " | ".join(cells),
                                         "; ".join(sorted(whys))))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
