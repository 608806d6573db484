import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.GidEntry;

import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * How long a fresh JVM takes to open a device and read what a perftest server reads before it listens:
 * {@code Context.open}, {@code queryDevice}, {@code queryPort(1)} and the GID table. Prints one line of
 * milliseconds: JVM start to main, main to done, JVM start to done. Run on the class path against either jar
 * (see compare.sh), so the same source measures the binding before and after a change.
 *
 * <p>{@code --handles} is the part a host without RDMA can run: it only obtains the downcall handles that path
 * calls (through the raw layer, which the class path leaves reachable), eagerly built or not.
 */
public final class StartupProbe {
    private static final String[] OPEN_PATH = {"Ibv:ibv_get_device_list", "Ibv:ibv_free_device_list",
        "Ibv:ibv_get_device_guid", "Ibv:ibv_open_device", "Shim:rdmaffm_shim_abi", "Ibv:ibv_query_device",
        "Shim:rdmaffm_query_port", "Ibv:_ibv_query_gid_table", "LibC:if_indextoname", "Ibv:ibv_close_device"};

    public static void main(String[] args) throws Exception {
        long mainAt = System.currentTimeMillis();
        String what;
        if (args.length == 1 && args[0].equals("--handles")) {
            for (String h : OPEN_PATH) {
                handle(h);
            }
            what = OPEN_PATH.length + " handles";
        } else {
            try (Context ctx = Context.open(args[0])) {
                int ports = ctx.queryDevice().physicalPortCount();
                int gidLen = ctx.queryPort(1).gidTableLength();
                List<GidEntry> gids = ctx.gidTable();
                what = ctx.name() + ": " + ports + " port(s), GID table " + gidLen + ", " + gids.size() + " populated";
            }
        }
        long doneAt = System.currentTimeMillis();
        long start = ManagementFactory.getRuntimeMXBean().getStartTime();
        System.out.printf("startup-ms jvm-to-main %d main-to-done %d jvm-to-done %d (%s)%n",
                mainAt - start, doneAt - mainAt, doneAt - start, what);
    }

    /** The handle: a static final MethodHandle (built with its class) or a LazyHandle's (built on first use). */
    private static Object handle(String spec) throws Exception {
        String[] p = spec.split(":");
        Object field = Class.forName("io.rdmaffm.verbs.raw." + p[0]).getField(p[1]).get(null);
        return field instanceof MethodHandle ? field : field.getClass().getMethod("handle").invoke(field);
    }
}
