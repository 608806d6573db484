/*
 * The JNI side of the benchmarks (built only for them): the way DiSNI reaches the verbs, Java -> JNI -> the
 * C verb, and the same post+poll as a loop in C. ibv_post_send and ibv_poll_cq are the static inline verbs
 * that the shim's rdmaffm_post_send / rdmaffm_poll_cq wrap, so all paths end in the same provider calls.
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif
#include <infiniband/verbs.h>

#include "io_rdmaffm_benchmarks_JniVerbs.h"

/* One signaled 8-byte RDMA WRITE on the QP, built once, and the completion it is polled into. */
struct bench {
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	struct ibv_wc wc;
};

static struct bench *of(jlong h)
{
	return (struct bench *)(intptr_t)h;
}

JNIEXPORT jlong JNICALL Java_io_rdmaffm_benchmarks_JniVerbs_open(JNIEnv *env, jclass cls, jlong qp, jlong cq,
		jlong local, jint length, jint lkey, jlong remote, jint rkey)
{
	(void)env;
	(void)cls;
	struct bench *b = calloc(1, sizeof(*b));
	if (!b)
		return 0;
	b->qp = (struct ibv_qp *)(intptr_t)qp;
	b->cq = (struct ibv_cq *)(intptr_t)cq;
	b->sge.addr = (uint64_t)local;
	b->sge.length = (uint32_t)length;
	b->sge.lkey = (uint32_t)lkey;
	b->wr.wr_id = 2;
	b->wr.sg_list = &b->sge;
	b->wr.num_sge = 1;
	b->wr.opcode = IBV_WR_RDMA_WRITE;
	b->wr.send_flags = IBV_SEND_SIGNALED;
	b->wr.wr.rdma.remote_addr = (uint64_t)remote;
	b->wr.wr.rdma.rkey = (uint32_t)rkey;
	return (jlong)(intptr_t)b;
}

JNIEXPORT void JNICALL Java_io_rdmaffm_benchmarks_JniVerbs_close(JNIEnv *env, jclass cls, jlong h)
{
	(void)env;
	(void)cls;
	free(of(h));
}

JNIEXPORT jint JNICALL Java_io_rdmaffm_benchmarks_JniVerbs_postSend(JNIEnv *env, jclass cls, jlong h)
{
	(void)env;
	(void)cls;
	struct ibv_send_wr *bad;
	return ibv_post_send(of(h)->qp, &of(h)->wr, &bad);
}

/* 0 or 1 completions; a failed completion or a failed poll is negative. */
static int poll_one(struct bench *b)
{
	int n = ibv_poll_cq(b->cq, 1, &b->wc);
	if (n == 1 && b->wc.status != IBV_WC_SUCCESS)
		return -1000 - (int)b->wc.status;
	return n;
}

JNIEXPORT jint JNICALL Java_io_rdmaffm_benchmarks_JniVerbs_pollCq(JNIEnv *env, jclass cls, jlong h)
{
	(void)env;
	(void)cls;
	return poll_one(of(h));
}

/* ops x (post, poll until the completion): the number of empty polls, or a negative error. */
JNIEXPORT jlong JNICALL Java_io_rdmaffm_benchmarks_JniVerbs_postPollLoop(JNIEnv *env, jclass cls, jlong h, jint ops)
{
	(void)env;
	(void)cls;
	struct bench *b = of(h);
	struct ibv_send_wr *bad;
	jlong empty = 0;
	for (jint i = 0; i < ops; i++) {
		int rc = ibv_post_send(b->qp, &b->wr, &bad);
		if (rc)
			return -rc;
		while ((rc = poll_one(b)) == 0)
			empty++;
		if (rc < 0)
			return rc;
	}
	return empty;
}

/* ops x ibv_poll_cq on an empty CQ: 0, or a negative error (or -1 if a completion was there). */
JNIEXPORT jlong JNICALL Java_io_rdmaffm_benchmarks_JniVerbs_pollLoop(JNIEnv *env, jclass cls, jlong h, jint ops)
{
	(void)env;
	(void)cls;
	struct bench *b = of(h);
	for (jint i = 0; i < ops; i++) {
		int n = ibv_poll_cq(b->cq, 1, &b->wc);
		if (n != 0)
			return n < 0 ? n : -1;
	}
	return 0;
}

/* ops reads of CLOCK_MONOTONIC, the clock System.nanoTime reads (through the vDSO): their sum, kept so the
 * loop is not dropped. */
JNIEXPORT jlong JNICALL Java_io_rdmaffm_benchmarks_JniVerbs_clockLoop(JNIEnv *env, jclass cls, jint ops)
{
	(void)env;
	(void)cls;
	struct timespec ts;
	jlong sum = 0;
	for (jint i = 0; i < ops; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		sum += ts.tv_nsec;
	}
	return sum;
}

/* ops reads of the time-stamp counter, which C perftest reads for its timestamps on x86 (get_cycles): their
 * sum, or -1 on other architectures. */
JNIEXPORT jlong JNICALL Java_io_rdmaffm_benchmarks_JniVerbs_tscLoop(JNIEnv *env, jclass cls, jint ops)
{
	(void)env;
	(void)cls;
#if defined(__x86_64__) || defined(__i386__)
	jlong sum = 0;
	for (jint i = 0; i < ops; i++)
		sum += (jlong)__rdtsc();
	return sum & INT64_MAX;
#else
	(void)ops;
	return -1;
#endif
}
