package com.example.notes;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.Registrar;
import dev.lnp.api.pages.PageRegistrar;

/**
 * Items per workspace, over REST and as MCP tools. This class only wires: routes are in {@link NotesRoutes}, tools
 * in {@link NotesTools}, pages in {@link NotesPages}, rules in {@link NotesService}, SQL in {@link NotesRepository}, names in
 * {@link NotesScopes}, schemas in {@link NotesSchemas}. Every write (route or tool) takes one unit of the plugin's
 * monthly quota; the platform counts it and answers 429 once the month's units are used.
 */
public final class NotesPlugin implements PlatformPlugin {

    @Override
    public void register(Registrar registrar) {
        var schemas = new NotesSchemas();
        var items = new NotesService();
        registrar.scope(NotesScopes.READ, "Read notes items")
                .scope(NotesScopes.WRITE, "Create notes items")
                .quota(NotesScopes.QUOTA, NotesScopes.QUOTA_DEFAULT_MONTHLY)
                .migrations("notes");
        new NotesRoutes(items, schemas).routes().forEach(registrar::route);
        new NotesTools(items, schemas).tools().forEach(registrar::tool);
        var notesPages = new NotesPages(items, schemas);
        PageRegistrar pages = PageRegistrar.of(registrar);
        notesPages.pages().forEach(pages::page);
        pages.search(notesPages.search());
    }
}
