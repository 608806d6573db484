package io.rdmaffm.perftest.engine;

import io.rdmaffm.verbs.RdmaDevice;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The kernel driver of an RDMA device's parent, as sysfs links it ({@code <ibdev_path>/device/driver}): what
 * tells an mlx5 device ({@code mlx5_core}) or an EFA ({@code efa}) from others, for the transports and flags only
 * they have (DeviceRules).
 */
final class KernelDriver {
    private KernelDriver() {
    }

    /** The driver's name; "" for a software device (rxe, siw: a virtual ib device, no parent) or unreadable sysfs. */
    static String of(String device) {
        for (RdmaDevice d : RdmaDevice.list()) {
            if (d.name().equals(device)) {
                return ofPath(Path.of(d.ibdevPath()));
            }
        }
        return "";
    }

    /** As {@link #of}, from the device's sysfs directory. */
    static String ofPath(Path ibdev) {
        try {
            return ibdev.resolve("device").resolve("driver").toRealPath().getFileName().toString();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
