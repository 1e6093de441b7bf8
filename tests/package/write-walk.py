#!/usr/bin/env python3
"""The walk of a write() verb enters each file once.

tests/package/write_walk.c runs verbs on the write() path against a
stand-in kernel, the library built with -finstrument-functions, and prints
each verb's walk: every entry into and return from a function of the
library (inline ones too, where they are expanded), from the verb's public
function to its return. This script names each function's source file (the
file that defines it, header or .c, by addr2line) and measures:

  calls     functions entered
  returns   functions returned from
  files     distinct files
  visits    runs of the innermost frame's file: each time the code being
            run moves to another file, by a call or a return
  crossings calls from a function of one file into one of another
  entries   times a file is entered: a call into one of its functions
            while none of them is on the stack

A file is ENTERED ONCE when it has one entry: once the walk has left it
(its last frame returned) it never comes back. A file may call into
another and be returned to, and the path layer may call back into the
verb's own encoder while the verb is still running: those stay within the
one stretch the file is on the stack. (The innermost frame's file cannot
make one run per file: a call into another file that returns shows its
caller's file twice. The stack's files can: each file one stretch of it.)
The test fails where a walk enters a file twice.

  write-walk.py [--src ROOT] [--addr2line PROG] [-v] WALK_PROGRAM
"""
import os
import subprocess
import sys

args = sys.argv[1:]
src, addr2line, verbose = None, "addr2line", False
while args and args[0].startswith("-"):
    opt = args.pop(0)
    if opt == "--src":
        src = os.path.realpath(args.pop(0))
    elif opt == "--addr2line":
        addr2line = args.pop(0)
    elif opt == "-v":
        verbose = True
    else:
        sys.exit("write-walk.py: unknown option " + opt)
if len(args) != 1:
    sys.exit(__doc__)
prog = args[0]

out = subprocess.run([prog], check=True, capture_output=True, text=True)
walks, cur = [], None
for line in out.stdout.splitlines():
    if line.startswith("verb "):
        cur = (line[5:], [])
        walks.append(cur)
    elif line.startswith("end "):
        if int(line[4:]) != 0:
            sys.exit("write-walk: %s failed: %s (%s)" % (cur[0], line[4:], out.stderr.strip()))
        cur = None
    elif line[:2] in ("> ", "< ") and cur:
        cur[1].append((line[0], int(line[2:], 16)))
if not walks:
    sys.exit("write-walk: no walk recorded")

offsets = sorted({o for _, ev in walks for _, o in ev})
res = subprocess.run([addr2line, "-f", "-e", prog] + ["%#x" % o for o in offsets],
                     check=True, capture_output=True, text=True).stdout.splitlines()
where = {}
for i, o in enumerate(offsets):
    fn, loc = res[2 * i], res[2 * i + 1]
    path = os.path.realpath(loc.rsplit(":", 1)[0]) if not loc.startswith("??") else None
    if src and path and path.startswith(src + os.sep):
        path = path[len(src) + 1:]
    elif src:
        path = None	# outside the tree (libc's inline functions): not the library's
    where[o] = (fn, path)


def measure(events):
    stack, runs, entries, order = [], [], {}, []
    calls = returns = crossings = 0
    tree = []
    for kind, o in events:
        fn, path = where[o]
        if path is None:
            continue
        if kind == ">":
            calls += 1
            if stack and stack[-1][1] != path:
                crossings += 1
            if path not in (p for _, p in stack):
                entries[path] = entries.get(path, 0) + 1
                if path not in order:
                    order.append(path)
            tree.append("  " * len(stack) + "%s  (%s)" % (fn, path))
            stack.append((fn, path))
        else:
            returns += 1
            if not stack or stack[-1][0] != fn:
                sys.exit("write-walk: %s returned out of order" % fn)
            stack.pop()
        top = stack[-1][1] if stack else None
        if top and (not runs or runs[-1] != top):
            runs.append(top)
    return {"calls": calls, "returns": returns, "crossings": crossings, "files": len(order), "visits": len(runs),
            "entries": entries, "order": order, "runs": runs, "tree": tree}


bad = []
print("%-16s %6s %6s %6s %8s %9s %8s" % ("walk", "visits", "files", "calls", "returns",
                                         "crossings", "entries"))
for name, events in walks:
    m = measure(events)
    total = sum(m["entries"].values())
    print("%-16s %6d %6d %6d %8d %9d %8d" % (name, m["visits"], m["files"], m["calls"],
                                             m["returns"], m["crossings"], total))
    twice = [f for f in m["order"] if m["entries"][f] > 1]
    if verbose or twice:
        print("    files in order: " + " ".join(
            "%s%s" % (f, "" if m["entries"][f] == 1 else " (x%d)" % m["entries"][f])
            for f in m["order"]))
        print("    visits: " + " -> ".join(os.path.basename(f) for f in m["runs"]))
    if verbose:
        print("\n".join("    " + t for t in m["tree"]))
    if twice:
        bad.append("%s enters %s more than once" % (name, ", ".join(twice)))
if bad:
    print("\n".join("FAIL: " + b for b in bad))
    sys.exit(1)
print("every walk enters each file once")
