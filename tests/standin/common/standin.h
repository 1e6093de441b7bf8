/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plumbing that the stand-in modules (tests/standin/DRIVER) have in
 * common and that no driver's contract is about: a port that follows an
 * Ethernet netdev, the device's identity on that netdev and its
 * registration, inserting a page into a user mapping, and keeping an
 * address handle's attributes. Each module includes it once (its Kbuild
 * puts this folder on the include path; tests/standin/build.sh copies it
 * beside the module's sources).
 *
 * Nothing here answers a command in a driver's way: what a driver's port,
 * firmware string, P_Key table, mmap offsets or errno look like stays in
 * its module, each of which still states its own driver's contract in its
 * header comment. Where the drivers differ in a detail, the helper takes
 * it as a parameter or the module keeps its own function.
 *
 * Everything is static inline so that a module that uses only part of it
 * builds without unused-function warnings (the modules build with
 * -Werror).
 */
#ifndef STANDIN_H
#define STANDIN_H

#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/string.h>
#include <linux/version.h>
#include <net/addrconf.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

/* ---- port on a netdev ---------------------------------------------------- */

/*
 * Port state from the netdev at ifindex, looked up on each query because
 * the netdev may go away under the device. On a netdev that is up with a
 * carrier the port is active; *mtu is the netdev's MTU, for the driver's
 * own rule of active_mtu. Returns false, props untouched, when the netdev
 * is gone: the caller's defaults (a port that is down) stand.
 */
static inline bool sd_port_link(int ifindex, struct ib_port_attr *props, unsigned int *mtu)
{
	struct net_device *ndev = dev_get_by_index(&init_net, ifindex);

	if (!ndev)
		return false;
	if (netif_running(ndev) && netif_carrier_ok(ndev)) {
		props->state = IB_PORT_ACTIVE;
		props->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	}
	*mtu = ndev->mtu;
	dev_put(ndev);
	return true;
}

/*
 * The immutable table lengths, from the driver's own query_port so that
 * the core's tables and the port's answers cannot disagree.
 */
static inline int sd_port_tables(struct ib_device *ibdev, u32 port,
				 struct ib_port_immutable *immutable)
{
	struct ib_port_attr attr;
	int err = ib_query_port(ibdev, port, &attr);

	if (err)
		return err;
	immutable->pkey_tbl_len = attr.pkey_tbl_len;
	immutable->gid_tbl_len = attr.gid_tbl_len;
	return 0;
}

/*
 * get_port_immutable of a RoCE-style port: the tables, MAD-sized
 * management datagrams, and the driver's own core capabilities (which
 * protocols it claims differ from driver to driver).
 */
static inline int sd_port_immutable_caps(struct ib_device *ibdev, u32 port,
					 struct ib_port_immutable *immutable,
					 u32 core_cap_flags)
{
	int err = sd_port_tables(ibdev, port, immutable);

	if (err)
		return err;
	immutable->core_cap_flags = core_cap_flags;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static inline enum rdma_link_layer sd_link_layer_ethernet(struct ib_device *ibdev, u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

/*
 * query_pkey of a port with the default partition alone, as every
 * stand-in's is (RoCE has no other): the full-membership default key at
 * each index below the driver's table length, EINVAL past it.
 */
static inline int sd_default_pkey(u16 index, u16 tbl_len, u16 *pkey)
{
	if (index >= tbl_len)
		return -EINVAL;
	*pkey = 0xffff;
	return 0;
}

/* ---- the device on a netdev ---------------------------------------------- */

/*
 * The netdev that the module's netdev= parameter names, with a reference
 * that sd_register_on_netdev() gives back. NULL (and a line in the kernel
 * log, so that a guest script that fails to load the module says why) when
 * there is none.
 */
static inline struct net_device *sd_netdev_by_name(const char *name)
{
	struct net_device *ndev = dev_get_by_name(&init_net, name);

	if (!ndev)
		pr_err(KBUILD_MODNAME ": no netdev %s\n", name);
	return ndev;
}

/*
 * What every stand-in on a netdev says about itself before registration:
 * a channel adapter with one port and one completion vector, the node GUID
 * that RoCE drivers derive from the MAC, the module's name as node
 * description, and its ops. A module sets what its driver adds after this.
 */
static inline void sd_ibdev_on_netdev(struct ib_device *ibdev, const struct net_device *ndev,
				      const struct ib_device_ops *ops)
{
	ibdev->node_type = RDMA_NODE_IB_CA;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = 1;
	addrconf_addr_eui48((unsigned char *)&ibdev->node_guid, ndev->dev_addr);
	strscpy(ibdev->node_desc, KBUILD_MODNAME, sizeof(ibdev->node_desc));
	ib_set_device_ops(ibdev, ops);
}

/*
 * Binds port 1 to ndev and registers the device as name ("mlx5_%d"). The
 * caller's reference to ndev is dropped whatever happens: once bound, the
 * core holds its own. There is no DMA device: the core maps user memory by
 * kernel address, which is all a stand-in needs.
 */
static inline int sd_register_on_netdev(struct ib_device *ibdev, struct net_device *ndev,
					const char *name)
{
	int err = ib_device_set_netdev(ibdev, ndev, 1);

	dev_put(ndev);
	if (err)
		return err;
	return ib_register_device(ibdev, name, NULL);
}

/* ---- user mappings ------------------------------------------------------- */

/*
 * One kernel page at the start of vma, as a driver maps a doorbell or a
 * shared page: not inherited across fork, not grown, not in core dumps. A
 * failure is EAGAIN, what the drivers' own remapping (io_remap_pfn_range
 * under rdma_user_mmap_io) answers. Which offsets, lengths and sharing a
 * driver accepts is its contract and stays with the caller.
 */
static inline int sd_vm_insert_page(struct vm_area_struct *vma, struct page *page)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
#else
	vma->vm_flags |= VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP;
#endif
	return vm_insert_page(vma, vma->vm_start, page) ? -EAGAIN : 0;
}

/* ---- address handles ----------------------------------------------------- */

/*
 * An address handle's attributes kept by the driver for a later query: a
 * copy without the source GID entry, whose reference belongs to the core
 * and would dangle once the core drops it.
 */
static inline void sd_keep_ah(struct rdma_ah_attr *dst, const struct rdma_ah_attr *src)
{
	*dst = *src;
	dst->grh.sgid_attr = NULL;
}

#endif /* STANDIN_H */
