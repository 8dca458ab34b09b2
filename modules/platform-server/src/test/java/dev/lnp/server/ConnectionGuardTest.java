package dev.lnp.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ConnectionGuardTest {

    private ServerSocketChannel listener;
    private final List<SocketChannel> channels = new ArrayList<>();

    @BeforeEach
    void listen() throws IOException {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    @AfterEach
    void close() throws IOException {
        for (SocketChannel channel : channels) {
            channel.close();
        }
        listener.close();
    }

    /** A connection from {@code client}, as the server accepted it. */
    private SocketChannel accepted(String client) throws IOException {
        SocketChannel outgoing = SocketChannel.open();
        outgoing.bind(new InetSocketAddress(InetAddress.getByName(client), 0));
        outgoing.connect(listener.getLocalAddress());
        channels.add(outgoing);
        SocketChannel incoming = listener.accept();
        channels.add(incoming);
        return incoming;
    }

    @Test
    void capsPerListenerAndPerClientAddress() throws IOException {
        try (ConnectionGuard guard = new ConnectionGuard("HTTP", "lnp.http",
                new ConnectionLimits(3, 2, Duration.ofSeconds(10)))) {
            guard.admit(accepted("127.0.0.1"));
            guard.admit(accepted("127.0.0.1"));
            var perClient = assertThrows(ConnectionGuard.ConnectionRefused.class,
                    () -> guard.admit(accepted("127.0.0.1")));
            assertTrue(perClient.getMessage().contains("client 127.0.0.1 holds 2 connections"), perClient.getMessage());
            assertTrue(perClient.getMessage().contains("lnp.http.max_connections_per_client"), perClient.getMessage());

            guard.admit(accepted("127.0.0.2"));
            var listenerCap = assertThrows(ConnectionGuard.ConnectionRefused.class,
                    () -> guard.admit(accepted("127.0.0.3")));
            assertTrue(listenerCap.getMessage().contains("holds 3 connections, its cap (lnp.http.max_connections)"),
                    listenerCap.getMessage());
            assertEquals(3, guard.held());
        }
    }

    @Test
    void aClosedConnectionFreesItsPlaceAtTheNextSweep() throws IOException {
        try (ConnectionGuard guard = new ConnectionGuard("HTTP", "lnp.http",
                new ConnectionLimits(1, 1, Duration.ofSeconds(10)))) {
            SocketChannel first = accepted("127.0.0.1");
            guard.admit(first);
            assertThrows(ConnectionGuard.ConnectionRefused.class, () -> guard.admit(accepted("127.0.0.1")));
            first.close();
            guard.sweep(System.nanoTime());
            assertEquals(0, guard.held());
            guard.admit(accepted("127.0.0.1"));
        }
    }

    @Test
    void aConnectionSilentPastTheFirstRequestTimeoutIsClosed() throws IOException {
        try (ConnectionGuard guard = new ConnectionGuard("HTTP", "lnp.http",
                new ConnectionLimits(10, 10, Duration.ofSeconds(5)))) {
            SocketChannel silent = accepted("127.0.0.1");
            guard.admit(silent);
            guard.sweep(System.nanoTime() + Duration.ofSeconds(4).toNanos());
            assertTrue(silent.isOpen(), "still within its time");
            guard.sweep(System.nanoTime() + Duration.ofSeconds(6).toNanos());
            assertFalse(silent.isOpen());
            assertEquals(0, guard.held());
        }
    }
}
