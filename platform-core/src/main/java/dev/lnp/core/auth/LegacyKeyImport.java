package dev.lnp.core.auth;

import dev.lnp.core.auth.Connections.LegacyImport;
import dev.lnp.core.auth.Connections.LegacyKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/** Legacy {@code wks_} keys brought onto existing connections, so that they go on working until the period ends. */
final class LegacyKeyImport {

    private final Jdbi jdbi;

    LegacyKeyImport(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    private record LineProblem(int line, String message) {
        @Override
        public String toString() {
            return "line " + line + ": " + message;
        }
    }

    private static boolean isLegacyKey(String key) {
        return key != null && key.startsWith(ApiKeys.LEGACY_PREFIX) && ApiKeys.hasKeyShape(key);
    }

    /**
     * Adds legacy {@code wks_} keys, all or none: every line is checked (shape, connection exists and is not
     * revoked, the key is not another connection's, not twice in the input) and any problem is reported by line
     * number, never by the key itself, with nothing imported. A key already on its connection is skipped, so an
     * interrupted import can simply be run again.
     */
    LegacyImport importAll(List<LegacyKey> keys) {
        List<LineProblem> problems = new ArrayList<>();
        Map<String, Integer> firstLine = new HashMap<>();
        for (LegacyKey k : keys) {
            if (!isLegacyKey(k.key())) {
                problems.add(new LineProblem(k.line(), "the key must start with wks_ and have 16 to 196 more URL-safe "
                        + "characters"));
            } else if (firstLine.putIfAbsent(k.key(), k.line()) != null) {
                problems.add(new LineProblem(k.line(), "the same key as line " + firstLine.get(k.key())));
            }
        }
        return jdbi.inTransaction(h -> {
            Map<UUID, String> connectionProblems = new HashMap<>();
            for (UUID id : keys.stream().map(LegacyKey::connectionId).distinct().toList()) {
                try {
                    ConnectionRows.activeConnection(h, id);
                } catch (IllegalArgumentException e) {
                    connectionProblems.put(id, e.getMessage());
                }
            }
            int imported = 0;
            int present = 0;
            List<LegacyKey> toInsert = new ArrayList<>();
            for (LegacyKey k : keys) {
                String connectionProblem = connectionProblems.get(k.connectionId());
                if (connectionProblem != null) {
                    problems.add(new LineProblem(k.line(), connectionProblem));
                    continue;
                }
                if (!isLegacyKey(k.key())) {
                    continue;
                }
                Optional<UUID> owner = h.createQuery("SELECT connection_id FROM lnp_core.api_keys WHERE key_hash = :hash")
                        .bind("hash", ApiKeys.hash(k.key())).mapTo(UUID.class).findOne();
                if (owner.isEmpty()) {
                    toInsert.add(k);
                } else if (owner.get().equals(k.connectionId())) {
                    present++;
                } else {
                    problems.add(new LineProblem(k.line(), "this key is already imported for another connection"));
                }
            }
            if (!problems.isEmpty()) {
                problems.sort(Comparator.comparingInt(LineProblem::line));
                throw new IllegalArgumentException(problems.size() + " bad line(s), nothing imported: "
                        + String.join("; ", problems.stream().map(LineProblem::toString).toList()));
            }
            for (LegacyKey k : toInsert) {
                ConnectionRows.insertKey(h, k.connectionId(), k.key(), true);
                imported++;
            }
            return new LegacyImport(imported, present,
                    (int) keys.stream().map(LegacyKey::connectionId).distinct().count());
        });
    }
}
