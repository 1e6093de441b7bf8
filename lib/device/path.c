// SPDX-License-Identifier: MIT
/*
 * Which command path a device takes, decided by the kernel's answers:
 *  - ENOTTY on today's ioctl means the kernel (or a filter in front of it)
 *    has no verbs ioctl: the whole device moves on, once, to the 2017 layout
 *    where the running kernel is one of the few that had it, else to write().
 *  - EPROTONOSUPPORT for one method means this kernel lacks that method on
 *    ioctl (CQ methods on about 4.16-5.8): that verb alone moves to its
 *    write() command, carried by DEVICE/INVOKE_WRITE where the kernel has
 *    it (5.0 on), else by write().
 *  - A verb with only a write() command tries INVOKE_WRITE first on the
 *    ioctl path; EPROTONOSUPPORT there moves every such verb to write().
 * Both are cached, so once known every verb costs one syscall. The state is
 * atomic: threads racing on a fresh device get the same answers and so
 * agree on the path.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <syslog.h>
#include <uvio/diag.h>
#include <rdma/ib_user_verbs.h>

#include "report/report.h"
#include "device/dev.h"
#include "device/path.h"

/*
 * The word of struct uvio_path_state: bits 0-3 the device's path (AUTO:
 * nothing answered yet), bit 4 set once that path answered anything but
 * ENOTTY, bit 5 set once INVOKE_WRITE answered EPROTONOSUPPORT, bits 8-11
 * the pinned path (AUTO: decide by answers).
 */
#define PS_PATH 0x0fu
#define PS_DECIDED 0x10u
#define PS_NO_INVOKE_WRITE 0x20u
#define PS_PIN_SHIFT 8
_Static_assert(UVIO_PATH_SYSFS <= PS_PATH, "a path fits in four bits");

static inline uint32_t ps_word(const struct uvio_path_state *s)
{
	return atomic_load_explicit(&s->word, memory_order_relaxed);
}

static inline enum uvio_path ps_pinned(uint32_t w)
{
	return (enum uvio_path)((w >> PS_PIN_SHIFT) & PS_PATH);
}

static inline enum uvio_path ps_path(uint32_t w)
{
	return (enum uvio_path)(w & PS_PATH);
}

static void forget_verb_paths(struct uvio_path_state *s)
{
	for (size_t i = 0; i < UVIO_VERB_SLOTS; i++)
		atomic_store_explicit(&s->verb_path[i], UVIO_PATH_AUTO, memory_order_relaxed);
}

void uvio_path_init(struct uvio_path_state *s, enum uvio_path pinned)
{
	memset(s, 0, sizeof(*s));
	atomic_init(&s->word, (uint32_t)pinned << PS_PIN_SHIFT);
}

/* The 2017 layout only ever existed in 4.14 to 4.16. Asked when a device
 * meets ENOTTY, not at open: a kernel with today's ioctl never needs the
 * answer. Read without sscanf. The kernel does not change under a
 * process, so the answer is kept (threads that race compute the same). */
static bool kernel_may_have_2017_layout(void)
{
	static _Atomic int known;	/* 0 not yet, 1 no, 2 yes */
	int k = atomic_load_explicit(&known, memory_order_relaxed);
	struct utsname u;
	unsigned long minor;
	char *end;

	if (k)
		return k == 2;
	k = 1;
	if (!uname(&u) && !strncmp(u.release, "4.", 2)) {
		minor = strtoul(u.release + 2, &end, 10);
		if (end != u.release + 2 && minor >= 14 && minor <= 16)
			k = 2;
	}
	atomic_store_explicit(&known, k, memory_order_relaxed);
	return k == 2;
}

void uvio_path_pin(struct uvio_path_state *s, enum uvio_path path)
{
	uint32_t w = ps_word(s);

	while (!atomic_compare_exchange_weak(&s->word, &w,
					     (w & ~(PS_PATH << PS_PIN_SHIFT)) |
					     (uint32_t)path << PS_PIN_SHIFT))
		;
	forget_verb_paths(s);
}

enum uvio_path uvio_path_current(const struct uvio_path_state *s)
{
	uint32_t w = ps_word(s);

	return ps_pinned(w) != UVIO_PATH_AUTO ? ps_pinned(w) : ps_path(w);
}

uint64_t uvio_path_fallbacks(const struct uvio_path_state *s)
{
	return atomic_load_explicit(&s->fallbacks, memory_order_relaxed);
}

bool uvio_path_decided(const struct uvio_path_state *s)
{
	return ps_word(s) & PS_DECIDED;
}

enum uvio_path uvio_path_remembered(const struct uvio_path_state *s, unsigned int verb)
{
	return (enum uvio_path)atomic_load_explicit(&s->verb_path[verb], memory_order_relaxed);
}

static bool native_missing(const struct uvio_path_state *s, unsigned int verb)
{
	return atomic_load_explicit(&s->native_missing[verb / 64], memory_order_relaxed) &
	       (1ull << (verb % 64));
}

enum uvio_path uvio_path_pick(const struct uvio_path_state *s, unsigned int verb,
			      unsigned int has)
{
	bool native = has & UVIO_HAS_NATIVE, write = has & UVIO_HAS_WRITE;
	uint32_t w = ps_word(s);
	enum uvio_path p = ps_pinned(w);

	if (p == UVIO_PATH_AUTO) {
		p = ps_path(w);
		if (p == UVIO_PATH_AUTO)
			p = UVIO_PATH_IOCTL;
		if (p == UVIO_PATH_IOCTL && native && native_missing(s, verb))
			native = false;
		if (p == UVIO_PATH_IOCTL && !native && (w & PS_NO_INVOKE_WRITE))
			p = UVIO_PATH_WRITE;
		if (p == UVIO_PATH_IOCTL_2017 && native && native_missing(s, verb))
			p = UVIO_PATH_WRITE;
	}
	switch (p) {
	case UVIO_PATH_IOCTL:		/* the native method, else INVOKE_WRITE */
		return native ? p : write ? UVIO_PATH_INVOKE_WRITE : UVIO_PATH_AUTO;
	case UVIO_PATH_INVOKE_WRITE:	/* pinned: write() commands over the ioctl */
		return write ? p : native ? UVIO_PATH_IOCTL : UVIO_PATH_AUTO;
	case UVIO_PATH_IOCTL_2017:	/* no INVOKE_WRITE in the 2017 series */
		return native ? p : write ? UVIO_PATH_WRITE : UVIO_PATH_AUTO;
	case UVIO_PATH_WRITE:
		return write ? p : UVIO_PATH_AUTO;
	case UVIO_PATH_AUTO:
	case UVIO_PATH_SYSFS:		/* never a device's path */
		break;
	}
	return UVIO_PATH_AUTO;
}

/* A command went over `tried` and the kernel answered (not ENOTTY): that
 * path exists; an undecided device decides on it. Only the device's own
 * path decides it: a write() answer while the 2017 layout is still on
 * trial says nothing about that layout. */
static void path_answered(struct uvio_path_state *s, enum uvio_path tried)
{
	uint32_t w = ps_word(s);
	uint32_t p = tried == UVIO_PATH_INVOKE_WRITE ? UVIO_PATH_IOCTL : (uint32_t)tried;

	while (!(w & PS_DECIDED) && (ps_path(w) == UVIO_PATH_AUTO || ps_path(w) == p))
		if (atomic_compare_exchange_weak(&s->word, &w, (w & ~PS_PATH) | p | PS_DECIDED))
			break;
}

/* ENOTTY on the device's path while undecided: the whole device moves on,
 * once. Returns true when the verb should run again. */
static bool path_enotty(struct uvio_device *dev, enum uvio_path tried)
{
	struct uvio_path_state *s = &dev->paths;
	uint32_t w = ps_word(s);
	uint32_t next = tried != UVIO_PATH_IOCTL_2017 && kernel_may_have_2017_layout() ?
		UVIO_PATH_IOCTL_2017 : UVIO_PATH_WRITE;
	uint32_t mine = tried == UVIO_PATH_INVOKE_WRITE ? UVIO_PATH_IOCTL : (uint32_t)tried;

	for (;;) {
		/* Another thread's ENOTTY moved the device on (and an answer
		 * there may have decided it) while this command was out: go
		 * where the device went. */
		if (ps_path(w) != UVIO_PATH_AUTO && ps_path(w) != mine)
			return true;
		/* A path that answered before does not vanish: this ENOTTY
		 * belongs to the command (an fd number reused for something
		 * else, a filter installed since), and is reported as such. */
		if (w & PS_DECIDED)
			return false;
		if (atomic_compare_exchange_weak(&s->word, &w, (w & ~PS_PATH) | next))
			break;
	}
	/* Racing threads move it the same way; only the one that did counts. */
	atomic_fetch_add_explicit(&s->fallbacks, 1, memory_order_relaxed);
	uvio_log(LOG_INFO, "%s: verbs ioctl answered ENOTTY, using %s from now on",
		 dev->name, uvio_path_name((enum uvio_path)next));
	return true;
}

/* After an attempt on path tried: record what the answer says about the
 * device's paths and return true when the verb should run again. */
static bool path_retry(struct uvio_device *dev, unsigned int verb, unsigned int has,
		       enum uvio_path tried, int ret)
{
	struct uvio_path_state *s = &dev->paths;
	uint32_t w;

	/* A pinned device tries nothing else and learns nothing: unpinned,
	 * it starts from what it knew before. */
	if (ps_pinned(ps_word(s)) != UVIO_PATH_AUTO)
		return false;
	/* Any answer but ENOTTY proves the path exists, write() included. */
	if (ret != -ENOTTY)
		path_answered(s, tried);
	if (tried == UVIO_PATH_WRITE)
		return false;
	if (ret == -ENOTTY)
		return path_enotty(dev, tried);
	if (ret != -EPROTONOSUPPORT)
		return false;
	if (tried == UVIO_PATH_INVOKE_WRITE) {
		w = atomic_fetch_or(&s->word, PS_NO_INVOKE_WRITE);
		if (!(w & PS_NO_INVOKE_WRITE))
			uvio_log(LOG_INFO, "%s: no INVOKE_WRITE method, write() commands from now on",
				 dev->name);
	} else {
		atomic_fetch_or(&s->native_missing[verb / 64], 1ull << (verb % 64));
	}
	atomic_fetch_add_explicit(&s->fallbacks, 1, memory_order_relaxed);
	/* Again only when another path is left to try. */
	return uvio_path_pick(s, verb, has) != tried;
}

int uvio_verb_failed(struct uvio_device *dev, const char *verb, enum uvio_path path, int ret)
{
	uvio_set_last_error("%s: %s over %s: %s: %s", dev->name, verb, uvio_path_name(path),
			    uvio_errno_name(ret), uvio_errno_meaning(ret, path));
	uvio_log(LOG_ERR, "%s", uvio_last_error());
	return ret;
}

int uvio_verb_end(struct uvio_device *dev, const char *verb, enum uvio_path path,
		  int ret, enum uvio_path *out)
{
	if (out)
		*out = path;
	return __builtin_expect(ret, 0) ? uvio_verb_failed(dev, verb, path, ret) : 0;
}

static int dispatch(struct uvio_device *dev, enum uvio_path p, const struct uvio_verb_desc *d,
		    void *args)
{
	return p == UVIO_PATH_IOCTL || p == UVIO_PATH_IOCTL_2017 ? d->on_ioctl(dev, p, args) :
								    d->on_write(dev, p, args);
}

int uvio_run_verb_slow(struct uvio_device *dev, const struct uvio_verb_desc *d, void *args,
		       enum uvio_path *path, enum uvio_path tried, int ret)
{
	unsigned int has = (d->on_ioctl ? UVIO_HAS_NATIVE : 0) | (d->on_write ? UVIO_HAS_WRITE : 0);
	enum uvio_path p = tried;
	bool answered = tried != UVIO_PATH_AUTO;

	for (;;) {
		if (!answered) {
			p = uvio_path_pick(&dev->paths, d->verb, has);
			if (p == UVIO_PATH_AUTO) {
				/* Pinned to, or left with, a path this verb lacks. */
				ret = -EOPNOTSUPP;
				p = uvio_path_current(&dev->paths);
				/* The verb answers another way: not a failure. */
				if (d->fallback) {
					if (path)
						*path = p;
					return UVIO_VERB_NO_PATH;
				}
				break;
			}
			ret = dispatch(dev, p, d, args);
			/* An answer that says nothing about paths, on a
			 * device whose path is pinned or decided: remember
			 * the path. */
			if (ret != -ENOTTY && ret != -EPROTONOSUPPORT &&
			    (ps_pinned(ps_word(&dev->paths)) != UVIO_PATH_AUTO ||
			     (ps_word(&dev->paths) & PS_DECIDED))) {
				atomic_store_explicit(&dev->paths.verb_path[d->verb], (uint8_t)p,
						      memory_order_relaxed);
				break;
			}
		}
		answered = false;
		atomic_store_explicit(&dev->paths.verb_path[d->verb], UVIO_PATH_AUTO,
				      memory_order_relaxed);
		if (d->caller_built && ret == -EPROTONOSUPPORT) {
			/* The path answered, so it exists; the method is the
			 * caller's business. */
			path_answered(&dev->paths, p);
			break;
		}
		if (!path_retry(dev, d->verb, has, p, ret))
			break;
	}
	return uvio_verb_end(dev, d->name, p, ret, path);
}
