#!/usr/bin/env python3
"""The driver data the library sends to irdma against what rdma-core's
libirdma sends for the same requests, field by field (tests/standin/
compare_traces.py says how).

  compare-irdma.py WITNESS.json LIBRARY.json

Pairs: GET_CONTEXT (request and answer); ALLOC_PD (the context's own PD,
the first of both); REG_MR of each kind of region (irdma_mem_reg_req:
reg_type MEM, CQ and QP, with the page counts), the first of each kind being
the plain MR, a CQ's buffer (16 CQEs) and the RC QP's queues; CQ.CREATE
(16 CQEs: the count sent, irdma_create_cq_req and the answer); QP.CREATE of
an RC and a UD QP (the caps sent in quanta, the type, irdma_create_qp_req and
the answer); the AH's answer. REG_MR's response space is not compared:
irdma answers a registration in the core response alone, and the library
offers its default driver response space where libibverbs offers none.
Addresses: the CQ buffer, shadow area and QP queues on a 4 KiB page. Ids not
compared: pd_id, cq_id, qp_id, ah_id, and user_compl_ctx (each library's
own record of the QP, echoed in completions)."""
import sys
from compare_traces import Profile, main

PAGE = 4096
REG_TYPES = {"0": "MEM", "1": "QP", "2": "CQ"}


def kind(rec, a):
    name = rec.get("name", "")
    uin = a.get("UHW_IN", {})
    if name == "DEVICE.GET_CONTEXT":
        return "GET_CONTEXT"
    if "ALLOC_PD" in name:
        return "ALLOC_PD"
    if "reg_type" in uin:
        a.pop("UHW_OUT", None)
        return f"REG_MR {REG_TYPES.get(uin['reg_type'], uin['reg_type'])}"
    if "user_cq_buf" in uin:
        return "CQ.CREATE"
    if "user_wqe_bufs" in uin:
        return f"QP.CREATE {a.get('TYPE', {}).get('value', '?')}"
    if "CREATE_AH" in name or name == "AH.CREATE":
        return "CREATE_AH"
    return None


PROFILE = Profile(
    driver="irdma",
    want=["GET_CONTEXT", "ALLOC_PD", "REG_MR MEM", "REG_MR CQ", "CQ.CREATE", "REG_MR QP",
          "QP.CREATE RC(2)", "QP.CREATE UD(4)", "CREATE_AH"],
    kind=kind,
    core={"CQE", "CAP", "TYPE"},
    addresses={"user_cq_buf": PAGE, "user_shadow_area": PAGE, "user_wqe_bufs": PAGE},
    ids={"pd_id", "cq_id", "qp_id", "ah_id", "user_compl_ctx"},
)

if __name__ == "__main__":
    sys.exit(main(PROFILE, __doc__))
