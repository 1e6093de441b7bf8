#!/usr/bin/env python3
"""No call cycle among the library's source files, and no call from a layer
(a folder of lib/, docs/architecture.md) into one above it: from each
object file's defined and undefined symbols (nm), the graph of which file
calls which, its strongly connected components, and each edge's folders.

With --src ROOT, the same for #include among lib/ and providers/: no
include cycle between units (a header with the .c files that define what
it declares, a .c file without a header of its own), and no include of a
higher layer's header. The layers are read from the table of
ROOT/docs/architecture.md, bottom up.

  call-cycles.py [--src ROOT] OBJECT...
"""
import collections
import os
import re
import subprocess
import sys

args = sys.argv[1:]
src = None
if args[:1] == ["--src"]:
    src, args = args[1], args[2:]

# The layers, bottom up; a file may call into, or include from, its own
# folder and lower ones.
LAYERS = ["abi", "report", "cmd", "device", "write", "hw", "verbs", "cm", "diag", "../providers",
          "../providers/ibverbs"]
if src:
    # The folders of docs/architecture.md's layer table, in its order.
    doc = open(os.path.join(src, "docs", "architecture.md")).read()
    rows = re.findall(r"^\| `((?:lib|providers)/[\w/]*?)/?` \|", doc, re.M)
    LAYERS = [r[4:] if r.startswith("lib/") else "../" + r for r in (r.rstrip("/") for r in rows)]


def tarjan(nodes, edges):
    """The strongly connected components of more than one node."""
    index, low, on, stack, comps, counter = {}, {}, set(), [], [], [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]; counter[0] += 1
        stack.append(root); on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]; counter[0] += 1
                    stack.append(w); on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
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
                    comps.append(sorted(comp))
    return comps


def layer(name):
    """A file's layer index (names relative to lib/), or None."""
    top = name.rsplit("/", 1)[0] if "/" in name else ""
    if top not in LAYERS and "/" in top and not top.startswith(".."):
        top = top.split("/", 1)[0]  # a layer's subfolder (abi/drivers) is that layer
    return LAYERS.index(top) if top in LAYERS else None


defs, undefs = {}, {}
# CMake may pass the object list as one ;-separated argument.
for obj in (o for arg in args for o in arg.split(";") if o):
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

cycles = tarjan(list(defs), calls)
for c in cycles:
    print("call cycle:", " <-> ".join(c))

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
bad = bool(cycles or upward)

# Spanning headers at the top of lib/: opts.h any layer may include,
# private.h is the verbs' (verb.h), for_providers.h the data path's.
SPANNING = {"opts.h": 0, "private.h": "verbs", "for_providers.h": "../providers"}


def strip_comments(t):
    return re.sub(r"//[^\n]*", " ", re.sub(r"/\*.*?\*/", " ", t, flags=re.S))


def declared(text):
    """What a header declares at file scope: functions and extern objects."""
    t = re.sub(r"^\s*#(?:[^\n]*\\\n)*[^\n]*", " ", strip_comments(text), flags=re.M)
    top, depth = [], 0
    for ch in t:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                top.append(";")  # a definition ends a statement
        elif depth == 0:
            top.append(ch)
    names = set()
    for stmt in "".join(top).split(";"):
        st = " ".join(stmt.split())
        if not st or st.startswith(("static", "typedef", "_Static_assert", "struct", "enum", "union")) \
                and "(" not in st:
            continue
        if st.startswith(("static", "typedef", "_Static_assert")):
            continue
        m = re.search(r"(\w+)\s*\((?:[^()]|\([^()]*\))*\)\s*(?:__attribute__\s*\(\(.*\)\))?$", st)
        if m:
            names.add(m.group(1))
            continue
        m = re.match(r"extern\b.*?(\w+)\s*(?:\[[^]]*\]\s*)*$", st)
        if m:
            names.add(m.group(1))
    return names


def defined(text):
    """What a .c file defines with external linkage (functions, objects)."""
    t = strip_comments(text)
    names = set(re.findall(r"^(?!static\b)(?:UVIO_API\s+)?[A-Za-z_][\w \t*]*?\b(\w+)\s*\(", t, re.M))
    names |= set(re.findall(r"^(?!static\b|extern\b|return\b)(?:const\s+)?(?:struct\s+)?\w[\w \t*]*?\b(\w+)\s*(?:\[[^]]*\]\s*)*=",
                            t, re.M))
    return names


def include_checks(root):
    files = {}
    for top in ("lib", "providers"):
        for d, _, fs in os.walk(os.path.join(root, top)):
            for f in fs:
                if f.endswith((".c", ".h")):
                    p = os.path.relpath(os.path.join(d, f), os.path.join(root, "lib"))
                    files[p] = open(os.path.join(d, f), errors="replace").read()
    inc = collections.defaultdict(set)
    for p, t in files.items():
        for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', strip_comments(t), re.M):
            for cand in (os.path.normpath(os.path.join(os.path.dirname(p), m.group(1))),
                         os.path.normpath(m.group(1))):
                if cand in files:
                    inc[p].add(cand)
                    break
    # A header's unit: the .c files that define what it declares.
    where = collections.defaultdict(set)
    for p, t in files.items():
        if p.endswith(".c"):
            for n in defined(t):
                where[n].add(p)
    owners = collections.defaultdict(set)
    for h, t in files.items():
        if h.endswith(".h"):
            for n in declared(t):
                for c in where.get(n, ()):
                    owners[c].add(h)

    def units(p):
        return owners[p] if p.endswith(".c") and owners[p] else {p}

    edges, why = collections.defaultdict(set), {}
    for p in files:
        for u in units(p):
            for x in inc[p]:
                if x not in units(p) and x != u:
                    edges[u].add(x)
                    why.setdefault((u, x), p)
    nodes = sorted({u for p in files for u in units(p)})
    found = []
    for comp in tarjan(nodes, edges):
        links = [f"{a} -> {b} ({why[(a, b)]})" for a in comp for b in sorted(edges[a]) if b in comp]
        found.append("include cycle: " + " <-> ".join(comp) + ": " + "; ".join(links))
    for p in sorted(files):
        a = layer(p)
        for x in sorted(inc[p]):
            if x in SPANNING:
                need = SPANNING[x]
                if need and (a is None or a < LAYERS.index(need)):
                    found.append(f"include layer: {p} -> {x}: {x} is for {need} and above")
                continue
            if p in SPANNING:
                continue  # what spans the layers includes what it gathers
            b = layer(x)
            if a is None or b is None:
                found.append(f"include layer: {p} -> {x}: outside the known layers")
            elif b > a:
                found.append(f"include layer: {p} -> {x}: includes up from {LAYERS[a]} into {LAYERS[b]}")
    return files, found


if src:
    files, found = include_checks(src)
    for f in found:
        print(f)
    print(f"include-cycles: {len(files)} files, {len(found)} problems (layers: {' < '.join(LAYERS)})")
    bad = bad or bool(found)
sys.exit(1 if bad else 0)
