package io.rdmaffm.perftest.report.model;

import java.util.List;

/**
 * Where and how a run ran (schema 1, {@code environment}); null in a version-0 document.
 *
 * @param host host name
 * @param kernel {@code uname -r}
 * @param cpuModel the first CPU's model name, or null
 * @param cpus CPUs available to the JVM, or null
 * @param javaVersion {@code java.runtime.version}
 * @param jvm {@code java.vm.name}
 * @param jvmFlags the JVM's input arguments
 * @param toolVersion perftest-java's version
 * @param toolCommit the git commit it was built from, or null (unknown, or written before the key existed)
 * @param toolDirty whether that build's tree differed from the commit, or null
 * @param date start of the run, ISO-8601 UTC, as written
 * @param clock what timed the measured loops, or null (written before the key existed)
 */
public record Environment(String host, String kernel, String cpuModel, Integer cpus, String javaVersion, String jvm,
                          List<String> jvmFlags, String toolVersion, String toolCommit, Boolean toolDirty,
                          String date, String clock) {

    public Environment {
        jvmFlags = jvmFlags == null ? List.of() : List.copyOf(jvmFlags);
    }

    static Environment read(Fields f) {
        if (f == null) {
            return null;
        }
        return new Environment(f.string("host"), f.string("kernel"), f.string("cpu_model"), f.smallInt("cpus"),
                f.string("java_version"), f.string("jvm"), f.strings("jvm_flags"), f.string("tool_version"),
                f.string("tool_commit"), f.bool("tool_dirty"), f.string("date"), f.string("clock"));
    }
}
