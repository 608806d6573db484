package io.rdmaffm.perftest.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The hosts of a run, from {@code --hosts a,b,c}, a hostfile, or the Slurm allocation; checked before anything
 * is launched: every name well formed, no host twice, at least two hosts. {@code --hosts} and hostfiles take
 * Slurm's (and pdsh's) bracket ranges too, {@code node[01-04,07]} ({@link SlurmHostlist}).
 */
public final class HostInput {
    private HostInput() {
    }

    /**
     * The hosts and what reading them noticed.
     *
     * @param names  the hosts, in the order given
     * @param source where they came from, e.g. "--hosts", "hostfile h.txt", "SLURM_JOB_NODELIST"
     * @param notes  things the user should know (ignored hostfile suffixes, how Slurm's list was expanded)
     */
    public record Hosts(List<String> names, String source, List<String> notes) {
    }

    /** {@code --hosts a,b,c} or {@code --hosts 'node[01-04],login'} (white space around names is ignored). */
    public static Hosts fromList(String list) {
        List<String> names = new ArrayList<>();
        for (String h : SlurmHostlist.splitTopLevel(list == null ? "" : list)) {
            addEntry(names, h.strip(), "--hosts");
        }
        return checked(names, "--hosts", List.of());
    }

    /** One entry of a list or hostfile line: a host name, or a bracket range expanded to checked names. */
    private static void addEntry(List<String> names, String entry, String where) {
        if (entry.indexOf('[') < 0 && entry.indexOf(']') < 0) {
            names.add(Names.host(entry, where));
            return;
        }
        for (String h : SlurmHostlist.expandEntry(entry, where)) {
            names.add(Names.host(h, where));
        }
    }

    /**
     * A hostfile: one host (or bracket range, {@code node[01-16]}) per line, '#' starts a comment, blank lines are skipped. Anything after the name on a
     * line (MPI's {@code slots=8}, {@code max_slots=…}) is ignored, with one note: the matrix runs one test per
     * NIC, whatever the slots say.
     *
     * @param text the file's content
     * @param name the file's name, for messages
     */
    public static Hosts fromHostfile(String text, String name) {
        String where = "hostfile " + name;
        List<String> names = new ArrayList<>();
        List<String> ignored = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = Schedule.stripComment(lines[i]).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\\s+", 2);
            addEntry(names, f[0], where + " line " + (i + 1));
            if (f.length > 1 && ignored.size() < 3) {
                ignored.add("line " + (i + 1) + " '" + Names.printable(f[1]) + "'");
            }
        }
        if (names.isEmpty()) {
            throw new MatrixInputException(where + ": no hosts in it");
        }
        List<String> notes = ignored.isEmpty() ? List.of()
                : List.of(where + ": ignored what follows the host name (" + String.join(", ", ignored)
                        + (ignored.size() == 3 ? ", ..." : "") + "): the matrix runs one test per NIC");
        return checked(names, where, notes);
    }

    /**
     * The Slurm allocation: {@code scontrol show hostnames NODELIST} through {@code runner}; when scontrol is not
     * installed or fails, Slurm's syntax is expanded here ({@link SlurmHostlist}) and a note says so.
     *
     * @param nodelist the value of {@code SLURM_JOB_NODELIST}; null when not inside an allocation
     */
    public static Hosts fromSlurm(String nodelist, ProcessRunner runner, Duration timeout) {
        if (nodelist == null || nodelist.isBlank()) {
            throw new MatrixInputException("SLURM_JOB_NODELIST is not set: run inside an allocation"
                    + " (salloc/sbatch) or give --hosts or --hostfile");
        }
        String source = "SLURM_JOB_NODELIST";
        String why;
        try {
            ProcessRunner.Finished f = runner.run(List.of("scontrol", "show", "hostnames", nodelist), timeout);
            if (f.exitCode() == 0 && !f.stdout().isBlank()) {
                List<String> names = new ArrayList<>();
                for (String line : f.stdout().split("\n")) {
                    if (!line.isBlank()) {
                        names.add(Names.host(line.strip(), "scontrol show hostnames"));
                    }
                }
                return checked(names, source, List.of());
            }
            why = f.timedOut() ? "timed out" : "exit " + f.exitCode() + lastLine(f.stderr());
        } catch (IOException e) {
            why = "not available (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MatrixInputException("interrupted while expanding SLURM_JOB_NODELIST");
        }
        List<String> names = new ArrayList<>();
        for (String h : SlurmHostlist.expand(nodelist)) {
            names.add(Names.host(h, source));
        }
        return checked(names, source, List.of("scontrol " + why + ": expanded SLURM_JOB_NODELIST '"
                + Names.printable(nodelist) + "' here"));
    }

    private static String lastLine(String s) {
        String t = s.strip();
        int nl = t.lastIndexOf('\n');
        return t.isEmpty() ? "" : ": " + Names.printable(nl < 0 ? t : t.substring(nl + 1));
    }

    private static Hosts checked(List<String> names, String source, List<String> notes) {
        Set<String> seen = new HashSet<>();
        for (String h : names) {
            // Host names are case-insensitive: node1 and NODE1 are one machine tested against itself.
            if (!seen.add(h.toLowerCase(java.util.Locale.ROOT))) {
                throw new MatrixInputException(source + ": host '" + h + "' is given twice");
            }
        }
        if (names.size() < 2) {
            throw new MatrixInputException(source + ": at least two hosts are needed (matrix, fabric), got " + names.size()
                    + (names.isEmpty() ? "" : " (" + names.get(0) + ")"));
        }
        return new Hosts(List.copyOf(names), source, notes);
    }
}
