package io.rdmaffm.perftest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pure schedule: round robin, quick, pairs file. */
class ScheduleTest {

    static List<String> hosts(int n) {
        List<String> h = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            h.add("h" + i);
        }
        return h;
    }

    private static String key(Schedule.HostPair p) {
        return p.server().compareTo(p.client()) < 0 ? p.server() + "|" + p.client() : p.client() + "|" + p.server();
    }

    private static void assertNoHostTwiceInARound(List<List<Schedule.HostPair>> rounds) {
        for (List<Schedule.HostPair> r : rounds) {
            Set<String> busy = new HashSet<>();
            for (Schedule.HostPair p : r) {
                assertTrue(busy.add(p.server()), p.server() + " twice in round " + r);
                assertTrue(busy.add(p.client()), p.client() + " twice in round " + r);
            }
        }
    }

    @Test
    void roundRobinHasEveryPairOnceAndNoHostTwiceInARound() {
        for (int n = 2; n <= 40; n++) {
            List<String> hosts = hosts(n);
            List<List<Schedule.HostPair>> rounds = Schedule.roundRobin(hosts);
            assertEquals(n % 2 == 0 ? n - 1 : n, rounds.size(), "rounds for n=" + n);
            for (List<Schedule.HostPair> r : rounds) {
                assertEquals(n / 2, r.size(), "pairs per round for n=" + n);
            }
            assertNoHostTwiceInARound(rounds);
            Set<String> seen = new HashSet<>();
            for (List<Schedule.HostPair> r : rounds) {
                for (Schedule.HostPair p : r) {
                    assertTrue(!p.server().equals(p.client()), "self pair " + p);
                    assertTrue(seen.add(key(p)), "pair twice for n=" + n + ": " + p);
                }
            }
            assertEquals(n * (n - 1) / 2, seen.size(), "every pair for n=" + n);
            if (n % 2 == 1) {
                Map<String, Integer> idle = new HashMap<>();
                for (List<Schedule.HostPair> r : rounds) {
                    for (String h : hosts) {
                        if (r.stream().noneMatch(p -> p.has(h))) {
                            idle.merge(h, 1, Integer::sum);
                        }
                    }
                }
                assertEquals(n, idle.size(), "every host idles once for n=" + n);
                assertTrue(idle.values().stream().allMatch(c -> c == 1));
            }
        }
    }

    @Test
    void roundRobinSharesTheServerRole() {
        Map<String, Integer> served = new HashMap<>();
        for (List<Schedule.HostPair> r : Schedule.roundRobin(hosts(8))) {
            for (Schedule.HostPair p : r) {
                served.merge(p.server(), 1, Integer::sum);
            }
        }
        // 28 pairs over 8 hosts: nobody serves all 7 of its tests, nobody never serves.
        assertEquals(8, served.size());
        assertTrue(served.values().stream().allMatch(c -> c >= 2 && c <= 5), served.toString());
    }

    @Test
    void quickTestsEveryHostOnceAcrossTheHalves() {
        List<List<Schedule.HostPair>> even = Schedule.quick(hosts(6));
        assertEquals(List.of(List.of(new Schedule.HostPair("h0", "h3"), new Schedule.HostPair("h1", "h4"),
                new Schedule.HostPair("h2", "h5"))), even);
        for (int n = 2; n <= 40; n++) {
            List<List<Schedule.HostPair>> rounds = Schedule.quick(hosts(n));
            assertNoHostTwiceInARound(rounds);
            assertEquals(n % 2 == 0 ? 1 : 2, rounds.size(), "n=" + n);
            Map<String, Integer> tested = new HashMap<>();
            rounds.forEach(r -> r.forEach(p -> {
                tested.merge(p.server(), 1, Integer::sum);
                tested.merge(p.client(), 1, Integer::sum);
            }));
            assertEquals(n, tested.size(), "every host tested, n=" + n);
            for (Map.Entry<String, Integer> e : tested.entrySet()) {
                // Odd n: the first host is the one tested twice (with the last host, in a second round).
                int expected = n % 2 == 1 && e.getKey().equals("h0") ? 2 : 1;
                assertEquals(expected, e.getValue(), e.getKey() + " n=" + n);
            }
        }
        assertEquals(List.of(new Schedule.HostPair("h4", "h0")), Schedule.quick(hosts(5)).get(1));
    }

    @Test
    void greedyPutsEachPairInTheFirstFreeRound() {
        List<Schedule.HostPair> pairs = List.of(new Schedule.HostPair("a", "b"), new Schedule.HostPair("c", "d"),
                new Schedule.HostPair("a", "c"), new Schedule.HostPair("b", "d"), new Schedule.HostPair("a", "d"));
        List<List<Schedule.HostPair>> rounds = Schedule.greedy(pairs);
        assertEquals(List.of(List.of(pairs.get(0), pairs.get(1)), List.of(pairs.get(2), pairs.get(3)),
                List.of(pairs.get(4))), rounds);
        assertNoHostTwiceInARound(rounds);
    }

    @Test
    void pairsFileIsReadAndScheduled() throws Exception {
        String text = new String(getClass().getResourceAsStream("/cluster/pairs.txt").readAllBytes());
        List<String> known = List.of("node01", "node02", "node04", "node05");
        List<Schedule.HostPair> pairs = Schedule.parsePairs(text, known, "pairs.txt");
        assertEquals(5, pairs.size());
        assertEquals(new Schedule.HostPair("node02", "node05"), pairs.get(1));
        List<List<Schedule.HostPair>> rounds = Schedule.greedy(pairs);
        assertNoHostTwiceInARound(rounds);
        assertEquals(3, rounds.size(), rounds.toString());
        assertEquals(5, rounds.stream().mapToInt(List::size).sum());
    }

    @Test
    void badPairsFilesAreRefusedWithTheLine() {
        List<String> known = List.of("a", "b", "c");
        assertEquals("p line 2: host 'x' is not among the hosts of the run",
                assertThrows(MatrixInputException.class, () -> Schedule.parsePairs("a b\nb x\n", known, "p"))
                        .getMessage());
        assertEquals("p line 1: 'a' paired with itself",
                assertThrows(MatrixInputException.class, () -> Schedule.parsePairs("a a", known, "p")).getMessage());
        assertEquals("p line 3: pair c a is listed twice",
                assertThrows(MatrixInputException.class, () -> Schedule.parsePairs("a c\n#\nc a", known, "p"))
                        .getMessage());
        assertEquals("p line 1: expected two hosts, got 'a b c'",
                assertThrows(MatrixInputException.class, () -> Schedule.parsePairs("a b c", known, "p"))
                        .getMessage());
        assertEquals("p: no pairs",
                assertThrows(MatrixInputException.class, () -> Schedule.parsePairs("# none\n\n", known, "p"))
                        .getMessage());
        assertTrue(assertThrows(MatrixInputException.class, () -> Schedule.parsePairs("a b:22", known, "p"))
                .getMessage().startsWith("p line 1: host 'b:22' has a port"));
    }
}
