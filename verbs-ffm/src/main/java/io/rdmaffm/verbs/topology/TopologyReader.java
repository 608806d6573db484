package io.rdmaffm.verbs.topology;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/** Builds a {@link Topology}; one instance per snapshot (it caches PCI functions shared by several paths). */
final class TopologyReader {

    private static final Pattern BDF = Pattern.compile("^[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]$");
    private static final Pattern HOST_BRIDGE = Pattern.compile("^pci[0-9a-fA-F]{4}:[0-9a-fA-F]{2}$");
    private static final Pattern NUMBER = Pattern.compile("^\\d{1,6}$");
    /** The GID tables of big adapters have 256 slots; anything far beyond is not a GID table. */
    private static final int MAX_GIDS = 4096;

    private final Sysfs fs;
    private final Map<Path, PciFunction> pciCache = new HashMap<>();

    TopologyReader(Sysfs fs) {
        this.fs = fs;
    }

    Topology read() {
        Map<String, List<IpAddress>> ips = readAddresses();
        Map<String, NetDevice> netdevs = new TreeMap<>();
        Reading<List<String>> netNames = fs.list(fs.path("sys/class/net"));
        for (String n : netNames.orElse(List.of())) {
            netdevs.put(n, readNetdev(n, ips.getOrDefault(n, List.of())));
        }

        List<SysfsRdmaDevice> devices = new ArrayList<>();
        Reading<List<String>> names = fs.list(fs.path("sys/class/infiniband"));
        for (String n : names.orElse(List.of())) {
            devices.add(readDevice(n));
        }

        List<PciPath> gpus = new ArrayList<>();
        Reading<List<String>> pciNames = fs.list(fs.path("sys/bus/pci/devices"));
        for (String bdf : pciNames.orElse(List.of())) {
            Path entry = fs.path("sys/bus/pci/devices").resolve(bdf);
            Reading<Integer> vendor = fs.text(entry.resolve("vendor")).flatMap(TopologyReader::hex);
            Reading<Integer> cls = fs.text(entry.resolve("class")).flatMap(TopologyReader::hex);
            if (vendor.orElse(0) != PciFunction.VENDOR_NVIDIA || !cls.known()) {
                continue;
            }
            int base = cls.value() >> 8;
            if (base != 0x0300 && base != 0x0302) {
                continue;
            }
            fs.realPath(entry).flatMap(this::pciPath).map(gpus::add);
        }

        Reading<Integer> numa = fs.list(fs.path("sys/devices/system/node"))
                .map(l -> (int) l.stream().filter(s -> s.matches("node\\d+")).count())
                .flatMap(c -> c > 0 ? Reading.of(c) : Reading.unknown("no node* entries"));

        List<String> peer = new ArrayList<>();
        for (String f : List.of("sys/kernel/mm/memory_peers/nv_mem/version",
                "sys/kernel/mm/memory_peers/nv_mem_nc/version", "sys/module/nvidia_peermem/version")) {
            if (fs.exists(fs.path(f))) {
                peer.add("/" + f);
            }
        }
        return new Topology(fs.root(), devices, names.problem(), netdevs, gpus, pciNames.problem(), numa, peer);
    }

    private SysfsRdmaDevice readDevice(String name) {
        Path entry = fs.path("sys/class/infiniband").resolve(name);
        Reading<Path> real = fs.realPath(entry);
        Path dir = real.orElse(entry);
        Reading<CodedState> nodeType = fs.text(dir.resolve("node_type")).flatMap(CodedState::parse);
        Reading<String> parent = fs.text(dir.resolve("parent"));
        Path devLink = dir.resolve("device");
        boolean hasDeviceLink = fs.isLink(devLink) || fs.exists(devLink);

        String virtualReason = "";
        if (parent.known()) {
            // rxe names its netdev in "parent"; on kernels before ~5.11 its device link pointed at the
            // underlying NIC's PCI function, so the link alone must not decide.
            virtualReason = "Soft-RoCE over netdev " + parent.value();
        } else if (real.known() && real.value().toString().contains("/devices/virtual/")) {
            virtualReason = "registered under /sys/devices/virtual";
        } else if (!hasDeviceLink && real.known()) {
            virtualReason = "no PCI device (no device link)";
        }
        boolean virtual = !virtualReason.isEmpty();

        Reading<PciPath> pci;
        List<String> pciNetdevs = List.of();
        if (virtual) {
            pci = Reading.unknown("virtual device: " + virtualReason);
        } else if (!real.known()) {
            pci = Reading.unknown(real.problem());
        } else {
            pci = fs.realPath(devLink).flatMap(this::pciPath);
            pciNetdevs = fs.list(devLink.resolve("net")).orElse(List.of());
        }

        Reading<List<RdmaPort>> ports = fs.list(dir.resolve("ports")).map(list -> {
            List<RdmaPort> out = new ArrayList<>();
            for (String p : list) {
                if (NUMBER.matcher(p).matches()) {
                    out.add(readPort(Integer.parseInt(p), dir.resolve("ports").resolve(p)));
                }
            }
            out.sort(Comparator.comparingInt(RdmaPort::number));
            return List.copyOf(out);
        });

        return new SysfsRdmaDevice(name, dir, nodeType, fs.text(dir.resolve("node_guid")),
                fs.text(dir.resolve("sys_image_guid")), fs.text(dir.resolve("fw_ver")),
                fs.text(dir.resolve("hca_type")), parent, virtual, virtualReason, pci, pciNetdevs, ports);
    }

    private RdmaPort readPort(int number, Path dir) {
        return new RdmaPort(number, dir,
                fs.text(dir.resolve("state")).flatMap(CodedState::parse),
                fs.text(dir.resolve("phys_state")).flatMap(CodedState::parse),
                fs.text(dir.resolve("rate")).flatMap(PortRate::parse),
                fs.text(dir.resolve("link_layer")),
                readGids(dir));
    }

    private Reading<List<Gid>> readGids(Path port) {
        Reading<List<String>> names = fs.list(port.resolve("gids"));
        if (!names.known()) {
            return Reading.unknown(names.problem());
        }
        List<Integer> indices = names.value().stream().filter(s -> NUMBER.matcher(s).matches())
                .map(Integer::parseInt).sorted().limit(MAX_GIDS).toList();
        List<Gid> out = new ArrayList<>();
        String firstProblem = null;
        for (int i : indices) {
            Reading<String> g = fs.text(port.resolve("gids").resolve(Integer.toString(i)));
            if (!g.known() || !Gid.isWellFormed(g.value())) {
                if (firstProblem == null) {
                    firstProblem = g.known() ? "gids/" + i + ": unparseable GID " + Sysfs.quote(g.value())
                            : g.problem();
                }
                continue;
            }
            if (Gid.isEmptySlot(g.value())) {
                // the kernel answers EINVAL for the attributes of unused slots: do not even ask
                continue;
            }
            String idx = Integer.toString(i);
            out.add(new Gid(i, g.value().toLowerCase(Locale.ROOT),
                    fs.text(port.resolve("gid_attrs/types").resolve(idx)),
                    fs.text(port.resolve("gid_attrs/ndevs").resolve(idx))));
        }
        if (out.isEmpty() && firstProblem != null) {
            return Reading.unknown(firstProblem);
        }
        return Reading.of(List.copyOf(out));
    }

    private NetDevice readNetdev(String name, List<IpAddress> addresses) {
        Path dir = fs.path("sys/class/net").resolve(name);
        Reading<Long> speed = fs.text(dir.resolve("speed")).flatMap(TopologyReader::decimal)
                .flatMap(v -> v > 0 ? Reading.of(v) : Reading.unknown("speed " + v + " (link down or unknown)"));
        Path devLink = dir.resolve("device");
        Reading<String> pciAddress;
        if (!fs.isLink(devLink) && !fs.exists(devLink)) {
            pciAddress = Reading.unknown("no device link");
        } else {
            pciAddress = fs.realPath(devLink).flatMap(p -> {
                String last = p.getFileName().toString();
                return BDF.matcher(last).matches() ? Reading.of(last)
                        : Reading.unknown("device is not a PCI function (" + fs.display(p) + ")");
            });
        }
        return new NetDevice(name,
                fs.text(dir.resolve("mtu")).flatMap(TopologyReader::decimal).flatMap(TopologyReader::positiveInt),
                fs.text(dir.resolve("address")), fs.text(dir.resolve("operstate")), speed, pciAddress,
                addresses, fs.text(dir.resolve("qos/trust")),
                enabledPriorities(dir.resolve("ecn/roce_np/enable")),
                enabledPriorities(dir.resolve("ecn/roce_rp/enable")));
    }

    private Reading<List<Integer>> enabledPriorities(Path dir) {
        Reading<List<String>> names = fs.list(dir);
        if (!names.known()) {
            return Reading.unknown(names.problem());
        }
        List<Integer> on = new ArrayList<>();
        for (String p : names.value()) {
            if (!p.matches("[0-7]")) {
                continue;
            }
            Reading<String> v = fs.text(dir.resolve(p));
            if (!v.known()) {
                return Reading.unknown(v.problem());
            }
            if (v.value().equals("1")) {
                on.add(Integer.parseInt(p));
            }
        }
        return Reading.of(List.copyOf(on));
    }

    /**
     * Splits a real sysfs path into host bridge and PCI functions and reads each function.
     */
    private Reading<PciPath> pciPath(Path real) {
        Path rel;
        try {
            Path realRoot = fs.root().toRealPath();
            rel = realRoot.relativize(real);
        } catch (Exception e) {
            return Reading.unknown(fs.display(real) + ": " + Sysfs.reason(e));
        }
        List<String> parts = new ArrayList<>();
        for (Path p : rel) {
            parts.add(p.toString());
        }
        int host = -1;
        for (int i = 0; i < parts.size(); i++) {
            if (HOST_BRIDGE.matcher(parts.get(i)).matches()) {
                host = i;
                break;
            }
        }
        if (host < 0) {
            return Reading.unknown("not below a PCI host bridge: /" + rel);
        }
        Path cur = fs.root().resolve(String.join("/", parts.subList(0, host + 1)));
        List<PciFunction> chain = new ArrayList<>();
        for (int i = host + 1; i < parts.size(); i++) {
            if (!BDF.matcher(parts.get(i)).matches()) {
                return Reading.unknown("unexpected component '" + parts.get(i) + "' in PCI path /" + rel);
            }
            cur = cur.resolve(parts.get(i));
            chain.add(pciFunction(cur, parts.get(i)));
        }
        if (chain.isEmpty()) {
            return Reading.unknown("no PCI function in /" + rel);
        }
        return Reading.of(new PciPath(parts.get(host), chain));
    }

    private PciFunction pciFunction(Path dir, String bdf) {
        return pciCache.computeIfAbsent(dir, d -> pciFunction(d, bdf, fs.bytes(d.resolve("config"))));
    }

    private PciFunction pciFunction(Path d, String bdf, Reading<byte[]> config) {
        return new PciFunction(bdf.toLowerCase(Locale.ROOT), d,
                fs.text(d.resolve("vendor")).flatMap(TopologyReader::hex),
                fs.text(d.resolve("device")).flatMap(TopologyReader::hex),
                fs.text(d.resolve("class")).flatMap(TopologyReader::hex),
                fs.text(d.resolve("current_link_speed")).flatMap(PcieSpeed::parse),
                fs.text(d.resolve("current_link_width")).flatMap(TopologyReader::width),
                fs.text(d.resolve("max_link_speed")).flatMap(PcieSpeed::parse),
                fs.text(d.resolve("max_link_width")).flatMap(TopologyReader::width),
                fs.text(d.resolve("numa_node")).flatMap(TopologyReader::decimal).flatMap(n -> n >= 0
                        ? Reading.of(n.intValue())
                        : Reading.unknown("numa_node is " + n + " (firmware gives no affinity)")),
                fs.text(d.resolve("local_cpulist")),
                config.flatMap(ConfigSpace::maxPayload),
                config.flatMap(ConfigSpace::relaxedOrdering),
                config.flatMap(ConfigSpace::acsControl));
    }

    // ---- IP addresses ------------------------------------------------------------------------------

    private Map<String, List<IpAddress>> readAddresses() {
        Map<String, Set<IpAddress>> out = new LinkedHashMap<>();
        readIpv6(out);
        List<Route> routes = readConnectedRoutes();
        for (int a : readLocalIpv4()) {
            int best = -1;
            Set<String> bestIfaces = new LinkedHashSet<>();
            for (Route r : routes) {
                if ((a & r.mask()) == r.dest()) {
                    int len = Integer.bitCount(r.mask());
                    if (len > best) {
                        best = len;
                        bestIfaces.clear();
                    }
                    if (len == best) {
                        bestIfaces.add(r.iface());
                    }
                }
            }
            if (bestIfaces.size() == 1) {
                String dotted = ((a >>> 24) & 255) + "." + ((a >>> 16) & 255) + "." + ((a >>> 8) & 255) + "."
                        + (a & 255);
                String hex = "0".repeat(20) + "ffff" + String.format("%08x", a);
                out.computeIfAbsent(bestIfaces.iterator().next(), k -> new LinkedHashSet<>())
                        .add(new IpAddress(dotted, hex, true, false));
            }
        }
        Map<String, List<IpAddress>> result = new HashMap<>();
        out.forEach((k, v) -> {
            List<IpAddress> l = new ArrayList<>(v);
            l.sort(Comparator.comparing((IpAddress x) -> !x.ipv4()));
            result.put(k, List.copyOf(l));
        });
        return result;
    }

    /** IPv6 addresses with their interface, from {@code /proc/net/if_inet6}. */
    private void readIpv6(Map<String, Set<IpAddress>> out) {
        fs.text(fs.path("proc/net/if_inet6")).map(text -> {
            for (String line : text.split("\n")) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 6 || !f[0].matches("(?i)[0-9a-f]{32}")) {
                    continue;
                }
                byte[] b = new byte[16];
                for (int i = 0; i < 16; i++) {
                    b[i] = (byte) Integer.parseInt(f[0].substring(2 * i, 2 * i + 2), 16);
                }
                String hex = f[0].toLowerCase(Locale.ROOT);
                out.computeIfAbsent(f[5], k -> new LinkedHashSet<>())
                        .add(new IpAddress(text(b), hex, false, hex.startsWith("fe8")));
            }
            return 0;
        });
    }

    /** A directly connected IPv4 route (no gateway) of {@code /proc/net/route}, in host byte order. */
    private record Route(int dest, int mask, String iface) {
    }

    private List<Route> readConnectedRoutes() {
        List<Route> routes = new ArrayList<>();
        fs.text(fs.path("proc/net/route")).map(text -> {
            for (String line : text.split("\n")) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 8 || f[0].equals("Iface")) {
                    continue;
                }
                try {
                    int dest = Integer.reverseBytes((int) Long.parseLong(f[1], 16));
                    int gw = (int) Long.parseLong(f[2], 16);
                    int mask = Integer.reverseBytes((int) Long.parseLong(f[7], 16));
                    if (gw == 0 && mask != 0) {
                        routes.add(new Route(dest, mask, f[0]));
                    }
                } catch (NumberFormatException e) {
                    // a garbled line is skipped; the others still count
                }
            }
            return 0;
        });
        return routes;
    }

    /** The {@code /32 host LOCAL} entries of {@code /proc/net/fib_trie}: this host's IPv4 addresses. */
    private Set<Integer> readLocalIpv4() {
        Set<Integer> locals = new LinkedHashSet<>();
        fs.text(fs.path("proc/net/fib_trie")).map(text -> {
            Integer last = null;
            for (String line : text.split("\n")) {
                String t = line.trim();
                if (t.startsWith("|-- ")) {
                    last = ipv4(t.substring(4).trim());
                } else if (t.contains("/32 host LOCAL") && last != null) {
                    locals.add(last);
                }
            }
            return 0;
        });
        return locals;
    }

    private static Integer ipv4(String s) {
        String[] p = s.split("\\.");
        if (p.length != 4) {
            return null;
        }
        int v = 0;
        for (String x : p) {
            if (!x.matches("\\d{1,3}") || Integer.parseInt(x) > 255) {
                return null;
            }
            v = (v << 8) | Integer.parseInt(x);
        }
        return v;
    }

    private static String text(byte[] ipv6) {
        try {
            return InetAddress.getByAddress(ipv6).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // 16 bytes is always a valid length
        }
    }

    // ---- value parsers -----------------------------------------------------------------------------

    static Reading<Integer> hex(String s) {
        String t = s.strip().toLowerCase(Locale.ROOT);
        if (!t.matches("0x[0-9a-f]{1,8}")) {
            return Reading.unknown("not a hex number: " + Sysfs.quote(s));
        }
        return Reading.of(Integer.parseUnsignedInt(t.substring(2), 16));
    }

    static Reading<Long> decimal(String s) {
        String t = s.strip();
        if (!t.matches("-?\\d{1,18}")) {
            return Reading.unknown("not a number: " + Sysfs.quote(s));
        }
        return Reading.of(Long.parseLong(t));
    }

    private static Reading<Integer> positiveInt(long v) {
        return v > 0 && v <= Integer.MAX_VALUE ? Reading.of((int) v) : Reading.unknown("implausible value " + v);
    }

    private static Reading<Integer> width(String s) {
        return decimal(s).flatMap(v -> v > 0 && v <= 32 ? Reading.of(v.intValue())
                : Reading.unknown("link width " + v + (v == 0 ? " (link down or not reported)" : "")));
    }
}
