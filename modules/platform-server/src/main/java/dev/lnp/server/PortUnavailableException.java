package dev.lnp.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * A listener could not start: the message names the port, the setting it comes from ({@code lnp.http.port} or
 * {@code lnp.management.port}) and, when it can tell, why (in use, denied).
 */
public final class PortUnavailableException extends RuntimeException {

    static final String HTTP_SETTING = "lnp.http.port";
    static final String MANAGEMENT_SETTING = "lnp.management.port";

    private PortUnavailableException(String host, int port, String setting, String reason, Throwable cause) {
        super("cannot listen on port " + port + " (" + setting + ", host " + host + "): " + reason
                + hint(setting, reason), cause);
    }

    /**
     * Checked before the web server starts, so that a port another process holds (a second node on the same
     * host) is reported as one line naming its setting, not as the web server's stack trace of a failed start.
     * Port 0 (any free one) cannot be refused this way.
     *
     * @throws PortUnavailableException when binding the address fails now
     */
    static void checkFree(String host, int port, String setting) {
        if (port <= 0) {
            return;
        }
        String refused = bindRefusal(host, port);
        if (refused != null) {
            throw new PortUnavailableException(host, port, setting, refused, null);
        }
    }

    /**
     * The web server did not start although the ports were free a moment before: the listener whose address is
     * refused now is named, the HTTP listener when neither is.
     */
    static PortUnavailableException afterFailedStart(String host, int port, ManagementListener management,
            Throwable cause) {
        String refused = port > 0 ? bindRefusal(host, port) : null;
        if (refused == null && management.enabled() && management.port() > 0) {
            String managementRefused = bindRefusal(management.host(), management.port());
            if (managementRefused != null) {
                return new PortUnavailableException(management.host(), management.port(), MANAGEMENT_SETTING,
                        managementRefused, cause);
            }
        }
        if (refused == null) {
            refused = cause != null && cause.getMessage() != null ? cause.getMessage() : "the web server did not start";
        }
        return new PortUnavailableException(host, port, HTTP_SETTING, refused, cause);
    }

    /** Why binding the address fails, or null when it succeeds. */
    private static String bindRefusal(String host, int port) {
        try (ServerSocket probe = new ServerSocket()) {
            // As the web server binds: an address some closed connection still holds in TIME_WAIT is no conflict.
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(host, port));
            return null;
        } catch (IOException e) {
            return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
    }

    private static String hint(String setting, String reason) {
        if (!reason.toLowerCase(java.util.Locale.ROOT).contains("in use")) {
            return "";
        }
        String variable = setting.toUpperCase(java.util.Locale.ROOT).replace('.', '_');
        String hint = "; another node on this host? give each its own " + variable;
        return MANAGEMENT_SETTING.equals(setting) ? hint + " (-1 switches the metrics listener off)" : hint;
    }
}
