package io.rdmaffm.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The exposition writer health and matrix share: its lines, its escapes, and families kept together. */
class ExpositionTest {
    @Test
    void familiesSamplesAndEscapes() {
        Exposition e = new Exposition().gauge("m_a", "Help with \\ and\nline.").sample("m_a", 1, "k", "a\\b\"c\nd",
                "l", "").sample("m_a", 2.5).gauge("m_b", "B.").sample("m_b", 7L);
        assertEquals("""
                # HELP m_a Help with \\\\ and\\nline.
                # TYPE m_a gauge
                m_a{k="a\\\\b\\"c\\nd",l=""} 1
                m_a 2.500
                # HELP m_b B.
                # TYPE m_b gauge
                m_b 7
                """, e.text());
    }

    @Test
    void aSampleOutsideItsFamilyOrWithAnOddLabelIsRefused() {
        Exposition e = new Exposition().gauge("m_a", "A.").sample("m_a", 1).gauge("m_b", "B.");
        assertThrows(IllegalStateException.class, () -> e.sample("m_a", 2));
        assertThrows(IllegalStateException.class, () -> new Exposition().sample("m_a", 2));
        assertThrows(IllegalArgumentException.class, () -> e.sample("m_b", 2, "k"));
    }
}
