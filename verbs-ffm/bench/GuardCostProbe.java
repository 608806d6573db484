import io.rdmaffm.verbs.internal.Lifetime;
import io.rdmaffm.verbs.raw.NativeLibraries;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * What the close-against-use guard (Lifetime.enter/exit: two atomic adds) costs next to the cheapest downcall
 * there is, the shim's rdmaffm_inc_rkey (pure arithmetic), called as a plain and as a critical downcall: ns per
 * call with and without the guard, best of ROUNDS. Needs no RDMA device. Run on the class path against a jar.
 *   usage: GuardCostProbe CALLS ROUNDS
 */
public final class GuardCostProbe {
    private static final FunctionDescriptor FD = FunctionDescriptor.of(JAVA_INT, JAVA_INT);
    private static final MemorySegment INC_RKEY = NativeLibraries.shim().find("rdmaffm_inc_rkey").orElseThrow();
    private static final MethodHandle PLAIN = Linker.nativeLinker().downcallHandle(INC_RKEY, FD);
    private static final MethodHandle CRITICAL = Linker.nativeLinker().downcallHandle(INC_RKEY, FD,
            Linker.Option.critical(false));
    private static final Lifetime LIFE = new Lifetime(null, "probe", MemorySegment.NULL) {
        @Override
        protected void destroy(MemorySegment handle) {
        }
    };

    public static void main(String[] args) throws Throwable {
        long calls = Long.parseLong(args[0]);
        int rounds = Integer.parseInt(args[1]);
        double[] best = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
        int sink = 0;
        for (int r = 0; r < rounds; r++) {
            for (int mode = 0; mode < 4; mode++) {
                long start = System.nanoTime();
                sink += loop(mode, calls);
                best[mode] = Math.min(best[mode], (System.nanoTime() - start) / (double) calls);
            }
        }
        System.out.printf("ns/call: plain %.2f, plain+guard %.2f, critical %.2f, critical+guard %.2f (best of %d x %,d; %d)%n",
                best[0], best[1], best[2], best[3], rounds, calls, sink & 1);
    }

    private static int loop(int mode, long calls) throws Throwable {
        int x = 1;
        boolean critical = mode >= 2;
        boolean guarded = (mode & 1) == 1;
        for (long i = 0; i < calls; i++) {
            if (guarded) {
                LIFE.enter();
                try {
                    x = critical ? (int) CRITICAL.invokeExact(x) : (int) PLAIN.invokeExact(x);
                } finally {
                    LIFE.exit();
                }
            } else {
                x = critical ? (int) CRITICAL.invokeExact(x) : (int) PLAIN.invokeExact(x);
            }
        }
        return x;
    }
}
