package dev.lnp.api.internal.subsystem;

import dev.lnp.api.internal.http.JsonValidation;
import dev.lnp.api.Registrar;
import dev.lnp.api.internal.events.Notifications;
import dev.lnp.api.internal.db.Transactions;
import dev.lnp.api.internal.http.HttpAnswers;
import dev.lnp.api.internal.keys.ConnectionAdmin;
import dev.lnp.api.internal.platform.ConfigValues;
import dev.lnp.api.internal.platform.PlatformMeters;
import dev.lnp.api.internal.platform.PluginCatalog;
import dev.lnp.api.internal.platform.RateLimits;
import dev.lnp.api.mail.OutgoingMail;
import io.helidon.webserver.http.HttpRouting;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.jdbi.v3.core.Jdbi;

/**
 * A first-party part of the platform that lives in a module of its own (mail, the console, webhooks) and reaches
 * the kernel only through this seam and the interfaces of this API, so that the kernel never depends on it. The
 * kernel finds subsystems with {@link ServiceLoader} ({@code uses dev.lnp.api.internal.subsystem.Subsystem}; a
 * subsystem's module {@code provides} it), a fresh instance per platform start: one on the module path or class path
 * is part of the platform, one left out is simply absent.
 *
 * <p>What a subsystem declares goes through the same {@link Registrar} plugins use, under the core's id, so route
 * listings, scopes and the event catalog show it as part of the core; its pages are page API routes
 * ({@code Registrar.page}), declared and served exactly as a plugin's.
 */
public interface Subsystem {

    /** What registration may read: nothing has started yet (the command line registers without a database). */
    interface Setup {
        ConfigValues config();

        Clock clock();

        /** What the core and the plugins registered; complete once registration has ended. */
        PluginCatalog plugins();

        /** The validator of route bodies, for a subsystem's own schemas. */
        JsonValidation jsonValidation();
    }

    /** The kernel services a subsystem may use once the database is migrated. */
    interface Services {
        ConfigValues config();

        /** The platform's pool, as the platform's own role (no workspace, no row-level security). */
        Jdbi jdbi();

        Transactions transactions();

        Clock clock();

        /** What the core and the plugins registered. */
        PluginCatalog plugins();

        PlatformMeters meters();

        /** This node's one listening connection ({@code LISTEN/NOTIFY}). */
        Notifications notifications();

        /** The kernel's problem+json answers, for routes served outside the plugin routes. */
        HttpAnswers http();

        /** The workspaces' external connections and their keys. */
        ConnectionAdmin connections();

        RateLimits limits();

        JsonValidation jsonValidation();

        /**
         * A service the kernel or a subsystem before this one offers ({@link #offer}), e.g. the mail module's
         * {@code MailService}; empty when no module of the platform offers it.
         */
        <T> Optional<T> service(Class<T> type);

        /** As {@link #service}, failing with a message naming the missing service. */
        default <T> T require(Class<T> type) {
            return service(type).orElseThrow(() -> new IllegalStateException(type.getName()
                    + " is offered by no module of this platform (is its jar missing from lib/?)"));
        }
    }

    /** What an operator command (no server running) may use: the deployment's configuration and database. */
    interface Operator {
        ConfigValues config();

        Jdbi jdbi();
    }

    /** This node's background work, closed before plugins stop. */
    interface Running extends AutoCloseable {

        /** Nothing to run and nothing to purge. */
        Running NONE = new Running() {
            @Override
            public int purgeHistory() {
                return 0;
            }

            @Override
            public void close() {
            }
        };

        /**
         * Deletes history older than the subsystem keeps it, answering how many rows went; the kernel's maintenance
         * calls it every minute.
         */
        int purgeHistory();

        @Override
        void close();
    }

    /**
     * The migrations of the tables this subsystem owns, if it owns any: the kernel applies them after its own and
     * before the plugins', and before {@link #offer} and {@link #start} run.
     */
    default Optional<OwnedMigrations> migrations() {
        return Optional.empty();
    }

    /** Declares scopes, routes and event types (and builds what they share); called once, before plugins register. */
    default void register(Registrar registrar, Setup setup) {
    }

    /**
     * The services this subsystem offers, by the interface they are looked up with: to the subsystems after it
     * ({@link Services#service}) and, those of the public API ({@code dev.lnp.api.mail.Mailer}), to plugins
     * ({@code PluginContext.service}). Called once the database is
     * migrated and before plugins start, in {@link #load()}'s order. What an offered service started (a background
     * sender) is stopped by {@link #withdraw()}.
     */
    default Map<Class<?>, Object> offer(Services services) {
        return Map.of();
    }

    /**
     * Routes this subsystem serves outside the plugin routes (the console under {@code /console}), added after them
     * and before the server's not-found answers; called once {@link #offer} has run.
     */
    default void routing(HttpRouting.Builder routing) {
    }

    /** The HTTP server listens on {@code port} (the configured one, or the one it was given for port 0). */
    default void serverStarted(int port) {
    }

    /** Stops what {@link #offer} started; called after every plugin has stopped, since plugins may use it to the end. */
    default void withdraw() {
    }

    /**
     * Every template the subsystem ships, each rendered with a representative model in the subsystem's own module
     * ({@code platform doctor} checks them).
     */
    default List<TemplateRender> templates() {
        return List.of();
    }

    /**
     * The services an operator command takes from this subsystem (the mailbox {@code platform mail list} reads), by
     * the interface they are looked up with.
     */
    default Map<Class<?>, Object> operatorServices(Operator operator) {
        return Map.of();
    }

    /** The checks {@code platform doctor} runs for this subsystem. */
    default List<DoctorCheck> doctorChecks() {
        return List.of();
    }

    /**
     * A message to {@code to} as this subsystem sends one (the console's sign-in mail), which the doctor's mail check
     * sends; empty when it sends none.
     */
    default Optional<OutgoingMail> sampleMail(ConfigValues config, String to) {
        return Optional.empty();
    }

    /** Starts this node's background work, once every plugin has started. */
    default Running start(Services services) {
        return Running.NONE;
    }

    /**
     * Every subsystem visible to this API's module (or the class path), ordered by {@link #rank()}, then by class name.
     */
    static List<Subsystem> load() {
        return ServiceLoader.load(Subsystem.class, Subsystem.class.getClassLoader()).stream()
                .map(ServiceLoader.Provider::get)
                .sorted(Comparator.comparingInt(Subsystem::rank).thenComparing(s -> s.getClass().getName()))
                .toList();
    }

    /**
     * Where this subsystem comes in {@link #load()}'s order, lowest first: a subsystem that takes another's offered
     * service ranks after it (mail 0, the console 10, the default 100).
     */
    default int rank() {
        return 100;
    }
}
