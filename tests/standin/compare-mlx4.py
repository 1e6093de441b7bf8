#!/usr/bin/env python3
"""The driver data the library sends to mlx4 against what rdma-core's libmlx4
sends for the same requests, field by field (tests/standin/compare_traces.py
says how).

  compare-mlx4.py WITNESS.json LIBRARY.json

Pairs: GET_CONTEXT (its answer); ALLOC_PD (its answer); CQ.CREATE; the
resize; QP.CREATE of an RC QP, an RC QP on an SRQ, a UC and a UD QP;
SRQ.CREATE. Besides the mlx4 structs (log_sq_bb_count, log_sq_stride,
sq_no_prefetch, the reserved fields), the core sizes the kernel derives what
it pins from (CQE, CAP, MAX_WR, MAX_SGE) and the QP type. ALLOC_PD's
answer is mlx4_ib_alloc_pd_resp, of which mlx4_ib writes the pdn alone: its
reserved word holds whatever the caller's buffer held (libmlx4's is on its
stack, uninitialised), so it is not compared. Addresses:
buffers on a page, doorbell records on 4 bytes (receive records are 4 bytes
apart, CQ records 8). Ids not compared: the answers' pdn, cqn, srqn."""
import sys
from compare_traces import Profile, has_attr, main

PAGE = 4096


def kind(rec, a):
    name = rec.get("name", "")
    if name == "DEVICE.GET_CONTEXT":
        return "GET_CONTEXT"
    if name == "CQ.CREATE":
        return "CQ.CREATE"
    if name == "DEVICE.INVOKE_WRITE(RESIZE_CQ)":
        return "RESIZE_CQ"
    if name == "QP.CREATE":
        t = a.get("TYPE", {}).get("value", "?")
        return f"QP.CREATE {t}{' on an SRQ' if has_attr(rec, 'SRQ_HANDLE') else ''}"
    if name == "SRQ.CREATE":
        return "SRQ.CREATE"
    if name == "DEVICE.INVOKE_WRITE(ALLOC_PD)":
        # the kernel never writes it: the caller's memory, not an answer
        a.get("UHW_OUT", {}).pop("reserved", None)
        return "ALLOC_PD"
    return None


PROFILE = Profile(
    driver="mlx4",
    want=["GET_CONTEXT", "ALLOC_PD", "CQ.CREATE", "RESIZE_CQ", "QP.CREATE RC(2)",
          "QP.CREATE RC(2) on an SRQ", "QP.CREATE UC(3)", "QP.CREATE UD(4)", "SRQ.CREATE"],
    kind=kind,
    core={"CQE", "CAP", "MAX_WR", "MAX_SGE", "TYPE"},
    addresses={"buf_addr": PAGE, "db_addr": 4},
    ids={"pdn", "cqn", "srqn"},
)

if __name__ == "__main__":
    sys.exit(main(PROFILE, __doc__))
