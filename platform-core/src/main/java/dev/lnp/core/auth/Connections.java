package dev.lnp.core.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * External connections and their keys: creation (with the service identity), rotation, revocation, legacy
 * import, listing. The full key exists only in the return value of {@link #create} and {@link #rotate}.
 */
public final class Connections implements dev.lnp.api.internal.keys.ConnectionAdmin {

    private final Jdbi jdbi;
    private final Set<String> knownScopes;
    private final LegacyKeyImport legacyKeys;

    /** @param knownScopes every scope the loaded plugins declare; others are refused */
    public Connections(Jdbi jdbi, Set<String> knownScopes) {
        this.jdbi = jdbi;
        this.knownScopes = knownScopes;
        this.legacyKeys = new LegacyKeyImport(jdbi);
    }

    public Issued create(NewConnection request) {
        return create(request, false);
    }

    /**
     * As {@link #create(NewConnection)}, refusing with {@link DuplicateName} when an active (not revoked)
     * connection of the workspace has the same name, compared without case: what the console does, where a name
     * is how people tell connections apart. Concurrent requests for one workspace take turns on its row.
     */
    @Override
    public Issued createUniquelyNamed(NewConnection request) {
        return create(request, true);
    }

    private Issued create(NewConnection request, boolean uniqueName) {
        if (request.name() == null || request.name().isBlank() || request.name().length() > 200) {
            throw new IllegalArgumentException("the connection name must be 1 to 200 characters");
        }
        boolean hasScopes = request.scopes() != null && !request.scopes().isEmpty();
        if (hasScopes == (request.preset() != null)) {
            throw new IllegalArgumentException("give either scopes or a preset (read-only, full-access)");
        }
        if (request.preset() != null && !ScopeCatalog.isPreset(request.preset())) {
            throw new IllegalArgumentException("unknown preset " + request.preset() + "; use read-only or full-access");
        }
        if (hasScopes) {
            Set<String> unknown = new TreeSet<>(request.scopes());
            unknown.removeAll(knownScopes);
            if (!unknown.isEmpty()) {
                throw new IllegalArgumentException("unknown scope(s) " + unknown + "; known: " + new TreeSet<>(knownScopes));
            }
        }
        if (request.expiresAt() != null && !request.expiresAt().isAfter(Instant.now())) {
            throw new IllegalArgumentException("the expiry must be in the future");
        }
        String key = ApiKeys.generate();
        return jdbi.inTransaction(h -> {
            ConnectionRows.requireWorkspace(h, request.workspaceId());
            if (uniqueName) {
                h.createQuery("SELECT id FROM lnp_core.workspaces WHERE id = :ws FOR UPDATE")
                        .bind("ws", request.workspaceId()).mapTo(UUID.class).one();
                boolean taken = h.createQuery("""
                                SELECT count(*) > 0 FROM lnp_core.connections
                                 WHERE workspace_id = :ws AND revoked_at IS NULL AND lower(name) = lower(:name)
                                """)
                        .bind("ws", request.workspaceId()).bind("name", request.name().strip())
                        .mapTo(Boolean.class).one();
                if (taken) {
                    throw new DuplicateName(request.name().strip());
                }
            }
            if (request.delegatedUserId() != null) {
                boolean member = h.createQuery(
                                "SELECT count(*) > 0 FROM lnp_core.users WHERE id = :user AND workspace_id = :ws")
                        .bind("user", request.delegatedUserId()).bind("ws", request.workspaceId())
                        .mapTo(Boolean.class).one();
                if (!member) {
                    throw new IllegalArgumentException("the delegated user " + request.delegatedUserId()
                            + " is not a user of workspace " + request.workspaceId());
                }
            }
            var row = h.createQuery("""
                            INSERT INTO lnp_core.connections
                                   (workspace_id, name, scopes, preset, expires_at, delegation_enabled, delegated_user_id)
                            VALUES (:ws, :name, :scopes, :preset, CAST(:expires AS timestamptz), :delegating, CAST(:user AS uuid))
                            RETURNING id, identity_id
                            """)
                    .bind("ws", request.workspaceId())
                    .bind("name", request.name().strip())
                    .bind("scopes", hasScopes ? request.scopes().toArray(String[]::new) : new String[0])
                    .bind("preset", request.preset())
                    .bind("expires", request.expiresAt())
                    .bind("delegating", request.delegatedUserId() != null)
                    .bind("user", request.delegatedUserId())
                    .map((rs, ctx) -> new UUID[] {rs.getObject("id", UUID.class), rs.getObject("identity_id", UUID.class)})
                    .one();
            ConnectionRows.insertKey(h, row[0], key, false);
            return new Issued(row[0], row[1], key);
        });
    }

    /**
     * Issues a new secret for the same connection (same identity, same history). Older secrets stop working
     * after {@code grace} (immediately when zero).
     */
    @Override
    public Issued rotate(UUID connectionId, Duration grace) {
        if (grace.isNegative()) {
            throw new IllegalArgumentException("the grace period cannot be negative");
        }
        String key = ApiKeys.generate();
        return jdbi.inTransaction(h -> {
            UUID identity = ConnectionRows.activeConnection(h, connectionId);
            h.createUpdate("""
                            UPDATE lnp_core.api_keys
                               SET valid_until = LEAST(COALESCE(valid_until, 'infinity'), now() + CAST(:grace AS interval))
                             WHERE connection_id = :id AND revoked_at IS NULL
                            """)
                    .bind("id", connectionId).bind("grace", grace.toSeconds() + " seconds").execute();
            ConnectionRows.insertKey(h, connectionId, key, false);
            return new Issued(connectionId, identity, key);
        });
    }

    /** Revokes the connection and every secret it has; effective on the next request, on every node. */
    @Override
    public void revoke(UUID connectionId) {
        jdbi.useTransaction(h -> {
            ConnectionRows.activeConnection(h, connectionId);
            h.createUpdate("UPDATE lnp_core.connections SET revoked_at = now() WHERE id = :id")
                    .bind("id", connectionId).execute();
            h.createUpdate("UPDATE lnp_core.api_keys SET revoked_at = now() WHERE connection_id = :id AND revoked_at IS NULL")
                    .bind("id", connectionId).execute();
        });
    }

    /**
     * Sets which tools the connection may call on the MCP surfaces, on top of its scopes: only those on
     * {@code allow} (null: no allow list), never those on {@code deny}, and only read-only tools when
     * {@code readOnlyTools}. Replaces the connection's earlier tool settings; effective on its next request.
     */
    @Override
    public void setToolPolicy(UUID connectionId, List<String> allow, List<String> deny, boolean readOnlyTools) {
        jdbi.useTransaction(h -> {
            ConnectionRows.activeConnection(h, connectionId);
            h.createUpdate("UPDATE lnp_core.connections SET tool_allow = :allow, tool_deny = :deny, "
                            + "read_only_tools = :readOnly WHERE id = :id")
                    .bind("id", connectionId)
                    .bind("allow", allow == null ? null : allow.toArray(String[]::new))
                    .bind("deny", deny.toArray(String[]::new))
                    .bind("readOnly", readOnlyTools)
                    .execute();
        });
    }

    /** One line of a legacy key import: which connection the {@code wks_} key belongs to. */
    public record LegacyKey(int line, UUID connectionId, String key) {
    }

    /** What an import did: keys added, and keys that were already on their connection (a re-run). */
    public record LegacyImport(int imported, int alreadyPresent, int connections) {
    }

    /** Adds one legacy {@code wks_} key to a connection; accepted until the compatibility period ends. */
    public void importLegacy(UUID connectionId, String legacyKey) {
        LegacyImport result = importLegacy(List.of(new LegacyKey(1, connectionId, legacyKey)));
        if (result.imported() == 0) {
            throw new IllegalArgumentException("this legacy key is already imported");
        }
    }

    /**
     * Adds legacy {@code wks_} keys, all or none: any problem is reported by line number with nothing imported,
     * and a key already on its connection is skipped (see {@code LegacyKeyImport}).
     */
    public LegacyImport importLegacy(List<LegacyKey> keys) {
        return legacyKeys.importAll(keys);
    }

    @Override
    public List<Listed> list(UUID workspaceId) {
        return jdbi.withHandle(h -> {
            ConnectionRows.requireWorkspace(h, workspaceId);
            List<Listed> connections = h.createQuery("""
                            SELECT id, name, identity_id, scopes, preset, expires_at, created_at, revoked_at
                              FROM lnp_core.connections WHERE workspace_id = :ws ORDER BY created_at, id
                            """)
                    .bind("ws", workspaceId)
                    .map((rs, ctx) -> new Listed(rs.getObject("id", UUID.class), rs.getString("name"),
                            rs.getObject("identity_id", UUID.class),
                            List.of((String[]) rs.getArray("scopes").getArray()), rs.getString("preset"),
                            ts(rs.getTimestamp("expires_at")), ts(rs.getTimestamp("created_at")),
                            ts(rs.getTimestamp("revoked_at")), List.of()))
                    .list();
            // All keys of the workspace in one query, not one query per connection.
            Map<UUID, List<KeyInfo>> keys = new HashMap<>();
            h.createQuery("""
                            SELECT k.connection_id, k.display_prefix, k.legacy, k.created_at, k.valid_until, k.revoked_at,
                                   k.last_used_at
                              FROM lnp_core.api_keys k JOIN lnp_core.connections c ON c.id = k.connection_id
                             WHERE c.workspace_id = :ws ORDER BY k.created_at
                            """)
                    .bind("ws", workspaceId)
                    .map((rs, ctx) -> {
                        keys.computeIfAbsent(rs.getObject("connection_id", UUID.class), id -> new ArrayList<>())
                                .add(new KeyInfo(rs.getString("display_prefix"), rs.getBoolean("legacy"),
                                        ts(rs.getTimestamp("created_at")), ts(rs.getTimestamp("valid_until")),
                                        ts(rs.getTimestamp("revoked_at")), ts(rs.getTimestamp("last_used_at"))));
                        return Boolean.TRUE;
                    })
                    .list();
            return connections.stream().map(c -> new Listed(c.connectionId(), c.name(), c.identityId(), c.scopes(),
                    c.preset(), c.expiresAt(), c.createdAt(), c.revokedAt(),
                    List.copyOf(keys.getOrDefault(c.connectionId(), List.of())))).toList();
        });
    }

    private static Instant ts(java.sql.Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
