#!/usr/bin/env python3
"""No call cycle among the library's source files, and no call from a layer
(a folder of lib/, docs/architecture.md) into one above it: from each
object file's defined and undefined symbols (nm), the graph of which file
calls which, its strongly connected components, and each edge's folders.

  call-cycles.py OBJECT...
"""
import collections
import os
import subprocess
import sys

defs, undefs = {}, {}
# CMake may pass the object list as one ;-separated argument.
for obj in (o for arg in sys.argv[1:] for o in arg.split(";") if o):
    # build/lib/CMakeFiles/uvio_obj.dir/verbs/cq.c.o -> verbs/cq.c
    name = obj.split(".dir/", 1)[-1][:-2].replace("__/", "../")
    out = subprocess.run(["nm", "-g", obj], capture_output=True, text=True, check=True).stdout
    d, u = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            u.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBR":
            d.add(parts[2])
    defs[name], undefs[name] = d, u
owner = {s: n for n, d in defs.items() for s in d}
calls = collections.defaultdict(set)
for n, u in undefs.items():
    calls[n] |= {owner[s] for s in u if s in owner and owner[s] != n}

# Tarjan's strongly connected components, iteratively.
index, low, on, stack, cycles, counter = {}, {}, set(), [], [], [0]
for root in defs:
    if root in index:
        continue
    work = [(root, iter(sorted(calls[root])))]
    index[root] = low[root] = counter[0]; counter[0] += 1
    stack.append(root); on.add(root)
    while work:
        v, it = work[-1]
        w = next(it, None)
        if w is not None:
            if w not in index:
                index[w] = low[w] = counter[0]; counter[0] += 1
                stack.append(w); on.add(w)
                work.append((w, iter(sorted(calls[w]))))
            elif w in on:
                low[v] = min(low[v], index[w])
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[v])
        if low[v] == index[v]:
            comp = []
            while True:
                x = stack.pop(); on.discard(x); comp.append(x)
                if x == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))
for c in cycles:
    print("call cycle:", " <-> ".join(c))

# The layers, bottom up; a file may call into its own folder and lower ones.
LAYERS = ["abi", "report", "cmd", "device", "write", "hw", "verbs", "cm", "diag", "../providers"]
def layer(name):
    top = name.rsplit("/", 1)[0] if "/" in name else ""
    if top not in LAYERS and "/" in top and not top.startswith(".."):
        top = top.split("/", 1)[0]  # a layer's subfolder (abi/drivers) is that layer
    return LAYERS.index(top) if top in LAYERS else None
upward = []
for n in sorted(calls):
    for m in sorted(calls[n]):
        a, b = layer(n), layer(m)
        if a is None or b is None:
            upward.append(f"{n} -> {m}: outside the known layers")
        elif b > a:
            upward.append(f"{n} -> {m}: calls up from {LAYERS[a]} into {LAYERS[b]}")
for u in upward:
    print("layer:", u)
print(f"call-cycles: {len(defs)} files, {len(cycles)} cycles, {len(upward)} upward calls")
sys.exit(1 if cycles or upward else 0)
