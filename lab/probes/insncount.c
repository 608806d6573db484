/*
 * A QEMU TCG plugin (not part of the project's build; lab/run.sh insns compiles it): counts the guest
 * instructions one vCPU executes in user mode and in the kernel between two marker programs (insnmark.c), with
 * the system calls among them and the instructions by the start address of each translation block; the code
 * of the user blocks that ran at least once every other system call is written too, for disassembly. Every quarter
 * second of the window it also notes the counts so far and the host CPU the vCPU's thread is on: the emulator's
 * speed follows the host CPU's, which on a shared host changes within seconds (docs/benchmarks.md, side-by-side).
 * Written against QEMU's plugin API version 1 (QEMU 7.2, Debian 12), whose few declarations it repeats.
 * Args: out=FILE (written when the end marker runs), cpu=N (the vCPU to count, default 1).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct {
	const char *target_name;
	struct {
		int min, cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus, max_vcpus;
		} system;
	};
} qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef void (*tb_trans_cb_t)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*vcpu_udata_cb_t)(unsigned int, void *);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, tb_trans_cb_t);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *, vcpu_udata_cb_t, int, void *);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *, size_t);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *);
__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* What is known of a translation block when it runs: it is translated once and may run millions of times. */
struct block {
	uint64_t vaddr;
	uint32_t insns;
	uint16_t syscalls;
	uint8_t marker; /* 1: the start marker's block, 2: the end marker's */
	uint16_t nbytes;
	uint8_t *bytes; /* user blocks only */
};

#define TABLE_BITS 18
static struct {
	uint64_t vaddr, insns, runs;
	const struct block *last; /* the latest translation at vaddr (JIT code can be replaced) */
} table[1u << TABLE_BITS];
/* 0 before the start marker, 1 between the markers, 2 after the end marker. */
static volatile int window;
static uint64_t user_insns, kernel_insns, syscalls, user_blocks, kernel_blocks;
/* Blocks translated in the window by the counted vCPU's thread: after warm-up a steady loop translates nothing,
 * so a count here is code the emulator threw away and redid (e.g. after a write to a page it had translated).
 * The translation callback does not name the vCPU; with one thread per vCPU, the last block a thread ran does. */
static uint64_t user_translations, kernel_translations;
static __thread int thread_cpu = -1;
/* The counts at the end of each quarter second of the window (host time), and the host CPU it ended on. */
#define QUARTERS 4096
static struct {
	uint64_t ms, syscalls, insns;
	int host_cpu;
} quarter[QUARTERS];
static unsigned int quarters;
static uint64_t window_start_ns, next_quarter_ns;
static const char *out_path = "insncount.txt";
static unsigned int counted_cpu = 1;

static void write_counts(void)
{
	FILE *f = fopen(out_path, "w");
	if (!f)
		return;
	fprintf(f, "total user_insns %lu kernel_insns %lu syscalls %lu user_blocks %lu kernel_blocks %lu"
		   " user_translations %lu kernel_translations %lu\n",
		(unsigned long)user_insns, (unsigned long)kernel_insns, (unsigned long)syscalls,
		(unsigned long)user_blocks, (unsigned long)kernel_blocks, (unsigned long)user_translations,
		(unsigned long)kernel_translations);
	for (unsigned int q = 0; q < quarters; q++)
		fprintf(f, "quarter %lu %lu %lu %d\n", (unsigned long)quarter[q].ms, (unsigned long)quarter[q].syscalls,
			(unsigned long)quarter[q].insns, quarter[q].host_cpu);
	for (size_t i = 0; i < (1u << TABLE_BITS); i++) {
		if (!table[i].insns)
			continue;
		fprintf(f, "block %lx %lu %lu", (unsigned long)table[i].vaddr, (unsigned long)table[i].insns,
			(unsigned long)table[i].runs);
		const struct block *b = table[i].last;
		if (b && b->bytes && table[i].runs * 2 >= syscalls) {
			fputc(' ', f);
			for (size_t k = 0; k < b->nbytes; k++)
				fprintf(f, "%02x", b->bytes[k]);
		}
		fputc('\n', f);
	}
	fclose(f);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Called on the counted vCPU's thread at each system call (a clock read per operation, not per block). */
static void note_quarter(void)
{
	uint64_t t = now_ns();
	if (t < next_quarter_ns || quarters == QUARTERS)
		return;
	next_quarter_ns += 250000000ull;
	quarter[quarters].ms = (t - window_start_ns) / 1000000;
	quarter[quarters].syscalls = syscalls;
	quarter[quarters].insns = user_insns + kernel_insns;
	quarter[quarters].host_cpu = sched_getcpu();
	quarters++;
}

static void block_ran(unsigned int cpu, void *data)
{
	struct block *b = data;
	thread_cpu = (int)cpu;
	if (b->marker) {
		if (b->marker == 1 && window != 1) {
			memset(table, 0, sizeof table);
			user_insns = kernel_insns = syscalls = user_blocks = kernel_blocks = 0;
			user_translations = kernel_translations = 0;
			quarters = 0;
			window_start_ns = now_ns();
			next_quarter_ns = window_start_ns + 250000000ull;
			window = 1;
		} else if (b->marker == 2 && window == 1) {
			window = 2;
			write_counts();
		}
		return;
	}
	if (window != 1 || cpu != counted_cpu)
		return;
	if (b->vaddr >= 0x0000800000000000ull) {
		kernel_insns += b->insns;
		kernel_blocks++;
	} else {
		user_insns += b->insns;
		syscalls += b->syscalls;
		user_blocks++;
		if (b->syscalls)
			note_quarter();
	}
	size_t h = (size_t)((b->vaddr * 0x9E3779B97F4A7C15ull) >> (64 - TABLE_BITS));
	while (table[h].insns && table[h].vaddr != b->vaddr)
		h = (h + 1) & ((1u << TABLE_BITS) - 1);
	table[h].vaddr = b->vaddr;
	table[h].last = b;
	table[h].insns += b->insns;
	table[h].runs++;
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	struct block *b = calloc(1, sizeof *b);
	if (!b)
		return;
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->insns = (uint32_t)qemu_plugin_tb_n_insns(tb);
	if (window == 1 && thread_cpu == (int)counted_cpu) {
		if (b->vaddr >= 0x0000800000000000ull)
			kernel_translations++;
		else
			user_translations++;
	}
	size_t total = 0;
	for (size_t i = 0; i < b->insns; i++)
		total += qemu_plugin_insn_size(qemu_plugin_tb_get_insn(tb, i));
	if (b->vaddr < 0x0000800000000000ull && total <= UINT16_MAX)
		b->bytes = malloc(total);
	for (size_t i = 0; i < b->insns; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *code = qemu_plugin_insn_data(insn);
		size_t size = qemu_plugin_insn_size(insn);
		if (b->bytes) {
			memcpy(b->bytes + b->nbytes, code, size);
			b->nbytes += (uint16_t)size;
		}
		if (size == 2 && code[0] == 0x0f && code[1] == 0x05)
			b->syscalls++;
		/* The markers' mov $imm32, %eax (insnmark.c). */
		if (size == 5 && code[0] == 0xb8 && !memcmp(code + 1, "\xdf\x9b\x57\x13", 4))
			b->marker = 1;
		if (size == 5 && code[0] == 0xb8 && !memcmp(code + 1, "\xe0\xac\x68\x24", 4))
			b->marker = 2;
	}
	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_ran, 0, b);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
							      int argc, char **argv)
{
	(void)info;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
		else if (!strncmp(argv[i], "cpu=", 4))
			counted_cpu = (unsigned int)atoi(argv[i] + 4);
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	return 0;
}
