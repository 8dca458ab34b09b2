package dev.lnp.server;

import io.helidon.common.socket.SocketOptions;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Keeps one listener's connections within its {@link ConnectionLimits}: a connection past the listener's cap, or past
 * its client address's share, is closed as soon as it is accepted, and a connection that has not sent a whole
 * request line within the first-request timeout is closed.
 *
 * <p>Helidon 4.5 times out only connections whose protocol it has identified from their first bytes: a client that
 * connects and never sends a byte holds the connection, and a file descriptor, for ever. Once the process runs out
 * of descriptors, the listener's accept fails and the listener ends (see {@link ListenerFailures}). After the first
 * request line, {@link ReadDeadlines} bounds the rest of the request and the server's idle timeout the wait for the
 * next one.
 *
 * <p>The guard sees each connection at accept (through the listener's socket options, {@link #options}) and at its
 * first request ({@link #markSpoke}); a watcher thread forgets closed connections and closes silent
 * ones. Counts therefore lag a closed connection by at most one {@link #CHECK_MILLIS sweep}.
 */
final class ConnectionGuard implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ConnectionGuard.class.getName());
    static final long CHECK_MILLIS = 250;
    private static final long REFUSAL_LOG_WINDOW_NANOS = 10_000_000_000L;

    private final String listener;
    private final String capSetting;
    private final ConnectionLimits limits;
    private final Map<SocketChannel, Held> held = new ConcurrentHashMap<>();
    /** Connections that have not yet sent a request line, by their two ends (what a request's context tells). */
    private final Map<Peers, Held> silent = new ConcurrentHashMap<>();
    private final Map<InetAddress, Integer> perClient = new ConcurrentHashMap<>();
    private final AtomicInteger total = new AtomicInteger();
    private final Thread watcher;
    private volatile boolean running = true;

    private long refusalWindowStart;
    private long refusedInWindow;
    private String latestRefusal;

    /**
     * @param listener how the log names the listener, e.g. {@code HTTP}
     * @param settingPrefix the configuration prefix of its limits, e.g. {@code lnp.http}
     */
    ConnectionGuard(String listener, String settingPrefix, ConnectionLimits limits) {
        this.listener = listener;
        this.capSetting = settingPrefix + ".max_connections";
        this.limits = limits;
        this.watcher = Thread.ofPlatform().daemon().name("lnp-connections-" + listener.toLowerCase())
                .start(this::watch);
    }

    ConnectionLimits limits() {
        return limits;
    }

    /** The socket options of the listener's connections: {@code base}'s, and this guard's admission. */
    SocketOptions options(SocketOptions base) {
        return new GuardedSocketOptions(base, this);
    }

    /**
     * A routing filter that marks the connection of every request as having sent a request: from then on the guard
     * no longer times it. A filter rather than an HTTP/1.1 receive listener: the HTTP/1.1 configuration must hold
     * only the read deadline's listener, as Helidon 4.5 calls none of several ({@link ConnectionRules#http1}).
     */
    void markSpoke(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        // Every request passes here; after a connection's first, the look-up misses at once.
        Held connection = silent.remove(new Peers(req.remotePeer().address(), req.localPeer().address()));
        if (connection != null) {
            connection.spoke = true;
        }
        chain.proceed();
    }

    /**
     * Called on the listener's accept thread for every new connection, before Helidon handles it.
     *
     * @throws ConnectionRefused when the connection is over a cap; Helidon then closes it
     */
    void admit(SocketChannel channel) {
        InetSocketAddress remote;
        SocketAddress local;
        try {
            remote = (InetSocketAddress) channel.getRemoteAddress();
            local = channel.getLocalAddress();
        } catch (IOException | ClassCastException e) {
            throw new ConnectionRefused("its addresses cannot be read: " + e.getMessage());
        }
        if (total.get() >= limits.maxConnections()) {
            refused("the " + listener + " listener holds " + limits.maxConnections() + " connections, its cap ("
                    + capSetting + ")");
        }
        // Only this (accept) thread adds, so the check and the count below cannot be overtaken.
        if (perClient.getOrDefault(remote.getAddress(), 0) >= limits.maxPerClient()) {
            refused("client " + remote.getAddress().getHostAddress() + " holds " + limits.maxPerClient()
                    + " connections to the " + listener + " listener, its cap (" + capSetting + "_per_client)");
        }
        perClient.merge(remote.getAddress(), 1, Integer::sum);
        total.incrementAndGet();
        Held connection = new Held(remote.getAddress(), new Peers(remote, local), System.nanoTime());
        held.put(channel, connection);
        silent.put(connection.peers, connection);
    }

    /** Connections held now (for tests and the metrics). */
    int held() {
        return total.get();
    }

    private void refused(String why) {
        boolean log;
        long suppressed = 0;
        synchronized (this) {
            long now = System.nanoTime();
            log = refusedInWindow == 0 || now - refusalWindowStart >= REFUSAL_LOG_WINDOW_NANOS;
            if (log) {
                suppressed = Math.max(0, refusedInWindow - 1);
                refusalWindowStart = now;
                refusedInWindow = 0;
            }
            refusedInWindow++;
            latestRefusal = why;
        }
        if (log) {
            LOG.log(Level.WARNING, "connection refused: " + why + (suppressed > 0
                    ? "; " + suppressed + " more refused since the last line" : ""));
        }
        throw new ConnectionRefused(why);
    }

    private void watch() {
        while (running) {
            try {
                Thread.sleep(CHECK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            sweep(System.nanoTime());
            summarizeRefusals(System.nanoTime());
        }
    }

    /** Forgets closed connections and closes those silent for longer than the first-request timeout. */
    void sweep(long now) {
        long timeout = limits.firstRequestTimeout().toNanos();
        held.forEach((channel, connection) -> {
            if (!channel.isOpen()) {
                forget(channel, connection);
            } else if (!connection.spoke && now - connection.acceptedNanos > timeout) {
                ClientFaults.report("no request line within " + limits.firstRequestTimeout().toSeconds()
                        + " s of connecting; connection closed");
                try {
                    channel.close();
                } catch (IOException e) {
                    // Closed either way; the next sweep forgets it.
                }
                forget(channel, connection);
            }
        });
    }

    private void forget(SocketChannel channel, Held connection) {
        if (held.remove(channel, connection)) {
            silent.remove(connection.peers, connection);
            total.decrementAndGet();
            perClient.computeIfPresent(connection.client, (client, count) -> count <= 1 ? null : count - 1);
        }
    }

    /** A quiet period after refusals says how many were not logged, so the log tells when the pressure ended. */
    private void summarizeRefusals(long now) {
        String line = null;
        synchronized (this) {
            if (refusedInWindow > 1 && now - refusalWindowStart >= REFUSAL_LOG_WINDOW_NANOS) {
                line = "connection refused: " + (refusedInWindow - 1) + " more in the last "
                        + (now - refusalWindowStart) / 1_000_000_000 + " s; latest: " + latestRefusal;
                refusedInWindow = 0;
            }
        }
        if (line != null) {
            LOG.log(Level.WARNING, line);
        }
    }

    @Override
    public void close() {
        running = false;
        watcher.interrupt();
    }

    private static final class Held {
        final InetAddress client;
        final Peers peers;
        final long acceptedNanos;
        volatile boolean spoke;

        Held(InetAddress client, Peers peers, long acceptedNanos) {
            this.client = client;
            this.peers = peers;
            this.acceptedNanos = acceptedNanos;
        }
    }

    private record Peers(SocketAddress remote, SocketAddress local) {
    }

    /** Thrown from the accept path: Helidon closes the connection and logs nothing above TRACE. */
    static final class ConnectionRefused extends RuntimeException {
        ConnectionRefused(String why) {
            super(why, null, false, false);
        }
    }
}
