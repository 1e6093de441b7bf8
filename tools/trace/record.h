/* SPDX-License-Identifier: MIT */
/*
 * One RDMA command of a traced program: what it asked (read from its memory
 * before the system call ran), what the kernel answered and left in its
 * memory after, and how long it took. Filled by capture.c, shown by render.c.
 * Every byte here came from the tracee and may be anything.
 */
#ifndef UVIO_TRACE_RECORD_H
#define UVIO_TRACE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <uvio.h>

/* The kernel copies at most a page of ioctl command; a write() command that
 * long is already absurd. */
#define TR_MAX_CMD 4096u
/* Bytes kept of one buffer an attribute or a write() command points to. */
#define TR_MAX_DATA 4096u
/* Bytes kept of all those buffers of one command. */
#define TR_MAX_PAYLOAD (64u * 1024u)
/* iovecs of one writev() shown (each is a command). */
#define TR_MAX_IOV 8u

/* Tracee memory: read up to len bytes at addr. Returns the bytes read, which
 * is less than len where the tracee's memory ends or is unmapped (0 when the
 * first byte is), or a negative errno when the tracee cannot be read. */
struct tmem {
	ssize_t (*read)(struct tmem *m, uint64_t addr, void *buf, size_t len);
};

enum tr_call {
	TR_IOCTL,		/* RDMA_VERBS_IOCTL, 24-byte header */
	TR_IOCTL_2017,		/* the 16-byte header of 4.14-4.16 */
	TR_WRITE,		/* write() */
	TR_WRITEV,		/* writev(): one command per iovec */
};

enum tr_fdkind {
	TR_FD_UNKNOWN,		/* could not be told (the process is gone...) */
	TR_FD_UVERBS,
	TR_FD_RDMA_CM,
	TR_FD_OTHER,
};

/* A buffer of the tracee: where, how much was asked for, how much could
 * be read (got < want: cut to TR_MAX_DATA, or a fault), and where the bytes
 * are in the record's payload. */
struct tr_buf {
	uint64_t addr;
	uint32_t want;		/* bytes the command says */
	uint32_t got;		/* bytes read */
	uint32_t off;		/* in payload */
	bool fault;		/* the read stopped at unreadable memory */
	bool cut;		/* want was over TR_MAX_DATA or the payload was full */
	bool read;		/* a read was attempted */
};

struct tr_attr {
	uint8_t kind;		/* enum uvio_attr_kind, 0 when unknown */
	struct tr_buf in;	/* pointed-to input, read before the call */
	struct tr_buf out;	/* pointed-to output, read after the call */
};

/* A write() command's parts (a whole write(), one iovec, or the command
 * INVOKE_WRITE carries). */
struct tr_wcmd {
	struct tr_buf cmd;	/* the bytes written */
	struct tr_buf resp;	/* the response the kernel wrote, after */
};

struct tr_record {
	/* the system call */
	enum tr_call call;
	enum tr_fdkind fdkind;
	int fd;
	char dev[32];		/* uverbs0, rdma_cm */
	char ibdev[32];		/* rxe0 */
	uint32_t driver_id;	/* the device's enum rdma_driver_id, 0: not known */
	pid_t pid, tid;
	uint64_t arg;		/* ioctl argument, or write()/writev() buffer */
	uint64_t count;		/* write() count, writev() iovcnt */
	uint64_t request;	/* ioctl request */
	uint64_t t_entry, t_exit;	/* ns, CLOCK_MONOTONIC of the tracer */
	bool done;		/* the call returned (else: unfinished) */
	int64_t ret;		/* the system call's return, -errno on failure */

	/* ioctl: the command before the call, the attributes after */
	uint8_t cmd[TR_MAX_CMD];
	uint32_t cmd_want;	/* bytes the header claims (or the attrs need) */
	uint32_t cmd_len;	/* bytes read */
	bool cmd_fault;
	uint8_t after[TR_MAX_CMD];
	uint32_t after_len;
	/* As many as a page holds after the smaller header (the 2017
	 * layout's 16 bytes: 255, one more than today's layout). */
	struct tr_attr attrs[(TR_MAX_CMD - sizeof(struct uvio_ioctl_hdr_2017)) /
			     sizeof(struct ib_uverbs_attr)];
	uint32_t nattrs;	/* attribute records present in cmd */

	/* write(), writev() and INVOKE_WRITE */
	struct tr_wcmd w[TR_MAX_IOV];
	uint32_t nw;		/* commands decoded */
	uint32_t niov;		/* writev(): iovecs in the call */
	bool iov_fault;

	uint8_t payload[TR_MAX_PAYLOAD];
	uint32_t payload_len;
};

/* Before the call: read the command and its inputs. */
void tr_capture_entry(struct tr_record *r, struct tmem *m);
/* After it: the result and every output. */
void tr_capture_exit(struct tr_record *r, struct tmem *m, int64_t ret);

/* The driver a command is for: an ioctl header's driver_id, else the
 * device's (write(), the 2017 layout). */
uint32_t tr_driver_id(const struct tr_record *r);
/* The attribute's kind as the library's tables give it, in the driver's
 * namespace too (0 if unknown). */
int tr_attr_kind(uint32_t driver_id, uint16_t object_id, uint16_t method_id, uint16_t attr_id);
/* 1 when the attribute makes an object (access "new"), -1 when it ends one
 * ("destroy"), 0 otherwise; *of_object is then the object's id. */
int tr_attr_lifecycle(uint32_t driver_id, uint16_t object_id, uint16_t method_id,
		      uint16_t attr_id, uint16_t *of_object);

static inline const uint8_t *tr_bytes(const struct tr_record *r, const struct tr_buf *b)
{
	return r->payload + b->off;
}

#endif
