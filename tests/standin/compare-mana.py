#!/usr/bin/env python3
"""The driver data the library sends to mana against what rdma-core's
libmana sends for the same requests, field by field (tests/standin/compare_traces.py
says how).

  compare-mana.py WITNESS.json LIBRARY.json

Pairs: GET_CONTEXT and ALLOC_PD (no driver data either way: both must
carry none); CQ.CREATE (the library's half: the request cut to buf_addr, as
libmana 44's); QP.CREATE of a RAW_PACKET QP (the half's: send queue buffer
and size, port; the answer); WQ.CREATE and QP.CREATE over an indirection
table (RSS), whose requests the library's program builds as libmana does.
Besides the mana structs, the core sizes (CQE, CAP) and the QP type. The
buffers' addresses are compared by their alignment (mana_ib pins them at
offset 0 of a 4 KiB page). The QP's answer is bytes (the decoder cannot
tell a raw QP's from an RC QP's); its queue ids are the stand-in's, handed
out in the same order to both programs, so they are compared."""
import sys
from compare_traces import Profile, main


def kind(rec, a):
    name = rec.get("name", "")
    # A caller's uvio_drv without an answer space gets the library's
    # default one (zeros where the driver writes none): no driver data.
    out = a.get("UHW_OUT", {}).get("value", "")
    if out.startswith("(mana writes none)") and set(out.split()[-1]) <= set("0:"):
        del a["UHW_OUT"]
    if name == "DEVICE.GET_CONTEXT":
        return "GET_CONTEXT"
    if name == "DEVICE.INVOKE_WRITE(ALLOC_PD)":
        return "ALLOC_PD"
    if name == "CQ.CREATE":
        return "CQ.CREATE"
    if name == "WQ.CREATE" or "CREATE_WQ" in name:
        return "WQ.CREATE"
    if name == "QP.CREATE" or "CREATE_QP" in name:
        rss = "rx_hash_function" in a.get("UHW_IN", {})
        return "QP.CREATE RSS" if rss else f"QP.CREATE {a.get('TYPE', {}).get('value', '?')}"
    return None


PROFILE = Profile(
    driver="mana",
    want=["GET_CONTEXT", "ALLOC_PD", "CQ.CREATE", "QP.CREATE RAW_PACKET(8)", "WQ.CREATE",
          "QP.CREATE RSS"],
    kind=kind,
    core={"CQE", "CAP", "TYPE"},
    addresses={"buf_addr": 4096, "sq_buf_addr": 4096, "wq_buf_addr": 4096},
)

if __name__ == "__main__":
    sys.exit(main(PROFILE, __doc__))
