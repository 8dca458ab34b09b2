package dev.lnp.core.http;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** The HTTP listener could not start: the message names the port and, when it can tell, why (in use, denied). */
public final class PortUnavailableException extends RuntimeException {

    PortUnavailableException(String host, int port, Throwable cause) {
        super("cannot listen on port " + port + " (lnp.http.port, host " + host + "): " + reason(host, port, cause),
                cause);
    }

    /** Binding the address once more tells what the server's listener ran into. */
    private static String reason(String host, int port, Throwable cause) {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(host, port));
        } catch (IOException e) {
            return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
        return cause != null && cause.getMessage() != null ? cause.getMessage() : "the web server did not start";
    }
}
