"""What the stand-in boots' comparisons share: the driver data the library
sends to a hardware driver against what rdma-core's provider for it sends
for the same requests, field by field, from two uverbs-trace --json traces
of one boot (kt_DRIVER_witness and kt_DRIVER_uvio).

A driver's tests/standin/compare-DRIVER.py states its Profile (which
commands pair up, which fields are addresses or ids) and calls main().
Each pair is the first command of its kind the kernel answered 0 in each
trace; every field of the driver's structs in the driver data (UHW_IN and
UHW_OUT) and of the core attributes named in Profile.core must be equal,
except:
  - addresses (Profile.addresses: field -> alignment): compared by their
    alignment, not by value;
  - ids the kernel or the process hands out (Profile.ids): not compared.
Prints each pair and the fields compared; the exit status is 1 on a
difference or a pair missing from either trace."""
import json
import re
import sys
from dataclasses import dataclass, field
from typing import Callable, Optional


@dataclass
class Profile:
    driver: str
    want: list                      # the kinds of command compared, in order
    kind: Callable                  # (record, attrs) -> kind or None
    core: set = field(default_factory=set)
    addresses: dict = field(default_factory=dict)
    ids: set = field(default_factory=set)


def records(path):
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                out.append(json.loads(line))
            except ValueError as e:
                # The console carries the traces: a kernel message may cut
                # a line. A pair it held is then missing, which fails.
                print(f"{path}:{n}: not JSON, left out: {e}")
    return out


def fields(text):
    """'= name {a = 1, b = {c = 2}}' -> {'a': '1', 'b.c': '2'}; the words
    after the attribute's '=' (a struct, or a value)."""
    i = text.find(" = ")
    if i < 0:
        return {}
    body = text[i + 3:]
    j = body.find("{")
    if j < 0:
        return {"value": body.strip()}
    flat, stack, key = {}, [], ""
    for ch in body[j + 1:]:
        if ch == "{":
            stack.append(key.strip())
            key = ""
        elif ch in ",}":
            if "=" in key:
                k, v = key.split("=", 1)
                flat[".".join(stack + [k.strip()])] = v.strip()
            key = ""
            if ch == "}":
                if not stack:
                    break
                stack.pop()
        else:
            key += ch
    return flat


def attrs(rec, core):
    """name -> fields, for the attributes compared; a write() command's
    driver data comes in its UHW_IN/UHW_OUT too (INVOKE_WRITE), its CQE
    count in the write's decoded text."""
    got = {}
    for a in rec.get("attrs", []):
        n = a.get("name")
        if n in ("UHW_IN", "UHW_OUT") or n in core:
            got[n] = fields(a.get("decoded", ""))
    w = rec.get("write", {}).get("decoded", "")
    m = re.search(r"\n  cqe = (\d+)", w)
    if m and "CQE" in core:
        got["CQE"] = {"value": m.group(1)}
    return got


def has_attr(rec, name):
    return any(a.get("name") == name for a in rec.get("attrs", []))


def first(recs, prof):
    seen = {}
    for r in recs:
        if r.get("ret") != 0:
            continue
        a = attrs(r, prof.core)
        k = prof.kind(r, a)
        if k and k not in seen:
            seen[k] = a
    return seen


def as_int(v) -> Optional[int]:
    try:
        return int(v.split("(")[0], 0)
    except ValueError:
        return None


def compare(prof, wit, lib):
    bad = 0
    for k in prof.want:
        if k not in wit or k not in lib:
            print(f"MISSING {k}: witness {'has' if k in wit else 'lacks'} it, "
                  f"library {'has' if k in lib else 'lacks'} it")
            bad += 1
            continue
        same, skipped = 0, []
        for attr in sorted(set(wit[k]) | set(lib[k])):
            w, l = wit[k].get(attr), lib[k].get(attr)
            if w is None or l is None:
                print(f"DIFF {k} {attr}: witness {'-' if w is None else 'sends it'}, "
                      f"library {'-' if l is None else 'sends it'}")
                bad += 1
                continue
            for f in sorted(set(w) | set(l)):
                wv, lv = w.get(f), l.get(f)
                leaf = f.rsplit(".", 1)[-1]
                if leaf in prof.addresses and wv is not None and lv is not None:
                    a, wa, la = prof.addresses[leaf], as_int(wv), as_int(lv)
                    if wa is not None and la is not None and wa % a == 0 and la % a == 0 or \
                       wa == 0 and la == 0:
                        same += 1
                    else:
                        print(f"DIFF {k} {attr}.{f}: alignment: witness {wv}, library {lv}")
                        bad += 1
                    continue
                if leaf in prof.ids:
                    skipped.append(f)
                    continue
                if wv != lv:
                    print(f"DIFF {k} {attr}.{f}: witness {wv}, library {lv}")
                    bad += 1
                else:
                    same += 1
        note = f"; ids not compared: {', '.join(sorted(set(skipped)))}" if skipped else ""
        print(f"same {k}: {same} fields{note}")
    print(f"compare-{prof.driver}: {len(prof.want)} pairs, {bad} difference(s)")
    return 1 if bad else 0


def main(prof, doc):
    if len(sys.argv) != 3:
        sys.exit(doc)
    wit = first(records(sys.argv[1]), prof)
    lib = first(records(sys.argv[2]), prof)
    return compare(prof, wit, lib)
