/* SPDX-License-Identifier: MIT */
/*
 * libibverbs' command layer, which libibverbs.so.1 exports for its
 * providers under IBVERBS_PRIVATE_34 and Debian ships no header for: the
 * few functions the benchmarks call, and their command structs (the
 * write() header, then the kernel's core struct).
 */
#ifndef UVIO_BENCH_IBV_CMD_H
#define UVIO_BENCH_IBV_CMD_H

#include <stddef.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>

struct bench_ibv_create_cq {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_create_cq core;
};
struct bench_ibv_create_qp {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_create_qp core;
};
struct bench_ibv_modify_qp {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_modify_qp core;
};

int ibv_cmd_create_cq(struct ibv_context *context, int cqe, struct ibv_comp_channel *channel,
		      int comp_vector, struct ibv_cq *cq, struct bench_ibv_create_cq *cmd,
		      size_t cmd_size, struct ib_uverbs_create_cq_resp *resp, size_t resp_size);
int ibv_cmd_destroy_cq(struct ibv_cq *cq);
int ibv_cmd_create_qp(struct ibv_pd *pd, struct ibv_qp *qp, struct ibv_qp_init_attr *attr,
		      struct bench_ibv_create_qp *cmd, size_t cmd_size,
		      struct ib_uverbs_create_qp_resp *resp, size_t resp_size);
int ibv_cmd_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
		      struct bench_ibv_modify_qp *cmd, size_t cmd_size);
int ibv_cmd_destroy_qp(struct ibv_qp *qp);

#endif
