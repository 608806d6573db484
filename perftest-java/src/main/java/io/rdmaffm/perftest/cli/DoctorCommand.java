package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.doctor.CounterDeltas;
import io.rdmaffm.perftest.doctor.DcbPfcProbe;
import io.rdmaffm.perftest.doctor.Doctor;
import io.rdmaffm.perftest.doctor.DoctorReport;
import io.rdmaffm.perftest.doctor.PfcProbe;
import io.rdmaffm.perftest.doctor.ReportWriter;
import io.rdmaffm.verbs.topology.Sysfs;
import io.rdmaffm.verbs.topology.Topology;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code doctor}: checks NIC↔PCIe matching, GPU↔NIC topology and RoCE readiness from sysfs alone.
 * Exit 0 when everything is OK (or not applicable), 1 when the worst verdict is WARN or a device could not be
 * checked at all, 2 on any FAIL (a host without RDMA devices is one, unless {@code --allow-no-devices}) or bad
 * input.
 */
@Command(name = "doctor",
        mixinStandardHelpOptions = true,
        description = {"Check NIC/PCIe matching, GPU-NIC topology and RoCE readiness from sysfs (no root needed).",
                "Exit status: 0 all OK, 1 worst is WARN or a device could not be checked, 2 any FAIL (no RDMA "
                        + "device is one, unless --allow-no-devices) or bad input."})
public final class DoctorCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Creates the command; picocli fills in the options. */
    public DoctorCommand() {
    }

    @Option(names = "--sysfs-root", paramLabel = "DIR", defaultValue = "/",
            description = "Read sys/ and proc/ below DIR instead of / (a captured tree). Default: ${DEFAULT-VALUE}")
    Path sysfsRoot;

    @Option(names = "--json", description = "Print the report as JSON (schema " + ReportWriter.SCHEMA
            + ", see docs/doctor.md).")
    boolean json;

    @Option(names = "--device", paramLabel = "NAME", description = "Report only this RDMA device.")
    String device;

    @Option(names = "--counters", paramLabel = "SECONDS",
            description = "Sample hw_counters/ and counters/ twice, SECONDS apart, and show trouble deltas.")
    Integer counters;

    @Option(names = "--allow-no-devices",
            description = "A host without RDMA devices is expected: report it as N/A instead of FAIL.")
    boolean allowNoDevices;

    @Option(names = "--debug", description = "Print stack traces of unexpected errors.")
    boolean debug;

    /** Replaced by tests so --counters need not sleep. */
    CounterDeltas.Sleeper sleeper = d -> Thread.sleep(d);

    /** Replaced by tests; by default dcb is asked only about the live host. */
    PfcProbe pfcProbe;

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(sysfsRoot)) {
            throw new IllegalArgumentException("--sysfs-root " + sysfsRoot + " is not a directory");
        }
        if (counters != null && (counters < 1 || counters > 3600)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--counters must be between 1 and 3600 seconds, got " + counters);
        }
        Sysfs fs = new Sysfs(sysfsRoot);
        PfcProbe pfc = pfcProbe != null ? pfcProbe : DcbPfcProbe.forSysfsRoot(sysfsRoot);
        DoctorReport report = Doctor.examine(Topology.read(fs), device, pfc, allowNoDevices);
        if (counters != null) {
            report = report.withCounters(CounterDeltas.sample(fs, report.devices(), Duration.ofSeconds(counters),
                    sleeper));
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(json ? ReportWriter.json(report) : ReportWriter.human(report));
        out.flush();
        return report.exitCode();
    }
}
