package dev.lnp.api.internal.platform;

import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.events.EventType;
import dev.lnp.api.http.RouteSpec;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the deployment's plugins (and the core) registered, as the console, webhooks and the OpenAPI documents read
 * it: complete once registration has ended.
 */
public interface PluginCatalog {

    /** The core's own id: its contributions (and its subsystems') are listed under it; it cannot be switched off. */
    String CORE_ID = "core";

    /** The scope presets a connection may name instead of scopes: every read scope, and every scope. */
    String READ_ONLY = "read-only";
    String FULL_ACCESS = "full-access";

    /** What one plugin contributed, counted. */
    record PluginSummary(String pluginId, List<String> scopes, int routes, int tools, int events) {
    }

    /** A page of the page API and the plugin that contributed it. */
    record Page(String pluginId, PageRoute page) {
    }

    /** A source of the application's search and the plugin that offered it. */
    record Search(String pluginId, dev.lnp.api.pages.PageSearch search) {
    }

    record Quota(String name, String pluginId) {
    }

    record Event(String pluginId, EventType type) {
    }

    /** A route and the plugin that registered it. */
    record Route(String pluginId, RouteSpec spec) {
    }

    /** Every plugin in registration order, the core first. */
    List<PluginSummary> plugins();

    boolean hasPlugin(String pluginId);

    /** Every route, in registration order (their matching order), the core's first. */
    List<Route> routes();

    /** Every plugin's pages, in registration order (their matching order). */
    List<Page> pages();

    /** Every plugin's search sources, in registration order. */
    List<Search> searches();

    /** The scopes a person with {@code role} ({@code owner}, {@code admin}, {@code member}) acts with in pages. */
    Set<String> scopesOfRole(String role);

    List<Quota> quotas();

    /** Every tool's name. */
    Set<String> toolNames();

    /** Every scope a key may be granted, sorted. */
    Set<String> scopes();

    List<Event> events();

    /** The canonical event name for a name or one of its aliases. */
    Optional<String> canonicalEvent(String nameOrAlias);
}
