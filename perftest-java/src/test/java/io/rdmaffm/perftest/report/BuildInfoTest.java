package io.rdmaffm.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The build's identity: what scripts/build-info.sh writes, in and outside git, and how it is described. */
class BuildInfoTest {

    private static BuildInfo parse(String text) throws IOException {
        Properties p = new Properties();
        p.load(new StringReader(text));
        return BuildInfo.of(p);
    }

    @Test
    void describesVersionCommitAndTreeState() throws IOException {
        String sha = "0123456789abcdef0123456789abcdef01234567";
        assertEquals("1.2.0 (commit 0123456789ab)", parse("version=1.2.0\ncommit=" + sha + "\ndirty=false\n")
                .describe());
        assertEquals("1.2.0 (commit 0123456789ab, dirty tree)", parse("version=1.2.0\ncommit=" + sha
                + "\ndirty=true\n").describe());
        BuildInfo outsideGit = parse("version=1.2.0\ncommit=unknown\ndirty=unknown\n");
        assertNull(outsideGit.commit());
        assertNull(outsideGit.dirty());
        assertEquals("1.2.0 (unknown commit)", outsideGit.describe());
        assertEquals("unknown (unknown commit)", parse("").describe(), "classes built without Maven");
    }

    @Test
    void theBuildRecordedThisCheckoutsCommit() throws Exception {
        Path root = Path.of("..").toAbsolutePath().normalize();
        Process git = new ProcessBuilder("git", "-C", root.toString(), "rev-parse", "HEAD").start();
        String head = new String(git.getInputStream().readAllBytes()).strip();
        org.junit.jupiter.api.Assumptions.assumeTrue(git.waitFor() == 0 && !head.isEmpty(),
                "not built from a git checkout");
        assertEquals(head, BuildInfo.CURRENT.commit(), "build.properties is stale or not generated; rebuild");
        assertTrue(BuildInfo.CURRENT.dirty() != null);
    }

    @Test
    void theScriptSaysUnknownOutsideGit(@TempDir Path dir) throws Exception {
        // A copy of the script in a directory that is no git checkout, as in an unpacked source tarball.
        Path scripts = Files.createDirectories(dir.resolve("src/scripts"));
        Path script = Files.copy(Path.of("../scripts/build-info.sh"), scripts.resolve("build-info.sh"));
        Path out = dir.resolve("out/build.properties");
        ProcessBuilder pb = new ProcessBuilder(List.of("bash", script.toString(), out.toString(), "9.9.9"));
        pb.environment().put("GIT_CEILING_DIRECTORIES", dir.toString());
        Process p = pb.inheritIO().start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
        assertEquals("version=9.9.9\ncommit=unknown\ndirty=unknown\n", Files.readString(out));
    }
}
