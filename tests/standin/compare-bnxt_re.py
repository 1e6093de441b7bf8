#!/usr/bin/env python3
"""The driver data the library sends to bnxt_re against what rdma-core's
libbnxt_re sends for the same requests, field by field
(tests/standin/compare_traces.py says how).

  compare-bnxt_re.py WITNESS.json LIBRARY.json

Pairs: GET_CONTEXT (its answer: bnxt_re_uctx_resp); ALLOC_PD (its answer:
pdid, dpi, dbr); CQ.CREATE; QP.CREATE of an RC QP, an RC QP on an SRQ and
a UD QP; SRQ.CREATE. Besides the bnxt_re structs, the core sizes the kernel
derives what it pins from (CQE, CAP, MAX_WR, MAX_SGE) and the QP type.
Addresses: the queue buffers (cq_va, qpsva, qprva, srqva) and the doorbell
page (dbr) on a page; the handles libbnxt_re passes (its objects' addresses:
cq_handle, qp_handle, srq_handle) on 8 bytes. Ids not compared: the
answers' pdid, dpi, cqid, qpid, srqid."""
import sys
from compare_traces import Profile, has_attr, main

PAGE = 4096


def kind(rec, a):
    name = rec.get("name", "")
    if name == "DEVICE.GET_CONTEXT":
        return "GET_CONTEXT"
    if name == "CQ.CREATE":
        return "CQ.CREATE"
    if name == "QP.CREATE":
        t = a.get("TYPE", {}).get("value", "?")
        return f"QP.CREATE {t}{' on an SRQ' if has_attr(rec, 'SRQ_HANDLE') else ''}"
    if name == "SRQ.CREATE":
        return "SRQ.CREATE"
    if name == "DEVICE.INVOKE_WRITE(ALLOC_PD)":
        return "ALLOC_PD"
    return None


PROFILE = Profile(
    driver="bnxt_re",
    want=["GET_CONTEXT", "ALLOC_PD", "CQ.CREATE", "QP.CREATE RC(2)",
          "QP.CREATE RC(2) on an SRQ", "QP.CREATE UD(4)", "SRQ.CREATE"],
    kind=kind,
    core={"CQE", "CAP", "MAX_WR", "MAX_SGE", "TYPE"},
    addresses={"cq_va": PAGE, "qpsva": PAGE, "qprva": PAGE, "srqva": PAGE, "dbr": PAGE,
               "cq_handle": 8, "qp_handle": 8, "srq_handle": 8},
    ids={"pdid", "dpi", "cqid", "qpid", "srqid"},
)

if __name__ == "__main__":
    sys.exit(main(PROFILE, __doc__))
