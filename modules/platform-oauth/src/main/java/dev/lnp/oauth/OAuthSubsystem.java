package dev.lnp.oauth;

import dev.lnp.api.Registrar;
import dev.lnp.api.http.RawHandler;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.keys.DelegatedTokens;
import dev.lnp.api.internal.people.PeoplePages;
import dev.lnp.api.internal.subsystem.OwnedMigrations;
import dev.lnp.api.internal.subsystem.Subsystem;
import dev.lnp.api.pages.PageRegistrar;
import dev.lnp.api.workspace.Role;
import dev.lnp.api.outbound.OutboundGuard;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The MCP endpoint's OAuth 2.1 authorization server as a subsystem of the kernel: its public routes (discovery,
 * registration, authorization with consent, token, revocation), the pages of connected clients, its tables
 * ({@code db/migration/lnp-oauth}, history {@code lnp_oauth}) and the {@link DelegatedTokens} the kernel admits
 * access tokens with. It ranks after the console, whose people pages (session, CSRF, sign-in) the consent page uses.
 */
public final class OAuthSubsystem implements Subsystem {

    private OAuthSettings settings;
    private volatile Endpoints endpoints;

    /** What the routes answer with, built once the database and the console's services are there. */
    private record Endpoints(Discovery discovery, ClientRegistration registration, AuthorizeEndpoint authorize,
            TokenEndpoint token, GrantService grants) {
    }

    @Override
    public int rank() {
        return 20;
    }

    @Override
    public Optional<OwnedMigrations> migrations() {
        return Optional.of(new OwnedMigrations("lnp-oauth", "lnp_oauth", List.of()));
    }

    @Override
    public void register(Registrar registrar, Setup setup) {
        settings = new OAuthSettings(setup.config());
        registrar.scope(GrantPages.SCOPE, "See and disconnect the AI clients connected to the MCP endpoint by OAuth "
                + "(members their own; admins and owners every one of the workspace).", Role.MEMBER);
        String resourceMetadata = OAuthSettings.PROTECTED_RESOURCE;
        registrar.route(RouteSpec.get(resourceMetadata).publicRoute()
                .summary("Protected Resource Metadata of the MCP endpoint (RFC 9728)")
                .raw(route(e -> e.discovery()::protectedResource)));
        registrar.route(RouteSpec.get(resourceMetadata + OAuthSettings.RESOURCE_PATH).publicRoute()
                .summary("Protected Resource Metadata of the MCP endpoint, at its path-suffixed address (RFC 9728)")
                .raw(route(e -> e.discovery()::protectedResource)));
        registrar.route(RouteSpec.get(OAuthSettings.AUTHORIZATION_SERVER).publicRoute()
                .summary("Authorization Server Metadata (RFC 8414)")
                .raw(route(e -> e.discovery()::authorizationServer)));
        registrar.route(RouteSpec.post(OAuthSettings.REGISTER).publicRoute()
                .summary("Dynamic client registration of public clients (RFC 7591)")
                .raw(route(e -> e.registration()::register)));
        registrar.route(RouteSpec.get(OAuthSettings.AUTHORIZE).publicRoute()
                .summary("Authorization endpoint: the consent page (HTML; changes nothing)")
                .raw(route(e -> e.authorize()::show)));
        registrar.route(RouteSpec.post(OAuthSettings.AUTHORIZE).publicRoute()
                .summary("The person's decision on the consent page (HTML form, CSRF)")
                .raw(route(e -> e.authorize()::decide)));
        registrar.route(RouteSpec.post(OAuthSettings.SIGN_IN).publicRoute()
                .summary("Mails a sign-in link that returns to the authorization request (HTML form, CSRF)")
                .raw(route(e -> e.authorize()::signIn)));
        registrar.route(RouteSpec.post(OAuthSettings.TOKEN).publicRoute()
                .summary("Token endpoint: authorization code with PKCE, rotated refresh tokens")
                .raw(route(e -> e.token()::token)));
        registrar.route(RouteSpec.post(OAuthSettings.REVOKE).publicRoute()
                .summary("Token revocation (RFC 7009)")
                .raw(route(e -> e.token()::revoke)));
        PageRegistrar pages = PageRegistrar.of(registrar);
        new GrantPages(() -> started().grants()).routes().forEach(pages::page);
    }

    @Override
    public Map<Class<?>, Object> offer(Services services) {
        var clients = new Clients(services.jdbi());
        var grants = new Grants(services.jdbi());
        var grantService = new GrantService(grants, services.connections(), settings, services.clock());
        var documents = new ClientMetadataDocuments(services.require(OutboundGuard.class),
                settings.clientMetadataNetworks(), settings.clientMetadataTimeout(),
                services.clock());
        var authorize = new AuthorizeEndpoint(settings, clients, documents, grants,
                new PersonWorkspaces(services.jdbi()), services.plugins(), services.clock());
        authorize.pages(services.require(PeoplePages.class));
        endpoints = new Endpoints(new Discovery(settings, services.plugins()), new ClientRegistration(clients),
                authorize, new TokenEndpoint(grantService, clients, settings, services.clock()), grantService);
        return Map.of(DelegatedTokens.class, new McpAccessTokens(grants, settings, services.clock()));
    }

    @Override
    public void serverStarted(int port) {
        settings.listeningOn(port);
    }

    @Override
    public Running start(Services services) {
        Grants grants = started().grants().grants();
        return new Running() {
            @Override
            public int purgeHistory() {
                return grants.purge(services.clock().instant());
            }

            @Override
            public void close() {
            }
        };
    }

    private Endpoints started() {
        Endpoints current = endpoints;
        if (current == null) {
            throw new IllegalStateException("the OAuth subsystem answers before its services were offered");
        }
        return current;
    }

    /** A handler that reaches the endpoints, which exist only once the platform offered its services. */
    private RawHandler route(java.util.function.Function<Endpoints, RawHandler> handler) {
        return request -> handler.apply(started()).handle(request);
    }
}
