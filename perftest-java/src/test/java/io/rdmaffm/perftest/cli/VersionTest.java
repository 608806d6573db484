package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.report.BuildInfo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --version}: the version and the commit of this build, never "(development build)". */
class VersionTest {

    @Test
    void versionNamesTheBuildsCommit() {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        assertEquals(0, cl.execute("--version"));
        List<String> lines = out.toString().lines().toList();
        BuildInfo b = BuildInfo.CURRENT;
        assertEquals("rdma-perftest " + b.describe(), lines.get(0));
        assertFalse(out.toString().contains("development build"), out.toString());
        if (b.commit() == null) {
            assertEquals("commit unknown", lines.get(1));
        } else {
            assertTrue(lines.get(1).matches("commit [0-9a-f]{40} \\((dirty|clean) tree\\)"), lines.get(1));
        }
        assertEquals("perftest wire version 6.06", lines.get(2));
    }
}
