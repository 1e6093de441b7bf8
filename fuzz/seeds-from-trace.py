#!/usr/bin/env python3
"""Seeds for fuzz_decode's 'D' mode (a driver's tables) out of a real program's
commands: each ioctl of a uverbs-trace --json trace laid out again as the
program sent it, its header, its attributes and the memory their pointers
named (inputs as read before the call, outputs as the kernel left them),
one file per distinct command and answer.

  seeds-from-trace.py TRACE.json OUT_DIR PREFIX

The kernel suite's mlx5 boot leaves such traces (libmlx5's and the
library's, against the stand-in) in BUILD_DIR/vm/mlx5/."""
import json
import os
import struct
import sys


def seed(rec):
    attrs, mem = [], bytearray()
    for a in rec.get("attrs", []):
        data = 0
        blob = a.get("in") or a.get("out")
        if blob is not None and a.get("len", 0) > 8 or a.get("kind") == "ptr-out":
            raw = bytes.fromhex(blob or "")
            data = len(mem)			# an offset into the fuzzer's memory
            mem += raw.ljust(a.get("len", 0), b"\0")
        elif "value" in a:
            data = a["value"] & (2**64 - 1)
        elif "handle" in a:
            data = a["handle"]
        elif "fd" in a:
            data = a["fd"] & (2**64 - 1)
        attrs.append(struct.pack("<HHHHQ", a["id"], a["len"], a["flags_after"],
                                 a.get("attr_data", 0), data))
    n = len(attrs)
    hdr = struct.pack("<HHHHQII", 24 + 16 * n, rec["object_id"], rec["method_id"], n, 0,
                      rec.get("driver_id", 0), 0)
    cmd = hdr + b"".join(attrs)
    # 'D', driver id, flags (1: after the call), command length, command, memory
    return b"D" + bytes([rec.get("driver_id", 0), 1]) + struct.pack("<H", len(cmd)) + cmd + mem


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    seen = set()
    os.makedirs(sys.argv[2], exist_ok=True)
    for line in open(sys.argv[1]):
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if rec.get("call") != "ioctl" or rec.get("layout") != "current":
            continue
        key = (rec["name"], rec.get("ret"))
        if key in seen:
            continue
        seen.add(key)
        name = "%s-%s-%s" % (sys.argv[3], rec["name"].replace("(", "-").replace(")", "")
                             .replace(".", "-").lower(), "ok" if rec.get("ret") == 0 else "err")
        with open(os.path.join(sys.argv[2], name), "wb") as f:
            f.write(seed(rec))
    print(f"{len(seen)} seeds in {sys.argv[2]}")


if __name__ == "__main__":
    main()
