package io.rdmaffm.perftest.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code --threads}: the split of the QPs into shares. */
class QpSharesTest {

    @Test
    void everyQpIsInExactlyOneContiguousShareAndSharesDifferByAtMostOne() {
        for (int q = 1; q <= 40; q++) {
            for (int t = 1; t <= q; t++) {
                QpShares s = new QpShares(q, t);
                int next = 0;
                int min = Integer.MAX_VALUE;
                int max = 0;
                for (int share = 0; share < t; share++) {
                    assertEquals(next, s.first(share), "q=" + q + " t=" + t + ": shares follow one another");
                    assertTrue(s.size(share) >= 1, "q=" + q + " t=" + t + ": no idle thread");
                    for (int qp = s.first(share); qp < s.first(share) + s.size(share); qp++) {
                        assertEquals(share, s.shareOf(qp), "q=" + q + " t=" + t + " qp=" + qp);
                    }
                    next += s.size(share);
                    min = Math.min(min, s.size(share));
                    max = Math.max(max, s.size(share));
                }
                assertEquals(q, next, "q=" + q + " t=" + t + ": every QP");
                assertTrue(max - min <= 1, "q=" + q + " t=" + t + ": spread evenly");
            }
        }
    }

    @Test
    void examples() {
        QpShares s = new QpShares(5, 2);
        assertEquals(2, s.size(0));
        assertEquals(3, s.size(1));
        assertEquals(1, s.shareOf(2));
        assertEquals(4, new QpShares(4, 2).first(2), "the end of the last share is -q");
    }

    @Test
    void refusesMoreThreadsThanQps() {
        assertThrows(IllegalArgumentException.class, () -> new QpShares(2, 3));
        assertThrows(IllegalArgumentException.class, () -> new QpShares(2, 0));
    }
}
