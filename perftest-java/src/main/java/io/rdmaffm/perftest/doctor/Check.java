package io.rdmaffm.perftest.doctor;

/**
 * One of the doctor's checks, a class per {@link CheckId} that its results carry: looks at one subject and
 * gives one verdict, with a one-line reason and the figures behind it. A check that cannot be made says why
 * (N/A) instead of guessing; none throws for what it finds in sysfs.
 *
 * @param <S> what it looks at: an {@link io.rdmaffm.verbs.topology.SysfsRdmaDevice} (device checks), a
 *            {@link DevicePort} (port checks) or the {@link io.rdmaffm.verbs.topology.Topology} (host checks)
 */
@FunctionalInterface
interface Check<S> {

    /**
     * @param subject the device, port or host
     * @return the verdict on it
     */
    CheckResult examine(S subject);
}
