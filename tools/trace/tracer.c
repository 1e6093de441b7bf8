// SPDX-License-Identifier: MIT
/*
 * The tracer's event loop.
 *
 * Started programs: the child installs a seccomp filter before exec that
 * returns SECCOMP_RET_TRACE only for ioctl(fd, RDMA_VERBS_IOCTL) (both header
 * layouts) and, unless told not to, write() and writev(): every other system
 * call runs without stopping. A command is read at the seccomp stop, the
 * tracee then runs to the exit of that one call (PTRACE_SYSCALL) and is read
 * again. The filter stays with the tracee and its children, and with no
 * tracer a traced call fails with ENOSYS; so every thread and child is kept
 * traced (only -f decides which are shown), and PTRACE_O_EXITKILL ends them
 * all if the tracer dies rather than leave them failing.
 *
 * Attached (-p): no filter can be added to a running process, so the tracee
 * stops at the entry and exit of every system call (PTRACE_SYSCALL); on
 * SIGINT or SIGTERM every thread is interrupted and detached, with any
 * signal it was about to take handed back.
 *
 * Nothing is written to a tracee, nor a register changed: results are the
 * kernel's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"
#include "record.h"
#include "render.h"
#include "report/sbuf.h"
#include "summary.h"
#include "tracer.h"

/* struct ptrace_syscall_info of Linux 5.3, spelled out: glibc 2.31 does not
 * have it and <linux/ptrace.h> clashes with <sys/ptrace.h>. */
#define TR_GET_SYSCALL_INFO 0x420e
#define TR_INFO_ENTRY 1
#define TR_INFO_EXIT 2
#define TR_INFO_SECCOMP 3
struct tr_syscall_info {
	uint8_t op;
	uint8_t pad[3];
	uint32_t arch;
	uint64_t instruction_pointer;
	uint64_t stack_pointer;
	union {
		struct { uint64_t nr; uint64_t args[6]; } entry;
		struct { int64_t rval; uint8_t is_error; } exit;
		struct { uint64_t nr; uint64_t args[6]; uint32_t ret_data; } seccomp;
	};
};

#ifndef PTRACE_EVENT_STOP
#define PTRACE_EVENT_STOP 128
#endif
#ifndef PTRACE_O_EXITKILL
#define PTRACE_O_EXITKILL (1 << 20)
#endif

#if defined(__x86_64__)
#define TR_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define TR_ARCH AUDIT_ARCH_AARCH64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TR_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__s390x__)
#define TR_ARCH AUDIT_ARCH_S390X
#elif defined(__riscv) && __riscv_xlen == 64
#define TR_ARCH AUDIT_ARCH_RISCV64
#else
#error "uverbs-trace: no seccomp architecture value for this target"
#endif

#ifndef SECCOMP_FILTER_FLAG_SPEC_ALLOW
#define SECCOMP_FILTER_FLAG_SPEC_ALLOW (1UL << 2)	/* Linux 4.17 */
#endif
#ifndef SYS_writev
#define SYS_writev __NR_writev
#endif

struct task {
	pid_t tid, tgid;
	bool shown;		/* its commands are output */
	bool in_cmd;		/* rec holds a command waiting for its exit */
	bool detached;
	struct tr_record *rec;
	struct pmem mem;
	struct task *next;
};

static const struct tracer_opts *opts;
static struct task *tasks;
static unsigned int ntasks;
static bool seccomp_mode;
static pid_t leader;		/* the program started, or the pid attached to */
static int leader_status = -1;
static uint64_t t0;
static volatile sig_atomic_t stop_requested;
static bool output_broken;
static unsigned long long stops, commands;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static struct task *find_task(pid_t tid)
{
	for (struct task *t = tasks; t; t = t->next)
		if (t->tid == tid)
			return t;
	return NULL;
}

static pid_t tgid_of(pid_t tid)
{
	char path[64], line[128];
	pid_t tgid = tid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return tid;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

static struct task *add_task(pid_t tid, pid_t tgid, bool shown)
{
	struct task *t = calloc(1, sizeof(*t));

	if (!t) {
		fprintf(stderr, "uverbs-trace: out of memory for task %d\n", (int)tid);
		return NULL;
	}
	t->tid = tid;
	t->tgid = tgid;
	t->shown = shown;
	pmem_init(&t->mem, tid);
	t->next = tasks;
	tasks = t;
	ntasks++;
	return t;
}

static void output(const struct tr_record *r)
{
	static char text[1 << 20];
	struct render_opts ro = { opts->json, opts->verbose, t0 };
	struct sbuf s;

	commands++;
	if (opts->summary)
		summary_add(r);
	if (!opts->lines || output_broken)
		return;
	sb_init(&s, text, sizeof(text));
	tr_render(&s, r, &ro);
	/* A line at a time, at once: a reader of -o FILE sees each command
	 * when it has run. */
	if (fwrite(s.buf, 1, s.len, opts->out) != s.len || fflush(opts->out)) {
		fprintf(stderr, "uverbs-trace: output failed (%s); tracing goes on silently\n",
			strerror(errno));
		output_broken = true;
	}
}

static void remove_task(struct task *t)
{
	for (struct task **p = &tasks; *p; p = &(*p)->next)
		if (*p == t) {
			*p = t->next;
			break;
		}
	if (t->in_cmd && t->rec)
		output(t->rec);		/* never returned: shown unfinished */
	pmem_close(&t->mem);
	free(t->rec);
	free(t);
	ntasks--;
}

/* Resume a task that is in a ptrace-stop. */
static void resume(struct task *t, int sig)
{
	int req = !seccomp_mode || t->in_cmd ? PTRACE_SYSCALL : PTRACE_CONT;

	if (ptrace((enum __ptrace_request)req, t->tid, 0, (void *)(uintptr_t)sig) && errno != ESRCH)
		fprintf(stderr, "uverbs-trace: resuming %d: %s\n", (int)t->tid, strerror(errno));
}

/* A system call is about to run: is it an RDMA command, and if so read it. */
static bool on_entry(struct task *t, const struct tr_syscall_info *si, const uint64_t *args,
		     uint64_t nr)
{
	enum tr_call call;
	struct tr_record *r;
	enum tr_fdkind kind;
	char dev[32], ibdev[32];
	uint32_t driver_id;
	int fd = (int)args[0];

	if (si->arch != TR_ARCH || !t->shown)
		return false;
	if (nr == SYS_ioctl && ((uint32_t)args[1] == UVIO_IOCTL_REQ_CURRENT ||
				(uint32_t)args[1] == UVIO_IOCTL_REQ_2017))
		call = (uint32_t)args[1] == UVIO_IOCTL_REQ_CURRENT ? TR_IOCTL : TR_IOCTL_2017;
	else if (nr == SYS_write && opts->writes)
		call = TR_WRITE;
	else if (nr == SYS_writev && opts->writes)
		call = TR_WRITEV;
	else
		return false;
	/* The request number is the verbs ABI's whatever the fd: show it. A
	 * write() is a command only on uverbs and rdma_cm. */
	kind = fd_classify(t->tid, fd, call == TR_IOCTL || call == TR_IOCTL_2017, dev, sizeof(dev),
			   ibdev, sizeof(ibdev), &driver_id);
	if ((call == TR_WRITE || call == TR_WRITEV) && kind != TR_FD_UVERBS &&
	    kind != TR_FD_RDMA_CM)
		return false;
	if (!t->rec) {
		t->rec = malloc(sizeof(*t->rec));
		if (!t->rec) {
			fprintf(stderr, "uverbs-trace: out of memory: command of %d not shown\n",
				(int)t->tid);
			return false;
		}
	}
	r = t->rec;
	r->call = call;
	r->fdkind = kind;
	r->fd = fd;
	snprintf(r->dev, sizeof(r->dev), "%s", dev);
	snprintf(r->ibdev, sizeof(r->ibdev), "%s", ibdev);
	r->driver_id = driver_id;
	r->pid = t->tgid;
	r->tid = t->tid;
	r->request = args[1];
	r->arg = call == TR_IOCTL || call == TR_IOCTL_2017 ? args[2] : args[1];
	r->count = args[2];
	tr_capture_entry(r, &t->mem.m);
	t->in_cmd = true;
	r->t_entry = now_ns();
	return true;
}

static void on_exit_stop(struct task *t, const struct tr_syscall_info *si)
{
	uint64_t t_exit = now_ns();

	if (!t->in_cmd)
		return;
	t->rec->t_exit = t_exit;
	tr_capture_exit(t->rec, &t->mem.m, si->exit.rval);
	t->in_cmd = false;
	output(t->rec);
}

static int get_info(pid_t tid, struct tr_syscall_info *si)
{
	static bool told;

	memset(si, 0, sizeof(*si));
	if (ptrace((enum __ptrace_request)TR_GET_SYSCALL_INFO, tid, (void *)sizeof(*si), si) > 0)
		return 0;
	if (errno == EIO && !told) {
		told = true;
		fprintf(stderr, "uverbs-trace: this kernel lacks PTRACE_GET_SYSCALL_INFO (Linux 5.3): "
			"no command can be read\n");
	}
	return -errno;
}

/* A new thread or child, reported by its parent's event. */
static void on_new_task(struct task *parent, pid_t child, int event)
{
	pid_t tgid = event == PTRACE_EVENT_CLONE ? tgid_of(child) : child;
	bool shown = tgid == parent->tgid ? parent->shown : opts->follow;
	struct task *t = find_task(child);

	/* Its first stop may have come before this event. */
	if (t) {
		t->tgid = tgid;
		t->shown = shown;
		return;
	}
	add_task(child, tgid, shown);
}

static bool is_stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

static void detach(struct task *t, int sig)
{
	if (ptrace(PTRACE_DETACH, t->tid, 0, (void *)(uintptr_t)sig) && errno != ESRCH)
		fprintf(stderr, "uverbs-trace: detaching %d: %s\n", (int)t->tid, strerror(errno));
	if (t->in_cmd && t->rec) {
		/* Detached between entry and exit: the result is not ours to see. */
		output(t->rec);
		t->in_cmd = false;
	}
	t->detached = true;
}

static void handle_stop(struct task *t, int status)
{
	int sig = WSTOPSIG(status), event = status >> 16;
	struct tr_syscall_info si;

	stops++;
	if (sig == (SIGTRAP | 0x80)) {
		if (get_info(t->tid, &si)) {
			resume(t, 0);
			return;
		}
		if (si.op == TR_INFO_ENTRY && !stop_requested)
			on_entry(t, &si, si.entry.args, si.entry.nr);
		else if (si.op == TR_INFO_EXIT)
			on_exit_stop(t, &si);
		if (stop_requested)
			detach(t, 0);
		else
			resume(t, 0);
		return;
	}
	if (event) {	/* WSTOPSIG is the stop signal for a group-stop's EVENT_STOP */
		unsigned long msg = 0;

		switch (event) {
		case PTRACE_EVENT_SECCOMP:
			if (!get_info(t->tid, &si) && si.op == TR_INFO_SECCOMP)
				on_entry(t, &si, si.seccomp.args, si.seccomp.nr);
			break;
		case PTRACE_EVENT_CLONE:
		case PTRACE_EVENT_FORK:
		case PTRACE_EVENT_VFORK:
			if (!ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &msg))
				on_new_task(t, (pid_t)msg, event);
			break;
		case PTRACE_EVENT_EXEC:
			/* A thread other than the leader exec'd: it now has the
			 * leader's id, and the old one is gone. */
			if (!ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &msg) && (pid_t)msg != t->tid) {
				struct task *old = find_task((pid_t)msg);

				if (old)
					remove_task(old);
			}
			pmem_close(&t->mem);	/* /proc/PID/mem was the old image's */
			t->in_cmd = false;
			break;
		case PTRACE_EVENT_STOP:
			if (stop_requested) {
				detach(t, 0);
				return;
			}
			if (is_stop_signal(WSTOPSIG(status))) {
				/* group-stop: stay stopped, but report SIGCONT */
				ptrace(PTRACE_LISTEN, t->tid, 0, 0);
				return;
			}
			break;
		}
		if (stop_requested)
			detach(t, 0);
		else
			resume(t, 0);
		return;
	}
	/* A signal for the tracee: it gets it, as it would untraced. */
	if (stop_requested)
		detach(t, sig);
	else
		resume(t, sig);
}

static int install_filter(bool writes)
{
	/* Little-endian: the low 32 bits of args[1] come first. */
	const unsigned int arg1_lo = offsetof(struct seccomp_data, args[1]) +
				     (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? 4 : 0);
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TR_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ioctl, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, writes ? SYS_write : 0xffffffffu, 5, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, writes ? SYS_writev : 0xffffffffu, 4, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* ioctl: only the verbs request, in both layouts */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, arg1_lo),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)UVIO_IOCTL_REQ_CURRENT, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)UVIO_IOCTL_REQ_2017, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { (unsigned short)(sizeof(f) / sizeof(f[0])), f };

	/* SPEC_ALLOW: a seccomp filter would otherwise turn on the kernel's
	 * speculative store bypass mitigation for the program, which is not
	 * the tracer's to change (and costs the program time). Kernels before
	 * 4.17 do not know the flag. */
	unsigned int flags = SECCOMP_FILTER_FLAG_SPEC_ALLOW;

	for (;;) {
		if (!syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog))
			return 0;
		if (errno == EINVAL && flags) {
			flags = 0;
			continue;
		}
		/* Without CAP_SYS_ADMIN a filter needs no_new_privs (set-user-ID
		 * programs then run without their privilege): only when needed. */
		if (errno != EACCES || prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1)
			return -errno;
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			return -errno;
	}
}

static int spawn(void)
{
	int go[2], ret;
	pid_t pid;
	char c;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		close(go[1]);
		/* Wait until the tracer holds us, then filter and exec. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		close(go[0]);
		ret = install_filter(opts->writes);
		if (ret) {
			fprintf(stderr, "uverbs-trace: seccomp filter: %s\n", strerror(-ret));
			_exit(127);
		}
		execvp(opts->argv[0], opts->argv);
		fprintf(stderr, "uverbs-trace: %s: %s\n", opts->argv[0], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	if (ptrace(PTRACE_SEIZE, pid, 0, (void *)(uintptr_t)(PTRACE_O_TRACESYSGOOD |
	    PTRACE_O_TRACESECCOMP | PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK |
	    PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL))) {
		ret = -errno;
		kill(pid, SIGKILL);
		close(go[1]);
		waitpid(pid, NULL, 0);
		return ret;
	}
	add_task(pid, pid, true);
	leader = pid;
	seccomp_mode = true;
	if (write(go[1], "g", 1) != 1) {
		ret = -errno;
		kill(pid, SIGKILL);
		return ret;
	}
	close(go[1]);
	return 0;
}

/* Seize every thread of the process; loop while threads appear. */
static int attach(pid_t pid)
{
	unsigned long o = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC;
	char path[64];
	bool added = true;
	int first_err = 0;

	if (opts->follow)
		o |= PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	while (added) {
		DIR *d = opendir(path);
		struct dirent *e;

		if (!d)
			return -errno;
		added = false;
		while ((e = readdir(d))) {
			pid_t tid = (pid_t)atoi(e->d_name);

			if (tid <= 0 || find_task(tid))
				continue;
			if (ptrace(PTRACE_SEIZE, tid, 0, (void *)o)) {
				if (!first_err)
					first_err = -errno;
				continue;
			}
			add_task(tid, pid, true);
			ptrace(PTRACE_INTERRUPT, tid, 0, 0);
			added = true;
		}
		closedir(d);
	}
	leader = pid;
	seccomp_mode = false;
	return ntasks ? 0 : (first_err ? first_err : -ESRCH);
}

static void request_detach(void)
{
	/* Every task stops (PTRACE_INTERRUPT) and is detached at that stop. */
	for (struct task *t = tasks; t; t = t->next)
		if (!t->detached)
			ptrace(PTRACE_INTERRUPT, t->tid, 0, 0);
}

int tracer_run(const struct tracer_opts *o)
{
	struct sigaction sa;
	bool detach_asked = false;
	int ret;

	opts = o;
	t0 = now_ns();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: waitpid returns EINTR */
	signal(SIGPIPE, SIG_IGN);
	if (o->attach) {
		/* Before attaching: a signal then still detaches cleanly. */
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
	}
	ret = o->attach ? attach(o->attach) : spawn();
	if (ret)
		return ret;
	if (!o->attach) {
		/* The terminal's ^C reaches the program too, which decides;
		 * the tracer stays to the end (leaving would make the
		 * program's traced calls fail). */
		signal(SIGINT, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
	}

	while (ntasks) {
		int status;
		pid_t tid;
		struct task *t;

		if (stop_requested && !detach_asked) {
			detach_asked = true;
			request_detach();
		}
		tid = waitpid(-1, &status, __WALL);
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ECHILD)
				break;
			fprintf(stderr, "uverbs-trace: waitpid: %s\n", strerror(errno));
			break;
		}
		t = find_task(tid);
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (tid == leader)
				leader_status = status;
			if (t)
				remove_task(t);
			continue;
		}
		if (!WIFSTOPPED(status))
			continue;
		if (!t) {
			/* A new task's first stop, before its parent's event:
			 * a thread is shown as its process is. */
			pid_t tgid = tgid_of(tid);
			struct task *peer = NULL;

			for (struct task *p = tasks; p && !peer; p = p->next)
				if (p->tgid == tgid)
					peer = p;
			t = add_task(tid, tgid, peer ? peer->shown : opts->follow);
			if (!t)
				continue;
		}
		handle_stop(t, status);
		if (t->detached)
			remove_task(t);
	}
	if (o->summary)
		summary_print(o->out, o->json);
	if (getenv("UVERBS_TRACE_STATS"))
		fprintf(stderr, "uverbs-trace: %llu stops, %llu commands\n", stops, commands);
	if (o->attach)
		return 0;
	if (leader_status < 0)
		return 1;
	if (WIFEXITED(leader_status))
		return WEXITSTATUS(leader_status);
	return 128 + WTERMSIG(leader_status);
}
