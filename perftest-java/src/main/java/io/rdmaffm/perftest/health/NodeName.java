package io.rdmaffm.perftest.health;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This node's name as Slurm knows it: {@code $SLURMD_NODENAME} under slurmd, else the short host name. */
final class NodeName {
    private NodeName() {
    }

    static String local() {
        String slurm = System.getenv("SLURMD_NODENAME");
        if (slurm != null && !slurm.isBlank()) {
            return slurm.strip();
        }
        String host;
        try {
            // the kernel's name, without a resolver round trip (a health check must not hang on DNS)
            host = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            host = System.getenv().getOrDefault("HOSTNAME", "");
        }
        int dot = host.indexOf('.');
        host = dot > 0 ? host.substring(0, dot) : host;
        // "(none)": the kernel's name when nobody set one
        if (host.isEmpty() || host.equals("(none)")) {
            throw new IllegalArgumentException("cannot tell this node's name: give --node-name");
        }
        return host;
    }
}
