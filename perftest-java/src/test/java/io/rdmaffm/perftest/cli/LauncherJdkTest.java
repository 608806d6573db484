package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** scripts/jdk25.sh, which the bin/ launchers use: a JDK 25 or any newer one is accepted, older ones are not. */
class LauncherJdkTest {

    /** A fake JDK: a {@code release} file with {@code version} (or none) and a {@code bin/java} printing it. */
    private static Path jdk(Path dir, String name, String version, boolean releaseFile) throws Exception {
        Path home = Files.createDirectories(dir.resolve(name).resolve("bin"));
        Path java = home.resolve("java");
        Files.writeString(java, "#!/bin/sh\necho 'openjdk version \"" + version + "\" 2026-09-15' >&2\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        if (releaseFile) {
            Files.writeString(dir.resolve(name).resolve("release"), "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"" + version
                    + "\"\n");
        }
        return dir.resolve(name);
    }

    private static int accepted(Path home) throws Exception {
        Process p = new ProcessBuilder(List.of("bash", "-c", "source ../scripts/jdk25.sh && jdk25_is_25 \"$1\"", "-",
                home.toString())).inheritIO().start();
        p.waitFor(30, TimeUnit.SECONDS);
        return p.exitValue();
    }

    @Test
    void acceptsTwentyFiveOrNewer(@TempDir Path dir) throws Exception {
        assertEquals(0, accepted(jdk(dir, "t25", "25.0.1", true)));
        assertEquals(0, accepted(jdk(dir, "t25ga", "25", true)));
        assertEquals(0, accepted(jdk(dir, "t26", "26", true)));
        assertEquals(0, accepted(jdk(dir, "t31", "31.0.2", true)));
        assertEquals(0, accepted(jdk(dir, "n27", "27-ea", false)), "no release file: asks java -version");
        assertEquals(1, accepted(jdk(dir, "t17", "17.0.12", true)));
        assertEquals(1, accepted(jdk(dir, "t8", "1.8.0_402", true)));
        assertEquals(1, accepted(jdk(dir, "n21", "21.0.4", false)));
        assertEquals(1, accepted(jdk(dir, "t2", "2", true)), "compared as a number, not as text");
    }
}
