package io.rdmaffm.perftest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Figures from perftest-java's JSON and from C perftest's text (real captures); failure texts. */
class ToolOutputTest {

    static String resource(String name) {
        try (InputStream in = ToolOutputTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** What a perftest-java client end prints: its table, then the script's marks and the JSON file. */
    static String javaEnd(String text, String json) {
        return RemoteScript.PID_MARK + " 4242\n" + text + RemoteScript.JSON_MARK + "\n" + json;
    }

    @Test
    void javaJsonInMegabytesIsConvertedToGigabits() {
        String out = javaEnd(" #bytes ...\n", resource("/cluster/write_bw.json"));
        ToolOutput.Figures f = ToolOutput.figures(MatrixRequest.Peer.JAVA, true, out);
        // 11680.25 MB/s with perftest's MB = 2^20 bytes: 11680.25 * 1048576 * 8 / 1e9 Gb/s.
        assertEquals(97.98, f.bwGbps(), 0.005);
        assertTrue(Double.isNaN(f.latUsec()));
        assertTrue(f.json().contains("\"RDMA_Write_BW_Test\""));
        assertEquals(" #bytes ...\n", ToolOutput.text(out));
    }

    @Test
    void javaLatencyUsesTypical() {
        ToolOutput.Figures f = ToolOutput.figures(MatrixRequest.Peer.JAVA, false,
                javaEnd("", resource("/cluster/write_lat.json")));
        assertEquals(1.82, f.latUsec(), 1e-9);
        ToolOutput.Figures d = ToolOutput.figures(MatrixRequest.Peer.JAVA, false,
                javaEnd("", "{\"results\": {\"MsgSize\": 2, \"t_avg\": 3.5, \"tps_average\": 1.0}}"));
        assertEquals(3.5, d.latUsec(), 1e-9, "duration mode has t_avg only");
    }

    @Test
    void javaFiguresAreTheExactOnesWhereTheDocumentHasThem() {
        ToolOutput.Figures bw = ToolOutput.figures(MatrixRequest.Peer.JAVA, true, javaEnd("", "{\"results\": "
                + "{\"BW_average\": 12.35, \"BW_unit\": \"Gb/sec\", \"exact\": {\"BW_average\": 12.3456789}}}"));
        assertEquals(12.3456789, bw.bwGbps(), 1e-12, "not the rounded 12.35");
        ToolOutput.Figures lat = ToolOutput.figures(MatrixRequest.Peer.JAVA, false, javaEnd("", "{\"results\": "
                + "{\"t_typical\": 1.82, \"exact\": {\"t_typical\": 1.8249}}}"));
        assertEquals(1.8249, lat.latUsec(), 1e-12);
        ToolOutput.Figures avg = ToolOutput.figures(MatrixRequest.Peer.JAVA, false, javaEnd("", "{\"results\": "
                + "{\"t_avg\": 3.5, \"exact\": {\"t_avg\": 3.4987, \"round_trips\": 10}}}"));
        assertEquals(3.4987, avg.latUsec(), 1e-12, "duration mode");
        ToolOutput.Figures old = ToolOutput.figures(MatrixRequest.Peer.JAVA, true, javaEnd("", "{\"results\": "
                + "{\"BW_average\": 12.35, \"BW_unit\": \"Gb/sec\", \"exact\": null}}"));
        assertEquals(12.35, old.bwGbps(), 1e-12, "without exact figures: the rounded one");
    }

    @Test
    void javaWithoutFiguresGivesNone() {
        assertNull(ToolOutput.figures(MatrixRequest.Peer.JAVA, true, "@rdma-matrix pid 1\n"));
        assertNull(ToolOutput.figures(MatrixRequest.Peer.JAVA, true, javaEnd("", "")));
        assertNull(ToolOutput.figures(MatrixRequest.Peer.JAVA, true, javaEnd("", "{not json")));
        assertNull(ToolOutput.figures(MatrixRequest.Peer.JAVA, true, javaEnd("", "{\"test_info\": {}}")));
    }

    @Test
    void cTextFromRealCaptures() {
        ToolOutput.Figures bw = ToolOutput.figures(MatrixRequest.Peer.C, true,
                RemoteScript.PID_MARK + " 7\n" + resource("/captures/write_bw.client.out"));
        // 32.26 MB/sec in the capture.
        assertEquals(32.26 * 1048576 * 8 / 1e9, bw.bwGbps(), 1e-9);
        assertNull(bw.json());
        ToolOutput.Figures lat = ToolOutput.figures(MatrixRequest.Peer.C, false,
                resource("/captures/write_lat.client.out"));
        assertEquals(616.72, lat.latUsec(), 1e-9);
        assertNull(ToolOutput.figures(MatrixRequest.Peer.C, true, resource("/captures/write_lat.client.out")),
                "a latency table has no bandwidth");
        assertNull(ToolOutput.figures(MatrixRequest.Peer.C, false, resource("/captures/write_bw.server.out")),
                "a BW table is no latency");
    }

    @Test
    void failureTexts() {
        assertEquals("ERR: no RDMA device named 'mlx5_9'; devices: mlx5_0, mlx5_1",
                ToolOutput.deviceMissing("banner\nERR: no RDMA device named 'mlx5_9'; devices: mlx5_0, mlx5_1\n"));
        assertEquals("IB device mlx5_9 not found", ToolOutput.deviceMissing(" IB device mlx5_9 not found\n"
                + " Unable to find the Infiniband/RoCE device\n"));
        assertNull(ToolOutput.deviceMissing("connection refused by a:18515"));
        assertTrue(ToolOutput.refused("ib_write_bw: connection refused by node01:18515"));
        assertTrue(ToolOutput.refused("Couldn't connect to node01:18515"));
        assertFalse(ToolOutput.refused("peer closed the connection"));
        assertEquals("the last words", ToolOutput.lastLine("first\n@rdma-matrix pid 3\nthe last words\n---\n\n"));
        assertEquals("", ToolOutput.lastLine("\n \n"));
    }
}
