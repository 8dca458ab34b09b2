package dev.lnp.server;

import io.helidon.common.socket.SocketOptions;
import java.net.Socket;
import java.net.SocketOption;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A listener's connection options that also pass every accepted connection through its {@link ConnectionGuard}:
 * configuring an accepted socket is the one place Helidon 4.5 hands the new connection to application code before
 * it starts reading from it. A refusal thrown here makes Helidon close the connection and go on accepting.
 */
final class GuardedSocketOptions implements SocketOptions {

    private final SocketOptions base;
    private final ConnectionGuard guard;

    GuardedSocketOptions(SocketOptions base, ConnectionGuard guard) {
        this.base = base;
        this.guard = guard;
    }

    @Override
    public void configureSocket(SocketChannel socket) {
        base.configureSocket(socket);
        guard.admit(socket);
    }

    @Override
    public void configureSocket(Socket socket) {
        base.configureSocket(socket);
    }

    @Override
    public Map<SocketOption<?>, Object> socketOptions() {
        return base.socketOptions();
    }

    @Override
    public Duration connectTimeout() {
        return base.connectTimeout();
    }

    @Override
    public Duration readTimeout() {
        return base.readTimeout();
    }

    @Override
    public Optional<Integer> socketReceiveBufferSize() {
        return base.socketReceiveBufferSize();
    }

    @Override
    public Optional<Integer> socketSendBufferSize() {
        return base.socketSendBufferSize();
    }

    @Override
    public boolean socketReuseAddress() {
        return base.socketReuseAddress();
    }

    @Override
    public boolean socketKeepAlive() {
        return base.socketKeepAlive();
    }

    @Override
    public boolean tcpNoDelay() {
        return base.tcpNoDelay();
    }
}
