/*
 * Real, exported symbols for the rdma-core verbs that verbs.h defines static inline or as macros.
 * Java's FFM linker can only call symbols that exist in a shared object; everything here is a
 * one-line forward so the C compiler expands rdma-core's inline dispatch exactly as a C program would.
 */
#include <stddef.h>
#include <errno.h>
#include <infiniband/verbs.h>

#include "rdmaffm_shim.h"

RDMAFFM_API const char *rdmaffm_shim_version(void)
{
	return RDMAFFM_SHIM_VERSION;
}

RDMAFFM_API int rdmaffm_shim_abi(void)
{
	return RDMAFFM_SHIM_ABI;
}

/* ---- data path (ibv_context.ops dispatch) ---- */

RDMAFFM_API int rdmaffm_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
	return ibv_post_send(qp, wr, bad_wr);
}

RDMAFFM_API int rdmaffm_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	return ibv_post_recv(qp, wr, bad_wr);
}

RDMAFFM_API int rdmaffm_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	return ibv_post_srq_recv(srq, wr, bad_wr);
}

RDMAFFM_API int rdmaffm_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)
{
	return ibv_poll_cq(cq, num_entries, wc);
}

RDMAFFM_API int rdmaffm_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	return ibv_req_notify_cq(cq, solicited_only);
}

/*
 * The CPU's cycle counter, as perftest's get_cycles reads it: a tiny critical downcall costs a fraction of
 * clock_gettime through the JVM. 0 where there is no such counter (the Java side then keeps System.nanoTime).
 */
RDMAFFM_API uint64_t rdmaffm_cycles(void)
{
#if defined(__x86_64__)
	return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
	uint64_t v;
	__asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
	return v;
#else
	return 0;
#endif
}

/* ---- control verbs that are inline or macros ---- */

/* The exported compat ibv_query_port leaves port_cap_flags2 unset; the inline one fills it. */
RDMAFFM_API int rdmaffm_query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *port_attr)
{
	return ibv_query_port(context, port_num, port_attr);
}

RDMAFFM_API int rdmaffm_query_device_ex(struct ibv_context *context, struct ibv_device_attr_ex *attr)
{
	return ibv_query_device_ex(context, NULL, attr);
}

RDMAFFM_API struct ibv_cq_ex *rdmaffm_create_cq_ex(struct ibv_context *context, struct ibv_cq_init_attr_ex *attr)
{
	return ibv_create_cq_ex(context, attr);
}

RDMAFFM_API struct ibv_cq *rdmaffm_cq_ex_to_cq(struct ibv_cq_ex *cq)
{
	return ibv_cq_ex_to_cq(cq);
}

RDMAFFM_API struct ibv_qp *rdmaffm_create_qp_ex(struct ibv_context *context, struct ibv_qp_init_attr_ex *attr)
{
	return ibv_create_qp_ex(context, attr);
}

RDMAFFM_API struct ibv_srq *rdmaffm_create_srq_ex(struct ibv_context *context, struct ibv_srq_init_attr_ex *attr)
{
	return ibv_create_srq_ex(context, attr);
}

RDMAFFM_API struct ibv_mw *rdmaffm_alloc_mw(struct ibv_pd *pd, int type)
{
	return ibv_alloc_mw(pd, (enum ibv_mw_type)type);
}

RDMAFFM_API int rdmaffm_dealloc_mw(struct ibv_mw *mw)
{
	return ibv_dealloc_mw(mw);
}

RDMAFFM_API int rdmaffm_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw, struct ibv_mw_bind *mw_bind)
{
	return ibv_bind_mw(qp, mw, mw_bind);
}

RDMAFFM_API uint32_t rdmaffm_inc_rkey(uint32_t rkey)
{
	return ibv_inc_rkey(rkey);
}

RDMAFFM_API int rdmaffm_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr)
{
	return ibv_modify_cq(cq, attr);
}

/* ---- extended send API (struct ibv_qp_ex function pointers) ---- */

RDMAFFM_API void rdmaffm_wr_start(struct ibv_qp_ex *qp) { ibv_wr_start(qp); }
RDMAFFM_API int rdmaffm_wr_complete(struct ibv_qp_ex *qp) { return ibv_wr_complete(qp); }
RDMAFFM_API void rdmaffm_wr_abort(struct ibv_qp_ex *qp) { ibv_wr_abort(qp); }

/* wr_id and wr_flags travel with each builder call, so Java needs no separate field writes. */
RDMAFFM_API void rdmaffm_wr_send(struct ibv_qp_ex *qp, uint64_t wr_id, uint32_t flags)
{
	qp->wr_id = wr_id;
	qp->wr_flags = flags;
	ibv_wr_send(qp);
}

RDMAFFM_API void rdmaffm_wr_send_imm(struct ibv_qp_ex *qp, uint64_t wr_id, uint32_t flags, uint32_t imm_be)
{
	qp->wr_id = wr_id;
	qp->wr_flags = flags;
	ibv_wr_send_imm(qp, imm_be);
}

RDMAFFM_API void rdmaffm_wr_send_inv(struct ibv_qp_ex *qp, uint64_t wr_id, uint32_t flags, uint32_t rkey)
{
	qp->wr_id = wr_id;
	qp->wr_flags = flags;
	ibv_wr_send_inv(qp, rkey);
}

RDMAFFM_API void rdmaffm_wr_rdma_write(struct ibv_qp_ex *qp, uint64_t wr_id, uint32_t flags, uint32_t rkey, uint64_t addr)
{
	qp->wr_id = wr_id;
	qp->wr_flags = flags;
	ibv_wr_rdma_write(qp, rkey, addr);
}

RDMAFFM_API void rdmaffm_wr_rdma_write_imm(struct ibv_qp_ex *qp, uint64_t wr_id, uint32_t flags, uint32_t rkey,
					   uint64_t addr, uint32_t imm_be)
{
	qp->wr_id = wr_id;
	qp->wr_flags = flags;
	ibv_wr_rdma_write_imm(qp, rkey, addr, imm_be);
}

RDMAFFM_API void rdmaffm_wr_rdma_read(struct ibv_qp_ex *qp, uint64_t wr_id, uint32_t flags, uint32_t rkey, uint64_t addr)
{
	qp->wr_id = wr_id;
	qp->wr_flags = flags;
	ibv_wr_rdma_read(qp, rkey, addr);
}

RDMAFFM_API void rdmaffm_wr_atomic_cmp_swp(struct ibv_qp_ex *qp, uint64_t wr_id, uint32_t flags, uint32_t rkey,
					   uint64_t addr, uint64_t compare, uint64_t swap)
{
	qp->wr_id = wr_id;
	qp->wr_flags = flags;
	ibv_wr_atomic_cmp_swp(qp, rkey, addr, compare, swap);
}

RDMAFFM_API void rdmaffm_wr_atomic_fetch_add(struct ibv_qp_ex *qp, uint64_t wr_id, uint32_t flags, uint32_t rkey,
					     uint64_t addr, uint64_t add)
{
	qp->wr_id = wr_id;
	qp->wr_flags = flags;
	ibv_wr_atomic_fetch_add(qp, rkey, addr, add);
}

RDMAFFM_API void rdmaffm_wr_local_inv(struct ibv_qp_ex *qp, uint64_t wr_id, uint32_t flags, uint32_t rkey)
{
	qp->wr_id = wr_id;
	qp->wr_flags = flags;
	ibv_wr_local_inv(qp, rkey);
}

RDMAFFM_API void rdmaffm_wr_bind_mw(struct ibv_qp_ex *qp, uint64_t wr_id, uint32_t flags, struct ibv_mw *mw,
				   uint32_t rkey, const struct ibv_mw_bind_info *info)
{
	qp->wr_id = wr_id;
	qp->wr_flags = flags;
	ibv_wr_bind_mw(qp, mw, rkey, info);
}

RDMAFFM_API void rdmaffm_wr_set_sge(struct ibv_qp_ex *qp, uint32_t lkey, uint64_t addr, uint32_t length)
{
	ibv_wr_set_sge(qp, lkey, addr, length);
}

RDMAFFM_API void rdmaffm_wr_set_sge_list(struct ibv_qp_ex *qp, size_t num_sge, const struct ibv_sge *sg_list)
{
	ibv_wr_set_sge_list(qp, num_sge, sg_list);
}

RDMAFFM_API void rdmaffm_wr_set_inline_data(struct ibv_qp_ex *qp, void *addr, size_t length)
{
	ibv_wr_set_inline_data(qp, addr, length);
}

RDMAFFM_API void rdmaffm_wr_set_ud_addr(struct ibv_qp_ex *qp, struct ibv_ah *ah, uint32_t remote_qpn, uint32_t remote_qkey)
{
	ibv_wr_set_ud_addr(qp, ah, remote_qpn, remote_qkey);
}

/* ---- extended completion API (struct ibv_cq_ex function pointers) ---- */

/*
 * Drains up to num_entries completions of a CQ_EX into a plain ibv_wc array in one downcall, so Java
 * pays one transition per batch instead of one per field. Returns the count, or a negative errno.
 *
 * Each completion is its own start_poll/end_poll pair; ibv_next_poll is not used. Providers disagree on
 * what an ENOENT from ibv_next_poll means: the man page's loop (and mlx5) still calls ibv_end_poll after
 * it, but Soft-RoCE's cq_next_poll (rdma-core 44) has already stored the consumer index and dropped the CQ
 * lock when it returns ENOENT, so the end_poll that follows advances the consumer index past the producer
 * and unlocks twice: the CQ then hands out stale, zeroed entries (seen on rxe as completions with wr_id 0
 * and qp_num 0). start_poll, read, end_poll is correct on every provider and costs a lock per entry.
 */
RDMAFFM_API int rdmaffm_cq_ex_poll(struct ibv_cq_ex *cq, int num_entries, struct ibv_wc *wc)
{
	struct ibv_poll_cq_attr attr = { .comp_mask = 0 };
	int n = 0;
	int ret;

	while (n < num_entries) {
		struct ibv_wc *w = &wc[n];

		ret = ibv_start_poll(cq, &attr);
		if (ret == ENOENT)
			break;
		if (ret)
			return n ? n : -ret;
		w->wr_id = cq->wr_id;
		w->status = cq->status;
		w->opcode = ibv_wc_read_opcode(cq);
		w->vendor_err = ibv_wc_read_vendor_err(cq);
		w->byte_len = ibv_wc_read_byte_len(cq);
		w->wc_flags = ibv_wc_read_wc_flags(cq);
		/*
		 * Read unconditionally (every provider's reader just loads the CQE field): Soft-RoCE flags
		 * SEND_WITH_INV with the kernel's IB_WC_WITH_INVALIDATE bit (1 << 2, IBV_WC_IP_CSUM_OK in
		 * user space), not IBV_WC_WITH_INV, and a test on the flags would lose the invalidated rkey.
		 */
		w->imm_data = ibv_wc_read_imm_data(cq);
		w->qp_num = ibv_wc_read_qp_num(cq);
		w->src_qp = ibv_wc_read_src_qp(cq);
		w->pkey_index = 0;
		w->slid = (uint16_t)ibv_wc_read_slid(cq);
		w->sl = ibv_wc_read_sl(cq);
		w->dlid_path_bits = ibv_wc_read_dlid_path_bits(cq);
		ibv_end_poll(cq);
		n++;
	}
	return n;
}

RDMAFFM_API int rdmaffm_start_poll(struct ibv_cq_ex *cq, struct ibv_poll_cq_attr *attr) { return ibv_start_poll(cq, attr); }
RDMAFFM_API int rdmaffm_next_poll(struct ibv_cq_ex *cq) { return ibv_next_poll(cq); }
RDMAFFM_API void rdmaffm_end_poll(struct ibv_cq_ex *cq) { ibv_end_poll(cq); }
RDMAFFM_API int rdmaffm_wc_read_opcode(struct ibv_cq_ex *cq) { return (int)ibv_wc_read_opcode(cq); }
RDMAFFM_API uint32_t rdmaffm_wc_read_vendor_err(struct ibv_cq_ex *cq) { return ibv_wc_read_vendor_err(cq); }
RDMAFFM_API uint32_t rdmaffm_wc_read_byte_len(struct ibv_cq_ex *cq) { return ibv_wc_read_byte_len(cq); }
RDMAFFM_API uint32_t rdmaffm_wc_read_imm_data(struct ibv_cq_ex *cq) { return ibv_wc_read_imm_data(cq); }
RDMAFFM_API uint32_t rdmaffm_wc_read_qp_num(struct ibv_cq_ex *cq) { return ibv_wc_read_qp_num(cq); }
RDMAFFM_API uint32_t rdmaffm_wc_read_src_qp(struct ibv_cq_ex *cq) { return ibv_wc_read_src_qp(cq); }
RDMAFFM_API unsigned int rdmaffm_wc_read_wc_flags(struct ibv_cq_ex *cq) { return ibv_wc_read_wc_flags(cq); }
RDMAFFM_API uint32_t rdmaffm_wc_read_slid(struct ibv_cq_ex *cq) { return ibv_wc_read_slid(cq); }
RDMAFFM_API uint8_t rdmaffm_wc_read_sl(struct ibv_cq_ex *cq) { return ibv_wc_read_sl(cq); }
RDMAFFM_API uint8_t rdmaffm_wc_read_dlid_path_bits(struct ibv_cq_ex *cq) { return ibv_wc_read_dlid_path_bits(cq); }
