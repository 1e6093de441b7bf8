/*
 * Faults on the real kernel, each reported as a "FAULT" line:
 *  - file descriptors exhausted (RLIMIT_NOFILE) at GET_CONTEXT, on both
 *    paths, and at completion channel creation;
 *  - a process killed between create and destroy leaves no object behind;
 *  - the device removed (`rdma link delete`) while a context and a CQ live.
 * Whatever the kernel does, every call must return 0 or a negative errno,
 * nothing may crash, and every fd must be closed at the end. Run last: it
 * deletes rxe0 (and adds it again).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <uvio.h>
#include "kt.h"

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n - 3;	/* ".", "..", and the DIR's own fd */
}

static const char *err_name(int err)
{
	return err ? uvio_errno_name(err) : "0";
}

/* Low RLIMIT_NOFILE: no fd can be handed out from here on. */
static void no_fds(int above, struct rlimit *old)
{
	struct rlimit low;

	getrlimit(RLIMIT_NOFILE, old);
	low = *old;
	low.rlim_cur = (rlim_t)above + 1;
	for (int fd = above + 1; fd < 64; fd++)
		KT_CHECK(fcntl(fd, F_GETFD) < 0, "fd %d open above the device", fd);
	setrlimit(RLIMIT_NOFILE, &low);
}

static void fd_exhaustion(const char *name, enum uvio_path path)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx, .async_fd = -1);
	struct rlimit old;
	UVIO_OPTS(uvio_comp_channel, ch, .fd = -1);
	int fds0, e_ctx, e_ctx2, e_ch;

	KT_EQ(uvio_device_open(name, &dev), 0);
	uvio_device_set_path(dev, path);
	fds0 = count_fds();
	no_fds(uvio_device_fd(dev), &old);
	e_ctx = uvio_get_context(dev, NULL, &ctx, NULL);
	setrlimit(RLIMIT_NOFILE, &old);
	KT_EQ(e_ctx, -EMFILE);
	KT_EQ(count_fds(), fds0);	/* nothing leaked by the failure */
	/* With fds again, the same call completes the context. */
	e_ctx2 = uvio_get_context(dev, NULL, &ctx, NULL);
	KT_EQ(e_ctx2, 0);
	KT_CHECK(ctx.async_fd > 2, "async fd %d", ctx.async_fd);

	no_fds(ctx.async_fd > uvio_device_fd(dev) ? ctx.async_fd : uvio_device_fd(dev), &old);
	e_ch = uvio_create_comp_channel(dev, &ch, NULL);
	setrlimit(RLIMIT_NOFILE, &old);
	KT_EQ(e_ch, -EMFILE);
	printf("FAULT | %s, %s path, RLIMIT_NOFILE exhausted | GET_CONTEXT %s, no fd leaked; "
	       "called again with fds: %s; CREATE_COMP_CHANNEL %s, no fd leaked |\n", name,
	       uvio_path_name(path), err_name(e_ctx), err_name(e_ctx2), err_name(e_ch));
	KT_EQ(count_fds(), fds0 + 1);	/* the async fd */
	close(ctx.async_fd);
	uvio_device_close(dev);
	KT_EQ(count_fds(), fds0 - 1);
}

static void killed_between_create_and_destroy(const char *name)
{
	int p[2];
	pid_t pid;
	uint32_t handle = 0;
	int before, after;

	KT_EQ(pipe(p), 0);
	pid = fork();
	if (pid == 0) {
		struct uvio_device *dev;
		UVIO_OPTS(uvio_context, ctx);
		UVIO_OPTS(uvio_cq, cq);
		UVIO_OPTS(uvio_cq_attr, attr, .cqe = 8);

		if (uvio_device_open(name, &dev) || uvio_get_context(dev, NULL, &ctx, NULL) ||
		    uvio_create_cq(dev, &attr, NULL, &cq, NULL))
			_exit(1);
		if (write(p[1], &cq.handle, sizeof(cq.handle)) != sizeof(cq.handle))
			_exit(2);
		pause();
		_exit(0);
	}
	close(p[1]);
	KT_EQ(read(p[0], &handle, sizeof(handle)), (long)sizeof(handle));
	before = kt_rdma_res_count("cq", name, pid);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	after = kt_rdma_res_count("cq", name, pid);
	printf("FAULT | %s, process killed between CQ create and destroy | CQs of the pid: "
	       "%d before the kill, %d after |\n", name, before, after);
	KT_EQ(before, 1);
	KT_EQ(after, 0);
	close(p[0]);
}

static void device_removed(const char *name)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 8);
	char cmd[128], out[4096];
	UVIO_OPTS(uvio_comp_channel, ch);
	int fds0 = count_fds(), e_destroy, e_create, e_query, status;
	UVIO_OPTS(uvio_port_attr, port);
	bool blocked;
	pid_t del;

	KT_EQ(uvio_device_open(name, &dev), 0);
	KT_EQ(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	KT_EQ(uvio_create_comp_channel(dev, &ch, NULL), 0);
	KT_EQ(uvio_create_cq(dev, &attr, NULL, &cq, NULL), 0);

	del = fork();
	if (del == 0) {
		snprintf(cmd, sizeof(cmd), "rdma link delete %.63s", name);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	sleep(2);
	blocked = waitpid(del, &status, WNOHANG) == 0;
	e_destroy = uvio_destroy_cq(dev, cq.handle, NULL, NULL);
	e_create = uvio_create_cq(dev, &attr, NULL, &cq, NULL);
	e_query = uvio_query_port(dev, 1, &port, NULL);
	if (!e_create)
		uvio_destroy_cq(dev, cq.handle, NULL, NULL);
	close(ch.fd);
	close(ctx.async_fd);
	uvio_device_close(dev);
	if (blocked)
		waitpid(del, &status, 0);
	printf("FAULT | %s removed with a context and a CQ alive | `rdma link delete` %s; "
	       "meanwhile CQ DESTROY %s, CQ CREATE %s, QUERY_PORT %s; delete exit %d after "
	       "the last close; fds back to %d (were %d) |\n", name,
	       blocked ? "waited for the fds to close" : "returned at once",
	       err_name(e_destroy), err_name(e_create), err_name(e_query),
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1, count_fds(), fds0);
	KT_CHECK(e_destroy <= 0 && e_create <= 0 && e_query <= 0, "errors are negative errnos");
	KT_EQ(count_fds(), fds0);
	KT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "rdma link delete failed");
	kt_run("rdma link show", out, sizeof(out));
	KT_CHECK(!strstr(out, name), "%s still listed: %s", name, out);
	/* Put it back for whatever runs after. */
	snprintf(cmd, sizeof(cmd), "rdma link add %.63s type %s netdev dummy0", name,
		 strncmp(name, "siw", 3) ? "rxe" : "siw");
	KT_EQ(kt_run(cmd, out, sizeof(out)), 0);
}

int main(void)
{
	struct uvio_device_info devs[8];
	int n = uvio_list_devices(devs, 8);

	KT_CHECK(n > 0, "no device");
	for (int i = 0; i < n && i < 8; i++) {
		fd_exhaustion(devs[i].name, UVIO_PATH_IOCTL);
		fd_exhaustion(devs[i].name, UVIO_PATH_WRITE);
		killed_between_create_and_destroy(devs[i].name);
	}
	for (int i = 0; i < n && i < 8; i++)
		device_removed(devs[i].name);
	return kt_exit();
}
