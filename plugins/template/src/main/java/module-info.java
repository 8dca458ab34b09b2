/** Loaded by PF4J the plugin runs unnamed; the descriptor keeps it honest about what it uses. */
module com.example.notes {
    requires lnp.platform.api;
    requires lnp.platform.pages;

    provides dev.lnp.api.PlatformPlugin with com.example.notes.NotesPlugin;
}
