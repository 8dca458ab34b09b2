package dev.lnp.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * How many connections a listener holds at once, how many of them one client address may hold, and how long a new
 * connection may stay silent before its first request line arrives.
 *
 * <p>Every accepted connection costs the process a file descriptor. When the process runs out, the accept loop of
 * the web server fails and that listener ends for good while the process lives on, so the default cap is derived
 * from the descriptors the process may still open when the listener starts, with room left for the database pool,
 * the subsystems' outgoing connections and files.
 *
 * @param maxConnections connections the listener holds at once; more are accepted and closed at once
 * @param maxPerClient connections one client address may hold at once (out of range: as many as the listener)
 * @param firstRequestTimeout how long a connection may stay open without having sent a whole request line
 */
public record ConnectionLimits(int maxConnections, int maxPerClient, Duration firstRequestTimeout) {

    /** Without a readable descriptor limit (not Linux): a cap that fits the usual default of 1,024 descriptors. */
    static final int FALLBACK_MAX_CONNECTIONS = 512;
    /** The default cap where the descriptor limit allows more: far beyond one node's useful concurrency. */
    static final int DEFAULT_MAX_CONNECTIONS = 10_000;
    /** Descriptors always kept free for everything else the process opens. */
    static final int RESERVED_DESCRIPTORS = 64;
    static final int MANAGEMENT_MAX_CONNECTIONS = 32;
    /** A client has this long to send its first request line: ample for a person's browser on a slow link. */
    static final int DEFAULT_FIRST_REQUEST_SECONDS = 10;

    private static final System.Logger LOG = System.getLogger(ConnectionLimits.class.getName());

    public ConnectionLimits {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1");
        }
        if (maxPerClient < 1 || maxPerClient > maxConnections) {
            maxPerClient = maxConnections;
        }
        if (firstRequestTimeout.isNegative() || firstRequestTimeout.isZero()) {
            throw new IllegalArgumentException("firstRequestTimeout must be positive");
        }
    }

    /**
     * The public listener's limits ({@code lnp.http.*}), for a listener starting now; each setting {@code null} when
     * it is not set.
     *
     * @param configuredMax {@code lnp.http.max_connections}, or {@code null} for the safe cap
     * @param configuredPerClient {@code lnp.http.max_connections_per_client}, or {@code null} for half the cap
     * @param firstRequestSeconds {@code lnp.http.first_request_timeout_seconds}
     */
    public static ConnectionLimits http(Integer configuredMax, Integer configuredPerClient,
            Integer firstRequestSeconds) {
        return resolve(configuredMax, configuredPerClient, firstRequestTimeout(firstRequestSeconds));
    }

    /**
     * The management listener's limits ({@code lnp.management.max_connections}, or {@code null}): a scraper or two,
     * on a local port.
     */
    public static ConnectionLimits management(Integer configuredMax, Integer firstRequestSeconds) {
        // One client address may hold them all: the listener is local by default, its clients are scrapers.
        return new ConnectionLimits(configuredMax == null ? MANAGEMENT_MAX_CONNECTIONS : configuredMax, 0,
                firstRequestTimeout(firstRequestSeconds));
    }

    private static Duration firstRequestTimeout(Integer seconds) {
        return Duration.ofSeconds(seconds == null ? DEFAULT_FIRST_REQUEST_SECONDS : seconds);
    }

    /** The limits for a listener starting now. */
    static ConnectionLimits resolve(Integer configuredMax, Integer configuredPerClient, Duration firstRequestTimeout) {
        OptionalLong limit = descriptorLimit();
        long open = descriptorsOpen();
        int safe = safeMaxConnections(limit, open);
        int max = configuredMax == null ? safe : configuredMax;
        if (configuredMax != null && configuredMax > safe) {
            LOG.log(System.Logger.Level.WARNING, "lnp.http.max_connections is " + configuredMax + ", more than this "
                    + "process can hold (it may open " + limit.stream().mapToObj(String::valueOf).findFirst()
                            .orElse("an unknown number of") + " files and holds " + open + "): when its files run "
                    + "out the listener fails and the platform exits; raise the open-files limit (LimitNOFILE) or "
                    + "leave the setting unset for a cap of " + safe);
        }
        int perClient = configuredPerClient == null ? Math.max(1, max / 2) : configuredPerClient;
        return new ConnectionLimits(max, perClient, firstRequestTimeout);
    }

    /**
     * The cap this process can hold: of the descriptors it may still open, three quarters, and at least
     * {@link #RESERVED_DESCRIPTORS} left for the rest of the process.
     */
    static int safeMaxConnections(OptionalLong descriptorLimit, long descriptorsOpen) {
        if (descriptorLimit.isEmpty()) {
            return FALLBACK_MAX_CONNECTIONS;
        }
        long free = descriptorLimit.getAsLong() - descriptorsOpen;
        long cap = Math.min(free - RESERVED_DESCRIPTORS, free * 3 / 4);
        return (int) Math.max(1, Math.min(DEFAULT_MAX_CONNECTIONS, cap));
    }

    /** The soft limit of open files of this process ({@code ulimit -n}), where the system tells it. */
    static OptionalLong descriptorLimit() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/limits"))) {
            return lines.filter(line -> line.startsWith("Max open files"))
                    .map(line -> line.substring("Max open files".length()).trim().split("\\s+")[0])
                    .filter(soft -> soft.chars().allMatch(Character::isDigit))
                    .mapToLong(Long::parseLong)
                    .findFirst();
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    /** How many descriptors this process holds now; 0 where the system does not tell. */
    static long descriptorsOpen() {
        try (Stream<Path> open = Files.list(Path.of("/proc/self/fd"))) {
            return open.count();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
