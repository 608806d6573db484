package io.rdmaffm.perftest.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The node-types file: sections, per-HCA keys over {@code hca.*}, hostname globs, and every way it can be wrong. */
class NodeTypesTest {
    private static final Path FILE = Path.of("types.conf");

    private static NodeTypes parse(String text) {
        return NodeTypes.parse(FILE, text.lines().toList());
    }

    private static String error(String text) {
        return assertThrows(IllegalArgumentException.class, () -> parse(text)).getMessage();
    }

    @Test
    void aSectionsKeysApplyToEveryHcaAndANamedHcasOwnKeysWin() {
        NodeTypes t = parse("""
                # H100 nodes
                [gpu-h100]
                match = gpu-*, dgx[0-9]*
                hca.*.min_gbps = 180
                hca.*.rate_gbps = 400
                hca.*.pcie = Gen5 x16
                hca.mlx5_4.min_gbps = 90.5

                [cpu]
                match = cpu*
                hca.mlx5_0.min_gbps = 40
                """);
        NodeType h = t.select(null, "dgx7");
        assertEquals("gpu-h100", h.name());
        assertEquals(new HcaRule(180.0, 400.0, new PcieLink(32, 16)), h.rule("mlx5_0"));
        assertEquals(new HcaRule(90.5, 400.0, new PcieLink(32, 16)), h.rule("mlx5_4"));
        assertEquals(List.of("mlx5_4"), h.namedHcas());
        assertEquals("cpu", t.select(null, "cpu12").name());
        assertEquals("cpu", t.select("cpu", "dgx7").name(), "--node-type wins over the globs");
        assertEquals(new HcaRule(40.0, null, null), t.select("cpu", "x").rule("mlx5_0"));
        assertNull(t.select("cpu", "x").rule("mlx5_1").minGbps(), "no rule for an HCA the type does not name");
        assertFalse(h.matches("gpux"));
    }

    @Test
    void pcieLinksParseAsOperatorsAndSysfsWriteThem() {
        assertEquals(new PcieLink(16, 8), PcieLink.parse("gen4 x8"));
        assertEquals(new PcieLink(16, 16), PcieLink.parse("16.0 GT/s x16"));
        assertEquals(new PcieLink(16, 16), PcieLink.parse("16.0 GT/s PCIe x16"));
        assertTrue(PcieLink.parse("Gen5 x16").meets(PcieLink.parse("Gen4 x16")));
        assertFalse(PcieLink.parse("Gen5 x8").meets(PcieLink.parse("Gen4 x16")), "narrower fails");
        assertFalse(PcieLink.parse("Gen4 x16").meets(PcieLink.parse("Gen5 x16")), "slower fails");
        assertEquals("Gen4 x16", PcieLink.parse("16.0 GT/s x16").toString());
    }

    @Test
    void everyMistakeIsOneLineNamingFileAndLine() {
        assertEquals("types.conf:3: unknown key 'hca.*.min_gpbs' in [a] (known: match, hca.NAME.min_gbps, "
                + "hca.NAME.rate_gbps, hca.NAME.pcie (NAME an HCA or *))", error("[a]\nhca.*.min_gbps = 1\nhca.*.min_gpbs = 2\n"));
        assertEquals("types.conf:2: unknown key 'retries' in [a] (known: match, hca.NAME.min_gbps, hca.NAME.rate_gbps, "
                + "hca.NAME.pcie (NAME an HCA or *))", error("[a]\nretries = 2\n"));
        assertEquals("types.conf:1: key 'hca.*.min_gbps' outside a [type] section", error("hca.*.min_gbps = 1\n"));
        assertEquals("types.conf:3: 'hca.*.min_gbps' given twice in [a]", error("[a]\nhca.*.min_gbps = 1\nhca.*.min_gbps = 2"));
        assertEquals("types.conf:3: section [a] appears twice", error("[a]\n[b]\n[a]\n"));
        assertEquals("types.conf:2: hca.*.min_gbps: not a number of Gb/s: '1OO'", error("[a]\nhca.*.min_gbps = 1OO"));
        assertEquals("types.conf:2: hca.*.min_gbps: Gb/s must be above 0, got 0", error("[a]\nhca.*.min_gbps = 0"));
        assertEquals("types.conf:2: hca.x.pcie: not a PCIe link: 'Gen7 x16' (write e.g. Gen5 x16)",
                error("[a]\nhca.x.pcie = Gen7 x16"));
        assertEquals("types.conf:2: expected [type] or key = value, got 'min_gbps 100'", error("[a]\nmin_gbps 100"));
        assertEquals("types.conf:2: key 'match' has no value", error("[a]\nmatch =\n"));
        assertEquals("types.conf: no [type] section", error("# nothing\n"));
    }

    @Test
    void aNodeTypeNotInTheFileOrAHostNoGlobMatchesIsAnError() {
        NodeTypes t = parse("[a]\nmatch = gpu*\nhca.*.min_gbps = 1\n[b]\nhca.*.min_gbps = 2\n");
        assertEquals("node type 'c' is not in types.conf (has: a, b)",
                assertThrows(IllegalArgumentException.class, () -> t.select("c", "gpu1")).getMessage());
        assertEquals("no node type in types.conf matches host 'cpu1' (no 'match' glob does); give --node-type",
                assertThrows(IllegalArgumentException.class, () -> t.select(null, "cpu1")).getMessage());
    }
}
