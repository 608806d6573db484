/**
 * Connections for applications, built only on the public {@code io.rdmaffm.verbs} and {@code io.rdmaffm.verbs.cm}
 * API: {@link io.rdmaffm.verbs.connect.RdmaServer} listens and accepts, {@link io.rdmaffm.verbs.connect.Connection}
 * connects, sends and receives messages (registered receive buffers re-posted on release, credits so the peer's
 * buffers are never overrun), reads and writes the peer's {@link io.rdmaffm.verbs.connect.RemoteBuffer}s, with a
 * blocking, a {@code CompletableFuture} and an allocation-free poll style, deadlines everywhere, and one exception
 * type for what went wrong ({@link io.rdmaffm.verbs.connect.ConnectionException}, a {@code VerbsException}).
 * A {@link io.rdmaffm.verbs.connect.SharedDomain} lets many connections use regions registered once.
 *
 * <pre>{@code
 * // server
 * try (RdmaServer server = RdmaServer.listen(new InetSocketAddress("10.77.0.1", 7471));
 *      Connection c = server.accept(Duration.ofSeconds(30))) {
 *     Message m = c.receive(Duration.ofSeconds(5));
 *     ... m.buffer(), m.length() ...
 *     m.release();
 * }
 * // client
 * try (Connection c = Connection.connect(new InetSocketAddress("10.77.0.1", 7471), Duration.ofSeconds(5))) {
 *     MemoryRegion buf = c.allocateRegion(4096, Access.LOCAL_WRITE);
 *     buf.segment().setString(0, "hello");
 *     c.send(buf, 0, 6, Duration.ofSeconds(5));
 * }
 * }</pre>
 */
package io.rdmaffm.verbs.connect;
