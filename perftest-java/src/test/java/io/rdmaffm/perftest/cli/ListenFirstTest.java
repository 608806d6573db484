package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** Ready at once: a server's first act after the command line is to listen, before it opens the device. */
class ListenFirstTest {

    @Test
    void theServerListensBeforeItOpensTheDevice() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("0.0.0.0"))) {
            String port = String.valueOf(taken.getLocalPort());
            ToolCommandLineTest.Result r = ToolCommandLineTest.run("ib_write_bw", "-d", "no_such_device0", "-p", port);
            assertEquals(2, r.exit(), r.err());
            // Listening came first: it is what failed, not the device that does not exist.
            assertTrue(r.err().contains("cannot listen on port " + port), r.err());
        }
    }

    @Test
    void theClientNamesAMissingDeviceBeforeItConnects() {
        ToolCommandLineTest.Result r = ToolCommandLineTest.run("ib_send_lat", "-d", "no_such_device0", "-p", "1",
                "127.0.0.1");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("no_such_device0"), r.err());
    }
}
