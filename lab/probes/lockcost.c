/*
 * What the emulated CPU charges for a locked instruction (not part of the project's build). perftest-java's loop
 * runs a few locked instructions per operation that C perftest's does not (its lifetime guards, glibc's
 * cancellation switch around the doorbell's write in a multi-threaded process); this says whether the emulator
 * makes them costly enough to matter. Times 2,000,000 of each: a plain add to memory (the loop's own cost),
 * lock add, lock xadd, lock cmpxchg, mfence. Three lines, nanoseconds per instruction.
 * usage: gcc -O2 -Wall -Wextra -Werror -o target/lockcost lab/probes/lockcost.c
 *        scripts/rdma-env.sh -- taskset -c 1 target/lockcost     (in the Soft-RoCE VM; or on any host)
 */
#include <stdio.h>
#include <time.h>

#define ROUNDS 2000000L

static volatile long word;

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(void) {
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now_ns();
        for (long i = 0; i < ROUNDS; i++) {
            __asm__ volatile("addq $1, %0" : "+m"(word));
        }
        double t1 = now_ns();
        for (long i = 0; i < ROUNDS; i++) {
            __asm__ volatile("lock addq $1, %0" : "+m"(word));
        }
        double t2 = now_ns();
        long v = 1;
        for (long i = 0; i < ROUNDS; i++) {
            __asm__ volatile("lock xaddq %0, %1" : "+r"(v), "+m"(word));
        }
        double t3 = now_ns();
        for (long i = 0; i < ROUNDS; i++) {
            long expected = word;
            __asm__ volatile("lock cmpxchgq %2, %1" : "+a"(expected), "+m"(word) : "r"(expected + 1));
        }
        double t4 = now_ns();
        for (long i = 0; i < ROUNDS; i++) {
            __asm__ volatile("mfence" ::: "memory");
        }
        double t5 = now_ns();
        printf("ns per instruction: add %.1f  lock add %.1f  lock xadd %.1f  lock cmpxchg %.1f  mfence %.1f\n",
               (t1 - t0) / ROUNDS, (t2 - t1) / ROUNDS, (t3 - t2) / ROUNDS, (t4 - t3) / ROUNDS, (t5 - t4) / ROUNDS);
    }
    return 0;
}
