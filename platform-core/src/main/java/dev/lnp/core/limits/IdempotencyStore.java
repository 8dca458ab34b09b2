package dev.lnp.core.limits;

import dev.lnp.api.http.ApiProblem;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * {@code Idempotency-Key} on POST routes. The key is claimed inside the request's own transaction: a concurrent
 * duplicate blocks on the key's unique index until the first request commits (then it replays the stored
 * response) or rolls back (then it runs). So the effect happens once, and a response is stored exactly when its
 * effect committed. Keys live 24 hours.
 */
public final class IdempotencyStore {

    public static final String HEADER = "Idempotency-Key";

    /** A response stored for replay. */
    public record Stored(int status, byte[] body) {
    }

    public static void checkKey(String key) {
        if (key.isEmpty() || key.length() > 255 || !key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
            throw new ApiProblem(400, "invalid_idempotency_key", "Bad Request",
                    "Idempotency-Key must be 1 to 255 visible ASCII characters.");
        }
    }

    /** Empty when this request now owns the key and should run; the stored response when it already ran. */
    public Optional<Stored> claim(Handle h, UUID workspaceId, UUID connectionId, String key, String route,
            byte[] requestHash) {
        h.createUpdate("""
                        DELETE FROM lnp_core.idempotency_keys
                         WHERE connection_id = :conn AND idem_key = :key AND created_at < now() - interval '24 hours'
                        """)
                .bind("conn", connectionId).bind("key", key).execute();
        int claimed = h.createUpdate("""
                        INSERT INTO lnp_core.idempotency_keys (workspace_id, connection_id, idem_key, route, request_hash)
                        VALUES (:ws, :conn, :key, :route, :hash)
                        ON CONFLICT (connection_id, idem_key) DO NOTHING
                        """)
                .bind("ws", workspaceId).bind("conn", connectionId).bind("key", key).bind("route", route)
                .bind("hash", requestHash).execute();
        if (claimed == 1) {
            return Optional.empty();
        }
        var row = h.createQuery("""
                        SELECT route, request_hash, status, response FROM lnp_core.idempotency_keys
                         WHERE connection_id = :conn AND idem_key = :key
                        """)
                .bind("conn", connectionId).bind("key", key)
                .map((rs, ctx) -> new Object[] {rs.getString("route"), rs.getBytes("request_hash"),
                        rs.getObject("status"), rs.getBytes("response")})
                .one();
        if (!route.equals(row[0]) || !java.util.Arrays.equals(requestHash, (byte[]) row[1])) {
            throw new ApiProblem(422, "idempotency_key_reused", "Unprocessable Content",
                    "This Idempotency-Key was already used with a different request in the last 24 hours.");
        }
        return Optional.of(new Stored((Integer) row[2], (byte[]) row[3]));
    }

    public void complete(Handle h, UUID connectionId, String key, int status, byte[] body) {
        h.createUpdate("""
                        UPDATE lnp_core.idempotency_keys SET status = :status, response = :body
                         WHERE connection_id = :conn AND idem_key = :key
                        """)
                .bind("status", status).bind("body", body).bind("conn", connectionId).bind("key", key).execute();
    }

    public static int purgeExpired(org.jdbi.v3.core.Jdbi jdbi) {
        return jdbi.withHandle(h -> h.createUpdate(
                "DELETE FROM lnp_core.idempotency_keys WHERE created_at < now() - interval '24 hours'").execute());
    }
}
