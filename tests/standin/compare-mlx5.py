#!/usr/bin/env python3
"""The driver data the library sends to mlx5 against what rdma-core's libmlx5
sends for the same requests, field by field (tests/standin/compare_traces.py
says how).

  compare-mlx5.py WITNESS.json LIBRARY.json

Pairs: GET_CONTEXT; CQ.CREATE with 64-byte CQEs; the resize; QP.CREATE of an
RC QP, an RC QP on an SRQ, a UC and a UD QP; SRQ.CREATE; ALLOC_PD and
CREATE_AH (their answers). Besides the mlx5 structs, the core sizes the
kernel derives what it pins from (CQE, CAP, MAX_WR, MAX_SGE) and the QP
type. Addresses: buffers on a page, doorbell records on 64 bytes. Ids not
compared: uidx, bfreg_index, uar_page_index and the answers' pdn, cqn,
srqn, dmac."""
import sys
from compare_traces import Profile, has_attr, main

PAGE = 4096


def kind(rec, a):
    name = rec.get("name", "")
    if name == "DEVICE.GET_CONTEXT":
        return "GET_CONTEXT"
    if name == "CQ.CREATE":
        return "CQ.CREATE 64" if a.get("UHW_IN", {}).get("cqe_size") == "64" else None
    if name == "DEVICE.INVOKE_WRITE(RESIZE_CQ)":
        return "RESIZE_CQ"
    if name == "QP.CREATE":
        t = a.get("TYPE", {}).get("value", "?")
        return f"QP.CREATE {t}{' on an SRQ' if has_attr(rec, 'SRQ_HANDLE') else ''}"
    if name == "SRQ.CREATE":
        return "SRQ.CREATE"
    if name == "DEVICE.INVOKE_WRITE(ALLOC_PD)":
        return "ALLOC_PD"
    if name == "DEVICE.INVOKE_WRITE(CREATE_AH)":
        return "CREATE_AH"
    return None


PROFILE = Profile(
    driver="mlx5",
    want=["GET_CONTEXT", "ALLOC_PD", "CQ.CREATE 64", "RESIZE_CQ", "QP.CREATE RC(2)",
          "QP.CREATE RC(2) on an SRQ", "QP.CREATE UC(3)", "QP.CREATE UD(4)", "SRQ.CREATE",
          "CREATE_AH"],
    kind=kind,
    core={"CQE", "CAP", "MAX_WR", "MAX_SGE", "TYPE"},
    addresses={"buf_addr": PAGE, "db_addr": 64, "sq_buf_addr": PAGE},
    ids={"uidx", "bfreg_index", "uar_page_index", "pdn", "cqn", "srqn", "dmac"},
)

if __name__ == "__main__":
    sys.exit(main(PROFILE, __doc__))
