package io.rdmaffm.perftest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Slurm's host list syntax, against expansions scontrol prints for the same lists. */
class SlurmHostlistTest {

    @Test
    void expandsRangesListsAndPadding() {
        assertEquals(List.of("node01", "node02", "node03", "node07", "gpu-a1", "gpu-a2"),
                SlurmHostlist.expand("node[01-03,07],gpu-a[1-2]"));
        assertEquals(List.of("n8", "n9", "n10"), SlurmHostlist.expand("n[8-10]"));
        assertEquals(List.of("n08", "n09", "n10"), SlurmHostlist.expand("n[08-10]"));
        assertEquals(List.of("n098", "n099", "n100", "n101"), SlurmHostlist.expand("n[098-101]"));
        assertEquals(List.of("a", "b"), SlurmHostlist.expand("a,b"));
        assertEquals(List.of("single"), SlurmHostlist.expand("single"));
        assertEquals(List.of("node1-ib", "node2-ib"), SlurmHostlist.expand("node[1-2]-ib"));
        assertEquals(List.of("r1n1", "r1n2", "r2n1", "r2n2"), SlurmHostlist.expand("r[1-2]n[1-2]"));
        List<String> linux = new ArrayList<>();
        for (int i = 0; i <= 64; i++) {
            linux.add("linux" + i);
        }
        linux.add("linux128");
        assertEquals(linux, SlurmHostlist.expand("linux[0-64,128]"));
        assertEquals(List.of("gpu005", "cpu1", "cpu3"), SlurmHostlist.expand(" gpu005,cpu[1,3]\n"));
    }

    @Test
    void refusesMalformedLists() {
        for (String[] c : new String[][] {
                {"node[1-3", "unbalanced brackets in 'node[1-3'"},
                {"node1-3]", "']' without '['"},
                {"node[3-1]", "range 3-1 runs backwards"},
                {"node[a-b]", "'a-b' is not a number or a range like 01-04"},
                {"node[1-]", "'1-' is not a number or a range like 01-04"},
                {"node[]", "empty brackets in 'node[]'"},
                {"n[1[2]]", "nested brackets in 'n[1[2]]'"},
                {"a,,b", "empty entry"},
                {"n[1-99999999]", "range 1-99999999 has more than 1000000 hosts"},
        }) {
            MatrixInputException e = assertThrows(MatrixInputException.class, () -> SlurmHostlist.expand(c[0]), c[0]);
            assertEquals("Slurm host list '" + c[0] + "': " + c[1], e.getMessage());
        }
        assertEquals("SLURM_JOB_NODELIST is empty",
                assertThrows(MatrixInputException.class, () -> SlurmHostlist.expand(" ")).getMessage());
    }
}
