package io.rdmaffm.perftest.cluster;

import java.util.regex.Pattern;

/**
 * What a host name and an RDMA device name may look like, and POSIX shell quoting.
 *
 * <p>Host names are checked strictly, because they end up as an ssh or srun argument and inside a remote shell
 * script: DNS labels (letters, digits, '-', and '_' as clusters use it in /etc/hosts) joined by dots, no label
 * starting with '-' (ssh would read it as an option) and at most 253 characters; IPv4 literals pass the same
 * rule. Ports, user names and IPv6 literals are refused with a pointer to {@code ~/.ssh/config}, where a cluster
 * sets them per host; srun has no use for them. Device names follow what the kernel gives RDMA devices
 * ({@code mlx5_0}, {@code rxe0}, {@code irdma-ens1f0}).
 */
public final class Names {
    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?");
    private static final Pattern DEVICE = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}");

    private Names() {
    }

    /**
     * @param host  the name as given
     * @param where where it came from, e.g. "--hosts" or "hostfile h.txt line 3"
     * @return the name
     * @throws MatrixInputException naming the problem
     */
    public static String host(String host, String where) {
        if (host == null || host.isEmpty()) {
            throw new MatrixInputException(where + ": empty host name");
        }
        String shown = "'" + printable(host) + "'";
        int colons = host.length() - host.replace(":", "").length();
        if (colons == 1) {
            throw new MatrixInputException(where + ": host " + shown + " has a port (or an MPI slot count);"
                    + " give the bare name and set ports in ~/.ssh/config");
        }
        if (colons > 1) {
            throw new MatrixInputException(where + ": host " + shown + ": IPv6 literals are not accepted;"
                    + " give a host name");
        }
        if (host.indexOf('@') >= 0) {
            throw new MatrixInputException(where + ": host " + shown + " has a user name;"
                    + " set users in ~/.ssh/config");
        }
        if (host.length() > 253 || !labels(host)) {
            throw new MatrixInputException(where + ": " + shown + " is not a host name"
                    + " (letters, digits, '-', '_' and dots; no label may start or end with '-')");
        }
        return host;
    }

    /**
     * @param device the RDMA device name as given
     * @param where  where it came from
     * @return the name
     * @throws MatrixInputException when empty or not a device name
     */
    public static String device(String device, String where) {
        if (device == null || device.isEmpty()) {
            throw new MatrixInputException(where + ": empty device name");
        }
        if (!DEVICE.matcher(device).matches()) {
            throw new MatrixInputException(where + ": '" + printable(device) + "' is not an RDMA device name"
                    + " (letters, digits, '_', '-', '.')");
        }
        return device;
    }

    /**
     * POSIX shell single-quoting: the result is one word to any POSIX shell, whatever {@code s} holds.
     * Plain words (letters, digits, {@code -_./=:,+@%}) stay bare so command lines remain readable.
     */
    public static String quote(String s) {
        if (!s.isEmpty() && s.chars().allMatch(Names::bare)) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private static boolean bare(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "-_./=:,+@%".indexOf(c) >= 0;
    }

    private static boolean labels(String host) {
        for (String label : host.split("\\.", -1)) {
            if (!LABEL.matcher(label).matches()) {
                return false;
            }
        }
        return true;
    }

    /** The value for an error message: control characters shown as '?', at most 60 characters. */
    public static String printable(String s) {
        return printable(s, 60);
    }

    /** The value for a message: control characters shown as '?', at most {@code max} characters. */
    public static String printable(String s, int max) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && b.length() < max; i++) {
            char c = s.charAt(i);
            b.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        return s.length() > max ? b + "..." : b.toString();
    }
}
