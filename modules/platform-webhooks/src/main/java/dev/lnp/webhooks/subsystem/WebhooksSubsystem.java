package dev.lnp.webhooks.subsystem;

import dev.lnp.api.Registrar;
import dev.lnp.api.pages.PageRegistrar;
import dev.lnp.api.workspace.Role;
import dev.lnp.api.internal.mail.TransactionalMailer;
import dev.lnp.api.internal.subsystem.OwnedMigrations;
import dev.lnp.api.internal.subsystem.Subsystem;
import dev.lnp.webhooks.EventCatalog;
import dev.lnp.webhooks.WebhookRoutes;
import dev.lnp.webhooks.WebhookService;
import dev.lnp.webhooks.WebhookSettings;
import dev.lnp.webhooks.Webhooks;
import dev.lnp.webhooks.pages.WebhookPages;
import dev.lnp.api.outbound.OutboundGuard;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Webhooks as a subsystem of the kernel: the {@code /api/v1/webhooks} routes and their scopes, the test event, the
 * Webhooks pages and, once plugins have started, this node's dispatcher and the purge of old history. The routes
 * and the pages share one {@link WebhookService}, built at registration, and are declared through the same
 * {@link Registrar} a plugin gets: the pages are page API routes ({@link WebhookPages}), nothing of the console's.
 */
public final class WebhooksSubsystem implements Subsystem {

    private WebhookSettings settings;
    private WebhookService service;
    private OutboundGuard guard;
    private volatile Webhooks running;

    /**
     * The webhooks' tables, in {@code lnp_core} where the kernel created them before webhooks had a module of their
     * own: its versions 6, 8 and 13.20 are this module's now (docs/architecture.md, "Migrations").
     */
    @Override
    public Optional<OwnedMigrations> migrations() {
        return Optional.of(new OwnedMigrations("lnp-webhooks", "lnp_webhooks", List.of("6", "8", "13.20")));
    }

    @Override
    public void register(Registrar registrar, Setup setup) {
        settings = WebhookSettings.from(setup.config());
        service = new WebhookService(setup.plugins(), setup.jsonValidation(), settings, setup.clock());
        // Where a workspace's events go is a workspace-wide integration setting: admins and owners, not members.
        registrar.scope(WebhookRoutes.READ, "Read webhook subscriptions, their delivery history and the event catalog.",
                Role.ADMIN);
        registrar.scope(WebhookRoutes.WRITE, "Create, change and delete webhook subscriptions; rotate secrets; "
                + "test, redeliver and recover deliveries.", Role.ADMIN);
        registrar.event(EventCatalog.TEST_EVENT);
        new WebhookRoutes(service).routes().forEach(registrar::route);
        PageRegistrar pages = PageRegistrar.of(registrar);
        WebhookPages.routes(service).forEach(pages::page);
    }

    /**
     * Receiver URLs are checked, and deliveries sent, by the platform's outbound guard (the outbound subsystem's),
     * which also allows the webhooks' own networks ({@code lnp.webhooks.allowed_networks}).
     */
    @Override
    public Map<Class<?>, Object> offer(Services services) {
        try {
            guard = services.require(OutboundGuard.class).allowing("lnp.webhooks.allowed_networks",
                    settings.allowedNetworks());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("lnp.webhooks.allowed_networks: " + e.getMessage(), e);
        }
        registered().useGuard(guard);
        return Map.of();
    }

    /** The owners' notices are mailed, so the mail module must be part of the platform. */
    @Override
    public Running start(Services services) {
        registered();
        var webhooks = Webhooks.start(services.jdbi(), settings, services.clock(), services.meters(),
                services.require(TransactionalMailer.class), services.notifications(), guard);
        running = webhooks;
        return webhooks;
    }

    /** Deletes deliveries, attempts and dispatched events past the history period; 0 before {@link #start}. */
    public int purgeHistory() {
        Webhooks current = running;
        return current == null ? 0 : current.purgeHistory();
    }

    private WebhookService registered() {
        if (service == null) {
            throw new IllegalStateException("the webhooks subsystem is used before it registered");
        }
        return service;
    }
}
