// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5_record: what the mlx5 stand-in's engine (mlx5_engine.c) took and
 * wrote, kept so that tests can compare bytes: every send WQE as the
 * engine read it out of its ring, and every CQE as it wrote it. A test
 * fixture of libuverbs-ioctl, GPL-2.0 as the rest of the stand-in.
 *
 * Off unless asked for: the module parameter record=1 at load, or "1"
 * written to /sys/kernel/debug/mlx5_standin/enable ("0" stops it; the
 * records stay until cleared). The engine's hooks then copy each WQE and
 * CQE into one fixed arena (SD_REC_BYTES of bytes, SD_REC_MAX records, or
 * fewer with the module parameter record_max) allocated when recording is
 * first enabled and freed at rmmod: nothing is allocated per WQE. When the
 * arena or the table is full, later records are dropped and counted
 * ("lost" in the first line), so that a reader knows the record is
 * incomplete rather than seeing a hole.
 *
 * /sys/kernel/debug/mlx5_standin/record: a write of anything clears it
 * (the records, the lost count; the sequence numbers start again at 1).
 * A read gives, as text:
 *
 *   # mlx5_standin record v1: enabled E records N lost L bytes B of CAP
 *   W SEQ DEV QPN IDX RING DS NBB HEX
 *   C SEQ DEV CQN IDX RING SIZE HEX
 *
 * one line per record, oldest first (SEQ counts from 1 after a clear;
 * all numbers but HEX are decimal, QPN and CQN included):
 *  - W, a send WQE taken by the engine (once, even when the QP waits on it
 *    and reads it again): DEV the device's name (mlx5_0), QPN its QP, IDX
 *    the WQE's index (the engine's counter of 64-byte basic blocks, as the
 *    control segment must carry it, 16 bits), RING the send ring's size in
 *    basic blocks, DS the control segment's ds field (16-byte units, as
 *    read: the WQE's length), NBB the basic blocks taken (ceil(DS * 16 /
 *    64), 1 for a WQE whose ds is refused), HEX those NBB * 64 bytes in
 *    ring order (a WQE that runs past the ring's end continues with block
 *    0 of the ring, as the engine read it), two hex digits a byte. Bytes
 *    past DS * 16 are whatever the ring held there.
 *  - C, a CQE written: CQN its CQ, IDX the CQ's producer count before it
 *    (the entry is IDX mod RING), RING the CQ's entries, SIZE its CQE size
 *    (64 or 128), HEX the 64-byte CQE as written (for 128-byte CQEs, the
 *    second half, where mlx5 puts it), op_own (byte 63) included. A CQE
 *    dropped (an overrun) is not recorded.
 * Flushed WQEs of a QP in ERR are not recorded as WQEs (the engine reads
 * only their control segment); their CQEs are.
 *
 * Locking: one mutex over the arena, taken by the engine's hooks (its
 * thread, under eng_lock, process context), by a clear and by a reader for
 * the copy of one record; the text is formatted from that copy outside it.
 * A clear between two reads of one open file ends the reader's file there
 * (the generation it began with is gone).
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include "mlx5_standin.h"

enum {
	SD_REC_BYTES = 1 << 20,	/* the arena: about 8000 two-block WQEs */
	SD_REC_MAX = 16384,	/* records */
	SD_REC_NAME = 16,
	SD_REC_MAX_DATA = SD_ENG_MAX_WQE,	/* the largest record: a WQE of 16 blocks */
};

struct sd_rec {
	char kind;		/* 'W' or 'C' */
	char dev[SD_REC_NAME];
	u32 num;		/* QPN or CQN */
	u32 idx;
	u32 ring;
	u32 a, b;		/* W: ds, nbb; C: the CQE size, unused */
	u32 len;		/* bytes in the arena */
	u32 off;
	u64 seq;
};

static bool record;
module_param(record, bool, 0444);
MODULE_PARM_DESC(record, "record the send WQEs the engine takes and the CQEs it writes from load on (debugfs mlx5_standin/record; default off)");
static unsigned int record_max = SD_REC_MAX;
module_param(record_max, uint, 0444);
MODULE_PARM_DESC(record_max, "the records kept until a clear, 1 to 16384 (default 16384); later ones are counted lost");

static DEFINE_MUTEX(sd_rec_lock);
static bool sd_rec_on;		/* read without the lock by the hooks */
static struct sd_rec *sd_rec_tab;
static u8 *sd_rec_data;
static u32 sd_rec_n, sd_rec_used;
static u64 sd_rec_lost, sd_rec_gen;
static struct dentry *sd_rec_dir;

/* Under sd_rec_lock: a record of len bytes, or NULL (counted lost). */
static struct sd_rec *sd_rec_add(char kind, struct ib_device *ibdev, u32 len)
{
	struct sd_rec *r;

	if (!sd_rec_on || !sd_rec_tab)
		return NULL;
	if (sd_rec_n >= clamp_val(record_max, 1, SD_REC_MAX) || len > SD_REC_BYTES - sd_rec_used) {
		sd_rec_lost++;
		return NULL;
	}
	r = &sd_rec_tab[sd_rec_n];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	strscpy(r->dev, dev_name(&ibdev->dev), sizeof(r->dev));
	r->seq = sd_rec_n + 1;
	r->len = len;
	r->off = sd_rec_used;
	return r;
}

static void sd_rec_commit(struct sd_rec *r, const u8 *bytes)
{
	memcpy(sd_rec_data + r->off, bytes, r->len);
	sd_rec_used += r->len;
	sd_rec_n++;
}

/* The engine took the send WQE at index idx: its nbb blocks at wqe, in
 * ring order. */
void sd_rec_wqe(struct sd_qp *qp, u16 idx, const u8 *wqe, unsigned int ds, unsigned int nbb)
{
	struct sd_rec *r;

	if (!READ_ONCE(sd_rec_on))
		return;
	nbb = min_t(unsigned int, nbb, SD_REC_MAX_DATA / 64);
	mutex_lock(&sd_rec_lock);
	r = sd_rec_add('W', qp->ibqp.device, nbb * 64);
	if (r) {
		r->num = qp->qpn;
		r->idx = idx;
		r->ring = qp->sq_wqe_cnt;
		r->a = ds;
		r->b = nbb;
		sd_rec_commit(r, wqe);
	}
	mutex_unlock(&sd_rec_lock);
}

/* The engine wrote the 64-byte CQE cqe at producer count pos of cq. */
void sd_rec_cqe(struct sd_cq *cq, u32 pos, const u8 *cqe)
{
	struct sd_rec *r;

	if (!READ_ONCE(sd_rec_on))
		return;
	mutex_lock(&sd_rec_lock);
	r = sd_rec_add('C', cq->ibcq.device, 64);
	if (r) {
		r->num = cq->cqn;
		r->idx = pos;
		r->ring = cq->ibcq.cqe + 1;
		r->a = cq->cqe_size;
		sd_rec_commit(r, cqe);
	}
	mutex_unlock(&sd_rec_lock);
}

/* The arena, allocated once (outside the lock: vmalloc sleeps). */
static int sd_rec_alloc(void)
{
	struct sd_rec *tab;
	u8 *data;

	mutex_lock(&sd_rec_lock);
	tab = sd_rec_tab;
	mutex_unlock(&sd_rec_lock);
	if (tab)
		return 0;
	tab = vzalloc(array_size(SD_REC_MAX, sizeof(*tab)));
	data = vzalloc(SD_REC_BYTES);
	if (!tab || !data) {
		vfree(tab);
		vfree(data);
		return -ENOMEM;
	}
	mutex_lock(&sd_rec_lock);
	if (!sd_rec_tab) {
		sd_rec_tab = tab;
		sd_rec_data = data;
		tab = NULL;
		data = NULL;
	}
	mutex_unlock(&sd_rec_lock);
	vfree(tab);		/* another enable was first */
	vfree(data);
	return 0;
}

static int sd_rec_enable(bool on)
{
	int err = on ? sd_rec_alloc() : 0;

	if (err)
		return err;
	mutex_lock(&sd_rec_lock);
	WRITE_ONCE(sd_rec_on, on);
	mutex_unlock(&sd_rec_lock);
	return 0;
}

/* ---- debugfs: enable -------------------------------------------------------- */

static ssize_t sd_rec_enable_read(struct file *f, char __user *buf, size_t n, loff_t *pos)
{
	char s[3] = { READ_ONCE(sd_rec_on) ? '1' : '0', '\n', 0 };

	return simple_read_from_buffer(buf, n, pos, s, 2);
}

static ssize_t sd_rec_enable_write(struct file *f, const char __user *buf, size_t n,
				   loff_t *pos)
{
	bool on;
	int err = kstrtobool_from_user(buf, n, &on);

	if (err)
		return err;
	err = sd_rec_enable(on);
	return err ? err : n;
}

static const struct file_operations sd_rec_enable_fops = {
	.owner = THIS_MODULE,
	.read = sd_rec_enable_read,
	.write = sd_rec_enable_write,
	.llseek = default_llseek,
};

/* ---- debugfs: record --------------------------------------------------------- */

/* One reader's copy of the record it formats, and the generation it read. */
struct sd_rec_reader {
	u64 gen;
	bool gen_set;
	struct sd_rec r;
	u8 bytes[SD_REC_MAX_DATA];
};

/* Position 0 is the header line, n > 0 the record n - 1. */
static void *sd_rec_start(struct seq_file *m, loff_t *pos)
{
	struct sd_rec_reader *rd = m->private;
	void *ret = NULL;

	mutex_lock(&sd_rec_lock);
	if (!rd->gen_set) {
		rd->gen = sd_rec_gen;
		rd->gen_set = true;
	}
	if (*pos == 0) {
		ret = SEQ_START_TOKEN;
	} else if (rd->gen == sd_rec_gen && *pos <= sd_rec_n) {
		rd->r = sd_rec_tab[*pos - 1];
		memcpy(rd->bytes, sd_rec_data + rd->r.off, rd->r.len);
		ret = &rd->r;
	}
	mutex_unlock(&sd_rec_lock);
	return ret;
}

static void *sd_rec_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return sd_rec_start(m, pos);
}

static void sd_rec_stop(struct seq_file *m, void *v)
{
}

static int sd_rec_show(struct seq_file *m, void *v)
{
	struct sd_rec_reader *rd = m->private;
	const struct sd_rec *r = v;
	u32 i;

	if (v == SEQ_START_TOKEN) {
		mutex_lock(&sd_rec_lock);
		seq_printf(m, "# mlx5_standin record v1: enabled %d records %u lost %llu bytes %u of %u\n",
			   sd_rec_on, sd_rec_n, sd_rec_lost, sd_rec_used,
			   sd_rec_tab ? SD_REC_BYTES : 0);
		mutex_unlock(&sd_rec_lock);
		return 0;
	}
	if (r->kind == 'W')
		seq_printf(m, "W %llu %s %u %u %u %u %u ", r->seq, r->dev, r->num, r->idx, r->ring,
			   r->a, r->b);
	else
		seq_printf(m, "C %llu %s %u %u %u %u ", r->seq, r->dev, r->num, r->idx, r->ring,
			   r->a);
	for (i = 0; i < r->len; i += 64)	/* "%*phN" prints at most 64 bytes */
		seq_printf(m, "%*phN", (int)min_t(u32, 64, r->len - i), rd->bytes + i);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations sd_rec_seq_ops = {
	.start = sd_rec_start,
	.next = sd_rec_next,
	.stop = sd_rec_stop,
	.show = sd_rec_show,
};

static int sd_rec_open(struct inode *inode, struct file *f)
{
	if (!(f->f_mode & FMODE_READ))
		return 0;	/* a clear */
	return seq_open_private(f, &sd_rec_seq_ops, sizeof(struct sd_rec_reader));
}

static int sd_rec_release(struct inode *inode, struct file *f)
{
	if (!(f->f_mode & FMODE_READ))
		return 0;
	return seq_release_private(inode, f);
}

static ssize_t sd_rec_write(struct file *f, const char __user *buf, size_t n, loff_t *pos)
{
	mutex_lock(&sd_rec_lock);
	sd_rec_n = 0;
	sd_rec_used = 0;
	sd_rec_lost = 0;
	sd_rec_gen++;
	mutex_unlock(&sd_rec_lock);
	return n;
}

static ssize_t sd_rec_read(struct file *f, char __user *buf, size_t n, loff_t *pos)
{
	if (!(f->f_mode & FMODE_READ))
		return -EBADF;
	return seq_read(f, buf, n, pos);
}

/* A file opened for writing alone has no seq_file to seek in. */
static loff_t sd_rec_llseek(struct file *f, loff_t off, int whence)
{
	if (!(f->f_mode & FMODE_READ))
		return noop_llseek(f, off, whence);
	return seq_lseek(f, off, whence);
}

static const struct file_operations sd_rec_fops = {
	.owner = THIS_MODULE,
	.open = sd_rec_open,
	.read = sd_rec_read,
	.write = sd_rec_write,
	.llseek = sd_rec_llseek,
	.release = sd_rec_release,
};

int sd_record_init(void)
{
	int err = record ? sd_rec_enable(true) : 0;

	if (err)
		return err;
	/* debugfs may be absent (or off): the module works without its record */
	sd_rec_dir = debugfs_create_dir("mlx5_standin", NULL);
	debugfs_create_file("record", 0600, sd_rec_dir, NULL, &sd_rec_fops);
	debugfs_create_file("enable", 0600, sd_rec_dir, NULL, &sd_rec_enable_fops);
	return 0;
}

/* After the engines stopped: no hook runs; debugfs_remove_recursive()
 * waits for the file operations under way. */
void sd_record_exit(void)
{
	debugfs_remove_recursive(sd_rec_dir);
	sd_rec_dir = NULL;
	sd_rec_on = false;
	vfree(sd_rec_tab);
	vfree(sd_rec_data);
	sd_rec_tab = NULL;
	sd_rec_data = NULL;
}
