#!/usr/bin/env python3
"""The driver data the library sends to efa against what rdma-core's libefa
sends for the same requests, field by field (tests/standin/compare_traces.py
says how).

  compare-efa.py WITNESS.json LIBRARY.json

Pairs: GET_CONTEXT; ALLOC_PD (its answer); CQ.CREATE with 16-byte entries,
without and with completion events (the request and the answer's sizes); QP.CREATE of a UD QP and of a DRIVER
(SRD) QP; CREATE_AH (its answer). Besides the efa structs, the core sizes
the kernel allocates from (CQE, CAP) and the QP type. No addresses: efa's
queues are the kernel's. Ids not compared: the mmap keys and doorbell
offsets the kernel hands out, pdn, cq_idx and the AH number."""
import sys
from compare_traces import Profile, main


def kind(rec, a):
    name = rec.get("name", "")
    if name == "DEVICE.GET_CONTEXT":
        return "GET_CONTEXT"
    if name == "CQ.CREATE":
        req = a.get("UHW_IN", {})
        if req.get("cq_entry_size") != "16":
            return None
        return {"0": "CQ.CREATE 16", "1": "CQ.CREATE 16 with events"}.get(req.get("flags"))
    if name == "QP.CREATE":
        return f"QP.CREATE {a.get('TYPE', {}).get('value', '?')}"
    if name == "DEVICE.INVOKE_WRITE(ALLOC_PD)":
        return "ALLOC_PD"
    if name == "DEVICE.INVOKE_WRITE(CREATE_AH)":
        return "CREATE_AH"
    return None


PROFILE = Profile(
    driver="efa",
    want=["GET_CONTEXT", "ALLOC_PD", "CQ.CREATE 16", "CQ.CREATE 16 with events",
          "QP.CREATE UD(4)", "QP.CREATE DRIVER(255)", "CREATE_AH"],
    kind=kind,
    core={"CQE", "CAP", "TYPE"},
    ids={"q_mmap_key", "db_mmap_key", "db_off", "rq_mmap_key", "rq_db_mmap_key",
         "sq_db_mmap_key", "llq_desc_mmap_key", "rq_db_offset", "sq_db_offset",
         "llq_desc_offset", "pdn", "cq_idx", "efa_address_handle"},
)

if __name__ == "__main__":
    sys.exit(main(PROFILE, __doc__))
