/** An example plugin. Loaded by PF4J it runs unnamed; the descriptor keeps it honest about what it uses. */
module com.example.hello {
    requires lnp.platform.api;

    provides dev.lnp.api.PlatformPlugin with com.example.hello.HelloPlugin;
}
