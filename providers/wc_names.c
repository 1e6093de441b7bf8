// SPDX-License-Identifier: MIT
/* Work completion status and opcode names, as libibverbs users know them. */
#include <uvio/dp.h>

UVIO_API const char *uvio_wc_status_name(uint32_t status)
{
	static const char *const names[] = {
		[UVIO_WC_SUCCESS] = "SUCCESS",
		[UVIO_WC_LOC_LEN_ERR] = "LOC_LEN_ERR",
		[UVIO_WC_LOC_QP_OP_ERR] = "LOC_QP_OP_ERR",
		[UVIO_WC_LOC_EEC_OP_ERR] = "LOC_EEC_OP_ERR",
		[UVIO_WC_LOC_PROT_ERR] = "LOC_PROT_ERR",
		[UVIO_WC_WR_FLUSH_ERR] = "WR_FLUSH_ERR",
		[UVIO_WC_MW_BIND_ERR] = "MW_BIND_ERR",
		[UVIO_WC_BAD_RESP_ERR] = "BAD_RESP_ERR",
		[UVIO_WC_LOC_ACCESS_ERR] = "LOC_ACCESS_ERR",
		[UVIO_WC_REM_INV_REQ_ERR] = "REM_INV_REQ_ERR",
		[UVIO_WC_REM_ACCESS_ERR] = "REM_ACCESS_ERR",
		[UVIO_WC_REM_OP_ERR] = "REM_OP_ERR",
		[UVIO_WC_RETRY_EXC_ERR] = "RETRY_EXC_ERR",
		[UVIO_WC_RNR_RETRY_EXC_ERR] = "RNR_RETRY_EXC_ERR",
		[UVIO_WC_LOC_RDD_VIOL_ERR] = "LOC_RDD_VIOL_ERR",
		[UVIO_WC_REM_INV_RD_REQ_ERR] = "REM_INV_RD_REQ_ERR",
		[UVIO_WC_REM_ABORT_ERR] = "REM_ABORT_ERR",
		[UVIO_WC_INV_EECN_ERR] = "INV_EECN_ERR",
		[UVIO_WC_INV_EEC_STATE_ERR] = "INV_EEC_STATE_ERR",
		[UVIO_WC_FATAL_ERR] = "FATAL_ERR",
		[UVIO_WC_RESP_TIMEOUT_ERR] = "RESP_TIMEOUT_ERR",
		[UVIO_WC_GENERAL_ERR] = "GENERAL_ERR",
	};

	return status < sizeof(names) / sizeof(names[0]) ? names[status] : NULL;
}

UVIO_API const char *uvio_wc_opcode_name(uint32_t opcode)
{
	switch (opcode) {
	case UVIO_WC_SEND: return "SEND";
	case UVIO_WC_RDMA_WRITE: return "RDMA_WRITE";
	case UVIO_WC_RDMA_READ: return "RDMA_READ";
	case UVIO_WC_COMP_SWAP: return "COMP_SWAP";
	case UVIO_WC_FETCH_ADD: return "FETCH_ADD";
	case UVIO_WC_BIND_MW: return "BIND_MW";
	case UVIO_WC_LOCAL_INV: return "LOCAL_INV";
	case UVIO_WC_RECV: return "RECV";
	case UVIO_WC_RECV_RDMA_WITH_IMM: return "RECV_RDMA_WITH_IMM";
	default: return NULL;
	}
}
