/*
 * uverbs-decode: a uverbs command buffer in words.
 *
 *   uverbs-decode [--2017 | --write | --rdma-cm | --hex] [--driver NAME|ID] [HEX...]
 *
 * The bytes come from the arguments or, without any, from standard input,
 * as people paste them: xxd (offsets and ASCII column), hexdump -C, od -tx1
 * (with or without offsets), plain or spaced hex, "0x18, 0x00", "\x18\x00",
 * lines of any length (tools/trace/hexin.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include <uvio.h>

#include "trace/hexin.h"
#include "abi/bytes.h"
#include "report/sbuf.h"

enum mode { IOCTL, IOCTL_2017, WRITE, RDMA_CM, HEX };

static void usage(FILE *f)
{
	fprintf(f, "usage: uverbs-decode [--2017 | --write | --rdma-cm | --hex] [--driver D] "
		   "[HEX...]  (stdin without HEX)\n"
		   "  (default)   a verbs ioctl command (struct ib_uverbs_ioctl_hdr and attributes)\n"
		   "  --2017      the same with the 16-byte header of kernels 4.14 to 4.16\n"
		   "  --write     a uverbs write() command (struct ib_uverbs_cmd_hdr first)\n"
		   "  --rdma-cm   an rdma_cm write() command (struct rdma_ucm_cmd_hdr first)\n"
		   "  --hex       only the bytes read, as plain hex (to check what was pasted)\n"
		   "  --driver D  the device's driver (mlx5, ... or its enum rdma_driver_id):\n"
		   "              its driver data and namespace decoded; an ioctl header's\n"
		   "              driver_id, when not 0, is the one used\n"
		   "HEX: xxd, hexdump -C or od -tx1 output, or hex in any spelling.\n");
}

/* enum rdma_driver_id by the driver's name, or a number. */
static int driver_id(const char *s, uint32_t *id)
{
	static const struct {
		const char *name;
		uint32_t id;
	} names[] = {
		{ "mlx5", RDMA_DRIVER_MLX5 }, { "mlx4", RDMA_DRIVER_MLX4 },
		{ "cxgb4", RDMA_DRIVER_CXGB4 }, { "mthca", RDMA_DRIVER_MTHCA },
		{ "bnxt_re", RDMA_DRIVER_BNXT_RE }, { "ocrdma", RDMA_DRIVER_OCRDMA },
		{ "irdma", RDMA_DRIVER_I40IW }, { "vmw_pvrdma", RDMA_DRIVER_VMW_PVRDMA },
		{ "qedr", RDMA_DRIVER_QEDR }, { "hns", RDMA_DRIVER_HNS },
		{ "usnic", RDMA_DRIVER_USNIC }, { "rxe", RDMA_DRIVER_RXE },
		{ "hfi1", RDMA_DRIVER_HFI1 }, { "qib", RDMA_DRIVER_QIB },
		{ "efa", RDMA_DRIVER_EFA }, { "siw", RDMA_DRIVER_SIW },
		{ "erdma", 19 }, { "mana", 20 }, { "ionic", 21 },
	};
	char *end;
	unsigned long v;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name)) {
			*id = names[i].id;
			return 0;
		}
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || v > UINT32_MAX)
		return -EINVAL;
	*id = (uint32_t)v;
	return 0;
}

int main(int argc, char **argv)
{
	static unsigned char buf[65536];
	static char text[1 << 20];
	enum mode mode = IOCTL;
	bool from_args = false;
	uint32_t drv = 0;
	struct hexin h;
	int ret = 0;

	hexin_init(&h, buf, sizeof(buf));
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--2017")) {
			mode = IOCTL_2017;
		} else if (!strcmp(argv[i], "--write")) {
			mode = WRITE;
		} else if (!strcmp(argv[i], "--rdma-cm")) {
			mode = RDMA_CM;
		} else if (!strcmp(argv[i], "--hex")) {
			mode = HEX;
		} else if (!strcmp(argv[i], "--driver") || !strncmp(argv[i], "--driver=", 9)) {
			const char *v = argv[i][8] == '=' ? argv[i] + 9 : i + 1 < argc ? argv[++i] : "";

			if (driver_id(v, &drv)) {
				fprintf(stderr, "uverbs-decode: --driver: not a driver: '%s'\n", v);
				usage(stderr);
				return 2;
			}
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1] == '-') {
			fprintf(stderr, "uverbs-decode: unknown option %s\n", argv[i]);
			usage(stderr);
			return 2;
		} else {
			hexin_line(&h, argv[i], strlen(argv[i]));
			from_args = true;
		}
	}
	if (!from_args) {
		char *line = NULL;
		size_t cap = 0;
		ssize_t n;

		while ((n = getline(&line, &cap, stdin)) > 0)
			if (hexin_line(&h, line, (size_t)n))
				break;
		free(line);
	}
	if (hexin_finish(&h)) {
		fprintf(stderr, "uverbs-decode: %s\n", h.msg);
		return 2;
	}
	switch (mode) {
	case HEX: {
		struct sbuf s;

		sb_init(&s, text, sizeof(text));
		sb_hex(&s, buf, h.len, 0);
		printf("%s\n", text);
		fprintf(stderr, "uverbs-decode: %zu bytes, read as %s\n", h.len,
			hexin_format_name(h.format));
		return 0;
	}
	case IOCTL:
	case IOCTL_2017:
	case WRITE: {
		/* The library's decoders: an ioctl command attribute by
		 * attribute, a write() command field by field, the driver's
		 * data and namespace with --driver (an ioctl header says its
		 * own). */
		struct uvio_decode_opts o = {
			.sz = sizeof(o), .driver_id = drv,
			.layout = mode == IOCTL_2017 ? UVIO_LAYOUT_2017 : UVIO_LAYOUT_CURRENT,
			.flags = mode == WRITE ? UVIO_DECODE_WRITE : 0,
		};

		ret = uvio_decode_cmd(buf, h.len, &o, text, sizeof(text));
		printf("%s\n", text);
		return ret < 0 ? 1 : 0;
	}
	case RDMA_CM: {
		const char *name = h.len >= 8 ? uvio_cm_cmd_name(ld32(buf)) : NULL;

		/* The library's decoder, from its description of the ABI. */
		uvio_decode_cm(buf, h.len, NULL, 0, 0, text, sizeof(text));
		printf("rdma_cm %s\n", name ? name : "(unknown command)");
		for (char *l = text, *nl; l && *l; l = nl ? nl + 1 : NULL) {
			nl = strchr(l, '\n');
			printf("  %.*s\n", (int)(nl ? nl - l : (long)strlen(l)), l);
		}
		return h.len < 8 ? 1 : 0;
	}
	}
	return 0;
}
