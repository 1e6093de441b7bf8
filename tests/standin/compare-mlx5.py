#!/usr/bin/env python3
"""The driver data the library sends to mlx5 against what rdma-core's libmlx5
sends for the same requests, field by field, from two uverbs-trace --json
traces of the mlx5 boot (kt_mlx5_witness and kt_mlx5_uvio).

  compare-mlx5.py WITNESS.json LIBRARY.json

Pairs, each the first command of the kind the kernel answered 0 in each
trace: GET_CONTEXT; CQ.CREATE with 64-byte CQEs; the resize; QP.CREATE of an
RC QP, an RC QP on an SRQ, a UC and a UD QP; SRQ.CREATE; ALLOC_PD and
CREATE_AH (their answers). For each, every field of the mlx5 structs in the
driver data (UHW_IN and UHW_OUT) and the core sizes the kernel derives what
it pins from (CQE, CAP, MAX_WR, MAX_SGE) must be equal, except:
  - addresses (buf_addr, db_addr): compared by alignment (a buffer on a
    page, a doorbell record on 64 bytes), not by value;
  - ids the kernel or the process hands out (uidx, bfreg_index,
    uar_page_index, and the answers' numbers pdn, cqn, srqn, dmac).
Prints each pair and the fields compared; exits 1 on a difference or a pair
missing from either trace."""
import json
import re
import sys

PAGE = 4096
ADDRESSES = {"buf_addr": PAGE, "db_addr": 64, "sq_buf_addr": PAGE}
IDS = {"uidx", "bfreg_index", "uar_page_index", "pdn", "cqn", "srqn", "dmac"}
CORE = {"CQE", "CAP", "MAX_WR", "MAX_SGE", "TYPE"}


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
    flat, stack, key, val = {}, [], "", ""
    for ch in body[j + 1:]:
        if ch == "{":
            stack.append(key.strip())
            key, val = "", ""
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


def attrs(rec):
    """name -> fields, for the attributes compared; a write() command's
    driver data comes in its UHW_IN/UHW_OUT too (INVOKE_WRITE), its core in
    the write's decoded text."""
    got = {}
    for a in rec.get("attrs", []):
        n = a.get("name")
        if n in ("UHW_IN", "UHW_OUT") or n in CORE:
            got[n] = fields(a.get("decoded", ""))
    w = rec.get("write", {}).get("decoded", "")
    m = re.search(r"\n  cqe = (\d+)", w)
    if m:
        got["CQE"] = {"value": m.group(1)}
    return got


def kind(rec):
    """What the record is, for pairing; None for what is not compared."""
    if rec.get("ret") != 0:
        return None
    name = rec.get("name", "")
    a = attrs(rec)
    if name == "DEVICE.GET_CONTEXT":
        return "GET_CONTEXT"
    if name == "CQ.CREATE":
        return "CQ.CREATE 64" if a.get("UHW_IN", {}).get("cqe_size") == "64" else None
    if name == "DEVICE.INVOKE_WRITE(RESIZE_CQ)":
        return "RESIZE_CQ"
    if name == "QP.CREATE":
        t = a.get("TYPE", {}).get("value", "?")
        srq = any(x.get("name") == "SRQ_HANDLE" for x in rec.get("attrs", []))
        return f"QP.CREATE {t}{' on an SRQ' if srq else ''}"
    if name == "SRQ.CREATE":
        return "SRQ.CREATE"
    if name == "DEVICE.INVOKE_WRITE(ALLOC_PD)":
        return "ALLOC_PD"
    if name == "DEVICE.INVOKE_WRITE(CREATE_AH)":
        return "CREATE_AH"
    return None


WANT = ["GET_CONTEXT", "ALLOC_PD", "CQ.CREATE 64", "RESIZE_CQ", "QP.CREATE RC(2)",
        "QP.CREATE RC(2) on an SRQ", "QP.CREATE UC(3)", "QP.CREATE UD(4)", "SRQ.CREATE",
        "CREATE_AH"]


def first(recs):
    seen = {}
    for r in recs:
        k = kind(r)
        if k and k not in seen:
            seen[k] = attrs(r)
    return seen


def as_int(v):
    try:
        return int(v.split("(")[0], 0)
    except ValueError:
        return None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    wit, lib = first(records(sys.argv[1])), first(records(sys.argv[2]))
    bad = 0
    for k in WANT:
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
                if leaf in ADDRESSES and wv is not None and lv is not None:
                    a, wa, la = ADDRESSES[leaf], as_int(wv), as_int(lv)
                    if wa is not None and la is not None and wa % a == 0 and la % a == 0 or \
                       wa == 0 and la == 0:
                        same += 1
                    else:
                        print(f"DIFF {k} {attr}.{f}: alignment: witness {wv}, library {lv}")
                        bad += 1
                    continue
                if leaf in IDS:
                    skipped.append(f)
                    continue
                if wv != lv:
                    print(f"DIFF {k} {attr}.{f}: witness {wv}, library {lv}")
                    bad += 1
                else:
                    same += 1
        note = f"; ids not compared: {', '.join(sorted(set(skipped)))}" if skipped else ""
        print(f"same {k}: {same} fields{note}")
    print(f"compare-mlx5: {len(WANT)} pairs, {bad} difference(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
