package dev.lnp.core.metrics;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The platform's meters, in Micrometer's conventional names so existing dashboards fit
 * ({@code http_server_requests_seconds_*}, {@code hikaricp_connections_*}, {@code jvm_*}, {@code process_*}), plus
 * the platform's own under {@code lnp_*}. One registry per platform, scraped in the Prometheus text format on the
 * management listener (docs/operations.md, "Monitoring"). Every kernel meter's name is declared here once; the
 * subsystems name theirs ({@link #count}, {@link #time}, {@link #gauge}).
 */
public final class PlatformMetrics implements dev.lnp.api.internal.platform.PlatformMeters, AutoCloseable {

    public static final String HTTP_REQUESTS = "http.server.requests";
    public static final String TOOL_CALLS = "lnp.mcp.tool.calls";
    public static final String AUDIT_QUEUE = "lnp.audit.queue.records";
    public static final String AUDIT_DROPPED = "lnp.audit.dropped.records";
    public static final String REFUSALS = "lnp.limit.refusals";
    public static final String ADMISSIONS = "lnp.admissions";
    public static final String PLUGIN_INFO = "lnp.plugin.info";
    public static final String BUILD_INFO = "lnp.build.info";
    private static final java.util.Set<String> KERNEL_METERS = java.util.Set.of(HTTP_REQUESTS, TOOL_CALLS,
            AUDIT_QUEUE, AUDIT_DROPPED, REFUSALS, ADMISSIONS, PLUGIN_INFO, BUILD_INFO);

    /**
     * The upper bounds of the request latency histogram, from a fast cached read to a slow export: enough to read
     * p50/p95/p99 and an SLO such as "95 % under 250 ms" off the buckets, at 12 lines per series (with +Inf)
     * instead of Micrometer's 70-odd percentile buckets per series.
     */
    public static final List<Duration> REQUEST_BUCKETS = List.of(Duration.ofMillis(5), Duration.ofMillis(10),
            Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
            Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2_500), Duration.ofSeconds(5),
            Duration.ofSeconds(10));

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    /** A request timer's labels: registered routes and status codes only, so the map stays small. */
    private record RequestKey(String method, String route, int status) {
    }

    /**
     * Each request's timer, found by its labels without building its meter id again (the builder, its tags and
     * the registry's look-up were 1-2 % of a request's CPU).
     */
    private final java.util.concurrent.ConcurrentHashMap<RequestKey, Timer> requestTimers =
            new java.util.concurrent.ConcurrentHashMap<>();

    private final JvmGcMetrics gc = new JvmGcMetrics();
    /** Registered once: these count on every authenticated request. */
    private final Counter admittedFromDatabase = admissions("database");
    private final Counter admittedFromCache = admissions("cache");
    private final Counter admissionsStale = admissions("cache_stale");

    public PlatformMetrics(String version) {
        Gauge.builder(BUILD_INFO, () -> 1).description("The platform's version; always 1")
                .tag("version", version).tag("java", Runtime.version().toString()).register(registry);
    }

    /**
     * The JVM's own meters (memory, GC, threads, classes, CPU, uptime, file descriptors). Bound once the server
     * accepts requests: their set-up (the management beans, a GC listener) is CPU a start on two cores does not
     * need to spend before it is ready, and nothing that serves a request reads them.
     */
    public void bindJvm() {
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** The Prometheus text exposition of every meter. */
    public String scrape() {
        return registry.scrape();
    }

    /** {@code hikaricp_connections_*} for the pool (tag {@code pool}). */
    public void bindPool(HikariDataSource pool) {
        pool.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
    }

    public void plugin(String id, String version) {
        Gauge.builder(PLUGIN_INFO, () -> 1).description("A plugin this node loaded; always 1")
                .tag("plugin", id).tag("version", version == null ? "" : version).register(registry);
    }

    /**
     * One request of a registered route or console page, by route template (never the raw path: bounded label
     * values).
     */
    @Override
    public void request(String method, String routeTemplate, int status, long nanos) {
        requestTimers.computeIfAbsent(new RequestKey(method, routeTemplate, status), key -> Timer.builder(HTTP_REQUESTS)
                        .description("HTTP requests of the platform's routes")
                        .tag("method", key.method()).tag("uri", key.route()).tag("status", String.valueOf(key.status()))
                        .tag("outcome", outcome(key.status()))
                        .serviceLevelObjectives(REQUEST_BUCKETS.toArray(Duration[]::new))
                        .register(registry))
                .record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /**
     * A request refused by a limit: {@code kind} {@code rate_limit} with the surface ({@code rest}, {@code mcp}) as
     * {@code limit}, or {@code quota} with the quota counter (e.g. {@code crm}).
     */
    public void refused(String kind, String limit) {
        Counter.builder(REFUSALS).description("Requests refused by the per-key rate limit or a monthly quota")
                .tag("kind", kind).tag("limit", limit).register(registry).increment();
    }

    /**
     * An authenticated request admitted from the database, or from the node's cache (its transaction re-checked
     * the admission); {@code cache_stale} when that check found the admission changed (the request is then
     * admitted from the database again).
     */
    public void admitted(boolean fromCache) {
        (fromCache ? admittedFromCache : admittedFromDatabase).increment();
    }

    public void admissionStale() {
        admissionsStale.increment();
    }

    private Counter admissions(String outcome) {
        return Counter.builder(ADMISSIONS).description("Authenticated requests by where their key's admission came from")
                .tag("outcome", outcome).register(registry);
    }

    /** @param tool a registered tool's name, or {@code unknown} (names callers invent would be unbounded labels) */
    public void toolCall(String tool, String outcome) {
        Counter.builder(TOOL_CALLS).description("MCP tool calls by tool and outcome")
                .tag("tool", tool).tag("outcome", outcome).register(registry).increment();
    }

    /** A subsystem's counter ({@link dev.lnp.api.internal.platform.PlatformMeters}), named by the subsystem. */
    @Override
    public void count(String name, String description, java.util.Map<String, String> tags) {
        var counter = Counter.builder(subsystemMeter(name)).description(description);
        tags.forEach(counter::tag);
        counter.register(registry).increment();
    }

    @Override
    public void time(String name, String description, List<Duration> buckets, Duration duration) {
        Timer.builder(subsystemMeter(name)).description(description)
                .serviceLevelObjectives(buckets.toArray(Duration[]::new))
                .register(registry).record(duration.isNegative() ? Duration.ZERO : duration);
    }

    @Override
    public void gauge(String name, String description, Supplier<Number> value) {
        Gauge.builder(subsystemMeter(name), value).description(description).strongReference(true).register(registry);
    }

    /** A subsystem's meters are the platform's own: under {@code lnp.}, and none of the kernel's names. */
    private static String subsystemMeter(String name) {
        if (name == null || !name.startsWith("lnp.") || KERNEL_METERS.contains(name)) {
            throw new IllegalArgumentException("a subsystem's meter is named lnp.<something> and is not one of the "
                    + "kernel's: " + name);
        }
        return name;
    }

    /**
     * An audit writer's backlog and losses, labelled by the table it writes. Requests only enqueue their records;
     * a backlog that keeps growing means the writer's one connection gets less of the machine than the records
     * need, and once its queue is full, records are dropped and counted here.
     */
    public <W> void auditWriter(String table, W writer, ToDoubleFunction<W> queued, ToDoubleFunction<W> dropped) {
        Gauge.builder(AUDIT_QUEUE, writer, queued).description("Audit records waiting to be written")
                .tag("table", table).register(registry);
        FunctionCounter.builder(AUDIT_DROPPED, writer, dropped)
                .description("Audit records dropped: refused by the database, or arriving while the queue was full")
                .tag("table", table).register(registry);
    }

    private static String outcome(int status) {
        if (status < 200) {
            return "INFORMATIONAL";
        } else if (status < 300) {
            return "SUCCESS";
        } else if (status < 400) {
            return "REDIRECTION";
        } else if (status < 500) {
            return "CLIENT_ERROR";
        }
        return "SERVER_ERROR";
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
