package io.rdmaffm.verbs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("rdma")
class DeviceQueryRdmaTest {

    @Test
    void listsTheDeviceAndOpensIt() {
        String name = RdmaTestDevice.name();
        List<RdmaDevice> devices = RdmaDevice.list();
        RdmaDevice dev = devices.stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
        assertTrue(dev.ibdevPath().endsWith("/" + name), dev.ibdevPath());
        try (Context ctx = Context.open(name)) {
            DeviceAttributes attr = ctx.queryDevice();
            assertTrue(attr.physicalPortCount() >= 1);
            assertTrue(attr.maxQp() > 0 && attr.maxCqe() > 0 && attr.maxMr() > 0, attr.toString());
            assertEquals(dev.guid(), attr.nodeGuid(), "node GUID from the device list and from ibv_query_device");
        }
    }

    @Test
    void portIsActiveEthernetWithRoceV2Gids() {
        String name = RdmaTestDevice.name();
        try (Context ctx = Context.open(name)) {
            PortAttributes port = ctx.queryPort(1);
            assertEquals(PortState.ACTIVE, port.state());
            assertEquals(LinkLayer.ETHERNET, port.linkLayer(), "Soft-RoCE and RoCE ports are Ethernet");
            assertTrue(port.gidTableLength() > 1);
            assertEquals("LinkUp", port.physStateName());

            int index = RdmaTestDevice.gidIndex();
            GidEntry gid = ctx.queryGid(1, index);
            assertEquals(index, gid.index());
            assertEquals(GidType.ROCE_V2, gid.type());
            assertTrue(gid.isIpv4Mapped(), gid.toString());
            if (RdmaTestDevice.ipv4() != null) {
                assertEquals("::ffff:" + RdmaTestDevice.ipv4(), gid.toAddressString());
            }
            if (RdmaTestDevice.netdev() != null) {
                assertEquals(RdmaTestDevice.netdev(), gid.netdev());
            }
            List<GidEntry> table = ctx.gidTable(1);
            assertTrue(table.contains(gid), "the table holds the same entry as the single query: " + table);
            assertFalse(table.stream().anyMatch(g -> g.port() != 1));
        }
    }

    @Test
    void badPortAndGidIndexAreClearErrors() {
        try (Context ctx = Context.open(RdmaTestDevice.name())) {
            assertThrows(IllegalArgumentException.class, () -> ctx.queryPort(0));
            VerbsException e = assertThrows(VerbsException.class, () -> ctx.queryGid(1, 100000));
            assertEquals("ibv_query_gid_ex", e.verb());
            assertTrue(e.getMessage().contains("GID index 100000"), e.getMessage());
            VerbsException port = assertThrows(VerbsException.class, () -> ctx.queryPort(7));
            assertTrue(port.errno() != 0, port.getMessage());
        }
    }

    @Test
    void unknownDeviceNamesTheDevicesThatExist() {
        String name = RdmaTestDevice.name();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Context.open("no_such_dev9"));
        assertTrue(e.getMessage().contains(name), e.getMessage());
    }

    @Test
    void closeIsIdempotentAndUseAfterCloseIsAnException() {
        Context ctx = Context.open(RdmaTestDevice.name());
        ctx.close();
        ctx.close();
        assertTrue(ctx.isClosed());
        assertThrows(IllegalStateException.class, () -> ctx.queryPort(1));
    }
}
