/*
 * How steady this machine's own CPUs are (not part of the project's build; lab/experiments/side-by-side.sh compiles and
 * runs it on the host before and after its VM boot). One process per online CPU, pinned to it, repeats the same
 * fixed work (a pseudo-random walk over 8 MiB, the kind of access an emulator's lookups make) and counts how
 * many rounds of it each quarter second holds. On a machine of its own every quarter counts about the same; on
 * a shared cloud host the counts of one CPU can drift by much more than the differences a benchmark looks for.
 * Prints one line per CPU: slowest, median and fastest quarter, and slowest/fastest.
 * usage: hostspeed SECONDS
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define QUARTER_NS 250000000ull
#define WORDS (1u << 20)

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Runs on CPU cpu for quarters quarter seconds; writes one count per quarter to fd. */
static void measure(int cpu, int quarters, int fd)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0) {
		perror("sched_setaffinity");
		exit(1);
	}
	uint64_t *a = malloc(WORDS * sizeof *a);
	if (!a) {
		perror("malloc");
		exit(1);
	}
	for (uint64_t i = 0; i < WORDS; i++)
		a[i] = i * 0x9E3779B97F4A7C15ull;
	uint64_t x = 1, rounds = 0, next = now_ns() + QUARTER_NS;
	for (int q = 0; q < quarters;) {
		for (int k = 0; k < 4096; k++) {
			x = x * 6364136223846793005ull + a[x % WORDS];
			a[(x >> 7) % WORDS] ^= x;
		}
		rounds++;
		if (now_ns() >= next) {
			if (write(fd, &rounds, sizeof rounds) != (ssize_t)sizeof rounds)
				exit(1);
			rounds = 0;
			next += QUARTER_NS;
			q++;
		}
	}
	/* Depending on x keeps the compiler from dropping the work. */
	exit(x == 42 ? 3 : 0);
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 0;
	if (seconds < 1 || seconds > 600) {
		fprintf(stderr, "usage: hostspeed SECONDS (1-600)\n");
		return 2;
	}
	int quarters = seconds * 4;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus < 1 || cpus > 256) {
		fprintf(stderr, "hostspeed: cannot tell how many CPUs are online\n");
		return 1;
	}
	int fds[256];
	for (int c = 0; c < cpus; c++) {
		int p[2];
		if (pipe(p) != 0) {
			perror("pipe");
			return 1;
		}
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			close(p[0]);
			measure(c, quarters, p[1]);
		}
		close(p[1]);
		fds[c] = p[0];
	}
	uint64_t *counts = malloc((size_t)quarters * sizeof *counts);
	if (!counts)
		return 1;
	int failed = 0;
	for (int c = 0; c < cpus; c++) {
		int n = 0;
		while (n < quarters && read(fds[c], &counts[n], sizeof *counts) == (ssize_t)sizeof *counts)
			n++;
		if (n < quarters) {
			fprintf(stderr, "hostspeed: CPU %d reported %d of %d quarters\n", c, n, quarters);
			failed = 1;
			continue;
		}
		qsort(counts, (size_t)n, sizeof *counts, by_value);
		printf("CPU %d: work per quarter second, slowest %lu, median %lu, fastest %lu; slowest/fastest %.2f\n", c,
		       (unsigned long)counts[0], (unsigned long)counts[n / 2], (unsigned long)counts[n - 1],
		       (double)counts[0] / (double)counts[n - 1]);
	}
	while (wait(NULL) > 0)
		;
	return failed;
}
