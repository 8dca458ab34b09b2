package dev.lnp.oauth;

import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/** The registered clients (RFC 7591): public clients, known by their id, name and redirect URIs. */
final class Clients {

    record Client(String clientId, String name, List<String> redirectUris) {

        /** The registered redirect URI {@code requested} names, or the only one when none is requested. */
        Optional<String> redirectUri(String requested) {
            if (requested == null) {
                return redirectUris.size() == 1 ? Optional.of(redirectUris.get(0)) : Optional.empty();
            }
            return redirectUris.stream().anyMatch(r -> RedirectUris.matches(r, requested))
                    ? Optional.of(requested) : Optional.empty();
        }
    }

    private final Jdbi jdbi;

    Clients(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    Client register(String name, List<String> redirectUris) {
        String id = Secrets.random("mcp_");
        jdbi.useHandle(h -> h.createUpdate("""
                        INSERT INTO lnp_oauth.clients (client_id, client_name, redirect_uris)
                        VALUES (:id, :name, :uris)""")
                .bind("id", id).bind("name", name).bind("uris", redirectUris.toArray(String[]::new)).execute());
        return new Client(id, name, List.copyOf(redirectUris));
    }

    /** Records (or updates) a client described by its metadata document, known by the document's URL. */
    void remember(Client client) {
        jdbi.useHandle(h -> h.createUpdate("""
                        INSERT INTO lnp_oauth.clients (client_id, client_name, redirect_uris)
                        VALUES (:id, :name, :uris)
                        ON CONFLICT (client_id) DO UPDATE SET client_name = excluded.client_name,
                            redirect_uris = excluded.redirect_uris""")
                .bind("id", client.clientId()).bind("name", client.name())
                .bind("uris", client.redirectUris().toArray(String[]::new)).execute());
    }

    Optional<Client> find(String clientId) {
        if (clientId == null || clientId.length() > 200) {
            return Optional.empty();
        }
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT client_id, client_name, redirect_uris FROM lnp_oauth.clients WHERE client_id = :id""")
                .bind("id", clientId)
                .map((rs, ctx) -> new Client(rs.getString(1), rs.getString(2),
                        List.of((String[]) rs.getArray(3).getArray())))
                .findOne());
    }
}
