#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Run one module of rdma-core's Python test suite on one device and print
one line per test, tab separated:

    UVIO-PYV <test id> <ok|skip|fail|error|xfail|xpass> <reason>

The suite itself is run unmodified, as its run_tests.py does (its argument
parser, then unittest); only the way results are printed is ours, so that
the guest script can tabulate them without parsing unittest's prose.

    run_module.py SUITE_DIR DEVICE MODULE[,MODULE...]
                                      (SUITE_DIR: .../tests; MODULE: test_cq)
"""
import ctypes
import os
import sys
import unittest


def one_line(text):
    return " ".join(str(text).split())[:300]


class Tabulated(unittest.TestResult):
    def emit(self, test, status, reason=""):
        print("UVIO-PYV\t%s\t%s\t%s" % (test.id(), status, one_line(reason)), flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self.emit(test, "ok")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.emit(test, "skip", reason)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.emit(test, "fail", err[1])

    def addError(self, test, err):
        super().addError(test, err)
        # setUpClass/tearDownClass errors come as a _ErrorHolder, not a test.
        self.emit(test, "error", "%s: %s" % (err[0].__name__, err[1]))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.emit(test, "xfail", err[1])

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.emit(test, "xpass")


def claim_devices_first():
    """Have libibverbs match its devices to their providers now, before
    the suite loads its modules: pyverbs' mlx5 modules link libmlx5.so.1,
    whose provider registers as the library loads, ahead of the one
    RDMAV_DRIVERS names (libibverbs loads that one only when it first lists
    its devices), and libibverbs gives a device to the first provider
    that matches it. Without this, libmlx5 would serve mlx5 devices in
    every module of the suite whatever RDMAV_DRIVERS says, as it does in
    any program that links it; a program that does not link libmlx5 gets
    the provider RDMAV_DRIVERS names, and so does the suite now. On rxe and
    siw, and on stock runs (no RDMAV_DRIVERS), nothing changes: the same
    providers match, only earlier. A matched device keeps its provider
    when libmlx5 registers later."""
    ibv = ctypes.CDLL("libibverbs.so.1", use_errno=True)
    ibv.ibv_get_device_list.restype = ctypes.c_void_p
    ibv.ibv_get_device_list.argtypes = [ctypes.POINTER(ctypes.c_int)]
    ibv.ibv_free_device_list.argtypes = [ctypes.c_void_p]
    n = ctypes.c_int(0)
    devs = ibv.ibv_get_device_list(ctypes.byref(n))
    if not devs:
        print("run_module.py: ibv_get_device_list failed (errno %d)" % ctypes.get_errno(),
              file=sys.stderr)
        sys.exit(1)
    ibv.ibv_free_device_list(devs)


def main():
    if len(sys.argv) != 4:
        print("usage: run_module.py SUITE_DIR DEVICE MODULE[,MODULE...]", file=sys.stderr)
        return 2
    suite_dir, dev, modules = sys.argv[1:]
    claim_devices_first()
    # As run_tests.py runs: its folder first (the suite imports args_parser
    # by that name), and the folder above it for the package "tests".
    sys.path[0:0] = [suite_dir, os.path.dirname(os.path.abspath(suite_dir))]
    # The suite reads its options (--dev) through its own parser, from argv.
    sys.argv[1:] = ["--dev", dev]
    from args_parser import parser
    parser.parse_args()
    import tests  # noqa: F401  (loads every module, as run_tests.py does)
    suite = unittest.defaultTestLoader.loadTestsFromNames(
        "tests." + m for m in modules.split(","))
    result = Tabulated()
    suite.run(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
