/*
 * Drives the shim's data-path wrappers, the ones the Java side calls, over a real device: two RC QPs of one
 * process connected to each other through Soft-RoCE on the machine's own address (the frames never leave
 * the device: rxe loops back what it sends to its own MAC). Built for aarch64 and run in the aarch64 VM of
 * scripts/aarch64-rxe.sh, where no JVM runs: it calls the cross-built shim exactly as the FFM downcalls do.
 *
 * QP A is made the way verbs-ffm makes its QPs (rdmaffm_create_qp_ex, extended send API, a CQ_EX drained
 * by rdmaffm_cq_ex_poll); QP B the classic way (ibv_create_qp, a plain CQ drained by rdmaffm_poll_cq, with
 * a completion channel armed by rdmaffm_req_notify_cq). Every payload, length, opcode, immediate, QP number
 * and status is checked; one line per step; the first failure ends the run.
 * usage: rdmaffm_rxe_loop [DEVICE [GID_INDEX [ROUNDS]]]   (defaults rxe0 1 200)
 * Exit 0 all passed, 1 a check failed, 2 set-up (no such device, bad arguments).
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <infiniband/verbs.h>

/* The shim's exports (no public header: Java binds them by name). */
extern int rdmaffm_shim_abi(void);
extern int rdmaffm_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr);
extern int rdmaffm_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);
extern int rdmaffm_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc);
extern int rdmaffm_req_notify_cq(struct ibv_cq *cq, int solicited_only);
extern int rdmaffm_query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *port_attr);
extern int rdmaffm_query_device_ex(struct ibv_context *context, struct ibv_device_attr_ex *attr);
extern struct ibv_cq_ex *rdmaffm_create_cq_ex(struct ibv_context *context, struct ibv_cq_init_attr_ex *attr);
extern struct ibv_cq *rdmaffm_cq_ex_to_cq(struct ibv_cq_ex *cq);
extern struct ibv_qp *rdmaffm_create_qp_ex(struct ibv_context *context, struct ibv_qp_init_attr_ex *attr);
extern int rdmaffm_cq_ex_poll(struct ibv_cq_ex *cq, int num_entries, struct ibv_wc *wc);
extern void rdmaffm_wr_start(struct ibv_qp_ex *qp);
extern int rdmaffm_wr_complete(struct ibv_qp_ex *qp);
extern void rdmaffm_wr_send_imm(struct ibv_qp_ex *qp, uint64_t wr_id, uint32_t flags, uint32_t imm_be);
extern void rdmaffm_wr_rdma_write(struct ibv_qp_ex *qp, uint64_t wr_id, uint32_t flags, uint32_t rkey, uint64_t addr);
extern void rdmaffm_wr_rdma_read(struct ibv_qp_ex *qp, uint64_t wr_id, uint32_t flags, uint32_t rkey, uint64_t addr);
extern void rdmaffm_wr_set_sge(struct ibv_qp_ex *qp, uint32_t lkey, uint64_t addr, uint32_t length);
extern void rdmaffm_wr_set_inline_data(struct ibv_qp_ex *qp, void *addr, size_t length);

#define BUF 4096
/* A completion that has not come in this long is lost (TCG runs the guest some 10-50x slower than a host). */
#define WAIT_MS 15000

static int steps;

#define CHECK(cond, ...)                                                                                      \
	do {                                                                                                  \
		if (!(cond)) {                                                                                \
			printf("FAIL: ");                                                                     \
			printf(__VA_ARGS__);                                                                  \
			printf("\n");                                                                         \
			exit(1);                                                                              \
		}                                                                                             \
	} while (0)

static void pass(const char *what)
{
	steps++;
	printf("ok %d: %s\n", steps, what);
	fflush(stdout);
}

static long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

struct side {
	struct ibv_qp *qp;
	struct ibv_qp_ex *qpx; /* A only */
	struct ibv_cq *cq;
	struct ibv_cq_ex *cqx; /* A only */
	struct ibv_mr *mr;
	unsigned char *buf;
};

/* One completion from a side's CQ, through the wrapper that side's Java counterpart uses. */
static void take(struct side *s, const char *name, struct ibv_wc *wc)
{
	long deadline = now_ms() + WAIT_MS;
	for (;;) {
		int n = s->cqx ? rdmaffm_cq_ex_poll(s->cqx, 1, wc) : rdmaffm_poll_cq(s->cq, 1, wc);
		CHECK(n >= 0, "%s: polling the CQ failed (%d)", name, n);
		if (n == 1) {
			CHECK(wc->status == IBV_WC_SUCCESS, "%s: completion wr_id %llu status %s (%d), vendor_err %u",
			      name, (unsigned long long)wc->wr_id, ibv_wc_status_str(wc->status), wc->status,
			      wc->vendor_err);
			return;
		}
		CHECK(now_ms() < deadline, "%s: no completion within %d ms", name, WAIT_MS);
	}
}

static void expect(struct ibv_wc *wc, const char *name, uint64_t wr_id, enum ibv_wc_opcode op, uint32_t qp_num)
{
	CHECK(wc->wr_id == wr_id, "%s: wr_id %llu, expected %llu", name, (unsigned long long)wc->wr_id,
	      (unsigned long long)wr_id);
	CHECK(wc->opcode == op, "%s: opcode %d, expected %d", name, wc->opcode, op);
	CHECK(wc->qp_num == qp_num, "%s: qp_num %u, expected %u", name, wc->qp_num, qp_num);
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(seed * 131u + i * 7u + (i >> 8));
}

static void post_recv(struct side *s, uint64_t wr_id, uint32_t off, uint32_t len)
{
	struct ibv_sge sge = { .addr = (uintptr_t)(s->buf + off), .length = len, .lkey = s->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1 }, *bad = NULL;
	int rc = rdmaffm_post_recv(s->qp, &wr, &bad);
	CHECK(rc == 0, "rdmaffm_post_recv: %s", strerror(rc));
}

static void connect_qp(struct ibv_qp *qp, uint32_t remote_qpn, union ibv_gid *gid, int gid_index, enum ibv_mtu mtu)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = 1,
				 .qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
						    IBV_ACCESS_REMOTE_READ };
	int rc = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	CHECK(rc == 0, "modify_qp INIT: %s", strerror(rc));
	memset(&a, 0, sizeof a);
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = mtu;
	a.dest_qp_num = remote_qpn;
	a.rq_psn = 0;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = *gid;
	a.ah_attr.grh.sgid_index = (uint8_t)gid_index;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = 1;
	rc = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
					   IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	CHECK(rc == 0, "modify_qp RTR: %s", strerror(rc));
	memset(&a, 0, sizeof a);
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = 0;
	a.max_rd_atomic = 1;
	rc = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
					   IBV_QP_MAX_QP_RD_ATOMIC);
	CHECK(rc == 0, "modify_qp RTS: %s", strerror(rc));
}

int main(int argc, char **argv)
{
	const char *dev_name = argc > 1 ? argv[1] : "rxe0";
	int gid_index = argc > 2 ? atoi(argv[2]) : 1;
	int rounds = argc > 3 ? atoi(argv[3]) : 200;
	if (argc > 4 || gid_index < 0 || rounds < 1) {
		fprintf(stderr, "usage: %s [DEVICE [GID_INDEX [ROUNDS]]]\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("shim abi %d\n", rdmaffm_shim_abi());

	int ndev = 0;
	struct ibv_device **list = ibv_get_device_list(&ndev);
	struct ibv_device *dev = NULL;
	for (int i = 0; list && i < ndev; i++)
		if (strcmp(ibv_get_device_name(list[i]), dev_name) == 0)
			dev = list[i];
	if (!dev) {
		fprintf(stderr, "no RDMA device %s (%d devices)\n", dev_name, ndev);
		return 2;
	}
	struct ibv_context *ctx = ibv_open_device(dev);
	CHECK(ctx, "ibv_open_device %s: %s", dev_name, strerror(errno));

	struct ibv_device_attr_ex dattr;
	memset(&dattr, 0, sizeof dattr);
	CHECK(rdmaffm_query_device_ex(ctx, &dattr) == 0, "rdmaffm_query_device_ex failed");
	CHECK(dattr.orig_attr.max_qp > 0 && dattr.orig_attr.max_cqe > 0, "rdmaffm_query_device_ex: max_qp %d max_cqe %d",
	      dattr.orig_attr.max_qp, dattr.orig_attr.max_cqe);
	struct ibv_port_attr pattr;
	memset(&pattr, 0, sizeof pattr);
	CHECK(rdmaffm_query_port(ctx, 1, &pattr) == 0, "rdmaffm_query_port failed");
	CHECK(pattr.state == IBV_PORT_ACTIVE, "port 1 is %s, not ACTIVE", ibv_port_state_str(pattr.state));
	CHECK(pattr.link_layer == IBV_LINK_LAYER_ETHERNET, "port 1 link layer %d, expected Ethernet", pattr.link_layer);
	union ibv_gid gid;
	CHECK(ibv_query_gid(ctx, 1, gid_index, &gid) == 0, "ibv_query_gid %d failed", gid_index);
	char gid_text[INET6_ADDRSTRLEN];
	inet_ntop(AF_INET6, gid.raw, gid_text, sizeof gid_text);
	printf("device %s: max_qp %d, port 1 ACTIVE, active_mtu %d, gid[%d] %s\n", dev_name, dattr.orig_attr.max_qp,
	       128 << pattr.active_mtu, gid_index, gid_text);
	pass("rdmaffm_query_device_ex and rdmaffm_query_port (port ACTIVE, Ethernet)");

	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	CHECK(pd, "ibv_alloc_pd: %s", strerror(errno));
	struct side a = { 0 }, b = { 0 };
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	for (struct side *s = &a; s; s = (s == &a ? &b : NULL)) {
		s->buf = aligned_alloc(4096, BUF);
		CHECK(s->buf, "out of memory");
		memset(s->buf, 0, BUF);
		s->mr = ibv_reg_mr(pd, s->buf, BUF, access);
		CHECK(s->mr, "ibv_reg_mr: %s", strerror(errno));
	}

	/* A: as verbs-ffm makes it. */
	struct ibv_cq_init_attr_ex cqa = { .cqe = 64, .wc_flags = IBV_WC_STANDARD_FLAGS };
	a.cqx = rdmaffm_create_cq_ex(ctx, &cqa);
	CHECK(a.cqx, "rdmaffm_create_cq_ex: %s", strerror(errno));
	a.cq = rdmaffm_cq_ex_to_cq(a.cqx);
	CHECK(a.cq, "rdmaffm_cq_ex_to_cq gave NULL");
	struct ibv_qp_init_attr_ex qa = {
		.send_cq = a.cq, .recv_cq = a.cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 32, .max_recv_wr = 32, .max_send_sge = 1, .max_recv_sge = 1, .max_inline_data = 64 },
		.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS, .pd = pd,
		.send_ops_flags = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM | IBV_QP_EX_WITH_RDMA_WRITE |
				  IBV_QP_EX_WITH_RDMA_READ,
	};
	a.qp = rdmaffm_create_qp_ex(ctx, &qa);
	CHECK(a.qp, "rdmaffm_create_qp_ex: %s", strerror(errno));
	a.qpx = ibv_qp_to_qp_ex(a.qp);
	CHECK(a.qpx, "ibv_qp_to_qp_ex gave NULL");

	/* B: the classic way, with a completion channel. */
	struct ibv_comp_channel *ch = ibv_create_comp_channel(ctx);
	CHECK(ch, "ibv_create_comp_channel: %s", strerror(errno));
	b.cq = ibv_create_cq(ctx, 64, NULL, ch, 0);
	CHECK(b.cq, "ibv_create_cq: %s", strerror(errno));
	struct ibv_qp_init_attr qb = { .send_cq = b.cq, .recv_cq = b.cq, .qp_type = IBV_QPT_RC,
				       .cap = { .max_send_wr = 32, .max_recv_wr = 32, .max_send_sge = 1, .max_recv_sge = 1 } };
	b.qp = ibv_create_qp(pd, &qb);
	CHECK(b.qp, "ibv_create_qp: %s", strerror(errno));

	connect_qp(a.qp, b.qp->qp_num, &gid, gid_index, pattr.active_mtu);
	connect_qp(b.qp, a.qp->qp_num, &gid, gid_index, pattr.active_mtu);
	printf("QP A %u (create_qp_ex, CQ_EX) <-> QP B %u (create_qp, CQ + channel), RC over %s\n", a.qp->qp_num,
	       b.qp->qp_num, dev_name);
	pass("two RC QPs connected to each other (INIT, RTR, RTS)");

	struct ibv_wc wc;
	struct ibv_sge sge;
	struct ibv_send_wr swr, *sbad;
	int rc;

	/* 1. A -> B: SEND with immediate through rdmaffm_post_send; B woken by its channel (rdmaffm_req_notify_cq). */
	CHECK(rdmaffm_req_notify_cq(b.cq, 0) == 0, "rdmaffm_req_notify_cq failed");
	fill(a.buf, BUF, 1);
	post_recv(&b, 101, 0, BUF);
	sge = (struct ibv_sge){ .addr = (uintptr_t)a.buf, .length = BUF, .lkey = a.mr->lkey };
	swr = (struct ibv_send_wr){ .wr_id = 1, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND_WITH_IMM,
				    .send_flags = IBV_SEND_SIGNALED, .imm_data = htonl(0xA64u) };
	rc = rdmaffm_post_send(a.qp, &swr, &sbad);
	CHECK(rc == 0, "rdmaffm_post_send SEND_WITH_IMM: %s", strerror(rc));
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	CHECK(poll(&pfd, 1, WAIT_MS) == 1, "B's completion channel did not fire within %d ms", WAIT_MS);
	struct ibv_cq *ev_cq;
	void *ev_ctx;
	CHECK(ibv_get_cq_event(ch, &ev_cq, &ev_ctx) == 0 && ev_cq == b.cq, "ibv_get_cq_event: wrong CQ");
	ibv_ack_cq_events(b.cq, 1);
	take(&a, "A send", &wc);
	expect(&wc, "A send", 1, IBV_WC_SEND, a.qp->qp_num);
	take(&b, "B recv", &wc);
	expect(&wc, "B recv", 101, IBV_WC_RECV, b.qp->qp_num);
	CHECK(wc.byte_len == BUF, "B recv: byte_len %u, expected %d", wc.byte_len, BUF);
	CHECK(wc.wc_flags & IBV_WC_WITH_IMM, "B recv: no IBV_WC_WITH_IMM flag");
	CHECK(ntohl(wc.imm_data) == 0xA64u, "B recv: imm 0x%x, expected 0xa64", ntohl(wc.imm_data));
	CHECK(memcmp(a.buf, b.buf, BUF) == 0, "B recv: payload differs from what A sent");
	pass("SEND_WITH_IMM 4096 B A->B: rdmaffm_post_send, rdmaffm_post_recv, rdmaffm_req_notify_cq, both polls");

	/* 2. B -> A: SEND through rdmaffm_post_send; A's completion through rdmaffm_cq_ex_poll. */
	fill(b.buf, BUF, 2);
	memset(a.buf, 0, BUF);
	post_recv(&a, 201, 0, BUF);
	sge = (struct ibv_sge){ .addr = (uintptr_t)b.buf, .length = 1000, .lkey = b.mr->lkey };
	swr = (struct ibv_send_wr){ .wr_id = 2, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				    .send_flags = IBV_SEND_SIGNALED };
	rc = rdmaffm_post_send(b.qp, &swr, &sbad);
	CHECK(rc == 0, "rdmaffm_post_send SEND: %s", strerror(rc));
	take(&b, "B send", &wc);
	expect(&wc, "B send", 2, IBV_WC_SEND, b.qp->qp_num);
	take(&a, "A recv", &wc);
	expect(&wc, "A recv", 201, IBV_WC_RECV, a.qp->qp_num);
	CHECK(wc.byte_len == 1000, "A recv: byte_len %u, expected 1000", wc.byte_len);
	CHECK(!(wc.wc_flags & IBV_WC_WITH_IMM), "A recv: IBV_WC_WITH_IMM set on a plain SEND");
	CHECK(wc.src_qp == 0 || wc.src_qp == b.qp->qp_num, "A recv: src_qp %u", wc.src_qp);
	CHECK(memcmp(a.buf, b.buf, 1000) == 0 && a.buf[1000] == 0, "A recv: payload differs, or more than 1000 B written");
	pass("SEND 1000 B B->A: rdmaffm_post_send, rdmaffm_cq_ex_poll");

	/* 3. A writes into B's memory through the extended API (rdmaffm_wr_*). */
	fill(a.buf, BUF, 3);
	memset(b.buf, 0, BUF);
	rdmaffm_wr_start(a.qpx);
	rdmaffm_wr_rdma_write(a.qpx, 3, IBV_SEND_SIGNALED, b.mr->rkey, (uintptr_t)b.buf + 512);
	rdmaffm_wr_set_sge(a.qpx, a.mr->lkey, (uintptr_t)a.buf, 2048);
	rc = rdmaffm_wr_complete(a.qpx);
	CHECK(rc == 0, "rdmaffm_wr_complete (RDMA_WRITE): %s", strerror(rc));
	take(&a, "A write", &wc);
	expect(&wc, "A write", 3, IBV_WC_RDMA_WRITE, a.qp->qp_num);
	CHECK(memcmp(b.buf + 512, a.buf, 2048) == 0, "RDMA_WRITE: B's memory does not hold what A wrote");
	CHECK(b.buf[511] == 0 && b.buf[512 + 2048] == 0, "RDMA_WRITE: bytes outside the target range changed");
	pass("RDMA_WRITE 2048 B A->B at offset 512: rdmaffm_wr_start, rdmaffm_wr_rdma_write, rdmaffm_wr_set_sge, rdmaffm_wr_complete");

	/* 4. A reads B's memory back through the extended API. */
	fill(b.buf, BUF, 4);
	memset(a.buf, 0, BUF);
	rdmaffm_wr_start(a.qpx);
	rdmaffm_wr_rdma_read(a.qpx, 4, IBV_SEND_SIGNALED, b.mr->rkey, (uintptr_t)b.buf);
	rdmaffm_wr_set_sge(a.qpx, a.mr->lkey, (uintptr_t)a.buf, BUF);
	rc = rdmaffm_wr_complete(a.qpx);
	CHECK(rc == 0, "rdmaffm_wr_complete (RDMA_READ): %s", strerror(rc));
	take(&a, "A read", &wc);
	expect(&wc, "A read", 4, IBV_WC_RDMA_READ, a.qp->qp_num);
	CHECK(wc.byte_len == BUF, "A read: byte_len %u, expected %d", wc.byte_len, BUF);
	CHECK(memcmp(a.buf, b.buf, BUF) == 0, "RDMA_READ: A's buffer does not hold B's memory");
	pass("RDMA_READ 4096 B B->A: rdmaffm_wr_rdma_read, rdmaffm_cq_ex_poll byte_len");

	/* 5. Inline SEND with immediate through the extended API. */
	char msg[48];
	snprintf(msg, sizeof msg, "aarch64 inline %u", a.qp->qp_num);
	memset(b.buf, 0, BUF);
	post_recv(&b, 501, 0, BUF);
	rdmaffm_wr_start(a.qpx);
	rdmaffm_wr_send_imm(a.qpx, 5, IBV_SEND_SIGNALED | IBV_SEND_INLINE, htonl(0x5u));
	rdmaffm_wr_set_inline_data(a.qpx, msg, strlen(msg) + 1);
	rc = rdmaffm_wr_complete(a.qpx);
	CHECK(rc == 0, "rdmaffm_wr_complete (SEND_WITH_IMM inline): %s", strerror(rc));
	take(&a, "A inline send", &wc);
	expect(&wc, "A inline send", 5, IBV_WC_SEND, a.qp->qp_num);
	take(&b, "B inline recv", &wc);
	expect(&wc, "B inline recv", 501, IBV_WC_RECV, b.qp->qp_num);
	CHECK(wc.byte_len == strlen(msg) + 1 && strcmp((char *)b.buf, msg) == 0, "inline SEND: B got '%.47s' (%u B)",
	      (char *)b.buf, wc.byte_len);
	CHECK((wc.wc_flags & IBV_WC_WITH_IMM) && ntohl(wc.imm_data) == 5, "inline SEND: immediate lost");
	pass("inline SEND_WITH_IMM A->B: rdmaffm_wr_send_imm, rdmaffm_wr_set_inline_data");

	/* 6. Ping-pong: ROUNDS round trips of 64 B, every payload checked, A's reply polled by rdmaffm_cq_ex_poll. */
	long t0 = now_ms();
	for (int r = 0; r < rounds; r++) {
		post_recv(&b, 1000000 + r, 0, 64);
		post_recv(&a, 2000000 + r, 1024, 64);
		fill(a.buf + 2048, 64, 100 + r);
		sge = (struct ibv_sge){ .addr = (uintptr_t)a.buf + 2048, .length = 64, .lkey = a.mr->lkey };
		swr = (struct ibv_send_wr){ .wr_id = 3000000 + r, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
					    .send_flags = IBV_SEND_SIGNALED };
		CHECK(rdmaffm_post_send(a.qp, &swr, &sbad) == 0, "round %d: ping post_send failed", r);
		take(&b, "pong recv", &wc);
		expect(&wc, "pong recv", 1000000 + r, IBV_WC_RECV, b.qp->qp_num);
		CHECK(wc.byte_len == 64 && memcmp(b.buf, a.buf + 2048, 64) == 0, "round %d: ping payload differs", r);
		sge = (struct ibv_sge){ .addr = (uintptr_t)b.buf, .length = 64, .lkey = b.mr->lkey };
		swr = (struct ibv_send_wr){ .wr_id = 4000000 + r, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
					    .send_flags = IBV_SEND_SIGNALED };
		CHECK(rdmaffm_post_send(b.qp, &swr, &sbad) == 0, "round %d: pong post_send failed", r);
		/* A sees its own send and the pong, in either order; B its send. */
		int got_send = 0, got_recv = 0;
		while (!(got_send && got_recv)) {
			take(&a, "ping side", &wc);
			if (wc.opcode == IBV_WC_SEND) {
				expect(&wc, "ping send", 3000000 + r, IBV_WC_SEND, a.qp->qp_num);
				got_send++;
			} else {
				expect(&wc, "ping recv", 2000000 + r, IBV_WC_RECV, a.qp->qp_num);
				CHECK(memcmp(a.buf + 1024, a.buf + 2048, 64) == 0, "round %d: pong payload differs", r);
				got_recv++;
			}
		}
		take(&b, "pong send", &wc);
		expect(&wc, "pong send", 4000000 + r, IBV_WC_SEND, b.qp->qp_num);
	}
	long ms = now_ms() - t0;
	printf("%d round trips of 64 B in %ld ms (%.1f us each, under emulation: not a performance figure)\n", rounds,
	       ms, rounds ? ms * 1000.0 / rounds : 0.0);
	pass("ping-pong: every payload and completion checked");

	/* Nothing left over on either CQ. */
	CHECK(rdmaffm_cq_ex_poll(a.cqx, 1, &wc) == 0, "A's CQ holds an unexpected completion (wr_id %llu)",
	      (unsigned long long)wc.wr_id);
	CHECK(rdmaffm_poll_cq(b.cq, 1, &wc) == 0, "B's CQ holds an unexpected completion (wr_id %llu)",
	      (unsigned long long)wc.wr_id);
	pass("no stray completions");

	ibv_destroy_qp(a.qp);
	ibv_destroy_qp(b.qp);
	ibv_destroy_cq(a.cq);
	ibv_destroy_cq(b.cq);
	ibv_destroy_comp_channel(ch);
	ibv_dereg_mr(a.mr);
	ibv_dereg_mr(b.mr);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	printf("rdmaffm_rxe_loop: all %d steps passed\n", steps);
	return 0;
}
